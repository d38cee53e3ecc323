"""Tests of the Voilà launcher behind ``typhoon-edu serve`` (no browser needed)."""

from __future__ import annotations

import json
import os
import re
import signal
import socket
import subprocess
import sys
import textwrap
import time
import urllib.error
import urllib.request
import uuid
from pathlib import Path
from typing import Any

import psutil
import pytest
from serve_helpers import (
    ServeRun,
    http_request,
    kernel_exists,
    kernel_id_of,
    kernel_info,
    kernel_socket,
    port_is_free,
    probe_values,
    v1_message,
    v1_reply,
    wait_until,
    write_probe_notebook,
)

from typhoon_edu.server import network
from typhoon_edu.server import serve as serve_module
from typhoon_edu.server.serve import (
    LANG_ENV_VAR,
    READY_PROBE_PATH,
    ServeError,
    VoilaProcess,
    build_voila_command,
    build_voila_env,
    check_db_url,
    cull_settings,
    default_notebook,
    find_free_port,
    serve,
)
from typhoon_edu.ui.query import page_query, parse_query, public_url

REPO_ROOT = Path(__file__).resolve().parent.parent
SMOKE_NOTEBOOK = REPO_ROOT / "notebooks" / "smoke" / "one_button.ipynb"


def test_command_runs_voila_on_the_notebook_and_port() -> None:
    cmd = build_voila_command(Path("nb/dash.ipynb"), port=9123, python="/py")
    assert cmd[:4] == ["/py", "-m", "typhoon_edu.server.voila_app", str(Path("nb/dash.ipynb"))]  # Voilà, subclassed
    assert "--port=9123" in cmd
    assert "--Voila.port_retries=0" in cmd  # the printed URL is the served one


def test_command_culls_idle_kernels_but_not_connected_ones() -> None:
    cmd = build_voila_command("d.ipynb", port=9000, cull_idle_timeout=300, cull_interval=30)
    assert "--MappingKernelManager.cull_idle_timeout=300" in cmd
    assert "--MappingKernelManager.cull_interval=30" in cmd
    assert "--MappingKernelManager.cull_connected=False" in cmd


def test_command_preheats_kernels_by_default_and_can_turn_it_off() -> None:
    on = build_voila_command("d.ipynb", port=9000, pool_size=2)
    assert "--preheat_kernel=True" in on and "--pool_size=2" in on
    off = build_voila_command("d.ipynb", port=9000, preheat=False)
    assert not any(arg.startswith(("--preheat_kernel", "--pool_size")) for arg in off)


def test_command_honours_no_browser() -> None:
    assert "--no-browser" in build_voila_command("d.ipynb", port=9000, open_browser=False)
    assert "--no-browser" not in build_voila_command("d.ipynb", port=9000, open_browser=True)


def test_command_appends_extra_args_last_so_they_win() -> None:
    cmd = build_voila_command("d.ipynb", port=9000, extra_args=["--theme=dark"])
    assert cmd[-1] == "--theme=dark"


@pytest.mark.parametrize("port", [0, -1, 65536])
def test_command_rejects_impossible_ports(port: int) -> None:
    with pytest.raises(ValueError, match="port"):
        build_voila_command("d.ipynb", port=port)


def test_command_rejects_an_empty_preheated_pool() -> None:
    with pytest.raises(ValueError, match="pool_size"):
        build_voila_command("d.ipynb", port=9000, pool_size=0)


def test_language_reaches_the_notebook_through_the_environment() -> None:
    env = build_voila_env("en", base={"PATH": "/bin"})
    assert env[LANG_ENV_VAR] == "en" and env["PATH"] == "/bin"
    assert build_voila_env(base={})[LANG_ENV_VAR] == "zh-TW"


def test_unknown_language_is_refused_with_the_choices() -> None:
    with pytest.raises(ValueError, match="zh-TW, en"):
        build_voila_env("fr", base={})


def test_free_port_is_bindable() -> None:
    import socket

    port = find_free_port()
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", port))


