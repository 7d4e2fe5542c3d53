#!/usr/bin/env python3
"""Read-concurrency phases of the load check: other clients' store reads while one request is slow.

    scripts/checks/load/reader_phases.py [--binary .build/debug/browser-demo] [--store DIR]

On a generated 300,000-book store (``scripts/bench/generate_store.py``; its prolific author has 30,000 books),
served with ``--writable`` and the generated model with Author.books made Cascade, four other clients read in a
loop (Author and Tag pages, an author's record, a Book page) while

* **a pathological predicate** (``title LIKE[cd] "*a*a…"``, 40 wildcards: SQLite's pattern matcher backtracks
  through every title) runs into the request budget (30 s), and
* **a cascade delete** of the prolific author (30,000 books, their 90,000 tag links) runs.

Each phase prints the slow request's own time and status and the other clients' read latencies over its span
(p50, p95, max), and fails when their p95 is over ``TARGET_P95_MS``: a slow request must not hold up the others'
reads (the store's read pool). The delete must also answer 200 with 30,000 books cascaded. ``check.py`` runs
these phases after its own; run alone, the script prints the same lines (``docs/benchmarks.md`` compares builds
with it). Python standard library only.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.parse
from pathlib import Path
from typing import Callable

REPO = Path(__file__).resolve().parents[3]
BOOKS = 300_000  # the generator gives its prolific author a tenth: 30,000 books
READERS = 4
TARGET_P95_MS = 50.0
PATHOLOGICAL = 'title LIKE[cd] "' + "*a" * 40 + '"'


def generate(folder: Path) -> tuple[Path, Path, dict]:
    """The generated store, its sidecar, and a copy of its model whose Author.books deletes its books (Cascade)."""
    store = folder / "library.sqlite"
    subprocess.run([sys.executable, str(REPO / "scripts/bench/generate_store.py"), "--books", str(BOOKS),
                    "--out", str(store), "--quiet"], check=True)
    info = json.loads((folder / "library.sqlite.json").read_text())
    model = folder / "Cascade.xcdatamodeld"
    shutil.copytree(info["modelPath"], model)
    contents = next(model.rglob("contents"))
    text = contents.read_text()
    cascade = re.sub(r'(<relationship name="books" [^>]*?)deletionRule="Nullify"([^>]*destinationEntity="Book")',
                     r'\1deletionRule="Cascade"\2', text, count=1)
    if cascade == text:
        raise SystemExit("reader phases: the generated model has no Author.books to make Cascade")
    contents.write_text(cascade)
    return store, model, info


async def request(port: int, method: str, target: str, read_response: Callable, body: bytes = b"") -> tuple[int, bytes]:
    reader, writer = await asyncio.open_connection("127.0.0.1", port)
    try:
        head = (f"{method} {target} HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nOrigin: http://127.0.0.1:{port}\r\n"
                f"Content-Length: {len(body)}\r\n")
        if body:
            head += "Content-Type: application/json\r\n"
        writer.write(head.encode() + b"\r\n" + body)
        await writer.drain()
        status, _, answer = await read_response(reader)
        return status, answer
    finally:
        writer.close()


async def reader_client(port: int, number: int, uuid: str, authors: int, read_response: Callable,
                        stop: asyncio.Event, latencies: list, failures: list) -> None:
    """One other client: store reads one after the other on a keep-alive connection, each timed."""
    reader, writer = await asyncio.open_connection("127.0.0.1", port)
    targets = [
        "/api/entities/Author?limit=20&offset={n}",
        "/api/entities/Tag?limit=20&offset={t}",
        "/api/object?id=" + urllib.parse.quote(f"x-coredata://{uuid}/Author/p", safe="") + "{a}",
        "/api/entities/Book?limit=20&offset={n}",
    ]
    index = number
    try:
        while not stop.is_set():
            index += 1
            target = targets[index % len(targets)].format(n=(index * 37) % 2_000, t=index % 80, a=1 + index % authors)
            started = time.monotonic()
            writer.write(f"GET {target} HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\n\r\n".encode())
            await writer.drain()
            status, _, body = await read_response(reader)
            latencies.append((started, time.monotonic() - started))
            if status != 200:
                failures.append(f"{target}: status {status}: {body[:120]!r}")
    finally:
        writer.close()


async def while_slow(port: int, info: dict, read_response: Callable, slow) -> tuple[float, int, bytes, list, list, list]:
    """Runs the readers, then `slow` (a coroutine giving status and body); returns the slow request's time, status
    and body, the readers' latencies of the requests that started during it and of those in the two seconds
    before it (the same reads with nothing slow running), and the readers' failures."""
    stop = asyncio.Event()
    latencies: list = []
    failures: list = []
    clients = [asyncio.create_task(reader_client(port, number, info["storeUUID"], info["authors"], read_response,
                                                 stop, latencies, failures)) for number in range(READERS)]
    await asyncio.sleep(1)  # every client reading, every lane open
    alone_from = time.monotonic()
    await asyncio.sleep(2)
    started = time.monotonic()
    status, body = await slow
    ended = time.monotonic()
    stop.set()
    await asyncio.gather(*clients)
    during = [latency for (start, latency) in latencies if started <= start <= ended]
    alone = [latency for (start, latency) in latencies if alone_from <= start < started]
    return ended - started, status, body, during, alone, failures


