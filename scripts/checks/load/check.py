#!/usr/bin/env python3
"""Load check: many keep-alive connections against browser-demo, no failed request, no memory growth.

    scripts/checks/load/check.py [--binary .build/debug/browser-demo] [--connections 256] [--requests 20480]
                          [--margin-mib 16]

Starts browser-demo (the demo library, ``--port 0 --loopback``), warms it up with the same traffic at the same
concurrency, reads its resident memory (VmRSS in /proc/<pid>/status), then sends ``--requests`` requests over
``--connections`` concurrent keep-alive connections (from 16 loopback addresses), mixing the web UI's files and every API endpoint. Exits
non-zero if any request fails (connection error, status other than 200, a body shorter or longer than its
Content-Length, a response to the wrong request) or if resident memory after the run exceeds the post-warm-up
figure by more than ``--margin-mib`` (default 16 MiB: allocator slack, not a leak; a leak of even 1 KiB per
request would add 20 MiB). Traffic goes to 127.0.0.1 only; the run is bounded by its request count and a
timeout. Throughput is printed for information, never asserted (scripts/bench/http-wrk.sh measures speed).

Two more phases, each against its own browser-demo, check what keeps the owner served while others misbehave:

* lock-out: the server runs under a soft descriptor limit of 256 (a Mac app's default) and requires a token;
  600 connections without it, from eight other loopback addresses (more than the per-address cap alone can
  keep out), are held open (half re-send ``GET /`` every
  second, half stay silent) and reopened whenever the server closes them, while the owner, with the token, must
  get a 200 for every one of its requests;
* event streams: 50 browser tabs' ``/api/events`` streams (from five loopback addresses) are held open while the
  same request mix runs over 64 more connections: every request must succeed, every stream must stay open and
  memory must stay flat; before any stream opens, the server must use no CPU (it polls the store only while
  someone listens);
* abandoned searches: on a generated 200,000-book store, eight slow searches (Hangul, outside the search's fast
  path, about a second each) are sent and their connections closed at once; ``/api/entities`` must then answer
  within a second, because the server cancels a request whose client left and the store stops its query.

Then the read-concurrency phases of ``reader_phases.py`` (other clients' reads while a pathological predicate and
a 30,000-record cascade delete run), and the phases of ``guard_phases.py`` (pre-auth CPU, bodies before the token,
LAN lock-out with 8 and 40 addresses), each printing its figures. The memory phases (``memory_phases.py``: a store
of 100 values of 10 MB each, whose pages and facets raise the server's peak resident memory by at most 96 MiB,
printed against a target of 64 MiB) run last.

Python standard library only (asyncio and raw sockets): the client must not be the bottleneck or hide
protocol errors, so it speaks HTTP/1.1 itself.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import subprocess
import tempfile
import urllib.parse
import sys
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[3]
sys.path.insert(0, str(REPO / "scripts/lib"))
import memory_phases  # noqa: E402
from demo_server import DemoServer, DemoServerError  # noqa: E402  (the one browser-demo launcher)
STORE = "6F1C2A44-0B8E-4F0E-9A51-3E7D2C1B9A00"  # DemoLibrary.storeIdentifier

# (target, expected content type prefix). Static files and every API endpoint, with parameters.
MIX = [
    ("/api/health", "application/json"),
    ("/pages/inspector/inspector.js", "text/javascript"),
    ("/", "text/html"),
    ("/api/entities", "application/json"),
    ("/pages/inspector/inspector.css", "text/css"),
    ("/api/entities/Book?limit=50&offset={n}", "application/json"),
    ("/lab", "text/html"),
    ("/api/entities/Book?search=the&sort=title&order=desc&limit=20", "application/json"),
    ("/pages/lab/lab.js", "text/javascript"),
    ("/api/object?id=x-coredata%3A%2F%2F" + STORE + "%2FBook%2Fp{k}", "application/json"),
    ("/api/object/export?id=x-coredata%3A%2F%2F" + STORE + "%2FAuthor%2Fp1", "application/json"),
    ("/api/entities/Author", "application/json"),
]


class Failure(Exception):
    pass


def rss_kib(pid: int) -> int:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1])
    raise RuntimeError("no VmRSS")


async def read_response(reader: asyncio.StreamReader) -> tuple[int, dict[str, str], bytes]:
    head = await reader.readuntil(b"\r\n\r\n")
    lines = head.decode("latin-1").split("\r\n")
    parts = lines[0].split(" ", 2)
    if len(parts) < 2 or parts[0] != "HTTP/1.1":
        raise Failure(f"bad status line {lines[0]!r}")
    headers = {}
    for line in lines[1:]:
        if line:
            name, _, value = line.partition(":")
            headers[name.strip().lower()] = value.strip()
    length = int(headers.get("content-length", "-1"))
    if length < 0:
        raise Failure("no Content-Length")
    body = await reader.readexactly(length)
    return int(parts[1]), headers, body


async def connection(port: int, count: int, offset: int, stats: dict) -> None:
    # Spread over 16 loopback addresses (Linux routes all of 127/8 to loopback), as 16 browsers would be: one
    # address may hold at most 32 connections (HTTPServerLimits.maxConnectionsPerAddress).
    source = f"127.0.0.{10 + offset // 1000 % 16}"
    reader, writer = await asyncio.open_connection("127.0.0.1", port, local_addr=(source, 0))
    try:
        for i in range(count):
            n = offset + i
            target, content_type = MIX[n % len(MIX)]
            target = target.format(n=(n * 7) % 300, k=1 + n % 12)
            writer.write(f"GET {target} HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\n\r\n".encode())
            await writer.drain()
            status, headers, body = await read_response(reader)
            if status != 200:
                raise Failure(f"{target}: status {status}: {body[:200]!r}")
            if not headers.get("content-type", "").startswith(content_type):
                raise Failure(f"{target}: Content-Type {headers.get('content-type')} (a response to another request?)")
            if headers.get("connection") == "close":
                raise Failure(f"{target}: the server closed a keep-alive connection")
            stats["ok"] += 1
            stats["bytes"] += len(body)
    except (Failure, OSError, asyncio.IncompleteReadError, asyncio.LimitOverrunError, ValueError) as error:
        stats["failed"] += 1
        if len(stats["errors"]) < 10:
            stats["errors"].append(f"{type(error).__name__}: {error}")
    finally:
        writer.close()
        try:
            await writer.wait_closed()
        except OSError:
            pass


async def run(port: int, connections: int, requests: int, timeout: float) -> dict:
    stats = {"ok": 0, "failed": 0, "bytes": 0, "errors": []}
    per = requests // connections
    extra = requests % connections
    tasks = [connection(port, per + (1 if c < extra else 0), c * 1000, stats) for c in range(connections)]
    await asyncio.wait_for(asyncio.gather(*tasks), timeout)
    return stats


def start_demo(binary: Path, *extra: str, descriptor_limit: int | None = None) -> tuple[subprocess.Popen, int]:
    """browser-demo with these arguments (scripts/lib/demo_server.py: its output read for as long as it runs) and
    its port; the caller stops the process."""
    demo = DemoServer(binary, extra, descriptor_limit=descriptor_limit)
    try:
        demo.wait_for_url(30)
    except DemoServerError as error:
        sys.exit(f"load check: {error}")
    return demo.process, demo.port


TOKEN = "load-check-token-0123456789abcdef"
# Eight addresses may hold 8 × 32 = 256 connections, more than the 138 a server under a soft limit of 256
# admits: the per-address cap alone cannot keep the owner served; closing after 401 and a silent connection
# yielding its slot when the server is full must.
ATTACKERS = [f"127.0.0.{host}" for host in range(2, 10)]


async def unauthenticated(port: int, source: str, silent: bool, stop: asyncio.Event, stats: dict) -> None:
    """Holds one connection without the token for as long as the server allows, and reopens it."""
    while not stop.is_set():
        try:
            reader, writer = await asyncio.open_connection("127.0.0.1", port, local_addr=(source, 0))
        except OSError:
            stats["refused"] += 1
            await asyncio.sleep(0.05)
            continue
        stats["opened"] += 1
        try:
            if silent:
                await reader.read()  # until the server closes it
                stats["closed silent"] += 1
            while not silent and not stop.is_set():
                writer.write(f"GET / HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\n\r\n".encode())
                await writer.drain()
                status, headers, _ = await read_response(reader)
                stats[f"answered {status}"] = stats.get(f"answered {status}", 0) + 1
                if headers.get("connection") == "close":
                    break
                await asyncio.sleep(1)
        except (Failure, OSError, asyncio.IncompleteReadError, ValueError):
            stats["reset"] += 1
        finally:
            writer.close()
        await asyncio.sleep(0.05)


async def owner(port: int, requests: int, stats: dict) -> None:
    """The token holder: a new connection for each request (as a browser opens one when its others are busy or
    were closed), so each must be admitted while the others hold theirs; every request must get a 200."""
    for _ in range(requests):
        started = time.monotonic()
        writer = None
        try:
            reader, writer = await asyncio.open_connection("127.0.0.1", port)
            writer.write(f"GET /api/entities HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\n"
                         f"Authorization: Bearer {TOKEN}\r\n\r\n".encode())
            await writer.drain()
            status, _, body = await read_response(reader)
            if status != 200:
                stats["failures"].append(f"status {status}: {body[:120]!r}")
        except (Failure, OSError, asyncio.IncompleteReadError, ValueError) as error:
            stats["failures"].append(f"{type(error).__name__}: {error}")
        finally:
            if writer is not None:
                writer.close()
        stats["slowest"] = max(stats["slowest"], time.monotonic() - started)
        await asyncio.sleep(0.08)


async def lockout_phase(port: int, connections: int, owner_requests: int) -> tuple[dict, dict]:
    attack = {"opened": 0, "refused": 0, "reset": 0, "closed silent": 0}
    served = {"failures": [], "slowest": 0.0}
    stop = asyncio.Event()
    tasks = [asyncio.create_task(unauthenticated(port, ATTACKERS[i % len(ATTACKERS)], i % 2 == 1, stop, attack))
             for i in range(connections)]
    # Every attacker gets its first connection in before the owner starts.
    while attack["opened"] + attack["refused"] < connections:
        await asyncio.sleep(0.05)
    await owner(port, owner_requests, served)  # about 8 s: longer than the 5 s a silent connection may stay
    stop.set()
    for task in tasks:
        task.cancel()
    await asyncio.gather(*tasks, return_exceptions=True)
    return attack, served


async def lockout_free_search(port: int) -> None:
    reader, writer = await asyncio.open_connection("127.0.0.1", port)
    writer.write(f"GET /api/entities/Book?search=%ED%9E%A3 HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\n\r\n".encode())
    await writer.drain()
    status, _, body = await read_response(reader)
    writer.close()
    if status != 200:
        raise Failure(f"search: status {status}: {body[:120]!r}")


def cpu_seconds(pid: int) -> float:
    """User plus system CPU time of the process so far (/proc/<pid>/stat, fields 14 and 15)."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


