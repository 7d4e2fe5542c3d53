#!/usr/bin/env python3
"""Content benchmark: how fast a large Binary value is inspected and paged, and that downloading a huge external
value keeps the server's memory flat (the content viewer's targets, printed, never asserted by a test).

    scripts/bench/content.py [--binary .build-bench/release/browser-demo] [--runs 15]

Builds a store in Core Data's layout here (Z_PRIMARYKEY, Z_METADATA, one entity table, and an .xcdatamodel whose
attribute allows external storage), with four values: a 10 MB JSON document inline, a 10 MB gzip of JSON inline,
a 10 MB PNG-headed value inline, and a 100 MB file in `.<store>_SUPPORT/_EXTERNAL_DATA/`. Then, against a release
browser-demo on 127.0.0.1:

* `/api/object/content` of each 10 MB value (p50/p95 over --runs; target: ≤ 50 ms);
* a 64 KiB hex page (`Range: bytes=…` of `/api/object/blob`) from the middle of the 10 MB value (target ≤ 5 ms);
* the 100 MB external value downloaded whole while the server's resident memory is sampled (target: flat, i.e.
  growth far below the value's size).

The store is written to a temporary folder and removed afterwards. Standard library only; Linux (/proc).
"""

from __future__ import annotations

import argparse
import gzip
import json
import os
import statistics
import struct
import sys
import tempfile
import time
import urllib.parse
import urllib.request
import zlib
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(REPO / "scripts" / "lib"))
import attachment_store  # noqa: E402  (the Attachment store the content check serves too)
from demo_server import DemoServer  # noqa: E402  (the one browser-demo launcher)

def png_headed(size: int) -> bytes:
    """A PNG signature and IHDR, then filler: what the inspector reads of a large image."""
    ihdr = struct.pack(">IIBBBBB", 4000, 3000, 8, 2, 0, 0, 0)
    chunk = struct.pack(">I", len(ihdr)) + b"IHDR" + ihdr + struct.pack(">I", zlib.crc32(b"IHDR" + ihdr))
    head = b"\x89PNG\r\n\x1a\n" + chunk
    return head + bytes((i * 31) & 0xFF for i in range(size - len(head)))


def big_json(size: int) -> bytes:
    items = []
    total = 2
    i = 0
    while total < size:
        item = json.dumps({"id": i, "name": f"item {i}", "tags": ["a", "b", "c"], "score": i * 0.5})
        items.append(item)
        total += len(item) + 1
        i += 1
    return ("[" + ",".join(items) + "]").encode()


def build_store(folder: Path) -> tuple[Path, Path, dict[str, int]]:
    ten = 10 * 1024 * 1024
    document = big_json(ten)
    inline = {"json": document, "gzip": gzip.compress(document, 6), "png": png_headed(ten)}
    external = {"external": bytes(range(256)) * 4096 * 100}  # 100 MiB
    return attachment_store.build(folder, inline, external)


def timed(url: str, headers: dict[str, str] | None = None) -> tuple[float, bytes]:
    request = urllib.request.Request(url, headers=headers or {})
    started = time.perf_counter()
    with urllib.request.urlopen(request, timeout=120) as response:
        body = response.read()
    return (time.perf_counter() - started) * 1000, body


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--binary", default=str(REPO / ".build-bench/release/browser-demo"))
    parser.add_argument("--runs", type=int, default=15)
    args = parser.parse_args()
    if not Path(args.binary).exists():
        print(f"content bench: build it first: swift build -c release --product browser-demo --scratch-path .build-bench")
        return 2
    with tempfile.TemporaryDirectory() as folder:
        store, model, keys = build_store(Path(folder))
        with DemoServer(args.binary, ["--store", str(store), "--model", str(model)]) as demo:
            base = demo.url

            def query(key: int) -> str:
                return f"id={urllib.parse.quote(attachment_store.object_id(key), safe='')}&attr=payload"

            baseline = sorted(timed(f"{base}/api/health")[0] for _ in range(args.runs))
            print(f"content bench: {args.runs} runs each, release build, 127.0.0.1; a new connection per request "
                  f"(urllib), whose round trip alone (GET /api/health) takes p50 {statistics.median(baseline):.1f} ms")
            for name in ("json", "gzip", "png"):
                times = []
                for _ in range(args.runs):
                    elapsed, body = timed(f"{base}/api/object/content?{query(keys[name])}")
                    times.append(elapsed)
                report = json.loads(body)
                times.sort()
                print(f"  content of a 10 MB {name:<5} value: p50 {statistics.median(times):7.1f} ms, "
                      f"p95 {times[int(len(times) * 0.95) - 1]:7.1f} ms (target ≤ 50)  → {report['summary']}")
            times = []
            for run in range(args.runs):
                start = 5 * 1024 * 1024 + run * 65536
                elapsed, body = timed(f"{base}/api/object/blob?{query(keys['png'])}",
                                      {"Range": f"bytes={start}-{start + 65535}"})
                assert len(body) == 65536
                times.append(elapsed)
            times.sort()
            print(f"  a 64 KiB hex page (Range) of it:      p50 {statistics.median(times):7.1f} ms, "
                  f"p95 {times[int(len(times) * 0.95) - 1]:7.1f} ms (target ≤ 5)")

            before = demo.resident_kib() or 0
            peak = before
            received = 0
            started = time.perf_counter()
            with urllib.request.urlopen(f"{base}/api/object/blob?{query(keys['external'])}", timeout=300) as response:
                while True:
                    piece = response.read(1024 * 1024)
                    if not piece:
                        break
                    received += len(piece)
                    peak = max(peak, demo.resident_kib() or 0)
            elapsed = time.perf_counter() - started
            print(f"  the 100 MiB external value downloaded: {received / 2**20:.0f} MiB in {elapsed:.2f} s; server memory "
                  f"{before / 1024:.1f} MiB before, peak {peak / 1024:.1f} MiB (+{(peak - before) / 1024:.1f} MiB)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