def test_default_notebook_prefers_the_packaged_copy(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    pkg = tmp_path / "typhoon_edu"
    (pkg / "notebooks").mkdir(parents=True)
    (tmp_path / "notebooks").mkdir()
    monkeypatch.setattr(serve_module, "_PACKAGE_DIR", pkg)
    (tmp_path / "notebooks" / "dashboard.ipynb").write_text("{}")
    assert default_notebook() == tmp_path / "notebooks" / "dashboard.ipynb"
    (pkg / "notebooks" / "dashboard.ipynb").write_text("{}")
    assert default_notebook() == pkg / "notebooks" / "dashboard.ipynb"


def test_serve_reports_a_missing_notebook(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert serve(notebook=tmp_path / "nope.ipynb", open_browser=False, lang="en") == 2
    assert "not found" in capsys.readouterr().err
    assert serve(notebook=tmp_path / "nope.ipynb", open_browser=False) == 2  # zh-TW is the default
    assert "找不到遊戲面板筆記本" in capsys.readouterr().err


def test_voila_process_serves_the_notebook_with_the_language(tmp_path: Path) -> None:
    with VoilaProcess(SMOKE_NOTEBOOK, lang="en", preheat=False, log_path=tmp_path / "voila.log") as server:
        server.wait_ready(timeout=60)
        with urllib.request.urlopen(server.url, timeout=60) as response:
            page = response.read().decode()
        assert response.status == 200 and "smoke" in page.lower()
        # the page's kernel talks to the server encrypted: its connection file carries CurveZMQ keys
        where = re.search(r"Storing connection files in (\S+?)\.?$", (tmp_path / "voila.log").read_text(), re.M)
        assert where, (tmp_path / "voila.log").read_text()
        files = list(Path(where.group(1)).glob("*.json"))
        assert files and all("curve_secretkey" in json.loads(f.read_text()) for f in files), files
        # and over Unix sockets in that private folder, where there are no ports to lose (serve.ipc_args)
        if os.name != "nt":
            assert {json.loads(f.read_text())["transport"] for f in files} == {"ipc"}
            assert str(where.group(1)).startswith("/tmp/voila_") and (Path(where.group(1)).stat().st_mode & 0o077) == 0
    assert server.process is not None and server.process.poll() is not None  # stopped on exit
    # the readiness probe and the page load leave no refusal in the log the teacher's terminal shows
    refused = [line for line in (tmp_path / "voila.log").read_text().splitlines() if re.search(r"\b4\d\d (GET|POST|HEAD) ", line)]
    assert not refused, refused
    assert "is not trusted" not in (tmp_path / "voila.log").read_text()  # voila_app.QuietTrust
    assert "without encryption" not in (tmp_path / "voila.log").read_text()  # ipykernel's warning over plain TCP


@pytest.mark.parametrize("sigint", ["default", "ignored"])
def test_serve_command_line_prints_the_url_and_stops_on_interrupt(sigint: str, tmp_path: Path) -> None:
    """Ctrl+C stops serve, also when it was started with SIGINT ignored (a background job of a script)."""
    env = {**os.environ, "PYTHONUNBUFFERED": "1", "XDG_CONFIG_HOME": str(tmp_path / "config"),
           "TYPHOON_EDU_DB": f"sqlite:///{tmp_path / 'rooms.db'}"}

    def ignore_sigint() -> None:
        signal.signal(signal.SIGINT, signal.SIG_IGN)

    proc = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "typhoon_edu.server.serve",
            "--no-browser",
            "--lang",
            "en",
            "--notebook",
            str(SMOKE_NOTEBOOK),
        ],
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
        stdin=subprocess.DEVNULL,
        text=True,
        env=env,
        preexec_fn=ignore_sigint if sigint == "ignored" else None,  # noqa: PLW1509 - no threads started here
    )
    try:
        deadline = time.monotonic() + 90
        url = None
        assert proc.stdout is not None
        while url is None and time.monotonic() < deadline:
            line = proc.stdout.readline()
            if not line:
                break
            if line.startswith("Typhoon Alert dashboard: "):
                url = line.split(": ", 1)[1].strip()
        assert url is not None and re.fullmatch(r"http://127\.0\.0\.1:\d+/\?teacher=[A-Za-z0-9_-]{32}", url), url
        with urllib.request.urlopen(url.split("?")[0] + READY_PROBE_PATH, timeout=30) as response:
            assert response.status == 200
    finally:
        proc.send_signal(signal.SIGINT)
        try:
            proc.wait(timeout=30)
        except subprocess.TimeoutExpired:
            proc.kill()
            pytest.fail("serve did not stop on Ctrl+C")


def test_installed_package_writes_the_same_dashboard_notebook(tmp_path, monkeypatch):
    import json

    from typhoon_edu.server import serve as serve_mod

    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    path = serve_mod.written_dashboard_notebook()
    assert path.is_file() and str(path).startswith(str(tmp_path))
    written = "".join(json.loads(path.read_text())["cells"][0]["source"])
    repo = Path(__file__).resolve().parent.parent / "notebooks" / "dashboard.ipynb"
    assert written == "".join(json.loads(repo.read_text())["cells"][0]["source"])


def test_serve_help_follows_the_language(capsys: pytest.CaptureFixture[str]) -> None:
    from typhoon_edu.server.serve import main as serve_main

    with pytest.raises(SystemExit) as stop:
        serve_main(["--help", "--lang", "zh-TW"])
    assert stop.value.code == 0
    text = capsys.readouterr().out
    assert "顯示這段說明後結束" in text and "要開啟的筆記本" in text and "show this help" not in text


# ------------------------------------------------------------------ issue 10 §3: safety and lifecycle
@pytest.fixture(scope="module")
def plain_server(tmp_path_factory: pytest.TempPathFactory):
    """One Voilà (serve's command line, kernels started per request) on the probe notebook."""
    folder = tmp_path_factory.mktemp("plain")
    notebook = write_probe_notebook(folder)
    with VoilaProcess(notebook, lang="en", preheat=False, log_path=folder / "voila.log") as server:
        server.wait_ready(timeout=90)
        yield server


@pytest.mark.parametrize("host", ["localhost:{port}", "127.0.0.1:{port}", "LOCALHOST", "[::1]:{port}",
                                  "127.0.0.2:{port}", "{hostname}:{port}"])
def test_this_machines_names_are_served(plain_server: VoilaProcess, host: str) -> None:
    header = host.format(port=plain_server.port, hostname=socket.gethostname())
    status, _, _ = http_request(plain_server.port, "/voila/static/favicon.ico", host=header)
    assert status == 200, header


@pytest.mark.parametrize("host", ["evil.example:{port}", "localhost.evil.example:{port}", "evil.example",
                                  "203.0.113.7:{port}", "", "127.0.0.1.nip.io:{port}"])
@pytest.mark.parametrize("path", ["/", "/voila/static/favicon.ico", "/api/kernels/00000000-0000-0000-0000-000000000000"])
def test_a_foreign_host_header_is_refused_dns_rebinding(plain_server: VoilaProcess, host: str, path: str) -> None:
    header = host.format(port=plain_server.port)
    status, _, body = http_request(plain_server.port, path, host=header)
    assert status == 403, (header, path, status)
    assert "this machine" in body


