#!/usr/bin/env python3
"""Predicate benchmark: BrowserSQLite's compiled RecordFilter trees on the generated 1,000,000-book
store against the sqlite3 shell running the equivalent SQL, in one run. Figures are printed, never asserted.

    scripts/bench/predicates.py [--books 1000000] [--runs 15]

Ours: `predicate_bench.swift`, built in release into a package of its own under scripts/bench/.bench, times
`SQLiteStore.page` (100 records and the total) in process: the API's `where=` and `POST …/query` routes run the
same call, and timing it without HTTP and JSON compares the store's work with the sqlite3 shell's. Each run asks
an equivalent, distinct tree so the store's kept totals never answer for it. The shell
(one long-lived `sqlite3` process, as bench.py) runs a COUNT and the first 100 rows. Targets:

  - indexed equality with total (`pageCount == 300`, index Z_Book_byPageCount): ≤ 5 ms;
  - `title CONTAINS[cd] "x" AND pageCount > 300 AND author.name BEGINSWITH[c] "k"` with total: ≤ 1.2× the shell's
    equivalent with ASCII LIKE (which folds ASCII only, so it is not the same question for accented text);
  - the search box's shape (CONTAINS[cd] "cafe" in Book's String attributes), to see it did not get slower.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, HERE)
from bench import SQLiteShell, ensure_store  # noqa: E402  (the one store generator and shell runner)

SHELL = {
    "indexed_equality": "SELECT COUNT(*) FROM ZBOOK WHERE ZPAGECOUNT = 300; "
                        "SELECT * FROM ZBOOK WHERE ZPAGECOUNT = 300 ORDER BY Z_PK LIMIT 100;",
    "compound": "SELECT COUNT(*) FROM ZBOOK b JOIN ZAUTHOR a ON a.Z_PK = b.ZAUTHOR "
                "WHERE b.ZTITLE LIKE '%x%' AND b.ZPAGECOUNT > 300 AND a.ZNAME LIKE 'k%'; "
                "SELECT b.* FROM ZBOOK b JOIN ZAUTHOR a ON a.Z_PK = b.ZAUTHOR "
                "WHERE b.ZTITLE LIKE '%x%' AND b.ZPAGECOUNT > 300 AND a.ZNAME LIKE 'k%' ORDER BY b.Z_PK LIMIT 100;",
    "compound_cafe": "SELECT COUNT(*) FROM ZBOOK b JOIN ZAUTHOR a ON a.Z_PK = b.ZAUTHOR "
                     "WHERE b.ZTITLE LIKE '%cafe%' AND b.ZPAGECOUNT > 300 AND a.ZNAME LIKE 'k%'; "
                     "SELECT b.* FROM ZBOOK b JOIN ZAUTHOR a ON a.Z_PK = b.ZAUTHOR "
                     "WHERE b.ZTITLE LIKE '%cafe%' AND b.ZPAGECOUNT > 300 AND a.ZNAME LIKE 'k%' ORDER BY b.Z_PK LIMIT 100;",
    "search_box": "SELECT COUNT(*) FROM ZBOOK WHERE ZTITLE LIKE '%cafe%' OR ZSUMMARY LIKE '%cafe%'; "
                  "SELECT * FROM ZBOOK WHERE ZTITLE LIKE '%cafe%' OR ZSUMMARY LIKE '%cafe%' "
                  "ORDER BY Z_PK LIMIT 100;",
    "no_tags": "SELECT COUNT(*) FROM ZBOOK b WHERE NOT EXISTS (SELECT 1 FROM Z_2TAGS j WHERE j.Z_2BOOKS = b.Z_PK); "
               "SELECT * FROM ZBOOK b WHERE NOT EXISTS (SELECT 1 FROM Z_2TAGS j WHERE j.Z_2BOOKS = b.Z_PK) ORDER BY Z_PK LIMIT 100;",
    "any_tag": "SELECT COUNT(*) FROM ZBOOK b WHERE b.Z_PK IN (SELECT j.Z_2BOOKS FROM Z_2TAGS j JOIN ZTAG t ON t.Z_PK = j.Z_4TAGS "
               "WHERE t.ZNAME = 'classic 1'); SELECT * FROM ZBOOK b WHERE b.Z_PK IN (SELECT j.Z_2BOOKS FROM Z_2TAGS j "
               "JOIN ZTAG t ON t.Z_PK = j.Z_4TAGS WHERE t.ZNAME = 'classic 1') ORDER BY Z_PK LIMIT 100;",
}
# The same questions as the shell's JOIN above, written the way our SQL asks them (the author condition as a key
# set): the plan a person who knows SQLite would write, for a fair second figure.
SHELL_KEY_SET = {
    key: SHELL[key].replace("FROM ZBOOK b JOIN ZAUTHOR a ON a.Z_PK = b.ZAUTHOR", "FROM ZBOOK b")
    .replace("a.ZNAME LIKE 'k%'", "b.ZAUTHOR IN (SELECT Z_PK FROM ZAUTHOR WHERE ZNAME LIKE 'k%')")
    for key in ("compound", "compound_cafe")
}

LABELS = {
    "indexed_equality": "pageCount == 300 (indexed), page + total",
    "compound": 'title CONTAINS[cd] "x" AND pageCount > 300 AND author.name BEGINSWITH[c] "k"',
    "compound_cafe": 'the same with "cafe" (no generated title holds an "x")',
    "search_box": 'search box: CONTAINS[cd] "cafe" in title or summary',
    "no_tags": "tags.@count == 0 (many-to-many)",
    "any_tag": 'ANY tags.name == "classic 1"',
}


def build_client(work: str) -> str:
    """The release build of predicate_bench.swift, in a package that depends on this repository by path."""
    package = os.path.join(work, "predicate-bench")
    sources = os.path.join(package, "Sources", "PredicateBench")
    os.makedirs(sources, exist_ok=True)
    identity = os.path.basename(REPO)
    manifest = f"""// swift-tools-version:6.0