async def open_event_stream(port: int, source: str) -> tuple[asyncio.StreamReader, asyncio.StreamWriter]:
    """A tab's /api/events: 200, text/event-stream, and its first line (`retry:`) received."""
    reader, writer = await asyncio.open_connection("127.0.0.1", port, local_addr=(source, 0))
    writer.write(f"GET /api/events HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nAccept: text/event-stream\r\n\r\n".encode())
    await writer.drain()
    head = (await reader.readuntil(b"\r\n\r\n")).decode("latin-1")
    if not head.startswith("HTTP/1.1 200") or "text/event-stream" not in head:
        raise Failure(f"event stream from {source}: {head.splitlines()[0]!r}")
    await reader.readuntil(b"retry:")
    return reader, writer


async def event_streams_phase(port: int, streams: int, connections: int, requests: int, timeout: float,
                              pid: int) -> dict:
    sources = [f"127.0.1.{10 + i}" for i in range(5)]
    opened = [await open_event_stream(port, sources[i % len(sources)]) for i in range(streams)]
    await asyncio.sleep(0.5)
    before = rss_kib(pid)
    stats = await run(port, connections, requests, timeout)
    await asyncio.sleep(0.5)
    after = rss_kib(pid)
    closed = 0
    for reader, writer in opened:
        # Still open: nothing read says the stream ended (a heartbeat may have arrived meanwhile).
        try:
            await asyncio.wait_for(reader.read(65536), 0.01)
        except asyncio.TimeoutError:
            pass
        if reader.at_eof():
            closed += 1
        writer.close()
    return {"stats": stats, "before": before, "after": after, "closed": closed}


