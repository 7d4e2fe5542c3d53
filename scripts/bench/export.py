#!/usr/bin/env python3
"""Export benchmark: every book of the generated store as CSV through `/api/entities/Book/export`,
against the sqlite3 shell's `.mode csv` export of the same columns, with the server's resident memory sampled
while the file streams. Figures are printed, never asserted by a test.

    scripts/bench/export.py [--books 1000000] [--runs 3] [--binary .build-bench/release/browser-demo]

The shell runs one SELECT that produces what our file holds, column for column: the object ID, the entity, the
attributes (the date as ISO 8601, the UUID as text, the cover as its size), the author's ID and name (a join)
and the number of tags (a correlated count on the join table's index). Our server produces the same file from
the model (display names, formula neutralisation, RFC 4180 quoting) in batches of 1,000 from one read
transaction. Both write into a pipe that this script reads and discards, so neither pays for a disk.

Targets: our time ≤ 1.0× the shell's; the server's resident memory flat during the export (≤ 64 MB).
The store is the one `scripts/bench/run.sh` generates (scripts/bench/.bench/library-<N>.sqlite).
"""

from __future__ import annotations

import http.client
import os
import statistics
import subprocess
import sys
import threading
import time

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, HERE)
from bench import ensure_store, side_benchmark_arguments  # noqa: E402  (the one store generator)
sys.path.insert(0, os.path.join(os.path.dirname(HERE), "lib"))
from demo_server import DemoServer  # noqa: E402  (the one browser-demo launcher)

#: Core Data's reference date (2001-01-01) in Unix time: TIMESTAMP columns count seconds from it.
REFERENCE_DATE = 978307200


def shell_sql(store_uuid: str) -> str:
    """The shell's SELECT for the columns our CSV holds."""
    prefix = f"x-coredata://{store_uuid}/"
    return f"""
SELECT '{prefix}' || CASE b.Z_ENT WHEN 3 THEN 'AudioBook' ELSE 'Book' END || '/p' || b.Z_PK AS _id,
       CASE b.Z_ENT WHEN 3 THEN 'AudioBook' ELSE 'Book' END AS _entity,
       b.ZTITLE AS _name,
       b.ZTITLE, b.ZPAGECOUNT,
       strftime('%Y-%m-%dT%H:%M:%fZ', b.ZPUBLISHEDAT + {REFERENCE_DATE}, 'unixepoch') AS publishedAt,
       b.ZSUMMARY, b.ZPRICE, b.ZRATING, b.ZWORDCOUNT, hex(b.ZIDENTIFIER) AS identifier, length(b.ZCOVER) AS cover,
       CASE b.ZINPRINT WHEN 1 THEN 'true' WHEN 0 THEN 'false' END AS inPrint,
       CASE WHEN b.ZAUTHOR IS NULL THEN NULL ELSE '{prefix}Author/p' || b.ZAUTHOR END AS author,
       a.ZNAME AS "author.name",
       (SELECT COUNT(*) FROM Z_2TAGS t WHERE t.Z_2BOOKS = b.Z_PK) AS "tags.count"
FROM ZBOOK b LEFT JOIN ZAUTHOR a ON a.Z_PK = b.ZAUTHOR
ORDER BY b.Z_PK;
"""


def time_shell(store: str, sql: str) -> tuple[float, int]:
    """Seconds and bytes of the shell's CSV of `sql`, written to a pipe read here."""
    started = time.perf_counter()
    process = subprocess.Popen(["sqlite3", "-readonly", "-batch", "-header", "-csv", store, sql],
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    size = 0
    while chunk := process.stdout.read(1 << 20):
        size += len(chunk)
    process.wait()
    if process.returncode != 0:
        raise RuntimeError(f"sqlite3: {process.stderr.read()[:300]!r}")
    return time.perf_counter() - started, size


class MemorySampler:
    """Samples a server's resident memory every 20 ms until stopped."""

    def __init__(self, server: DemoServer):
        self.server = server
        self.samples: list[int] = []
        self.running = True
        self.thread = threading.Thread(target=self._run, daemon=True)

    def _run(self) -> None:
        while self.running:
            rss = self.server.resident_kib()
            if rss is not None:
                self.samples.append(rss)
            time.sleep(0.02)

    def __enter__(self):
        self.thread.start()
        return self

    def __exit__(self, *_):
        self.running = False
        self.thread.join()


def time_export(port: int, path: str) -> tuple[float, int, int, str]:
    """Seconds, bytes and rows of one export, and its X-Total-Count."""
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=600)
    started = time.perf_counter()
    connection.request("GET", path)
    response = connection.getresponse()
    if response.status != 200:
        raise RuntimeError(f"GET {path}: {response.status} {response.read()[:300]!r}")
    size = rows = 0
    while chunk := response.read(1 << 20):
        size += len(chunk)
        rows += chunk.count(b"\r\n")
    elapsed = time.perf_counter() - started
    connection.close()
    return elapsed, size, rows - 1, response.getheader("X-Total-Count") or "-"


def main() -> None:
    args = side_benchmark_arguments(__doc__, 1_000_000, runs=3)

    store, model, info = ensure_store(args.books, args.work)
    sql = shell_sql(info["storeUUID"])
    time_shell(store, sql)  # warm the page cache for both
    shell = [time_shell(store, sql) for _ in range(args.runs)]
    shell_seconds = statistics.median(s for s, _ in shell)

    server = DemoServer(args.binary, ["--store", store, "--model", model],
                        log_path=os.path.join(args.work, "export-bench.log"))
    server.wait_for_url(120)
    try:
        time_export(server.port, "/api/entities/Book/export?format=csv")  # warm-up: the display attributes, caches
        ours = []
        with MemorySampler(server) as memory:
            idle = server.resident_kib() or 0
            for _ in range(args.runs):
                ours.append(time_export(server.port, "/api/entities/Book/export?format=csv"))
        seconds = statistics.median(s for s, *_ in ours)
        _, size, rows, total = ours[-1]
        peak = max(memory.samples) if memory.samples else 0
        print(f"Export of {args.books:,} books as CSV ({rows:,} rows, X-Total-Count {total}, {size / 1e6:.1f} MB), "
              f"median of {args.runs}:")
        print(f"  ours          {seconds:7.2f} s   ({rows / seconds / 1e3:,.0f}k rows/s, {size / seconds / 1e6:.0f} MB/s)")
        print(f"  sqlite3 shell {shell_seconds:7.2f} s   (.mode csv, same columns, {shell[-1][1] / 1e6:.1f} MB)")
        print(f"  ratio         {seconds / shell_seconds:7.2f}×  (target ≤ 1.0×)")
        print(f"  server RSS    {idle / 1024:.0f} MB before, {peak / 1024:.0f} MB peak during the exports "
              f"(growth {(peak - idle) / 1024:.0f} MB; target: flat, ≤ 64 MB)")
    finally:
        server.stop()


if __name__ == "__main__":
    main()
