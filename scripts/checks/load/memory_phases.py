"""Memory phases of the load check (scripts/checks/load/check.py): what one response may cost the server.

* long values: a generated store file whose 100 rows each hold a 10 MB string (about 1 GB of text), served with
  ``--store``. The Inspector's default page (``limit=100``), its facet of the long column and of the short one
  are requested several times in parallel; then one record's detail. The server's idle resident memory (VmRSS)
  and its peak (VmHWM, the kernel's high-water mark, plus VmRSS sampled every 10 ms) are printed, and the phase
  fails if the peak exceeds idle by more than ``LONG_VALUES_TARGET_MIB``, or if a page carries a whole value
  (a list sends previews: ``ValuePreview`` in BrowserCore, docs/API.md "Long values").

Python standard library only; the HTTP client and the server start are check.py's, passed in.
"""

from __future__ import annotations

import asyncio
import json
import shutil
import sqlite3
import tempfile
import threading
import time
from pathlib import Path

from core_data_store import create_bookkeeping_tables, entity_table, write_entities, write_metadata  # scripts/lib

# Each stored value, and how many rows hold one.
LONG_VALUE_BYTES = 10 * 1024 * 1024
LONG_VALUE_ROWS = 100
# What serving the store may add to the server's resident memory at its peak; above it the phase fails. A list
# reads a long text's first bytes through incremental BLOB I/O and a facet's key takes one read of each value
# (TextPreviewSQL, PreviewKeyFunction in BrowserSQLite): measured +39 MiB on a busy machine, the detail's whole
# value (10 MB as a String, then as JSON) the largest part; before the value previews the page alone added 2.9 GB.
LONG_VALUES_TARGET_MIB = 64
# Parallel rounds of (page, facet of the long column, facet of the short column).
PARALLEL_ROUNDS = 3
STORE_UUID = "5A0C1E2D-3B4F-4A5B-8C6D-7E8F9A0B1C2D"


def scratch_folder() -> str | None:
    """/dev/shm when it has room for the 1 GB store (writing and reading it there takes seconds, not the minute a
    busy disk takes), else the default temporary folder. The store's pages in tmpfs are not the server's
    resident memory: SQLite reads them with read(2), into its own small cache."""
    shm = Path("/dev/shm")
    if shm.is_dir() and shutil.disk_usage(shm).free > 3 * LONG_VALUE_BYTES * LONG_VALUE_ROWS:
        return str(shm)
    return None


def write_long_value_store(path: Path) -> None:
    """A store in Core Data's layout (Z_PRIMARYKEY, Z_METADATA with a binary plist, one entity table) whose
    Note rows each hold a distinct 10 MB body; browser-demo infers the model from the tables."""
    db = sqlite3.connect(path)
    db.execute("PRAGMA journal_mode = OFF")
    db.execute("PRAGMA synchronous = OFF")
    create_bookkeeping_tables(db)
    db.execute(entity_table("ZNOTE", "ZTITLE VARCHAR, ZBODY VARCHAR"))
    write_entities(db, [(1, "Note", 0, LONG_VALUE_ROWS)])
    write_metadata(db, STORE_UUID)
    filler = "x" * (LONG_VALUE_BYTES - 8)
    for key in range(1, LONG_VALUE_ROWS + 1):
        # Distinct values (a facet has 100 groups), all of the same length.
        db.execute("INSERT INTO ZNOTE VALUES (?, 1, 1, ?, ?)", (key, f"Note {key}", f"{key:07d} " + filler))
    db.commit()
    db.close()


def memory_kib(pid: int) -> tuple[int, int]:
    """(VmRSS, VmHWM) of the process, in KiB."""
    fields = {}
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        name, _, value = line.partition(":")
        if name in ("VmRSS", "VmHWM"):
            fields[name] = int(value.split()[0])
    return fields["VmRSS"], fields["VmHWM"]


async def fetch(port: int, target: str, read_response) -> tuple[int, bytes]:
    reader, writer = await asyncio.open_connection("127.0.0.1", port, limit=1 << 20)
    try:
        writer.write(f"GET {target} HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nConnection: close\r\n\r\n".encode())
        await writer.drain()
        status, _, body = await read_response(reader)
        return status, body
    finally:
        writer.close()