def test_a_foreign_host_cannot_open_a_kernel_websocket_either(plain_server: VoilaProcess) -> None:
    _, _, page = http_request(plain_server.port, "/")
    kernel = kernel_id_of(page)
    path = f"/api/kernels/{kernel}/channels?session_id={uuid.uuid4()}"
    upgrade = {"Upgrade": "websocket", "Connection": "Upgrade", "Sec-WebSocket-Version": "13",
               "Sec-WebSocket-Key": "dGhlIHNhbXBsZSBub25jZQ==", "Origin": "http://evil.example",
               "Sec-WebSocket-Protocol": "v1.kernel.websocket.jupyter.org"}
    for host in (f"evil.example:{plain_server.port}", "attacker.test"):
        status, _, _ = http_request(plain_server.port, path, host=host, headers=upgrade)
        assert status == 403, host
    status, _, _ = http_request(plain_server.port, "/voila/query/" + kernel, host="evil.example", headers=upgrade)
    assert status == 403  # the preheated kernels' query socket too
    with kernel_socket(plain_server.port, kernel) as ws:  # by this machine's name: opens
        kernel_info(ws)


def test_no_page_can_run_code_in_a_kernel(plain_server: VoilaProcess, tmp_path: Path) -> None:
    """An execute_request sent on the kernel's websocket, as the page's own connection would, is dropped."""
    _, _, page = http_request(plain_server.port, "/")
    kernel = kernel_id_of(page)
    marker = tmp_path / "ran.txt"
    code = f"open({str(marker)!r}, 'w').write('the browser ran code')"
    with kernel_socket(plain_server.port, kernel) as ws:
        execute, execute_id = v1_message("execute_request", {
            "code": code, "silent": False, "store_history": False, "user_expressions": {},
            "allow_stdin": False, "stop_on_error": True})
        ws.send(execute)
        info, info_id = v1_message("kernel_info_request", {})
        ws.send(info)  # allowed: its reply proves the socket reaches the kernel
        replies: list[str] = []
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            _, header, parent_header = v1_reply(ws.recv(timeout=60))
            parent = parent_header.get("msg_id")
            replies.append(str(header["msg_type"]) + (" (for execute)" if parent == execute_id else ""))
            if header["msg_type"] == "kernel_info_reply" and parent == info_id:
                break
        else:
            pytest.fail(f"no kernel_info_reply: {replies}")
        time.sleep(2)  # had the execute_request got through, the kernel ran it before the info request
    assert not marker.exists(), "a browser message ran code in the kernel"
    assert not [r for r in replies if "for execute" in r], replies


def test_the_notebook_page_sets_the_xsrf_cookie_and_the_shutdown_beacon_works(plain_server: VoilaProcess) -> None:
    port = plain_server.port
    status, headers, page = http_request(port, "/")
    assert status == 200
    kernel = kernel_id_of(page)
    cookie = headers.get("set-cookie", "")
    match = re.search(r"_xsrf=([^;]+)", cookie)
    assert match, f"no _xsrf cookie: {cookie!r}"
    assert "samesite=strict" in cookie.lower()
    token = match.group(1)
    # XSRF stays on: the beacon without the token is refused and the kernel lives on ...
    status, _, _ = http_request(port, f"/voila/api/shutdown/{kernel}", method="POST", body=b"")
    assert status == 403 and kernel_exists(port, kernel)
    # ... and the beacon as Voilà's page sends it (form field + cookie) shuts the kernel down.
    boundary = "typhoonboundary"
    body = (f"--{boundary}\r\nContent-Disposition: form-data; name=\"_xsrf\"\r\n\r\n{token}\r\n--{boundary}--\r\n").encode()
    status, _, _ = http_request(port, f"/voila/api/shutdown/{kernel}", method="POST", body=body, headers={
        "Content-Type": f"multipart/form-data; boundary={boundary}", "Cookie": f"_xsrf={token}",
        "Origin": f"http://127.0.0.1:{port}"})
    assert status == 204
    wait_until(lambda: not kernel_exists(port, kernel), 30, what="kernel shut down")


def test_serve_listens_on_loopback_only_without_lan(tmp_path: Path) -> None:
    notebook = write_probe_notebook(tmp_path)
    with ServeRun(["--lang", "en", "--notebook", str(notebook)]) as run:
        listening = {c.laddr.ip for c in psutil.Process(run.voila_pid()).net_connections("inet")
                     if c.status == psutil.CONN_LISTEN and c.laddr.port == run.port}
        assert listening and all(network._normal(ip) in ("127.0.0.1", "::1") for ip in listening), listening
        assert not any("Students on this network" in line for line in run.lines)  # no LAN address printed
        assert any(f"http://localhost:{run.port}/join" in line for line in run.lines)  # this computer's join page
        voila_cmd = psutil.Process(run.voila_pid()).cmdline()  # one projector, one spare kernel, refilled at once
        assert "--pool_size=1" in voila_cmd and "--VoilaKernelManager.fill_delay=1.0" in voila_cmd
        status, _, _ = http_request(run.port, "/voila/static/favicon.ico", host=f"evil.example:{run.port}")
        assert status == 403


@pytest.mark.parametrize("lang", ["en", "zh-TW"])
def test_serve_lan_listens_on_the_network_prints_the_address_and_warns(tmp_path: Path, lang: str) -> None:
    notebook = write_probe_notebook(tmp_path)
    with ServeRun(["--lan", "--lang", lang, "--notebook", str(notebook)]) as run:
        text = "\n".join(run.lines)
        address = network.lan_address()
        assert address is not None, "this test machine has a network interface"
        student_url = f"http://{address}:{run.port}/"
        if lang == "en":
            assert f"Students on this network open: {student_url}" in text and "Warning: --lan" in text
        else:
            assert f"同一個網路上的學生請開啟：{student_url}" in text and "注意：使用 --lan" in text
        listening = {c.laddr.ip for c in psutil.Process(run.voila_pid()).net_connections("inet")
                     if c.status == psutil.CONN_LISTEN and c.laddr.port == run.port}
        assert listening == {"0.0.0.0"}, listening
        voila_cmd = psutil.Process(run.voila_pid()).cmdline()
        assert "--pool_size=6" in voila_cmd and "--VoilaKernelManager.fill_delay=10.0" in voila_cmd
        # Connect to loopback only, naming the LAN address as a student's browser would.
        status, _, page = http_request(run.port, "/", host=f"{address}:{run.port}")
        assert status == 200
        assert probe_values(page)[0]["public_url"] == student_url  # the projector can print the join link
        status, _, _ = http_request(run.port, "/", host=f"evil.example:{run.port}")
        assert status == 403


