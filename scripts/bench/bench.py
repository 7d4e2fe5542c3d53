#!/usr/bin/env python3
"""Benchmarks browser-demo against its peers on one store file, side by side, in one run.

Peers, all reading the same generated store (generate_store.py) from a warm OS page cache:
  - ours:      `browser-demo --store … --model …` (release build), over HTTP with a kept-alive connection;
  - sqlite3:   the `sqlite3` shell, one long-lived process fed through a pipe (no process start per query);
  - Datasette: `datasette serve --immutable` (see below), over HTTP, in its default form and with
               `_nosuggest=1&_nofacet=1` (no facet suggestions), as the reference figures were taken.

Each query is run `--runs` times after one untimed warm-up, the peers taking turns within each round so that
machine noise falls on all of them alike; p50 and p95 (nearest rank) are printed with ours/peer ratios.
Then `wrk` loads /api/health and /pages/inspector/inspector.js of browser-demo and of the FlyingFox peer
(flyingfox-peer/) serving the same bytes, and the peak resident memory of browser-demo (VmHWM) is read. Results go to `--out` (markdown and
JSON) and, with `--write-docs`, to docs/benchmarks.md.

Why Datasette runs with --immutable: it is how Datasette is told a file will not change, and it is its fastest
mode (table counts are computed once at start-up, no locking). Ours must notice writes by the app, so it opens
the file in place read-only and checks SQLite's `PRAGMA data_version` per request; comparing against the peer's
best case is the strict comparison. The reference targets were taken the same way.

Run through run.sh (installs and builds what is missing); not part of `swift test`.
"""

from __future__ import annotations

import argparse
import datetime
import http.client
import json
import os
import platform
import re
import shlex
import shutil
import signal
import socket
import sqlite3
import subprocess
import sys
import time
import urllib.parse

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, HERE)
sys.path.insert(0, os.path.join(os.path.dirname(HERE), "lib"))
import generate_store  # noqa: E402
from demo_server import DemoServer  # noqa: E402  (the one browser-demo launcher)

# Reference targets (ms, medians, 1M-book store, 2 cores) set when the benchmark was specified; checked only on the 1M store.
TARGETS_MS = {
    "entities": 7, "page1": 5, "deep": 10, "sort_title_asc": 72, "sort_title_desc": 72,
    "sort_pages_desc": 60, "search": 165, "search_fresh": 165, "author": 5,
    # Walking a relationship to its end and jumping to the last page stay interactive.
    "related_first": 100, "related_last": 100, "book_last": 100,
}
HTTP_TARGET_NOTE = "throughput ≥ FlyingFox's on both paths at 64 connections; no errors at 256"
MEMORY_TARGET_MB = 64
START_TARGET_MS = 100


def datasette_best(row: dict, measure: str = "p50") -> float:
    """Datasette's best configuration for a row: the faster of its default and `_nosuggest&_nofacet`."""
    return min(row[measure]["datasette"], row[measure]["datasette_fast"])


# The cold-path targets, per query key: (what the target says, whether a row meets it).
COLD_PATH_TARGETS = {
    **{key: ("p95 ≤ 2 ms (an indexed sort goes straight to the index)", lambda row: row["p95"]["ours"] <= 2)
       for key in ("sort_pages_asc", "sort_pages_desc", "sort_pages_deep_asc", "sort_pages_deep_desc")},
    "search_fresh": ("p50 ≤ 0.75× Datasette's best", lambda row: row["p50"]["ours"] <= 0.75 * datasette_best(row)),
    "sort_first_fresh": ("p50 ≤ 0.9× Datasette's best", lambda row: row["p50"]["ours"] <= 0.9 * datasette_best(row)),
    "author": ("p50 ≤ Datasette's best", lambda row: row["p50"]["ours"] <= datasette_best(row)),
}

# docs/benchmarks.md holds this script's output up to this line and, after it, sections written by hand from the
# other benchmark scripts (export.py, content.py, …); --write-docs replaces the part above and keeps the rest.
GENERATED_END = "<!-- End of the part bench.py writes; the sections below are kept when it rewrites the file. -->"


# ---------------------------------------------------------------------------------------------- peers

class HTTPPeer:
    """A kept-alive HTTP/1.1 connection; `get` returns the body and fails on any status but 200."""

    def __init__(self, port: int):
        self.port = port
        self.connection = http.client.HTTPConnection("127.0.0.1", port, timeout=300)

    def get(self, path: str) -> bytes:
        try:
            self.connection.request("GET", path)
            response = self.connection.getresponse()
            body = response.read()
        except (http.client.HTTPException, OSError):
            self.connection.close()
            self.connection = http.client.HTTPConnection("127.0.0.1", self.port, timeout=300)
            raise
        if response.status != 200:
            raise RuntimeError(f"GET {path} on port {self.port}: {response.status} {body[:200]!r}")
        if response.getheader("Connection", "").lower() == "close":
            self.connection.close()
        return body


class SQLiteShell:
    """One `sqlite3` shell process; `run` sends statements and reads their output up to a marker."""

    def __init__(self, path: str):
        self.process = subprocess.Popen(
            ["sqlite3", "-readonly", "-batch", path], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT, bufsize=0,
        )
        self.sequence = 0
        self.run(".mode json")

    def run(self, sql: str) -> bytes:
        self.sequence += 1
        marker = f"@@done{self.sequence}@@".encode()
        self.process.stdin.write(sql.encode() + b"\n.print " + marker + b"\n")
        output = bytearray()
        fd = self.process.stdout.fileno()
        while marker not in output[-len(marker) - 64:]:
            chunk = os.read(fd, 1 << 20)
            if not chunk:
                raise RuntimeError(f"sqlite3 exited: {bytes(output[-500:])!r}")
            output += chunk
        if b"Error" in output[:200] or b"Parse error" in output[:200]:
            raise RuntimeError(f"sqlite3: {bytes(output[:300])!r}")
        return bytes(output)

    def close(self) -> None:
        self.process.stdin.close()
        self.process.wait(timeout=10)