async def long_values_requests(port: int, read_response) -> list[str]:
    """The page and facets in parallel rounds, then one detail; what went wrong, if anything."""
    problems = []
    page = "/api/entities/Note?limit=100&offset=0"
    targets = [page, "/api/entities/Note/facets?attr=body", "/api/entities/Note/facets?attr=title"] * PARALLEL_ROUNDS
    answers = await asyncio.gather(*(fetch(port, target, read_response) for target in targets))
    for target, (status, body) in zip(targets, answers):
        if status != 200:
            problems.append(f"{target}: status {status}: {body[:200]!r}")
        elif len(body) > 4 * 1024 * 1024:
            problems.append(f"{target}: a {len(body) / 1e6:.1f} MB answer (previews are a few KB a value)")
    status, body = answers[0]
    if status == 200:
        rows = json.loads(body)["rows"]
        cut = [row["attrs"]["body"] for row in rows if isinstance(row["attrs"]["body"], dict)]
        if len(rows) != LONG_VALUE_ROWS or len(cut) != LONG_VALUE_ROWS or any(
                value.get("truncated") is not True or value.get("bytes") != LONG_VALUE_BYTES for value in cut):
            problems.append(f"the page holds {len(rows)} rows, {len(cut)} of them with a cut body of {LONG_VALUE_BYTES} bytes")
    # The whole value comes from the detail: once, not multiplied.
    status, body = await fetch(port, f"/api/object?id=x-coredata%3A%2F%2F{STORE_UUID}%2FNote%2Fp1", read_response)
    if status != 200 or len(json.loads(body)["attrs"]["body"]) != LONG_VALUE_BYTES:
        problems.append(f"the detail did not hold the whole value (status {status}, {len(body)} bytes)")
    elif len(body) > LONG_VALUE_BYTES + 64 * 1024:
        problems.append(f"the detail is {len(body)} bytes: more than the value once")
    return problems


def long_values_phase(binary: Path, start_demo, read_response, timeout: float) -> list[str]:
    """Runs the phase, prints its figures, and returns its failures."""
    failures = []
    with tempfile.TemporaryDirectory(dir=scratch_folder()) as folder:
        store = Path(folder) / "long-values.sqlite"
        started = time.monotonic()
        write_long_value_store(store)
        written = time.monotonic() - started
        process, port = start_demo(binary, "--store", str(store))
        peak = [0]
        sampling = threading.Event()

        def sample() -> None:
            while not sampling.is_set():
                try:
                    peak[0] = max(peak[0], memory_kib(process.pid)[0])
                except (OSError, KeyError):
                    return
                time.sleep(0.01)

        try:
            # Idle: served once (the schema read, the display attribute chosen) and settled.
            asyncio.run(asyncio.wait_for(fetch(port, "/api/entities", read_response), timeout))
            time.sleep(0.5)
            idle, idle_high = memory_kib(process.pid)
            sampler = threading.Thread(target=sample, daemon=True)
            sampler.start()
            started = time.monotonic()
            problems = asyncio.run(asyncio.wait_for(long_values_requests(port, read_response), timeout))
            elapsed = time.monotonic() - started
            sampling.set()
            sampler.join()
            after, high = memory_kib(process.pid)
            alive = process.poll() is None
        finally:
            sampling.set()
            process.terminate()
            process.wait(timeout=10)
    # VmHWM is the process's peak since it started; idle's own high-water mark is already in it.
    peak_kib = max(peak[0], high)
    growth = (peak_kib - idle) / 1024
    print(f"load check: long values: {LONG_VALUE_ROWS} rows of {LONG_VALUE_BYTES / 1e6:.1f} MB written in {written:.1f} s; "
          f"{PARALLEL_ROUNDS} parallel rounds of the default page and two facets, then a detail, in {elapsed:.1f} s; "
          f"resident memory idle {idle / 1024:.1f} MiB (high-water {idle_high / 1024:.1f}), peak {peak_kib / 1024:.1f} MiB "
          f"({growth:+.1f} MiB; allowed +{LONG_VALUES_TARGET_MIB} MiB), "
          f"{after / 1024:.1f} MiB after")
    for problem in problems:
        print(f"  {problem}")
    if problems:
        failures.append(f"{len(problems)} long-value requests went wrong")
    if growth > LONG_VALUES_TARGET_MIB:
        failures.append(f"serving 10 MB values raised resident memory by {growth:.1f} MiB")
    if not alive:
        failures.append("browser-demo exited during the long-values phase")
    return failures