def test_serve_db_reaches_every_kernel_preheated_ones_included(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    notebook = write_probe_notebook(tmp_path)
    monkeypatch.chdir(tmp_path)  # serve opens the store (relative to where it started) before it is ready
    with ServeRun(["--lang", "en", "--notebook", str(notebook), "--db", "rooms.db"],
                  env={"TYPHOON_EDU_DB": "sqlite:////somewhere/else.db"}) as run:
        expected = f"sqlite:///{Path.cwd() / 'rooms.db'}"
        run.wait_for_pool()
        seen = []
        for _ in range(2):  # the first visitor takes the preheated kernel, the second its replacement
            status, _, page = http_request(run.port, "/")
            assert status == 200
            seen += probe_values(page)
        assert [v["db"] for v in seen] == [expected, expected]
        assert seen[0]["preheated"] == "True"


def test_an_inherited_typhoon_edu_db_passes_through(tmp_path: Path) -> None:
    notebook = write_probe_notebook(tmp_path)
    url = f"sqlite:///{tmp_path / 'inherited.sqlite3'}"
    with ServeRun(["--lang", "en", "--notebook", str(notebook)], env={"TYPHOON_EDU_DB": url}) as run:
        _, _, page = http_request(run.port, "/")
        assert probe_values(page)[0]["db"] == url
    assert (tmp_path / "inherited.sqlite3").is_file()  # serve opened it (and wrote the teacher) first


# ------------------------------------------------------------------ issue 20 §1, §5: the teacher's address, the store
def test_serve_prints_the_teachers_and_the_students_addresses(tmp_path: Path) -> None:
    from typhoon_edu.classroom.store import RoomStore
    from typhoon_edu.classroom.teachers import teacher_for_key

    notebook = write_probe_notebook(tmp_path)
    db = tmp_path / "rooms.sqlite3"
    config = tmp_path / "config"
    with ServeRun(["--lang", "en", "--notebook", str(notebook), "--db", str(db)],
                  env={"XDG_CONFIG_HOME": str(config)}) as run:
        text = "\n".join(run.lines)
        assert f"Typhoon Alert dashboard: http://127.0.0.1:{run.port}/?teacher={run.teacher_key}" in text
        assert f"http://localhost:{run.port}/join" in text
        key_file = config / "typhoon-edu" / "teacher.key"
        assert key_file.read_text().strip() == run.teacher_key
        assert oct(key_file.stat().st_mode & 0o777) == "0o600"
        store = RoomStore(f"sqlite:///{db}")
        try:
            found = teacher_for_key(store, run.teacher_key)
            assert found is not None and found.is_local
        finally:
            store.close()
        # The printed address works: the key becomes the cookie, the kernel sees it.
        status, headers, _ = http_request(run.port, f"/?teacher={run.teacher_key}")
        assert status == 302 and headers["location"] == "/"
        _, _, page = http_request(run.port, "/", headers={"Cookie": f"typhoon_teacher={run.teacher_key}"})
        assert probe_values(page)[0]["query"]["teacher"] == run.teacher_key
    with ServeRun(["--lang", "en", "--notebook", str(notebook), "--db", str(db)],
                  env={"XDG_CONFIG_HOME": str(config)}) as again:
        assert again.teacher_key == run.teacher_key  # the same key next lesson: the teacher's rooms stay theirs


def _immutable(path: Path, on: bool) -> None:
    done = subprocess.run(["chattr", "+i" if on else "-i", str(path)], capture_output=True, check=False)
    if done.returncode != 0 and on:
        pytest.skip(f"chattr +i is not possible here: {done.stderr.decode().strip()}")


@pytest.mark.parametrize("lang", ["en", "zh-TW"])
@pytest.mark.parametrize("broken", ["read-only file", "unwritable folder", "unreachable server"])
def test_serve_says_at_once_that_the_store_cannot_be_written(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                              capsys: pytest.CaptureFixture[str],
                                                              lang: str, broken: str) -> None:
    """A read-only store file (root ignores file modes: the file is made immutable), a folder nobody may
    write, a database server that does not answer: serve says so and stops before it says it is ready."""
    from typhoon_edu.server.teacher_address import prepare_teacher

    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "config"))
    folder = tmp_path / "store"
    folder.mkdir()
    db = folder / "rooms.sqlite3"
    locked = None
    if broken == "read-only file":
        prepare_teacher(f"sqlite:///{db}")  # a good store, made read-only afterwards
        locked = db
        url = str(db)
    elif broken == "unwritable folder":
        locked = folder
        url = str(db)
    else:
        url = f"postgresql+psycopg://nobody@127.0.0.1:{find_free_port()}/typhoon?connect_timeout=3"
    if locked is not None:
        _immutable(locked, True)
    try:
        code = serve(lang=lang, open_browser=False, notebook=SMOKE_NOTEBOOK, db=url)
    finally:
        if locked is not None:
            _immutable(locked, False)
    out = capsys.readouterr()
    assert code == 1
    assert "Typhoon Alert" not in out.out and "颱風不要來" not in out.out  # never said it was ready
    expected = {"en": ("room store", "cannot be"), "zh-TW": ("房間資料庫", "無法")}[lang]
    assert all(words in out.err for words in expected), out.err
    assert (url.split("?")[0] if "://" in url else str(db)) in out.err  # names which store