async def abandoned_searches_phase(port: int, searches: int) -> float:
    for index in range(searches):
        needle = chr(0xD55C + index * 7)  # a different Hangul syllable each time: nothing cached helps
        reader, writer = await asyncio.open_connection("127.0.0.1", port)
        target = f"/api/entities/Book?search={urllib.parse.quote(needle)}"
        writer.write(f"GET {target} HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\n\r\n".encode())
        await writer.drain()
        await asyncio.sleep(0.02)  # the server has read it and started
        writer.close()
    started = time.monotonic()
    reader, writer = await asyncio.open_connection("127.0.0.1", port)
    writer.write(f"GET /api/entities HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\n\r\n".encode())
    await writer.drain()
    status, _, body = await read_response(reader)
    elapsed = time.monotonic() - started
    writer.close()
    if status != 200:
        raise Failure(f"/api/entities after abandoned searches: status {status}: {body[:120]!r}")
    return elapsed


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--binary", default=str(REPO / ".build/debug/browser-demo"))
    parser.add_argument("--connections", type=int, default=256)
    parser.add_argument("--requests", type=int, default=20480)
    parser.add_argument("--warmup", type=int, default=5120)
    parser.add_argument("--margin-mib", type=float, default=16)
    parser.add_argument("--timeout", type=float, default=300, help="seconds allowed for each phase")
    parser.add_argument("--unauthenticated", type=int, default=600, help="connections without the token")
    parser.add_argument("--event-streams", type=int, default=50, help="open /api/events streams in their phase")
    args = parser.parse_args()
    if args.requests < args.connections:
        parser.error("--requests must be at least --connections")

    process, port = start_demo(Path(args.binary))
    try:
        warm = asyncio.run(run(port, args.connections, args.warmup, args.timeout))
        time.sleep(1)  # let the server see every close
        before = rss_kib(process.pid)
        started = time.monotonic()
        stats = asyncio.run(run(port, args.connections, args.requests, args.timeout))
        elapsed = time.monotonic() - started
        time.sleep(1)
        after = rss_kib(process.pid)
        alive = process.poll() is None
    finally:
        process.terminate()
        process.wait(timeout=10)

    growth = (after - before) / 1024
    print(f"load check: warm-up {warm['ok']} ok / {warm['failed']} failed; "
          f"run {stats['ok']} ok / {stats['failed']} failed over {args.connections} keep-alive connections "
          f"in {elapsed:.1f} s ({stats['ok'] / elapsed:.0f} req/s, {stats['bytes'] / 1e6:.1f} MB)")
    print(f"load check: resident memory {before / 1024:.1f} MiB after warm-up, {after / 1024:.1f} MiB after the run "
          f"({growth:+.1f} MiB; allowed +{args.margin_mib:g} MiB)")
    for error in warm["errors"] + stats["errors"]:
        print(f"  {error}")
    failures = []
    if warm["failed"] or stats["failed"]:
        failures.append(f"{warm['failed'] + stats['failed']} failed requests")
    if stats["ok"] != args.requests:
        failures.append(f"{stats['ok']} of {args.requests} requests succeeded")
    if growth > args.margin_mib:
        failures.append(f"memory grew by {growth:.1f} MiB")
    if not alive:
        failures.append("browser-demo exited during the run")

    # Event streams: open tabs must not cost the others anything; nobody listening must cost nothing.
    process, port = start_demo(Path(args.binary))
    try:
        time.sleep(0.5)
        idle_before = cpu_seconds(process.pid)
        time.sleep(3)
        idle = cpu_seconds(process.pid) - idle_before
        events = asyncio.run(asyncio.wait_for(
            event_streams_phase(port, args.event_streams, 64, args.requests // 4, args.timeout, process.pid),
            args.timeout))
        alive = process.poll() is None
    finally:
        process.terminate()
        process.wait(timeout=10)
    stream_stats = events["stats"]
    stream_growth = (events["after"] - events["before"]) / 1024
    print(f"load check: event streams: server CPU with nobody listening {idle * 1000:.0f} ms over 3 s (allowed 30 ms); "
          f"{args.event_streams} streams open, {stream_stats['ok']} ok / {stream_stats['failed']} failed requests over "
          f"64 more connections, {events['closed']} streams cut, memory {events['before'] / 1024:.1f} → "
          f"{events['after'] / 1024:.1f} MiB ({stream_growth:+.1f} MiB)")
    for error in stream_stats["errors"]:
        print(f"  {error}")
    if idle > 0.03:
        failures.append(f"the server used {idle * 1000:.0f} ms of CPU in 3 s with nobody listening")
    if stream_stats["failed"] or stream_stats["ok"] != args.requests // 4:
        failures.append(f"{stream_stats['failed']} requests failed while {args.event_streams} event streams were open")
    if events["closed"]:
        failures.append(f"{events['closed']} event streams were cut during the run")
    if stream_growth > args.margin_mib:
        failures.append(f"memory grew by {stream_growth:.1f} MiB with event streams open")
    if not alive:
        failures.append("browser-demo exited during the event-stream phase")

    # Lock-out: no token, many connections, a small descriptor limit; the owner must be served throughout.
    process, port = start_demo(Path(args.binary), "--token", TOKEN, descriptor_limit=256)
    try:
        attack, served = asyncio.run(asyncio.wait_for(lockout_phase(port, args.unauthenticated, 100), args.timeout))
        alive = process.poll() is None
    finally:
        process.terminate()
        process.wait(timeout=10)
    print(f"load check: lock-out: {args.unauthenticated} connections without the token from {len(ATTACKERS)} addresses "
          f"({', '.join(f'{key} {value}' for key, value in attack.items())}); the owner got "
          f"{100 - len(served['failures'])}/100 answers, slowest {served['slowest'] * 1000:.0f} ms")
    for failure in served["failures"][:10]:
        print(f"  {failure}")
    if served["failures"]:
        failures.append(f"the token holder was refused {len(served['failures'])} times while others held connections")
    if not alive:
        failures.append("browser-demo exited during the lock-out phase")

    # Abandoned searches: they must not hold the store for the requests after them.
    with tempfile.TemporaryDirectory() as folder:
        store = Path(folder) / "library.sqlite"
        subprocess.run([sys.executable, str(REPO / "scripts/bench/generate_store.py"), "--books", "200000",
                        "--out", str(store), "--quiet"], check=True)
        process, port = start_demo(Path(args.binary), "--store", str(store))
        try:
            # One search run to the end first, for the figure an abandoned one is worth.
            started = time.monotonic()
            asyncio.run(asyncio.wait_for(lockout_free_search(port), args.timeout))
            one_search = time.monotonic() - started
            delay = asyncio.run(asyncio.wait_for(abandoned_searches_phase(port, 8), args.timeout))
        finally:
            process.terminate()
            process.wait(timeout=10)
    print(f"load check: abandoned searches: one slow search takes {one_search:.2f} s; after 8 abandoned, "
          f"/api/entities answered in {delay:.2f} s (allowed 1 s)")
    if delay > 1:
        failures.append(f"/api/entities waited {delay:.2f} s behind searches nobody would read")
    # The phase proves something only if the abandoned searches, run to their end, would have held the store for
    # well over the second allowed.
    if one_search * 8 < 2:
        failures.append(f"the abandoned-search phase proves nothing: one search took {one_search:.2f} s, so eight "
                        "would not hold the store for 2 s (make the generated store larger)")

    # Read concurrency (reader_phases.py): a slow request must not hold up other clients' reads.
    from reader_phases import run_phases as read_concurrency_phases
    failures += read_concurrency_phases(Path(args.binary), start_demo, read_response, args.timeout)

    import guard_phases  # here, not at the top: it imports this module's helpers
    failures.extend(guard_phases.run(Path(args.binary), args.timeout))  # pre-auth CPU, bodies, LAN lock-out

    failures += memory_phases.long_values_phase(Path(args.binary), start_demo, read_response, args.timeout)

    if failures:
        print("load check FAILED: " + "; ".join(failures))
        return 1
    print("load check passed")
    return 0


if __name__ == "__main__":
    sys.exit(main())
