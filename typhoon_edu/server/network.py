"""This machine on the network: its LAN address, its own names, and which ``Host`` headers are its own.

``typhoon-edu serve --lan`` prints :func:`lan_address` as the address students type, and the
Voilà app behind ``serve`` refuses any request whose ``Host`` header :func:`host_allowed` does not
accept (a page on another site that a DNS-rebinding trick points at this machine arrives with
that site's name as ``Host``). Nothing here sends a packet: the LAN address comes from a UDP
socket's ``connect`` (which only asks the kernel for a route) or from the interfaces list.
"""

from __future__ import annotations

import contextlib
import ipaddress
import socket
from collections.abc import Collection, Iterable

__all__ = [
    "LOCAL_NAMES",
    "host_allowed",
    "interface_addresses",
    "lan_address",
    "machine_hosts",
    "split_host",
]

#: Names every machine calls itself.
LOCAL_NAMES: tuple[str, ...] = ("localhost", "localhost.localdomain", "ip6-localhost", "ip6-loopback")

#: A documentation address (TEST-NET-1, RFC 5737): ``connect`` on a UDP socket towards it only looks
#: up the route the system would use, i.e. which local address faces the network. No packet is sent.
_ROUTE_PROBE = ("192.0.2.1", 9)

def split_host(host_header: str) -> str:
    """The host part of an HTTP ``Host`` header: no port, no IPv6 brackets, lower case, no final dot.

    >>> split_host("LocalHost:8866"), split_host("[::1]:8866"), split_host("example.org."), split_host("::1")
    ('localhost', '::1', 'example.org', '::1')
    """
    value = host_header.strip()
    if value.startswith("["):
        host = value[1 : value.index("]")] if "]" in value else value[1:]
    elif value.count(":") == 1:
        host = value.split(":", 1)[0]
    else:  # a bare name, or a bare IPv6 address (several colons, no brackets)
        host = value
    return host.lower().rstrip(".")


def _normal(address: str) -> str:
    """An address in one spelling (``::0001`` and ``::1`` are one address); names just lower-cased."""
    address = address.split("%", 1)[0]  # fe80::1%eth0: the zone is not part of a Host header
    try:
        return str(ipaddress.ip_address(address))
    except ValueError:
        return address.lower().rstrip(".")


def host_allowed(host_header: str | None, allowed: Collection[str]) -> bool:
    """Whether a request with this ``Host`` header is addressed to this machine.

    Loopback addresses (127.0.0.0/8, ::1) are always accepted; any other address or name must be
    in ``allowed`` (compared case-insensitively, ports ignored). A request without a Host header
    (HTTP/1.0) is refused: a browser always sends one.

    >>> ok = {"localhost", "vm", "192.168.1.23"}
    >>> [host_allowed(h, ok) for h in ("127.0.0.1:8866", "[::1]:1", "VM:8866", "192.168.1.23:8866")]
    [True, True, True, True]
    >>> [host_allowed(h, ok) for h in ("evil.example:8866", "192.168.1.99", "localhost.evil.example", "", None)]
    [False, False, False, False, False]
    """
    if not host_header:
        return False
    host = split_host(host_header)
    if not host:
        return False
    names = {_normal(a) for a in allowed}
    try:
        address = ipaddress.ip_address(host)
    except ValueError:
        return host in names
    if address.is_loopback:
        return True
    if isinstance(address, ipaddress.IPv6Address) and address.ipv4_mapped is not None:
        mapped = address.ipv4_mapped
        return mapped.is_loopback or str(mapped) in names
    return str(address) in names


def interface_addresses() -> list[str]:
    """Every IP address of this machine's network interfaces (loopback included); ``[]`` if unknown.

    >>> "127.0.0.1" in interface_addresses()
    True
    """
    addresses: list[str] = []
    try:
        import psutil
    except ImportError:  # pragma: no cover - psutil is a dependency; fall back to the resolver
        psutil = None
    if psutil is not None:
        for entries in psutil.net_if_addrs().values():
            for entry in entries:
                if entry.family in (socket.AF_INET, socket.AF_INET6):
                    addresses.append(_normal(entry.address))
    else:  # pragma: no cover
        with contextlib.suppress(OSError):
            for info in socket.getaddrinfo(socket.gethostname(), None):
                addresses.append(_normal(str(info[4][0])))
    return sorted(set(addresses) | {"127.0.0.1"})


def _usable_lan(address: str) -> bool:
    try:
        ip = ipaddress.ip_address(address)
    except ValueError:
        return False
    return ip.version == 4 and not (ip.is_loopback or ip.is_link_local or ip.is_unspecified or ip.is_multicast)


def lan_address(candidates: Iterable[str] | None = None) -> str | None:
    """The IPv4 address other machines on the local network reach this one at, or ``None``.

    First the address of the interface that holds the default route (a UDP ``connect``, which
    sends nothing); if there is no route, the first private IPv4 address among ``candidates``
    (default: :func:`interface_addresses`), then any other usable one.

    >>> lan_address(candidates=["127.0.0.1", "169.254.3.3", "10.0.0.7"])
    '10.0.0.7'
    >>> lan_address(candidates=["127.0.0.1", "::1"]) is None
    True
    """
    if candidates is None:
        with contextlib.suppress(OSError), socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as probe:
            probe.connect(_ROUTE_PROBE)
            routed = str(probe.getsockname()[0])
            if _usable_lan(routed):
                return routed
        candidates = interface_addresses()
    usable = [a for a in candidates if _usable_lan(a)]
    private = [a for a in usable if ipaddress.ip_address(a).is_private]
    return (private or usable or [None])[0]


def machine_hosts(extra: Iterable[str] = ()) -> list[str]:
    """The names and addresses by which this machine may be addressed in a ``Host`` header.

    ``localhost`` and its variants, the host name (short, fully qualified and ``.local``), every
    interface address, plus ``extra`` (``serve --lan`` adds the LAN address it prints).

    >>> hosts = machine_hosts(["192.168.7.7"])
    >>> {"localhost", "127.0.0.1", "192.168.7.7", socket.gethostname().lower()} <= set(hosts)
    True
    """
    names: set[str] = set(LOCAL_NAMES)
    with contextlib.suppress(OSError):
        short = socket.gethostname()
        if short:
            names |= {short, f"{short.split('.')[0]}.local"}
        fqdn = socket.getfqdn()
        if fqdn:
            names.add(fqdn)
    names |= set(interface_addresses())
    names |= set(extra)
    return sorted({_normal(n) for n in names if n})
