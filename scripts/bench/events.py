#!/usr/bin/env python3
"""Live-changes benchmark: how long a commit by another process takes to reach a listener of
`/api/events`, and what the server spends while nobody listens and while somebody does. Figures are printed,
never asserted by a test.

    scripts/bench/events.py [--books 20000] [--commits 50] [--binary .build-bench/release/browser-demo]

Serves a private copy of the generated store (scripts/bench/.bench/library-<N>.sqlite), then:
* CPU time (user + system, from /proc) the server uses over 5 s with no event stream open: it should do no
  polling work at all;
* the same with one stream open and no changes: the cost of polling the store's change token every 0.25 s;
* `--commits` times: a writer (Python's sqlite3, Core Data's layout) inserts a Book and commits; the time from
  the commit's return to the `change` event's arrival on the stream. Target: p95 ≤ 500 ms.
"""

from __future__ import annotations

import os
import random
import shutil
import sqlite3
import statistics
import sys
import tempfile
import threading
import time
import urllib.request

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, HERE)
from bench import ensure_store, side_benchmark_arguments  # noqa: E402
sys.path.insert(0, os.path.join(os.path.dirname(HERE), "lib"))
from core_data_store import entity_number, record_key_given  # noqa: E402
from demo_server import DemoServer  # noqa: E402  (the one browser-demo launcher)


def cpu_seconds(pid: int) -> float:
    """User plus system CPU time of a process (/proc/<pid>/stat, fields 14 and 15, in clock ticks)."""
    with open(f"/proc/{pid}/stat") as stat:
        fields = stat.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def cpu_over(pid: int, seconds: float) -> float:
    before = cpu_seconds(pid)
    time.sleep(seconds)
    return cpu_seconds(pid) - before


class Listener:
    """An /api/events stream read on a thread; `arrivals` gets the time of each change event."""

    def __init__(self, port: int):
        self.response = urllib.request.urlopen(f"http://127.0.0.1:{port}/api/events", timeout=60)
        self.arrivals: list[float] = []
        self.changed = threading.Condition()
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self) -> None:
        try:
            for line in self.response:
                if line == b"event: change\n":
                    with self.changed:
                        self.arrivals.append(time.perf_counter())
                        self.changed.notify_all()
        except (OSError, ValueError):
            return

    def wait_for(self, count: int, timeout: float = 10) -> float:
        with self.changed:
            if not self.changed.wait_for(lambda: len(self.arrivals) >= count, timeout=timeout):
                raise RuntimeError(f"no change event within {timeout} s")
            return self.arrivals[count - 1]


def insert_book(db: sqlite3.Connection, number: int) -> None:
    entity = entity_number(db, "Book")
    key = db.execute("SELECT max(Z_PK) FROM ZBOOK").fetchone()[0] + 1
    db.execute("INSERT INTO ZBOOK (Z_PK, Z_ENT, Z_OPT, ZTITLE) VALUES (?, ?, 1, ?)", (key, entity, f"Live {number}"))
    record_key_given(db, entity, key)
    db.commit()


def main() -> None:
    args = side_benchmark_arguments(__doc__, 20_000, commits=50)
    store, model, _ = ensure_store(args.books, args.work)
    folder = tempfile.mkdtemp(prefix="cdb-events-")
    copy = os.path.join(folder, os.path.basename(store))
    shutil.copyfile(store, copy)
    server = DemoServer(args.binary, ["--store", copy, "--model", model],
                        log_path=os.path.join(args.work, "events-bench.log"))
    server.wait_for_url(120)
    try:
        idle = cpu_over(server.process.pid, 5)
        listener = Listener(server.port)
        time.sleep(0.5)  # let the first poll happen before measuring its steady cost
        listening = cpu_over(server.process.pid, 5)
        latencies = []
        with sqlite3.connect(copy) as db:
            pacing = random.Random(20261125)
            for number in range(1, args.commits + 1):
                # Commits at random moments, as an app's are, not in step with the server's polling.
                time.sleep(pacing.uniform(0, 0.3))
                insert_book(db, number)
                committed = time.perf_counter()
                latencies.append((listener.wait_for(number) - committed) * 1000)
        latencies.sort()
        p95 = latencies[max(0, round(len(latencies) * 0.95) - 1)]
        print(f"Live changes on a {args.books:,}-book store (poll every 0.25 s while listened to):")
        print(f"  server CPU, nobody listening   {idle * 1000:7.1f} ms over 5 s (target: none)")
        print(f"  server CPU, one stream, quiet  {listening * 1000:7.1f} ms over 5 s")
        print(f"  commit → event, {args.commits} commits  p50 {statistics.median(latencies):.0f} ms, "
              f"p95 {p95:.0f} ms, max {latencies[-1]:.0f} ms (target p95 ≤ 500 ms)")
    finally:
        server.stop()
        shutil.rmtree(folder, ignore_errors=True)


if __name__ == "__main__":
    main()