class Server:
    """A peer's server process (Datasette, FlyingFox) started by this script, stopped by its pid (SIGTERM, then
    SIGKILL); browser-demo is a DemoServer (scripts/lib/demo_server.py)."""

    def __init__(self, name: str, argv: list[str], port_pattern: str, log_path: str, env: dict | None = None):
        self.name = name
        self.log_path = log_path
        self.log = open(log_path, "w")
        self.process = subprocess.Popen(argv, stdout=self.log, stderr=subprocess.STDOUT, env=env,
                                        start_new_session=True)
        self.port = self._wait_for_port(port_pattern)

    def _wait_for_port(self, pattern: str, timeout: float = 120) -> int:
        deadline = time.time() + timeout
        while time.time() < deadline:
            if self.process.poll() is not None:
                raise RuntimeError(f"{self.name} exited ({self.process.returncode}): {open(self.log_path).read()[-800:]}")
            match = re.search(pattern, open(self.log_path).read())
            if match:
                return int(match.group(1))
            time.sleep(0.005)  # the start-up figure is no finer than this
        raise RuntimeError(f"{self.name} did not start within {timeout} s: {open(self.log_path).read()[-800:]}")

    def stop(self) -> None:
        if self.process.poll() is None:
            self.process.send_signal(signal.SIGTERM)
            try:
                self.process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait(timeout=10)
        self.log.close()


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


# ---------------------------------------------------------------------------------------------- queries