// Written by scripts/bench/predicates.py; the benchmark's client only.
import PackageDescription
let package = Package(
    name: "PredicateBench",
    dependencies: [.package(path: {json.dumps(REPO)})],
    targets: [.executableTarget(name: "PredicateBench",
                                dependencies: [.product(name: "BrowserSQLite", package: {json.dumps(identity)}),
                                               .product(name: "BrowserCore", package: {json.dumps(identity)})],
                                path: "Sources/PredicateBench", swiftSettings: [.swiftLanguageMode(.v6)])]
)
"""
    with open(os.path.join(package, "Package.swift"), "w") as file:
        file.write(manifest)
    with open(os.path.join(HERE, "predicate_bench.swift")) as source, open(os.path.join(sources, "PredicateBench.swift"), "w") as copy:
        copy.write(source.read())
    print("Building the predicate benchmark client (release)…", file=sys.stderr)
    subprocess.run(["swift", "build", "-c", "release", "--package-path", package], check=True,
                   stdout=sys.stderr)
    return os.path.join(package, ".build", "release", "PredicateBench")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--books", type=int, default=1_000_000)
    parser.add_argument("--runs", type=int, default=15)
    parser.add_argument("--work", default=os.path.join(HERE, ".bench"))
    args = parser.parse_args()
    store, model, info = ensure_store(args.books, args.work)
    binary = build_client(args.work)

    ours = {}
    output = subprocess.run([binary, store, model, str(args.runs)], check=True, capture_output=True, text=True).stdout
    for line in output.splitlines():
        row = json.loads(line)
        ours[row["query"]] = row

    shell = SQLiteShell(store)
    try:
        def time_shell(sql: str) -> float:
            shell.run(sql)  # warm-up
            samples = []
            for _ in range(args.runs):
                started = time.perf_counter()
                shell.run(sql)
                samples.append((time.perf_counter() - started) * 1000)
            return statistics.median(samples)

        theirs = {key: time_shell(sql) for key, sql in SHELL.items()}
        key_set = {key: time_shell(sql) for key, sql in SHELL_KEY_SET.items()}
    finally:
        shell.close()

    print(f"\nPredicates on {info['books']:,} books ({args.runs} runs, median ms; ours in process, the shell over a pipe):")
    for key, label in LABELS.items():
        ratio = ours[key]["p50"] / theirs[key] if theirs[key] else float("nan")
        print(f"  {label:<82} ours {ours[key]['p50']:8.2f} (min {ours[key]['min']:.2f})  "
              f"sqlite3 {theirs[key]:8.2f}  ×{ratio:.2f}  total {ours[key]['total']:,}"
              + (f"  (sqlite3 with the author as a key set: {key_set[key]:.2f}, ×{ours[key]['p50'] / key_set[key]:.2f})"
                 if key in key_set else ""))


if __name__ == "__main__":
    main()