def summary(latencies: list) -> str:
    if not latencies:
        return "no reads"
    ordered = sorted(latencies)
    p95 = ordered[min(len(ordered) - 1, int(len(ordered) * 0.95))]
    return (f"{len(ordered)} reads by {READERS} other clients, p50 {statistics.median(ordered) * 1000:.1f} ms, "
            f"p95 {p95 * 1000:.1f} ms, max {ordered[-1] * 1000:.1f} ms")


def p95_ms(latencies: list) -> float:
    ordered = sorted(latencies)
    return ordered[min(len(ordered) - 1, int(len(ordered) * 0.95))] * 1000 if ordered else 0.0


def run_phases(binary: Path, start_demo: Callable, read_response: Callable, timeout: float) -> list[str]:
    """Both phases against one browser-demo; prints their figures and returns what failed."""
    failures: list[str] = []
    with tempfile.TemporaryDirectory() as scratch:
        store, model, info = generate(Path(scratch))
        process, port = start_demo(binary, "--store", str(store), "--model", str(model), "--writable",
                                   "--max-connections-per-address", "64")
        try:
            uuid = info["storeUUID"]
            # The first write backs the store up (a copy of the whole file): done before the measured delete.
            tag = "/api/object?id=" + urllib.parse.quote(f"x-coredata://{uuid}/Tag/p1", safe="")
            status, body = asyncio.run(request(port, "GET", tag, read_response))
            version = json.loads(body).get("version")
            status, body = asyncio.run(request(port, "PATCH", tag, read_response,
                                               json.dumps({"attrs": {"name": "backed up"}, "version": version}).encode()))
            if status != 200:
                failures.append(f"the write before the phases failed: status {status}: {body[:200]!r}")

            where = urllib.parse.quote(PATHOLOGICAL)
            took, status, body, during, alone, errors = asyncio.run(asyncio.wait_for(while_slow(
                port, info, read_response, request(port, "GET", f"/api/entities/Book?where={where}&limit=20", read_response)),
                timeout))
            print(f"load check: reads while a pathological predicate runs: it answered {status} after {took:.1f} s; "
                  f"{summary(during)} (target p95 ≤ {TARGET_P95_MS:g} ms; the 2 s before it: {summary(alone)})")
            failures += errors[:5]
            if p95_ms(during) > TARGET_P95_MS or not during:
                failures.append(f"other clients' reads p95 {p95_ms(during):.1f} ms while a pathological predicate ran")

            author = "/api/object?id=" + urllib.parse.quote(f"x-coredata://{uuid}/Author/p{info['prolificAuthorPK']}", safe="")
            status, body = asyncio.run(request(port, "GET", author, read_response))
            version = json.loads(body).get("version")
            took, status, body, during, alone, errors = asyncio.run(asyncio.wait_for(while_slow(
                port, info, read_response, request(port, "DELETE", f"{author}&version={version}", read_response)), timeout))
            cascaded = sum(item["count"] for item in json.loads(body).get("cascades", [])) if status == 200 else 0
            print(f"load check: reads while a cascade delete of {cascaded:,} records runs: it answered {status} after "
                  f"{took:.2f} s; {summary(during)} (target p95 ≤ {TARGET_P95_MS:g} ms; the 2 s before it: {summary(alone)})")
            failures += errors[:5]
            if status != 200 or cascaded != info["prolificAuthorBooks"]:
                failures.append(f"the cascade delete answered {status} with {cascaded} records cascaded: {body[:200]!r}")
            if p95_ms(during) > TARGET_P95_MS:
                failures.append(f"other clients' reads p95 {p95_ms(during):.1f} ms while a cascade delete ran")
            if process.poll() is not None:
                failures.append("browser-demo exited during the read-concurrency phases")
        finally:
            process.terminate()
            process.wait(timeout=10)
    return failures


def main() -> int:
    sys.path.insert(0, str(Path(__file__).resolve().parent))
    from check import read_response, start_demo

    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--binary", default=str(REPO / ".build/debug/browser-demo"))
    parser.add_argument("--timeout", type=float, default=300, help="seconds allowed for each phase")
    args = parser.parse_args()
    failures = run_phases(Path(args.binary), start_demo, read_response, args.timeout)
    for failure in failures:
        print(f"  {failure}")
    print("reader phases " + ("FAILED" if failures else "passed"))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
