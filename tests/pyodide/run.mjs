// Run Python code in Pyodide (CPython compiled to WebAssembly, as JupyterLite runs it) under Node.js,
// with this checkout's typhoon_edu package, tests/golden_games.py and benchmarks/engine.py on its path.
//
//   node tests/pyodide/run.mjs REPO_ROOT FILE.py     run FILE.py, print its RESULT (a string) and exit
//   node tests/pyodide/run.mjs REPO_ROOT --serve     read JSON lines {"code": "..."} on stdin, run each in
//                                                    the same interpreter, answer a JSON line per request:
//                                                    {"result": RESULT} or {"error": "the traceback"}
//
// Python code hands back what it computed by setting the global RESULT to a string (JSON, say).
// Used by tests/pyodide_runner.py (tests/test_pyodide.py) and benchmarks/pyodide.py; install with
// `npm ci --prefix tests/pyodide` (scripts/test.sh does).
import fs from "node:fs";
import path from "node:path";
import readline from "node:readline";
import { loadPyodide } from "pyodide";

const [root, what] = process.argv.slice(2);
if (!root || !what) {
  process.stderr.write("usage: node tests/pyodide/run.mjs REPO_ROOT (FILE.py | --serve)\n");
  process.exit(2);
}

// Python's own output goes to stderr, so stdout carries only the answers.
const py = await loadPyodide({ stdout: (s) => process.stderr.write(s + "\n"), stderr: (s) => process.stderr.write(s + "\n") });

function copyTree(src, dst) {
  py.FS.mkdirTree(dst);
  for (const entry of fs.readdirSync(src, { withFileTypes: true })) {
    if (entry.name === "__pycache__") continue;
    const from = path.join(src, entry.name);
    const to = `${dst}/${entry.name}`;
    if (entry.isDirectory()) copyTree(from, to);
    else py.FS.writeFile(to, fs.readFileSync(from));
  }
}

copyTree(path.join(root, "typhoon_edu"), "/checkout/typhoon_edu");
for (const [folder, file] of [["tests", "golden_games.py"], ["benchmarks", "engine.py"]]) {
  py.FS.mkdirTree(`/checkout/${folder}`);
  py.FS.writeFile(`/checkout/${folder}/${file}`, fs.readFileSync(path.join(root, folder, file)));
}
py.runPython("import sys; sys.path[:0] = ['/checkout', '/checkout/tests', '/checkout/benchmarks']");

function run(code) {
  py.globals.set("RESULT", null);
  py.runPython(code);
  const result = py.globals.get("RESULT");
  if (typeof result !== "string") throw new Error("the Python code did not set RESULT to a string");
  return result;
}

if (what !== "--serve") {
  try {
    process.stdout.write(run(fs.readFileSync(what, "utf8")) + "\n");
  } catch (err) {
    process.stderr.write(String(err.message || err) + "\n");
    process.exit(1);
  }
} else {
  const lines = readline.createInterface({ input: process.stdin });
  for await (const line of lines) {
    if (!line.trim()) continue;
    let reply;
    try {
      reply = { result: run(JSON.parse(line).code) };
    } catch (err) {
      reply = { error: String(err.message || err) };
    }
    process.stdout.write(JSON.stringify(reply) + "\n");
  }
}