def queries(info: dict, db: str) -> list[dict]:
    """Each query: what ours, sqlite3 and Datasette run for it, and how the requests differ."""
    books = info["books"]
    deep = books * 9 // 10
    uuid = info["storeUUID"]
    author = info["prolificAuthorPK"]
    export_pk = books // 2 + 1  # never a multiple of 20, so a Book and not an AudioBook
    term = info["searchTerm"]
    cols = "*"
    fast = "_nosuggest=1&_nofacet=1"
    table = f"/{db}/ZBOOK.json?_size=100"

    def obj(entity: str, pk: int) -> str:
        return urllib.parse.quote(f"x-coredata://{uuid}/{entity}/p{pk}", safe="")

    def search_variant(word: str) -> dict:
        quoted = urllib.parse.quote(word)
        return {
            "ours": f"/api/entities/Book?limit=100&search={quoted}&searchAttr=title",
            "sqlite3": f"SELECT COUNT(*) FROM ZBOOK WHERE ZTITLE LIKE '%{word}%'; "
                       f"SELECT {cols} FROM ZBOOK WHERE ZTITLE LIKE '%{word}%' ORDER BY Z_PK LIMIT 100;",
            "datasette": f"{table}&ZTITLE__contains={quoted}",
        }

    def sort_query(key, label, attribute, column, descending, note):
        order = "desc" if descending else "asc"
        direction = "DESC" if descending else "ASC"
        parameter = "_sort_desc" if descending else "_sort"
        return {
            "key": key, "label": label,
            "ours": f"/api/entities/Book?limit=100&sort={attribute}&order={order}",
            "sqlite3": f"SELECT {cols} FROM ZBOOK ORDER BY {column} {direction}, Z_PK {direction} LIMIT 100;",
            "datasette": f"{table}&{parameter}={column}",
            "note": note,
        }

    prolific_books = info["prolificAuthorBooks"]
    related_last = (prolific_books - 1) // 100 * 100
    book_last = (books - 1) // 100 * 100
    related = f"/api/object/related?id={obj('Author', author)}&rel=books&limit=100"
    related_sql = f"FROM ZBOOK WHERE ZAUTHOR = {author}"

    return [
        {
            "key": "entities", "label": "entity list with counts",
            "ours": "/api/entities",
            "sqlite3": "SELECT 'Author', COUNT(*) FROM ZAUTHOR UNION ALL SELECT 'Book', COUNT(*) FROM ZBOOK "
                       "UNION ALL SELECT 'AudioBook', COUNT(*) FROM ZBOOK WHERE Z_ENT = 3 "
                       "UNION ALL SELECT 'Tag', COUNT(*) FROM ZTAG;",
            "datasette": f"/{db}.json",
            "note": "Datasette lists tables (with their count, cached at start-up under --immutable) and has no "
                    "sub-entity count (AudioBook); ours counts the four entities.",
        },
        {
            "key": "page1", "label": "page 1 of books (100 rows)",
            "ours": "/api/entities/Book?limit=100",
            "sqlite3": f"SELECT {cols} FROM ZBOOK ORDER BY Z_PK LIMIT 100;",
            "datasette": table,
            "note": "ours and Datasette also return the total; the shell query does not count.",
        },
        {
            "key": "deep", "label": f"deep page (offset {deep:,})",
            "ours": f"/api/entities/Book?limit=100&offset={deep}",
            "sqlite3": f"SELECT {cols} FROM ZBOOK ORDER BY Z_PK LIMIT 100 OFFSET {deep};",
            "datasette": f"{table}&_next={deep}",
            "note": "Datasette pages by keyset (`_next` = last primary key: `WHERE rowid > ?`); ours and the shell "
                    "take the offset (the same 100 rows: primary keys are dense).",
        },
        sort_query("sort_title_asc", "page 1 sorted by title asc (unindexed)", "title", "ZTITLE", False,
                   "ours: the warm-up request is SQLite's top-100 sort and asks for the order, which is built in "
                   "the background (`SortedKeys`, `KeptOrderBuilder`); the timed runs are a slice of kept keys and "
                   "one `Z_PK IN (…)` lookup once it is kept (SQLite's sort again until then), as every next page "
                   "of that sort would be. The shell and Datasette sort on every request."),
        sort_query("sort_title_desc", "page 1 sorted by title desc (unindexed)", "title", "ZTITLE", True,
                   "ours: the same kept order, read backwards (it was built by the asc runs)."),
        sort_query("sort_pages_asc", "page 1 sorted by pageCount asc (indexed)", "pageCount", "ZPAGECOUNT", False,
                   "pageCount has a fetch index (Z_Book_byPageCount), as an app sorting by it would declare."),
        sort_query("sort_pages_desc", "page 1 sorted by pageCount desc (indexed)", "pageCount", "ZPAGECOUNT", True, ""),
        sort_query("sort_words_desc", "page 1 sorted by wordCount desc (unindexed integer)", "wordCount",
                   "ZWORDCOUNT", True, "An unindexed integer sort: what 'pageCount desc' was in the reference figures."),
        {
            **sort_query("sort_pages_deep_asc", f"page at offset {deep:,} sorted by pageCount asc (indexed)", "pageCount",
                         "ZPAGECOUNT", False, "ours and the shell take the offset through the index; Datasette pages "
                         "by keyset (`_next` = the sort value and primary key before the page, looked up once; its "
                         "`_sort_desc` breaks ties by ascending key, so its descending page is another 100 rows at the "
                         "same depth)."),
            "ours": f"/api/entities/Book?limit=100&offset={deep}&sort=pageCount&order=asc",
            "sqlite3": f"SELECT {cols} FROM ZBOOK ORDER BY ZPAGECOUNT ASC, Z_PK ASC LIMIT 100 OFFSET {deep};",
            "datasette": f"{table}&_sort=ZPAGECOUNT&_next={info.get('pagesAscNext', '')}",
        },
        {
            **sort_query("sort_pages_deep_desc", f"page at offset {deep:,} sorted by pageCount desc (indexed)",
                         "pageCount", "ZPAGECOUNT", True, ""),
            "ours": f"/api/entities/Book?limit=100&offset={deep}&sort=pageCount&order=desc",
            "sqlite3": f"SELECT {cols} FROM ZBOOK ORDER BY ZPAGECOUNT DESC, Z_PK DESC LIMIT 100 OFFSET {deep};",
            "datasette": f"{table}&_sort_desc=ZPAGECOUNT&_next={info.get('pagesDescNext', '')}",
        },
        {
            # The first sort a person meets. Ours is a new server for every run (started untimed), so
            # nothing is kept; the peers keep nothing for a sort anyway, so theirs run on their one server.
            **sort_query("sort_first_fresh", "first sort by wordCount desc (unindexed) on a fresh server", "wordCount",
                         "ZWORDCOUNT", True, "ours: a new browser-demo for every run (its start not timed), so every "
                         "run is the first request of that sort; the shell and Datasette sort on every request anyway."),
            "freshServer": True,
        },
        {
            "key": "search", "label": f"search \"{term}\" in titles, with total",
            "ours": f"/api/entities/Book?limit=100&search={term}&searchAttr=title",
            "sqlite3": f"SELECT COUNT(*) FROM ZBOOK WHERE ZTITLE LIKE '%{term}%'; "
                       f"SELECT {cols} FROM ZBOOK WHERE ZTITLE LIKE '%{term}%' ORDER BY Z_PK LIMIT 100;",
            "datasette": f"{table}&ZTITLE__contains={term}",
            "note": f"ours folds case and diacritics for all of Unicode ({info['searchMatchesFolded']:,} matches: Café, "
                    f"CAFÉ…); LIKE and Datasette's `__contains` fold ASCII case only ({info['searchMatchesLike']:,}). "
                    "Ours keeps a search's count until the data changes (the answer check before the timing already "
                    "counted this one), so these runs read only the first 100 matches, as paging through a search's "
                    "results does; the next row is the uncached cost of a new search.",
        },
        {
            # Each run searches a word it has not searched before, so no peer can reuse a count: the cost a user
            # pays for every new search. Run i uses FRESH_TERMS[i] (the warm-up FRESH_TERMS[0]).
            "key": "search_fresh", "label": "search a new word each run, with total",
            "variants": lambda run: search_variant(FRESH_TERMS[run % len(FRESH_TERMS)]),
            **search_variant(FRESH_TERMS[0]),
            "note": "every run searches a different word (River, Garden, Island, …: ASCII words, so LIKE and "
                    "Datasette find what we find), so nothing is cached: the whole table is scanned and folded for "
                    "the count each time.",
        },
        {
            "key": "author", "label": f"detail of the author with {info['prolificAuthorBooks']:,} books",
            "ours": f"/api/object?id={obj('Author', author)}",
            "sqlite3": f"SELECT {cols} FROM ZAUTHOR WHERE Z_PK = {author}; "
                       f"SELECT COUNT(*) FROM ZBOOK WHERE ZAUTHOR = {author}; "
                       f"SELECT Z_PK, Z_ENT, ZTITLE FROM ZBOOK WHERE ZAUTHOR = {author} ORDER BY Z_PK LIMIT 20;",
            "datasette": f"/{db}/ZAUTHOR/{author}.json?_extras=foreign_key_tables",
            "note": "ours: the record, its books' count and first 20; the shell: the same three queries; Datasette: "
                    "the row and the count of each table pointing at it (no related rows).",
        },
        {
            "key": "related_first", "label": f"first page of that author's {prolific_books:,} books, with total",
            "ours": related,
            "sqlite3": f"SELECT COUNT(*) {related_sql}; SELECT {cols} {related_sql} ORDER BY Z_PK LIMIT 100;",
            "datasette": f"{table}&ZAUTHOR={author}",
            "note": "ours: `/api/object/related` (the relationship's records, paged like any list).",
        },
        {
            "key": "related_last", "label": f"last page of that author's books (offset {related_last:,})",
            "ours": f"{related}&offset={related_last}",
            "sqlite3": f"SELECT COUNT(*) {related_sql}; "
                       f"SELECT {cols} {related_sql} ORDER BY Z_PK LIMIT 100 OFFSET {related_last};",
            "datasette": f"{table}&ZAUTHOR={author}&_next={info.get('prolificLastPageAfterPK', 0)}",
            "note": "Datasette pages by keyset (`_next` = the primary key before the last page, looked up once "
                    "before the run); ours and the shell take the offset.",
        },
        {
            "key": "book_last", "label": f"last page of Book (offset {book_last:,})",
            "ours": f"/api/entities/Book?limit=100&offset={book_last}",
            "sqlite3": f"SELECT {cols} FROM ZBOOK ORDER BY Z_PK LIMIT 100 OFFSET {book_last};",
            "datasette": f"{table}&_next={book_last}",
            "note": "what the Last-page button asks; primary keys are dense, so Datasette's keyset is the offset.",
        },
        {
            # A facet on an indexed attribute, at most Datasette's facet on the same column.
            "key": "facet_pages", "label": "facet of pageCount (indexed) over every book",
            "ours": "/api/entities/Book/facets?attr=pageCount&top=30",
            "sqlite3": "SELECT ZPAGECOUNT, COUNT(*) AS n FROM ZBOOK WHERE ZPAGECOUNT IS NOT NULL "
                       "GROUP BY ZPAGECOUNT ORDER BY n DESC, ZPAGECOUNT LIMIT 30;",
            "datasette": f"/{db}/ZBOOK.json?_size=0&_facet=ZPAGECOUNT&_nosuggest=1",
            "note": "Datasette's facet is the top 30 values with counts (and the table's count); ours also counts "
                    "nulls, distinct values, min and max and a 20-bucket histogram (five queries); the shell runs "
                    "the top-30 GROUP BY alone.",
        },
        {
            "key": "facet_title", "label": "facet of title (unindexed text) over every book",
            "ours": "/api/entities/Book/facets?attr=title&top=30",
            "sqlite3": "SELECT ZTITLE, COUNT(*) AS n FROM ZBOOK WHERE ZTITLE IS NOT NULL "
                       "GROUP BY ZTITLE ORDER BY n DESC, ZTITLE LIMIT 30;",
            "datasette": f"/{db}/ZBOOK.json?_size=0&_facet=ZTITLE&_nosuggest=1",
            "note": "an unindexed column: every peer sorts the million values to group them; ours also counts "
                    "the distinct values (capped at 10,000).",
        },
        {
            "key": "export", "label": "export of one book (JSON)",
            "ours": f"/api/object/export?id={obj('Book', export_pk)}",
            "sqlite3": f"SELECT {cols} FROM ZBOOK WHERE Z_PK = {export_pk};",
            "datasette": f"/{db}/ZBOOK/{export_pk}.json",
            "note": "ours includes relationships (author, tags with their summaries).",
        },
    ]