def test_serve_refuses_a_bad_db_url_in_both_languages(capsys: pytest.CaptureFixture[str]) -> None:
    from typhoon_edu.cli import main as cli_main

    assert cli_main(["serve", "--no-browser", "--db", "mysql://x/y"]) == 2
    assert "'mysql' is not a database this store knows" in capsys.readouterr().err
    assert cli_main(["serve", "--no-browser", "--lang", "zh-TW", "--db", "sqlite://"]) == 2
    assert "記憶體裡的 SQLite" in capsys.readouterr().err


def test_serve_refuses_an_impossible_pool_size(capsys: pytest.CaptureFixture[str]) -> None:
    from typhoon_edu.cli import main as cli_main

    assert cli_main(["serve", "--no-browser", "--pool-size", "0"]) == 2
    assert "--pool-size: give 1 to 40 kernels, not 0" in capsys.readouterr().err
    assert cli_main(["serve", "--no-browser", "--lang", "zh-TW", "--pool-size", "99"]) == 2
    assert "請給 1 到 40 個核心" in capsys.readouterr().err


def test_command_sets_the_pool_refill_delay_and_the_class_timeouts() -> None:
    cmd = build_voila_command("d.ipynb", port=9000, fill_delay=2.5)
    assert "--VoilaKernelManager.fill_delay=2.5" in cmd
    assert "--VoilaExecutor.iopub_timeout=60" in cmd  # nbclient's 4 s left pages blank under load
    with pytest.raises(ValueError, match="fill_delay"):
        build_voila_command("d.ipynb", port=9000, fill_delay=-1)


@pytest.mark.parametrize(("value", "expected"), [
    ("sqlite:////abs/rooms.db", "sqlite:////abs/rooms.db"),
    ("sqlite:///rel/rooms.db", "sqlite:////base/rel/rooms.db"),
    ("sqlite+pysqlite:///r.db?timeout=5", "sqlite+pysqlite:////base/r.db?timeout=5"),
    ("rooms.db", "sqlite:////base/rooms.db"),
    ("/var/lib/typhoon/rooms.db", "sqlite:////var/lib/typhoon/rooms.db"),
    ("postgresql://teacher:pw@db.school:5432/typhoon", "postgresql://teacher:pw@db.school:5432/typhoon"),
    ("postgresql+psycopg://u@h/d", "postgresql+psycopg://u@h/d"),
])
def test_db_urls_accepted(value: str, expected: str) -> None:
    assert check_db_url(value, cwd="/base") == expected


@pytest.mark.parametrize(("value", "key"), [
    ("", "db_empty"), ("  ", "db_empty"), ("mysql://u@h/d", "db_scheme"), ("postgres://u@h/d", "db_scheme"),
    ("sqlite://", "db_memory"), ("sqlite:///:memory:", "db_memory"), (":memory:", "db_memory"),
    ("sqlite:///f.db?mode=memory", "db_memory"), ("sqlite://host/f.db", "db_scheme"), ("a.db\nb", "db_line"),
])
def test_db_urls_refused_with_the_reason(value: str, key: str) -> None:
    with pytest.raises(ServeError) as err:
        check_db_url(value, cwd="/base")
    assert err.value.key == key
    assert err.value.text("zh-TW").startswith("--db：") and str(err.value).startswith("--db: ")


def test_cull_settings_from_the_environment_are_checked() -> None:
    assert cull_settings({"TYPHOON_EDU_CULL_IDLE": "0"}) == (0, 60)
    with pytest.raises(ServeError, match="whole number"):
        cull_settings({"TYPHOON_EDU_CULL_IDLE": "soon"})
    with pytest.raises(ServeError, match="at least 1"):
        cull_settings({"TYPHOON_EDU_CULL_INTERVAL": "0"})


def test_an_idle_kernel_is_still_culled(tmp_path: Path) -> None:
    notebook = write_probe_notebook(tmp_path)
    with ServeRun(["--lang", "en", "--notebook", str(notebook)],
                  env={"TYPHOON_EDU_CULL_IDLE": "4", "TYPHOON_EDU_CULL_INTERVAL": "1"}) as run:
        _, _, page = http_request(run.port, "/")  # a visitor whose browser never connects (a crashed tab)
        kernel = kernel_id_of(page)
        assert kernel_exists(run.port, kernel)
        wait_until(lambda: not kernel_exists(run.port, kernel), 60, what="idle kernel culled")
        assert "inactivity" in run.wait_for(f"Culling .*{kernel}", timeout=10)


def _serve_with_a_kernel(tmp_path: Path) -> tuple[ServeRun, list[psutil.Process]]:
    notebook = write_probe_notebook(tmp_path)
    run = ServeRun(["--lang", "en", "--notebook", str(notebook)]).start()
    _, _, page = http_request(run.port, "/")
    assert probe_values(page), "the page ran"
    wait_until(lambda: len([p for p in run.processes() if "ipykernel" in " ".join(p.cmdline())]) >= 2, 60,
               what="the used kernel and its preheated replacement")
    return run, run.processes()


@pytest.mark.parametrize("sig", [signal.SIGTERM, signal.SIGINT, signal.SIGHUP], ids=["SIGTERM", "SIGINT", "SIGHUP"])
def test_a_signal_to_serve_stops_voila_and_every_kernel(tmp_path: Path, sig: int) -> None:
    run, below = _serve_with_a_kernel(tmp_path)
    try:
        port = run.port
        assert len(below) >= 3  # Voilà and at least two kernels
        code = run.signal(sig, timeout=60)
        assert code == 0
        assert_all_ended(below, timeout=0)
        assert port_is_free(port)
        assert "Stopping the dashboard" in run.output_after_exit()
    finally:
        run.stop()


def test_a_signal_while_a_preheated_kernel_starts_stops_it_too(tmp_path: Path) -> None:
    """Ctrl+C while the pool refills: the kernel still starting is stopped too, and the server exits cleanly.

    jupyter_server refuses to shut down a kernel that has not finished starting (a 404), which ended
    Voilà's stop in a traceback, exit code 1, and kernels left to notice on their own that the server was
    gone; a kernel interrupted while still importing printed a KeyboardInterrupt traceback.
    """
    notebook = write_probe_notebook(tmp_path)
    # Kernels that take 1.5 s before they import anything: the refill is certainly still starting when the
    # signal comes (on a fast machine a kernel answered before the signal was handled, and nothing was caught).
    run = ServeRun(["--lang", "en", "--notebook", str(notebook)], env=slow_kernels(tmp_path, 1.5)).start()
    try:
        # the pool must be filled: a page that comes earlier gets a kernel of its own, and no refill starts
        run.wait_for(r"Kernel pool of probe\.ipynb is filled", 60)
        first = set(kernels_of(run))
        _, _, page = http_request(run.port, "/")  # takes the preheated kernel: the pool starts another
        assert probe_values(page), "the page ran"
        run.wait_for(r"Using pre-heated kernel", 10)
        wait_until(lambda: set(kernels_of(run)) - first, 60, interval=0.02, what="the refill kernel's process")
        below = run.processes()
        code = run.signal(signal.SIGTERM, timeout=60)  # at once, while that kernel starts
        output = run.output_after_exit()
        assert code == 0 and "Kernel does not exist" not in output and "KeyboardInterrupt" not in output, output
        assert "still starting, to stop them cleanly" in output, output  # it was caught starting
        # then it was ended outright: an interrupt would reach the dashboard's first cell in it
        assert re.search(r"Stopping [12] busy or preheated kernel\(s\) at once", output), output
        assert_all_ended(below, timeout=10)
    finally:
        run.stop()


def test_a_signal_with_the_pool_waiting_ends_the_busy_kernel_at_once(tmp_path: Path) -> None:
    """A preheated kernel waits, busy, for its page's request: a stop ends it outright, without ipykernel's traceback.

    Interrupted and asked to shut down at once, such a kernel's reply raced ipykernel's closing of its
    sockets: ``ERROR | Exception in message handler`` and a traceback in the teacher's terminal.
    """
    notebook = write_probe_notebook(tmp_path)
    run = ServeRun(["--lang", "en", "--notebook", str(notebook)]).start()
    try:
        wait_until(lambda: waiting_for_a_page(run), 90, what="the preheated kernel to wait for its page")
        below = run.processes()
        code = run.signal(signal.SIGTERM, timeout=60)
        output = run.output_after_exit()
        assert code == 0 and "Stopping 1 busy or preheated kernel(s) at once" in output, output
        assert "Exception in message handler" not in output and "Traceback" not in output, output
        assert_all_ended(below, timeout=10)
    finally:
        run.stop()


def waiting_for_a_page(run: ServeRun) -> bool:
    """A kernel holds a connection to the server: its notebook waits for its page's request (ui.query)."""
    for pid in kernels_of(run):
        try:
            connections = psutil.Process(pid).net_connections(kind="tcp")
        except psutil.Error:
            continue
        if any(c.raddr and c.raddr.port == run.port and c.status == psutil.CONN_ESTABLISHED for c in connections):
            return True
    return False


def slow_kernels(tmp_path: Path, seconds: float) -> dict[str, str]:
    """An environment whose kernel processes (only they) sleep ``seconds`` before Python goes on to ipykernel."""
    folder = tmp_path / "slow-kernels"
    folder.mkdir()
    (folder / "sitecustomize.py").write_text(textwrap.dedent(f"""\
        import sys, time
        if any("ipykernel" in arg for arg in sys.orig_argv):
            time.sleep({seconds!r})
        """), encoding="utf-8")
    path = os.pathsep.join(p for p in [str(folder), os.environ.get("PYTHONPATH", "")] if p)
    return {"PYTHONPATH": path}


def assert_all_ended(below: list[psutil.Process], timeout: float) -> None:
    """Every process that was below the server has ended (within ``timeout`` s; zombies count as ended)."""
    psutil.wait_procs(below, timeout=timeout)
    survivors = [p for p in below if p.is_running() and p.status() != psutil.STATUS_ZOMBIE]
    assert not survivors, [p.cmdline() for p in survivors]


def kernels_of(run: ServeRun) -> list[int]:
    return [p.pid for p in run.processes() if "ipykernel" in " ".join(p.cmdline())]


def test_a_killed_serve_takes_voila_down_with_it(tmp_path: Path) -> None:
    """SIGKILL cannot be caught: Voilà learns of its parent's death (Linux PDEATHSIG) and stops its kernels."""
    if not sys.platform.startswith("linux"):
        pytest.skip("parent-death signal is Linux only")
    run, below = _serve_with_a_kernel(tmp_path)
    try:
        port = run.port
        run.signal(signal.SIGKILL, timeout=30)
        assert_all_ended(below, timeout=60)
        wait_until(lambda: port_is_free(port), 30, what="port free")
    finally:
        run.stop()


# ---------------------------------------------------------------- network helpers and the query helper
def test_host_allowed_accepts_only_this_machines_names() -> None:
    allowed = network.machine_hosts(["192.168.5.5"])
    for host in ("localhost:1", "127.0.0.1", "[::1]:8866", "192.168.5.5:8866", f"{socket.gethostname()}:1",
                 "[::ffff:127.0.0.1]:1"):
        assert network.host_allowed(host, allowed), host
    for host in ("evil.example", "192.168.5.6:1", "localhost.evil.example", "[::ffff:8.8.8.8]", None, ":8866"):
        assert not network.host_allowed(host, allowed), host