# ASCII words of the generator's title vocabulary, one per run of the fresh-search query (runs past the list
# wrap around and may then hit a kept count; the default 15 runs do not).
FRESH_TERMS = ["River", "Garden", "Island", "Passage", "Letters", "Harbour", "Library", "Lighthouse", "Orchard",
               "Night", "Kitchen", "Forest", "Station", "Mirror", "Clockwork", "Winter", "Cathedral", "Bridge"]


def percentile(samples: list[float], fraction: float) -> float:
    ordered = sorted(samples)
    rank = max(1, -(-len(ordered) * fraction // 1))  # nearest rank
    return ordered[int(rank) - 1]


def time_call(call) -> float:
    started = time.perf_counter()
    call()
    return (time.perf_counter() - started) * 1000


def check_answers(info: dict, ours: HTTPPeer, datasette: HTTPPeer, db: str, query_list: list[dict]) -> list[str]:
    """Sanity checks that every peer answers the same question (totals against the generator's sidecar)."""
    problems = []
    by_key = {q["key"]: q for q in query_list}
    entities = {e["name"]: e["count"] for e in json.loads(ours.get(by_key["entities"]["ours"]))}
    expected = {"Author": info["authors"], "Book": info["books"], "AudioBook": info["audiobooks"], "Tag": info["tags"]}
    if entities != expected:
        problems.append(f"ours: entity counts {entities}, expected {expected}")
    search = json.loads(ours.get(by_key["search"]["ours"]))
    if search["total"] != info["searchMatchesFolded"]:
        problems.append(f"ours: search total {search['total']}, expected {info['searchMatchesFolded']}")
    deep = json.loads(ours.get(by_key["deep"]["ours"]))
    first_deep = deep["rows"][0]["id"].rsplit("/p", 1)[1]
    if int(first_deep) != info["books"] * 9 // 10 + 1:
        problems.append(f"ours: deep page starts at p{first_deep}")
    author = json.loads(ours.get(by_key["author"]["ours"]))
    books = next(r for r in author["relationships"] if r["name"] == "books")
    if books["count"] != info["prolificAuthorBooks"]:
        problems.append(f"ours: author has {books['count']} books, expected {info['prolificAuthorBooks']}")
    related_last = json.loads(ours.get(by_key["related_last"]["ours"]))
    if related_last["total"] != info["prolificAuthorBooks"] or not related_last["rows"]:
        problems.append(f"ours: the author's last page of books has total {related_last['total']} and "
                        f"{len(related_last['rows'])} rows")
    book_last = json.loads(ours.get(by_key["book_last"]["ours"]))
    if book_last["rows"][-1]["id"].rsplit("/p", 1)[1] != str(info["books"]):
        problems.append(f"ours: the last page of Book ends at {book_last['rows'][-1]['id']}")
    ds_search = json.loads(datasette.get(by_key["search"]["datasette"]))
    if ds_search.get("filtered_table_rows_count") not in (info["searchMatchesLike"], None):
        problems.append(f"Datasette: search count {ds_search.get('filtered_table_rows_count')}, "
                        f"expected {info['searchMatchesLike']}")
    ds_deep = json.loads(datasette.get(by_key["deep"]["datasette"]))
    if ds_deep["rows"] and ds_deep["rows"][0][0] != info["books"] * 9 // 10 + 1:
        problems.append(f"Datasette: deep page starts at {ds_deep['rows'][0][0]}")
    # The deep sorted pages start where each peer's own order puts offset 900,000.
    check = sqlite3.connect(f"file:{info['path']}?mode=ro", uri=True)
    for key, ours_order, datasette_order in (("sort_pages_deep_asc", "ASC, Z_PK ASC", "ASC, Z_PK ASC"),
                                             ("sort_pages_deep_desc", "DESC, Z_PK DESC", "DESC, Z_PK ASC")):
        def expected(order: str) -> int:
            return check.execute(f"SELECT Z_PK FROM ZBOOK ORDER BY ZPAGECOUNT {order} LIMIT 1 OFFSET ?",
                                 (info["books"] * 9 // 10,)).fetchone()[0]
        ours_first = int(json.loads(ours.get(by_key[key]["ours"]))["rows"][0]["id"].rsplit("/p", 1)[1])
        ds_first = json.loads(datasette.get(by_key[key]["datasette"]))["rows"][0][0]
        if ours_first != expected(ours_order) or ds_first != expected(datasette_order):
            problems.append(f"{key}: ours starts at p{ours_first}, Datasette at {ds_first}")
    check.close()
    return problems


def run_store_benchmark(args, info: dict, store: str, model: str, work: str) -> dict:
    db = os.path.splitext(os.path.basename(store))[0]
    # Datasette pages by keyset: the primary key just before the prolific author's last page of books.
    lookup = sqlite3.connect(f"file:{store}?mode=ro", uri=True)
    offset = (info["prolificAuthorBooks"] - 1) // 100 * 100
    row = lookup.execute("SELECT Z_PK FROM ZBOOK WHERE ZAUTHOR = ? ORDER BY Z_PK LIMIT 1 OFFSET ?",
                         (info["prolificAuthorPK"], offset - 1)).fetchone() if offset else None
    # Datasette's keyset for a sorted page: the sort value and primary key of the row before it.
    deep = info["books"] * 9 // 10
    ascending = lookup.execute("SELECT ZPAGECOUNT, Z_PK FROM ZBOOK ORDER BY ZPAGECOUNT ASC, Z_PK ASC LIMIT 1 OFFSET ?",
                               (deep - 1,)).fetchone()
    # Datasette's `_sort_desc` breaks ties by the primary key ascending (ours and the shell: descending too).
    descending = lookup.execute("SELECT ZPAGECOUNT, Z_PK FROM ZBOOK ORDER BY ZPAGECOUNT DESC, Z_PK ASC LIMIT 1 OFFSET ?",
                                (deep - 1,)).fetchone()
    info = {**info, "path": store, "prolificLastPageAfterPK": row[0] if row else 0,
            "pagesAscNext": f"{ascending[0]},{ascending[1]}", "pagesDescNext": f"{descending[0]},{descending[1]}"}
    lookup.close()
    query_list = queries(info, db)
    demo_binary = os.path.join(REPO, ".build-bench", "release", "browser-demo")
    servers: list[Server] = []
    shell = None
    try:
        started = time.perf_counter()
        def start_ours() -> DemoServer:
            demo = DemoServer(
                demo_binary,
                # wrk's 64 and 256 connections all come from 127.0.0.1: past the default 32 per address the
                # server refuses them (by design), which would measure refusals instead of serving.
                ["--port", str(free_port()), "--store", store, "--model", model, "--max-connections-per-address", "512"],
                log_path=os.path.join(work, "browser-demo.log"))
            demo.wait_for_url(120)
            return demo

        ours_server = start_ours()
        servers.append(ours_server)
        ours = HTTPPeer(ours_server.port)
        # The peak resident memory of every browser-demo this run started (a fresh server per run of a query).
        earlier_peak_kb = 0

        def fresh_ours() -> None:
            """Replaces the running browser-demo with a new one, answering (its start is not timed)."""
            nonlocal ours_server, ours, earlier_peak_kb
            earlier_peak_kb = max(earlier_peak_kb, ours_server.peak_resident_kib() or 0)
            ours.connection.close()
            ours_server.stop()
            servers.remove(ours_server)
            ours_server = start_ours()
            servers.append(ours_server)
            ours = HTTPPeer(ours_server.port)
            ours.get("/api/health")
        ours.get("/api/health")
        ours_start_ms = (time.perf_counter() - started) * 1000
        first_entities_ms = time_call(lambda: ours.get("/api/entities"))

        started = time.perf_counter()
        ds_port = free_port()
        datasette_server = Server(
            "datasette",
            # Time limits raised so that Datasette answers every query in full: at its defaults (200 ms for a
            # facet, 1 s for SQL) a facet over a million rows would come back quickly as "timed out", and the
            # comparison would be with an answer it did not give. No other query here comes near them.
            [sys.executable, "-m", "datasette", "serve", "--immutable", store, "--host", "127.0.0.1",
             "--port", str(ds_port), "--setting", "facet_time_limit_ms", "60000",
             "--setting", "sql_time_limit_ms", "60000"],
            r"Uvicorn running on http://127\.0\.0\.1:(\d+)", os.path.join(work, "datasette.log"))
        servers.append(datasette_server)
        datasette = HTTPPeer(datasette_server.port)
        datasette.get(f"/{db}.json")
        datasette_start_ms = (time.perf_counter() - started) * 1000
        shell = SQLiteShell(store)

        problems = check_answers(info, ours, datasette, db, query_list)
        for problem in problems:
            print(f"  ANSWER CHECK: {problem}", file=sys.stderr)

        peers = {
            "ours": lambda q: ours.get(q["ours"]),
            "sqlite3": lambda q: shell.run(q["sqlite3"]),
            "datasette": lambda q: datasette.get(q["datasette"]),
            "datasette_fast": lambda q: datasette.get(q["datasette"] + ("&" if "?" in q["datasette"] else "?")
                                                      + "_nosuggest=1&_nofacet=1"),
        }
        results = []
        for query in query_list:
            if args.only and query["key"] not in args.only:
                continue
            samples = {name: [] for name in peers}
            first = {}
            variant = query.get("variants", lambda run: query)
            for name, call in peers.items():
                if name == "ours" and query.get("freshServer"):
                    fresh_ours()
                first[name] = time_call(lambda: call(variant(0)))  # warm-up, reported apart
            for run in range(args.runs):
                for name, call in peers.items():
                    if name == "ours" and query.get("freshServer"):
                        fresh_ours()
                    samples[name].append(time_call(lambda: call({**query, **variant(run + 1)})))
            row = {"key": query["key"], "label": query["label"], "note": query["note"], "first": first,
                   # A fresh server or a new word each run: every run is a first request, and the warm-up one sample.
                   "everyRunFirst": bool(query.get("freshServer") or query.get("variants")),
                   "p50": {n: percentile(s, 0.5) for n, s in samples.items()},
                   "p95": {n: percentile(s, 0.95) for n, s in samples.items()},
                   "requests": {"ours": query["ours"], "sqlite3": query["sqlite3"], "datasette": query["datasette"]}}
            results.append(row)
            p50 = row["p50"]
            print(f"  {query['label']:<52} ours {p50['ours']:8.2f}  sqlite3 {p50['sqlite3']:8.2f}  "
                  f"datasette {p50['datasette']:8.2f}  ds-fast {p50['datasette_fast']:8.2f} ms", file=sys.stderr)
        peak_kb = max(earlier_peak_kb, ours_server.peak_resident_kib() or 0)
        return {"queries": results, "problems": problems, "peakRSSkB": peak_kb,
                "oursStartMs": ours_start_ms, "datasetteStartMs": datasette_start_ms,
                "firstEntitiesMs": first_entities_ms, "server": ours_server, "servers": servers, "ours": ours,
                "shell": shell}
    except BaseException:
        for server in servers:
            server.stop()
        if shell:
            shell.close()
        raise


# ---------------------------------------------------------------------------------------------- wrk

def parse_duration_ms(text: str) -> float:
    value, unit = re.fullmatch(r"([\d.]+)(us|ms|s|m)", text).groups()
    return float(value) * {"us": 0.001, "ms": 1, "s": 1000, "m": 60_000}[unit]


def run_wrk(url: str, connections: int, seconds: int) -> dict:
    threads = min(2, connections)
    output = subprocess.run(["wrk", f"-t{threads}", f"-c{connections}", f"-d{seconds}s", "--timeout", "5s",
                             "--latency", url], capture_output=True, text=True, timeout=seconds + 60).stdout
    rps = float(re.search(r"Requests/sec:\s+([\d.]+)", output).group(1))
    p99 = parse_duration_ms(re.search(r"^\s+99%\s+(\S+)", output, re.M).group(1))
    errors = 0
    socket_errors = re.search(r"Socket errors: connect (\d+), read (\d+), write (\d+), timeout (\d+)", output)
    if socket_errors:
        errors += sum(int(g) for g in socket_errors.groups())
    non2xx = re.search(r"Non-2xx or 3xx responses: (\d+)", output)
    if non2xx:
        errors += int(non2xx.group(1))
    return {"rps": rps, "p99": p99, "errors": errors}


def run_http_benchmark(args, ours_server: DemoServer, ours: HTTPPeer, work: str) -> list[dict]:
    health_path = os.path.join(work, "health.json")
    app_path = os.path.join(work, "inspector.js")
    with open(health_path, "wb") as file:
        file.write(ours.get("/api/health"))
    with open(app_path, "wb") as file:
        file.write(ours.get("/pages/inspector/inspector.js"))
    peer_binary = os.path.join(HERE, ".bench", "flyingfox-build", "release", "FlyingFoxPeer")
    flyingfox = Server("FlyingFox", [peer_binary, "--health", health_path, "--app-js", app_path],
                       r"FlyingFox: http://127\.0\.0\.1:(\d+)", os.path.join(work, "flyingfox.log"))
    try:
        check = HTTPPeer(flyingfox.port)
        if check.get("/pages/inspector/inspector.js") != open(app_path, "rb").read():
            raise RuntimeError("FlyingFox peer serves different bytes of the Inspector's script")
        results = []
        for path in ("/api/health", "/pages/inspector/inspector.js"):
            for connections in (64, 256):
                row = {"path": path, "connections": connections}
                for name, port in (("ours", ours_server.port), ("flyingfox", flyingfox.port)):
                    row[name] = run_wrk(f"http://127.0.0.1:{port}{path}", connections, args.wrk_seconds)
                    print(f"  wrk {path} c{connections} {name}: {row[name]['rps']:.0f} req/s, "
                          f"p99 {row[name]['p99']:.2f} ms, {row[name]['errors']} errors", file=sys.stderr)
                results.append(row)
        return results
    finally:
        flyingfox.stop()


# ---------------------------------------------------------------------------------------------- report

def machine_description() -> dict:
    cpu = "unknown CPU"
    try:
        for line in open("/proc/cpuinfo"):
            if line.startswith("model name"):
                cpu = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    memory_kb = next((int(line.split()[1]) for line in open("/proc/meminfo") if line.startswith("MemTotal:")), 0)

    def version(argv):
        try:
            return subprocess.run(argv, capture_output=True, text=True, timeout=30).stdout.strip().splitlines()[0]
        except (OSError, IndexError, subprocess.TimeoutExpired):
            return "?"

    return {
        "cores": os.cpu_count(), "cpu": cpu, "memoryGiB": round(memory_kb / 1024 / 1024, 1),
        "os": platform.platform(), "swift": version(["swift", "--version"]),
        "sqlite3": version(["sqlite3", "--version"]).split(" ")[0],
        "datasette": version([sys.executable, "-m", "datasette", "--version"]),
        "wrk": version(["wrk", "--version"]).split(" [")[0],
    }


def fmt(ms: float) -> str:
    if ms >= 100:
        return f"{ms:,.0f}"
    if ms >= 10:
        return f"{ms:.1f}"
    return f"{ms:.2f}"


def ratio(ours: float, peer: float) -> str:
    return f"{ours / peer:.2f}×" if peer > 0 else "—"


def render(report: dict) -> str:
    info, machine, store = report["store"], report["machine"], report["storeRun"]
    full = info["books"] == 1_000_000
    lines = [
        "# Benchmarks",
        "",
        f"Generated by `scripts/bench/run.sh` on {report['date']} — do not edit by hand; rerun to refresh.",
        "",
        "Reproduce: `" + report["command"] + "` "
        f"(about {report['minutes']:.0f} minutes on this machine, store generation included on a first run).",
        "",
        f"Machine: {machine['cores']} cores ({machine['cpu']}), {machine['memoryGiB']} GiB memory, {machine['os']}. "
        f"{machine['swift']}; sqlite3 {machine['sqlite3']}; {machine['datasette']} (`--immutable`); {machine['wrk']}.",
        "",
        f"Store: `generate_store.py --books {info['books']}` (seed {info['seed']}): {info['books']:,} books "
        f"({info['audiobooks']:,} AudioBooks), {info['authors']:,} authors, {info['tags']} tags, "
        f"{info['tagLinks']:,} book–tag links, {info['bytes'] / 1e6:.0f} MB, WAL mode, Core Data's layout; opened with "
        "the generated `Library.xcdatamodeld`. pageCount has a fetch index (`Z_Book_byPageCount`); title and "
        "wordCount are unindexed.",
        "",
        f"## Store queries (ms over {report['runs']} runs after one warm-up; p50 / p95)",
        "",
        "Ratios are ours ÷ peer at p50: below 1 means we are faster.",
        "",
        "| Query | ours | sqlite3 shell | Datasette default | Datasette `_nosuggest&_nofacet` | ours ÷ sqlite3 | "
        "ours ÷ Datasette fast | target | met |",
        "|---|---|---|---|---|---|---|---|---|",
    ]
    for row in store["queries"]:
        p50, p95 = row["p50"], row["p95"]
        target = TARGETS_MS.get(row["key"])
        target_text = f"≤ {target}" if target else "—"
        met = ("yes" if p50["ours"] <= target else f"**no** (+{p50['ours'] - target:.1f} ms)") if (target and full) else "—"
        cells = [f"{fmt(p50[n])} / {fmt(p95[n])}" for n in ("ours", "sqlite3", "datasette", "datasette_fast")]
        lines.append(f"| {row['label']} | " + " | ".join(cells) + f" | {ratio(p50['ours'], p50['sqlite3'])} | "
                     f"{ratio(p50['ours'], p50['datasette_fast'])} | {target_text} | {met} |")
    lines += [
        "",
        "First (untimed warm-up) request, ms — ours / sqlite3 / Datasette: " + "; ".join(
            f"{row['key']} {fmt(row['first']['ours'])} / {fmt(row['first']['sqlite3'])} / {fmt(row['first']['datasette'])}"
            for row in store["queries"]) + ".",
        f"Start-up until the first answer: browser-demo {store['oursStartMs']:.0f} ms, Datasette "
        f"{store['datasetteStartMs']:.0f} ms (which counts every table at start-up under `--immutable`); browser-demo's "
        f"first entity list {store['firstEntitiesMs']:.0f} ms.",
        "",
        "Where the requests are not exactly equivalent:",
        "",
    ]
    for row in store["queries"]:
        if row["note"]:
            lines.append(f"- *{row['label']}*: {row['note']}")
    lines += [
        "- Datasette caps a filtered count by its SQL time limit (1 s by default) and shows none past it; ours always counts.",
        "- The shell's figures are its query time through a pipe (JSON output mode), with no HTTP and no process start.",
        "- Ours and Datasette are timed end to end over one kept-alive HTTP connection from the same Python client.",
        "",
        "Requests, per query (ours · sqlite3 · Datasette):",
        "",
    ]
    for row in store["queries"]:
        r = row["requests"]
        lines.append(f"- {row['key']}: `{r['ours']}` · `{r['sqlite3']}` · `{r['datasette']}`")
    lines += ["", "## HTTP (wrk, " + f"{report['wrkSeconds']} s per run, 2 threads)", "",
              "Same bytes on both servers: `/api/health` (the store's health JSON) and "
              "`/pages/inspector/inspector.js` (the Inspector's script, 41 KB); the FlyingFox peer is `scripts/bench/flyingfox-peer` (FlyingFox 0.27.1, release build). "
              "browser-demo runs with `--max-connections-per-address 512`: every wrk connection comes from "
              "127.0.0.1, and by default the server refuses a 33rd connection from one address (503).", "",
              "| Path | connections | ours req/s | FlyingFox req/s | ours ÷ FlyingFox | ours p99 ms | FlyingFox p99 ms "
              "| errors ours / FlyingFox |", "|---|---|---|---|---|---|---|---|"]
    for row in report["http"]:
        o, f = row["ours"], row["flyingfox"]
        lines.append(f"| `{row['path']}` | {row['connections']} | {o['rps']:,.0f} | {f['rps']:,.0f} | "
                     f"{o['rps'] / f['rps']:.2f} | {fmt(o['p99'])} | {fmt(f['p99'])} | {o['errors']} / {f['errors']} |")
    peak = store["peakRSSkB"]
    after = report.get("peakRSSAfterHTTPkB")
    lines += ["", "## Memory", "",
              f"Peak resident memory of browser-demo (VmHWM) over the whole store run: **{peak / 1024:.1f} MB** "
              f"(target ≤ {MEMORY_TARGET_MB} MB: {'met' if peak / 1024 <= MEMORY_TARGET_MB else 'missed'})"
              + (f"; {after / 1024:.1f} MB after the wrk runs too." if after else "."), ""]
    if full:
        lines += render_cold_path_targets(report)
    if store["problems"]:
        lines += ["## Answer checks that failed", ""] + [f"- {p}" for p in store["problems"]] + [""]
    return "\n".join(lines)


def render_cold_path_targets(report: dict) -> list[str]:
    """The cold-path targets against this run: per query where it names one, then the rules for every query."""
    store = report["storeRun"]
    rows = {row["key"]: row for row in store["queries"]}
    lines = ["## Cold-path targets, this run", "",
             "| Query | target | ours p50 / p95 | Datasette's best p50 | ratio (p50) | met |", "|---|---|---|---|---|---|"]
    for key, (text, meets) in COLD_PATH_TARGETS.items():
        if key not in rows:
            continue
        row = rows[key]
        best = datasette_best(row)
        lines.append(f"| {row['label']} | {text} | {fmt(row['p50']['ours'])} / {fmt(row['p95']['ours'])} | {fmt(best)} | "
                     f"{ratio(row['p50']['ours'], best)} | {'yes' if meets(row) else '**no**'} |")
    repeated = [row for row in store["queries"] if not row.get("everyRunFirst")]
    slower_p50 = [f"{row['key']} (first {fmt(row['first']['ours'])}, p50 {fmt(row['p50']['ours'])})"
                  for row in repeated if row["p50"]["ours"] > row["first"]["ours"]]
    slower_p95 = [f"{row['key']} +{row['p95']['ours'] - row['first']['ours']:.2f} ms"
                  for row in repeated if row["p95"]["ours"] > row["first"]["ours"]]
    peak_mb = store["peakRSSkB"] / 1024
    lines += ["",
              "- No request slower than the first (each query's later requests against its first, untimed one; the "
              "rows whose every run is a first request, a fresh server or a new word, are left out): at p50 "
              + ("met for every query" if not slower_p50 else "**not met** for " + "; ".join(slower_p50))
              + "; at p95 " + ("met for every query." if not slower_p95 else "**not met**, by "
                               + ", ".join(slower_p95) + f" (the slowest runs of {report['runs']})."),
              f"- Peak resident memory ≤ {MEMORY_TARGET_MB} MB: {'met' if peak_mb <= MEMORY_TARGET_MB else '**not met**'} "
              f"({peak_mb:.1f} MB).",
              f"- Start-up to first answer < {START_TARGET_MS} ms: "
              f"{'met' if store['oursStartMs'] < START_TARGET_MS else '**not met**'} ({store['oursStartMs']:.0f} ms, as "
              "this script measures it: the server's log read every 5 ms for its address, then one `/api/health`).",
              ""]
    return lines


def write_docs(markdown: str) -> None:
    """Replaces the generated part of docs/benchmarks.md and keeps the sections after `GENERATED_END`."""
    path = os.path.join(REPO, "docs", "benchmarks.md")
    kept = ""
    if os.path.exists(path):
        existing = open(path).read()
        if GENERATED_END in existing:
            kept = existing.split(GENERATED_END, 1)[1]
    with open(path, "w") as file:
        file.write(markdown + "\n" + GENERATED_END + kept)


def side_benchmark_arguments(description: str, books: int, **extra: int) -> argparse.Namespace:
    """The arguments every single-purpose benchmark (export.py, events.py) takes: --books, its own counts
    (`extra`: name -> default), --binary (the release build run.sh makes) and --work; exits when the binary is
    missing."""
    parser = argparse.ArgumentParser(description=description, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--books", type=int, default=books)
    for name, default in extra.items():
        parser.add_argument(f"--{name}", type=int, default=default)
    parser.add_argument("--binary", default=os.path.join(REPO, ".build-bench", "release", "browser-demo"))
    parser.add_argument("--work", default=os.path.join(HERE, ".bench"))
    args = parser.parse_args()
    if not os.path.exists(args.binary):
        sys.exit(f"{args.binary} is missing: swift build -c release --product browser-demo --scratch-path .build-bench")
    return args


def ensure_store(books: int, work: str) -> tuple[str, str, dict]:
    """The generated store of `books` books in `work` (generated once per size and generator version), its model
    and its sidecar info."""
    os.makedirs(work, exist_ok=True)
    store = os.path.join(work, f"library-{books}.sqlite")
    info = None
    if os.path.exists(store) and os.path.exists(store + ".json"):
        info = json.load(open(store + ".json"))
        if info.get("generatorVersion") != generate_store.GENERATOR_VERSION:
            info = None
    if info is None:
        print(f"Generating {store} …", file=sys.stderr)
        info = generate_store.generate(books, store)
    model = os.path.join(os.path.dirname(store), "Library.xcdatamodeld")
    if not os.path.isdir(model):
        generate_store.write_model(os.path.dirname(store))
    return store, model, info


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--books", type=int, default=1_000_000)
    parser.add_argument("--runs", type=int, default=15, help="timed runs per query and peer (default 15)")
    parser.add_argument("--wrk-seconds", type=int, default=10)
    parser.add_argument("--no-http", action="store_true", help="skip the wrk runs")
    parser.add_argument("--only", nargs="*", help="query keys to run (default: all)")
    parser.add_argument("--work", default=os.path.join(HERE, ".bench"), help="stores, logs and results (gitignored)")
    parser.add_argument("--write-docs", action="store_true", help="also write docs/benchmarks.md")
    parser.add_argument("--command", default=None, help=argparse.SUPPRESS)
    args = parser.parse_args()
    began = time.time()

    store, model, info = ensure_store(args.books, args.work)

    print(f"Store run on {store} ({args.runs} runs per query):", file=sys.stderr)
    store_run = run_store_benchmark(args, info, store, model, args.work)
    with open(os.path.join(args.work, f"store-results-{args.books}.json"), "w") as file:  # kept if wrk fails
        json.dump({k: v for k, v in store_run.items() if k not in ("server", "servers", "ours", "shell")}, file, indent=2)
    http_results = []
    peak_after = None
    try:
        if not args.no_http:
            http_results = run_http_benchmark(args, store_run["server"], store_run["ours"], args.work)
            peak_after = store_run["server"].peak_resident_kib()
    finally:
        for server in store_run["servers"]:
            server.stop()
        store_run["shell"].close()
    for key in ("server", "servers", "ours", "shell"):
        store_run.pop(key)

    report = {
        "date": datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%d %H:%M UTC"),
        "command": args.command or "scripts/bench/run.sh " + shlex.join(sys.argv[1:]),
        "minutes": (time.time() - began) / 60, "runs": args.runs, "wrkSeconds": args.wrk_seconds,
        "machine": machine_description(), "store": info, "storeRun": store_run, "http": http_results,
        "peakRSSAfterHTTPkB": peak_after,
    }
    markdown = render(report)
    result_base = os.path.join(args.work, f"results-{args.books}")
    with open(result_base + ".json", "w") as file:
        json.dump(report, file, indent=2)
    with open(result_base + ".md", "w") as file:
        file.write(markdown + "\n")
    if args.write_docs:
        write_docs(markdown)
    print(markdown)
    print(f"\nWrote {result_base}.md and .json" + (" and docs/benchmarks.md" if args.write_docs else ""), file=sys.stderr)


if __name__ == "__main__":
    main()