def test_lan_address_needs_no_traffic_and_falls_back_to_the_interfaces(monkeypatch: pytest.MonkeyPatch) -> None:
    sent: list[object] = []

    class NoRoute:
        def __init__(self, *a: object) -> None: ...
        def __enter__(self) -> NoRoute: return self
        def __exit__(self, *a: object) -> None: ...
        def connect(self, address: object) -> None: raise OSError("network unreachable")
        def send(self, *a: object) -> None: sent.append(a)
        sendto = send

    monkeypatch.setattr(network.socket, "socket", NoRoute)
    monkeypatch.setattr(network, "interface_addresses", lambda: ["127.0.0.1", "169.254.1.1", "192.168.0.42"])
    assert network.lan_address() == "192.168.0.42"
    monkeypatch.setattr(network, "interface_addresses", lambda: ["127.0.0.1", "::1"])
    assert network.lan_address() is None
    assert sent == []


def test_page_query_in_plain_jupyter_is_empty(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("QUERY_STRING", raising=False)
    monkeypatch.delenv("VOILA_PREHEAT", raising=False)
    assert page_query() == {}
    assert public_url({}) is None


def test_page_query_reads_a_request_kernels_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("QUERY_STRING", "seat=tok%2Ben&join=K7PM")
    monkeypatch.setenv("VOILA_PREHEAT", "False")
    assert page_query() == {"seat": "tok+en", "join": "K7PM"}


class _VoilaQueryServer:
    """A stand-in for Voilà's ``voila/query/<kernel id>`` websocket on loopback: sends each connection ``message``."""

    def __init__(self, message: str) -> None:
        import threading

        from websockets.sync.server import serve as ws_serve

        self.paths: list[str] = []
        self.keys: list[str | None] = []  # the query key each connection showed (typhoon_edu.server.query_socket)

        def handler(connection: Any) -> None:
            self.paths.append(connection.request.path)
            self.keys.append(connection.request.headers.get("X-Typhoon-Query-Key"))
            connection.send(message)

        self.server = ws_serve(handler, "127.0.0.1", 0)
        self.port = self.server.socket.getsockname()[1]
        self.thread = threading.Thread(target=self.server.serve_forever, daemon=True)
        self.thread.start()

    def env(self, kernel: str = "k-1") -> dict[str, str]:
        return {"VOILA_PREHEAT": "True", "VOILA_APP_IP": "127.0.0.1", "VOILA_APP_PORT": str(self.port),
                "VOILA_SERVER_URL": "/", "VOILA_KERNEL_ID": kernel}

    def __enter__(self) -> _VoilaQueryServer:
        return self

    def __exit__(self, *exc: object) -> None:
        self.server.shutdown()
        self.thread.join(timeout=10)


def test_page_query_waits_for_the_request_in_a_preheated_kernel(monkeypatch: pytest.MonkeyPatch) -> None:
    request = {"QUERY_STRING": "seat=abc&lang=en", "SCRIPT_NAME": "/", "PATH_INFO": ""}
    with _VoilaQueryServer(json.dumps(request)) as server:
        for name, value in server.env("kernel-7").items():
            monkeypatch.setenv(name, value)
        monkeypatch.delenv("TYPHOON_EDU_QUERY_KEY", raising=False)
        for name in request:  # what the request writes into os.environ is undone after the test (setenv
            monkeypatch.setenv(name, "")  # remembers the value before): a QUERY_STRING left behind would
            monkeypatch.delenv(name)  # make later tests' pages think Voilà served them
        assert page_query() == {"seat": "abc", "lang": "en"}
        assert page_query() == {"seat": "abc", "lang": "en"}  # the second call does not wait again
        assert server.paths == ["/voila/query/kernel-7"]  # Voilà's websocket for this kernel, asked once
        assert server.keys == [None]  # no key in this kernel's environment: none is shown
        assert os.environ["SCRIPT_NAME"] == "/"  # every variable of the request, as Voilà's helper sets them


def test_a_preheated_kernel_shows_the_servers_query_key() -> None:
    from typhoon_edu.ui.query import QUERY_KEY_ENV_VAR, wait_for_voila_request

    with _VoilaQueryServer(json.dumps({"QUERY_STRING": "join=ABCDE"})) as server:
        env = {**server.env(), QUERY_KEY_ENV_VAR: "the-key"}
        assert wait_for_voila_request(env) is True
    assert server.keys == ["the-key"] and env["QUERY_STRING"] == "join=ABCDE"


@pytest.mark.parametrize("message", ["not json", "[1, 2]"])
def test_a_preheated_kernel_with_a_garbled_request_says_so_and_gets_no_query(
        message: str, caplog: pytest.LogCaptureFixture) -> None:
    from typhoon_edu.ui.query import wait_for_voila_request

    with _VoilaQueryServer(message) as server:
        env = server.env()
        with caplog.at_level("WARNING", logger="typhoon_edu.ui.query"):
            assert wait_for_voila_request(env) is False
    assert "QUERY_STRING" not in env
    assert f"127.0.0.1:{server.port}/voila/query/k-1" in caplog.text


def test_a_preheated_kernel_whose_server_is_gone_says_so_and_gets_no_query(caplog: pytest.LogCaptureFixture) -> None:
    from typhoon_edu.ui.query import page_query

    with socket.socket() as probe:  # a loopback port with nothing listening on it
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    env = {"VOILA_PREHEAT": "True", "VOILA_APP_IP": "127.0.0.1", "VOILA_APP_PORT": str(port), "VOILA_KERNEL_ID": "k"}
    with caplog.at_level("WARNING", logger="typhoon_edu.ui.query"):
        assert page_query(env) == {}
    assert "got no page request" in caplog.text and "ConnectionRefusedError" in caplog.text


def test_a_page_kernel_does_not_import_voila(tmp_path: Path) -> None:
    """Voilà's package (jupyter_server, jsonschema's format grammars) cost a preheated kernel more CPU than the page's
    own set-up: the page's code waits for its request without it (typhoon_edu/ui/query.py)."""
    code = textwrap.dedent("""
        import json, os, sys, threading
        from websockets.sync.server import serve
        def handler(c):
            c.send(json.dumps({"QUERY_STRING": "join=K7PM"}))
        server = serve(handler, "127.0.0.1", 0)
        threading.Thread(target=server.serve_forever, daemon=True).start()
        os.environ.update(VOILA_PREHEAT="True", VOILA_APP_IP="127.0.0.1", VOILA_KERNEL_ID="k",
                          VOILA_APP_PORT=str(server.socket.getsockname()[1]))
        os.environ.pop("QUERY_STRING", None)
        from typhoon_edu.ui.classplay import launch, preload
        from typhoon_edu.ui.query import page_query
        preload()
        assert page_query() == {"join": "K7PM"}, page_query()
        heavy = sorted(m for m in ("voila", "jupyter_server", "jsonschema", "lark") if m in sys.modules)
        assert not heavy, f"a page's kernel imported {heavy}"
        server.shutdown()
    """)
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=300, cwd=tmp_path,
                          env={**os.environ, "PYTHONPATH": str(REPO_ROOT)})
    assert done.returncode == 0, done.stderr[-3000:]


def test_parse_query_keeps_the_first_value_and_blank_names() -> None:
    assert parse_query("a=1&a=2&b&c=%E9%A2%B1") == {"a": "1", "b": "", "c": "颱"}
    assert parse_query("?") == {}


def test_preheated_kernel_gets_the_query_string_of_its_request(tmp_path: Path) -> None:
    notebook = write_probe_notebook(tmp_path)
    with ServeRun(["--lang", "en", "--notebook", str(notebook)]) as run:
        run.wait_for_pool()  # the first visitor must get the preheated kernel
        first = probe_values(http_request(run.port, "/?seat=Tok3n_A&lang=en")[2])
        second = probe_values(http_request(run.port, "/?join=K7PM")[2])
        third = probe_values(http_request(run.port, "/")[2])
    # The server adds the browser's device id (its cookie: tests/test_server_pages.py) to every query.
    for seen in (first, second, third):
        assert len(seen[0]["query"].pop("device")) >= 22
    assert first[0]["preheated"] == "True" and first[0]["query"] == {"seat": "Tok3n_A", "lang": "en"}
    assert second[0]["query"] == {"join": "K7PM"}
    assert third[0]["query"] == {}


# ------------------------------------------------------------------ issue 20 §7: no import circle
def test_the_server_does_not_import_the_command_and_the_command_loads_no_voila() -> None:
    code = ("import sys; import typhoon_edu.server.serve; assert 'typhoon_edu.cli' not in sys.modules, 'server→cli'; "
            "import typhoon_edu.cli; assert 'voila' not in sys.modules and 'typhoon_edu.server.voila_app' not in "
            "sys.modules, 'cli loads Voilà'")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120,
                          env={**os.environ, "PYTHONPATH": str(REPO_ROOT)})
    assert done.returncode == 0, done.stderr


@pytest.mark.parametrize(("module", "then"), [("typhoon_edu.server.voila_app", "voila.app"),
                                              ("typhoon_edu.server.lab_app", "jupyterlab.labapp")])
def test_the_server_process_starts_without_compiling_the_iri_grammar(module: str, then: str) -> None:
    """typhoon_edu/server/lean_start.py: the Voilà process (and JupyterLab for ``typhoon-edu lessons``) imports
    jupyter_server without rfc3987_syntax's lark grammar (70 % of its start-up CPU), and jsonschema's other format
    checkers stay. ``then``: what the process imports next (lab_app imports JupyterLab only in its ``main``)."""
    code = (f"import sys, {module}, {then}, jsonschema; "
            "assert 'jupyter_server.serverapp' in sys.modules and 'jupyter_events.logger' in sys.modules, 'not imported'; "
            "assert 'lark' not in sys.modules, 'the IRI grammar was compiled'; "
            "checks = jsonschema.FormatChecker().checkers; "
            "assert 'iri' not in checks and 'email' in checks and 'date-time' in checks, sorted(checks)")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120,
                          env={**os.environ, "PYTHONPATH": str(REPO_ROOT)})
    assert done.returncode == 0, done.stderr[-3000:]


def test_serve_tells_its_kernels_they_are_on_the_class_server(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Lesson 07's class round goes through the room store only on the class server: serve says so to every kernel
    (and a plain Voilà or JupyterLab kernel is not told, so its one-screen round stays)."""
    from typhoon_edu.server.serve import VoilaProcess
    from typhoon_edu.ui.query import CLASS_SERVER_ENV_VAR

    seen: list[dict[str, str]] = []

    def start(self: VoilaProcess) -> VoilaProcess:
        seen.append(self.environment())
        raise RuntimeError("not started in this test")

    monkeypatch.setattr(VoilaProcess, "start", start)
    monkeypatch.delenv(CLASS_SERVER_ENV_VAR, raising=False)
    assert serve(lang="en", open_browser=False, notebook=SMOKE_NOTEBOOK, db=str(tmp_path / "rooms.sqlite3")) == 1
    assert seen and seen[0].get(CLASS_SERVER_ENV_VAR) == "1"
    assert CLASS_SERVER_ENV_VAR not in VoilaProcess(notebook=SMOKE_NOTEBOOK).environment()
