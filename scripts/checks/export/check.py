#!/usr/bin/env python3
"""Export check: `GET /api/entities/<Entity>/export` (CSV and NDJSON) against the paged records API.

    scripts/checks/export/check.py [PATH-TO-browser-demo]      (or env BROWSER_DEMO; default .build/debug/browser-demo)

What it proves, for every entity of every store it serves (the demo store, each fixture store under
../shared/fixtures/coredata opened on a private copy, and a generated "hostile" store):

* the export is complete and in order: CSV rows == NDJSON lines == the paged API's total (the sum of its
  `limit=500` pages), with the record IDs in the paged API's order, also with `sort`/`order`, `search` and
  `relatedTo`/`via` (the same parameters are sent to both);
* NDJSON lines are the paged API's rows: `id`, `entity`, `summary` and `attrs` are equal exactly, and
  `relationships` holds one entry per relationship of the entity, of the right shape;
* every CSV cell is the text the rules give from the NDJSON line: null -> empty; String/URI values, `_name` and
  `<rel>.name` neutralised with a leading `'` when they start with `= + - @ TAB CR`; integers in decimal;
  doubles read back to the same number; dates, decimals and UUIDs as the API's text; binary as a byte count
  (or base64); booleans true/false; to-one -> related ID and name; to-many -> count;
* the CSV header is `_id,_entity,_name`, the entity's attributes (model order, compared by name; in exact order
  where the model file is at hand), then per relationship by name `<rel>,<rel>.name` or `<rel>.count`;
* the CSV is strict RFC 4180 (writing the parsed rows back with CRLF and minimal quoting gives the same bytes)
  and the NDJSON is one JSON object per LF-ended line;
* for up to 20 records per entity, the relationships agree with `GET /api/object` (to-one ID and summary,
  to-many count);
* headers: `Content-Disposition: attachment; filename="…"`, chunked transfer, `X-Total-Count` equal to the
  total without a search and absent with one;
* the hostile store's strings (formula starts, tab, CR, quotes, commas, CRLF, non-ASCII, empty, NULL) come out
  neutralised and quoted as they should, while negative numbers, ±Infinity and 64-bit integers beyond 2^53 are
  written as numbers, without `'`; a Float attribute added to its model (Tag.weight) must read back to the value
  the API sends (0.1, not the widened 0.10000000149011612);
* `bom=1` prefixes EF BB BF to the same bytes, `binary=base64` carries the blob's bytes, a bad `format` (or
  `bom`, `binary`) is a 400 with a JSON error, an unknown entity a 404.

Prints one line per store/check. Exits 1 on any mismatch (each named by store, entity, parameters, row ID,
column, expected and got); the fixtures are skipped with a message when ../shared is absent, unless
REQUIRE_FIXTURES=1, which makes that a failure. Standard library only.
"""

from __future__ import annotations

import base64
import csv
import http.client
import io
import json
import os
import sqlite3
import subprocess
import sys
import tempfile
import urllib.error
import urllib.parse
import urllib.request
import xml.etree.ElementTree as ElementTree
from collections import Counter
from pathlib import Path

REPO = Path(__file__).resolve().parents[3]
FIXTURES = REPO.parent / "shared/fixtures/coredata"
sys.path.insert(0, str(REPO / "scripts/lib"))
from demo_server import DemoServer  # noqa: E402  (the one browser-demo launcher)
from fixture_copy import private_copy  # noqa: E402
BOM = b"\xef\xbb\xbf"
PAGE = 500
SAMPLE = 20

FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")
# Attribute types whose values are written as they are (never neutralised): the API's text or number.
LITERAL_TYPES = {"Integer 16", "Integer 32", "Integer 64", "Decimal", "Double", "Float", "Boolean", "Date", "UUID"}
INTEGER_TYPES = {"Integer 16", "Integer 32", "Integer 64"}

HOSTILE_STRINGS = ['=HYPERLINK("http://x")', "+1+1", "-2", "@SUM(A1)", "\tTab", "\rCR", "a,b", 'quote " inside',
                   "line\r\nbreak", "ümlaut ☃ 😀", "", None]


# MARK: Problems


def short(value, limit: int = 200) -> str:
    """repr(value), cut in the middle when long (a base64 cell would fill the screen)."""
    text = repr(value)
    return text if len(text) <= limit else f"{text[:limit // 2]}…({len(text)} chars)…{text[-limit // 2:]}"


class Problems:
    """Mismatches, at most a few per (store, entity, parameters, column) so one bad rule does not flood the report."""

    PER_KEY = 3

    def __init__(self) -> None:
        self.messages: list[str] = []
        self.suppressed = 0
        self.per_key: Counter = Counter()

    def add(self, where: str, message: str, key: tuple = ()) -> None:
        key = (where,) + key
        self.per_key[key] += 1
        if self.per_key[key] > self.PER_KEY:
            self.suppressed += 1
            return
        self.messages.append(f"{where}: {message}")

    def cell(self, where: str, row_id: str, column: str, expected, got) -> None:
        self.add(where, f"row {row_id} column {column!r}: expected {short(expected)}, got {short(got)}", (column,))

    def __len__(self) -> int:
        return len(self.messages) + self.suppressed


# MARK: HTTP and the server


def get(base: str, path: str, params: dict | None = None) -> tuple[int, dict, bytes]:
    """GET base+path?params: (status, lower-cased headers, body). A cut chunked body is an error, not data."""
    url = base + path + ("?" + urllib.parse.urlencode(params) if params else "")
    try:
        with urllib.request.urlopen(url, timeout=120) as response:
            return response.status, {k.lower(): v for k, v in response.headers.items()}, response.read()
    except urllib.error.HTTPError as error:
        return error.code, {k.lower(): v for k, v in error.headers.items()}, error.read()
    except http.client.IncompleteRead as error:
        raise RuntimeError(f"GET {url}: body cut after {len(error.partial)} bytes (the export failed midway)")


def get_json(base: str, path: str, params: dict | None = None):
    status, _, body = get(base, path, params)
    if status != 200:
        raise RuntimeError(f"GET {path} {params or ''}: status {status}: {body[:300]!r}")
    return json.loads(body)


# MARK: The API's side


def paged_rows(base: str, entity: str, params: dict) -> tuple[int, list[dict]]:
    """Every row of the records view, page by page (limit=500): (total, rows)."""
    rows: list[dict] = []
    total = None
    while True:
        page = get_json(base, f"/api/entities/{urllib.parse.quote(entity)}", {**params, "limit": PAGE, "offset": len(rows)})
        total = page["total"] if total is None else total
        if page["total"] != total:
            raise RuntimeError(f"{entity} {params}: total changed between pages ({total} then {page['total']})")
        rows += page["rows"]
        if len(rows) >= total or not page["rows"]:
            return total, rows


def model_attribute_order(model: Path) -> dict[str, list[str]]:
    """Attribute names by entity in the order of an .xcdatamodeld's `contents` (own attributes after the parent's)."""
    contents = next(model.rglob("contents"))
    entities = {e.get("name"): e for e in ElementTree.parse(contents).getroot().iter("entity")}

    def attributes(name: str) -> list[str]:
        element = entities[name]
        inherited = attributes(element.get("parentEntity")) if element.get("parentEntity") else []
        return inherited + [a.get("name") for a in element.iter("attribute")]

    return {name: attributes(name) for name in entities}


# MARK: The expected CSV


def neutralised(text: str) -> str:
    return "'" + text if text.startswith(FORMULA_STARTS) else text


def expected_header(entity: dict) -> list[str]:
    """The header by the rule, attributes in /api/entities order (by name); compared as a set in that section."""
    columns = ["_id", "_entity", "_name"] + [a["name"] for a in entity["attributes"]]
    for relationship in sorted(entity["relationships"], key=lambda r: r["name"]):
        name = relationship["name"]
        columns += [f"{name}.count"] if relationship["toMany"] else [name, f"{name}.name"]
    return columns


def attribute_cell_matches(value, attribute_type: str, cell: str, binary_mode: str) -> tuple[bool, object]:
    """Whether a CSV cell is the value (as NDJSON/the API sent it) by the cell rules: (ok, expected for the message)."""
    if value is None:
        return cell == "", ""
    if isinstance(value, dict):
        if value.get("type") == "binary":
            expected = value.get("base64", "") if binary_mode == "base64" else str(value["bytes"])
            return cell == expected, expected
        if value.get("type") == "error":
            expected = neutralised(f"[unreadable: {value.get('message')}]")
            return cell == expected, expected
        return False, f"<unknown tagged value {value!r}>"
    if isinstance(value, bool):
        expected = "true" if value else "false"
        return cell == expected, expected
    if isinstance(value, (int, float)) and not (isinstance(value, int) and attribute_type in INTEGER_TYPES):
        # Doubles are Swift's shortest text, which Python need not spell the same way: compare the numbers.
        try:
            return float(cell) == float(value), value
        except ValueError:
            return False, value
    if isinstance(value, int):
        return cell == str(value), str(value)
    if isinstance(value, str):
        if attribute_type in LITERAL_TYPES:
            # Dates, decimals, UUIDs, 64-bit integers beyond 2^53, non-finite doubles: the API's text as it is.
            expected = value.upper() if attribute_type == "UUID" else value
            return cell == expected and value == expected, expected
        expected = neutralised(value)
        return cell == expected, expected
    return False, f"<unexpected JSON value {value!r}>"


# MARK: Parsing the files


def parse_csv(body: bytes, where: str, problems: Problems) -> list[list[str]]:
    """The rows of a CSV body, after checking it is UTF-8, CRLF-ended and quoted minimally (RFC 4180)."""
    text = body.decode("utf-8")  # a UnicodeDecodeError is itself a failure worth its traceback
    rows = list(csv.reader(io.StringIO(text, newline=""), strict=True))
    rewritten = io.StringIO(newline="")
    csv.writer(rewritten, lineterminator="\r\n", quoting=csv.QUOTE_MINIMAL).writerows(rows)
    if rewritten.getvalue() != text:
        first = next((i for i, (a, b) in enumerate(zip(rewritten.getvalue(), text)) if a != b), min(len(text), len(rewritten.getvalue())))
        problems.add(where, f"CSV is not RFC 4180 with CRLF rows and minimal quoting: at character {first} got "
                            f"{text[max(0, first - 40):first + 40]!r}, expected {rewritten.getvalue()[max(0, first - 40):first + 40]!r}",
                     ("rfc4180",))
    return rows


def parse_ndjson(body: bytes, where: str, problems: Problems) -> list[dict]:
    if body and not body.endswith(b"\n"):
        problems.add(where, "NDJSON does not end with a newline", ("ndjson",))
    lines = []
    raw_lines = body.split(b"\n")[:-1] if body.endswith(b"\n") else body.split(b"\n") if body else []
    for number, line in enumerate(raw_lines, 1):
        if line.endswith(b"\r"):
            problems.add(where, f"NDJSON line {number} ends with CR", ("ndjson-cr",))
        try:
            value = json.loads(line)
        except ValueError as error:
            problems.add(where, f"NDJSON line {number} is not JSON ({error}): {line[:200]!r}", ("ndjson",))
            continue
        if not isinstance(value, dict):
            problems.add(where, f"NDJSON line {number} is not an object: {line[:200]!r}", ("ndjson",))
            continue
        lines.append(value)
    return lines


# MARK: One export


def export(base: str, entity: str, params: dict, fmt: str, extra: dict | None = None) -> tuple[int, dict, bytes]:
    return get(base, f"/api/entities/{urllib.parse.quote(entity)}/export", {**params, "format": fmt, **(extra or {})})


def expected_filename(entity: str, params: dict, fmt: str) -> str:
    name = entity
    if params.get("relatedTo"):
        source_entity, short = params["relatedTo"].rstrip("/").split("/")[-2:]
        name = f"{source_entity}-{short}-{params['via']}"
    search = (params.get("search") or "").strip(" ")
    if search:
        name += "-search-" + "".join(c if c.isalnum() or c == "-" else "_" for c in search[:40])
    return f"{name}.{fmt}"


def same_value(exported, listed) -> bool:
    """Whether an export's value is what a list page showed: equal, or, where the page sent long text cut
    (``{"type": "text", "truncated": true, "preview", "bytes"}``, docs/API.md "Long values"), the whole text that
    starts with the preview and has that many UTF-8 bytes."""
    if isinstance(listed, dict) and set(listed) != set() and listed.get("type") == "text" and listed.get("truncated"):
        return (isinstance(exported, str) and exported.startswith(listed.get("preview", ""))
                and len(exported.encode("utf-8")) == listed.get("bytes"))
    if isinstance(exported, dict) and isinstance(listed, dict):
        return set(exported) == set(listed) and all(same_value(exported[k], listed[k]) for k in exported)
    return exported == listed


def without_base64(value):
    """An NDJSON binary=base64 value as the API sends it (the API never carries the bytes)."""
    if isinstance(value, dict) and value.get("type") == "binary":
        return {k: v for k, v in value.items() if k != "base64"}
    return value


def check_headers(where: str, headers: dict, fmt: str, entity: str, params: dict, total: int, problems: Problems) -> None:
    disposition = headers.get("content-disposition", "")
    filename = expected_filename(entity, params, fmt)
    if not disposition.startswith(f'attachment; filename="{filename}"'):
        problems.add(where, f"{fmt} Content-Disposition: expected attachment; filename=\"{filename}\"…, got {disposition!r}", ("disposition", fmt))
    if headers.get("transfer-encoding", "").lower() != "chunked":
        problems.add(where, f"{fmt} Transfer-Encoding: expected chunked, got {headers.get('transfer-encoding')!r}", ("chunked", fmt))
    content_type = {"csv": "text/csv; charset=utf-8", "ndjson": "application/x-ndjson; charset=utf-8"}[fmt]
    if headers.get("content-type") != content_type:
        problems.add(where, f"{fmt} Content-Type: expected {content_type!r}, got {headers.get('content-type')!r}", ("type", fmt))
    count = headers.get("x-total-count")
    if params.get("search"):
        if count is not None:
            problems.add(where, f"{fmt} X-Total-Count sent with a search: {count!r}", ("total", fmt))
    elif count != str(total):
        problems.add(where, f"{fmt} X-Total-Count: expected {total} (the API's total), got {count!r}", ("total", fmt))


def check_export(base: str, store: str, entity: dict, params: dict, problems: Problems,
                 model_order: dict[str, list[str]] | None = None, binary_mode: str = "size") -> dict:
    """Exports one records view as CSV and NDJSON and compares both with the paged API. Returns the parsed files."""
    name = entity["name"]
    label = "&".join(f"{k}={v}" for k, v in params.items()) or "all"
    where = f"{store} {name} [{label}]"
    total, rows = paged_rows(base, name, params)
    if len(rows) != total:
        problems.add(where, f"the paged API gave {len(rows)} rows for a total of {total}", ("paged",))
    extra = {"binary": binary_mode} if binary_mode != "size" else None

    files = {}
    for fmt in ("csv", "ndjson"):
        status, headers, body = export(base, name, params, fmt, extra)
        if status != 200:
            problems.add(where, f"{fmt} export: status {status}: {body[:300]!r}", ("status", fmt))
            return {"rows": len(rows), "csv": [], "ndjson": []}
        check_headers(where, headers, fmt, name, params, total, problems)
        if body.startswith(BOM):
            problems.add(where, f"{fmt} export starts with a BOM without bom=1", ("bom", fmt))
        files[fmt] = body
    table = parse_csv(files["csv"], where, problems)
    lines = parse_ndjson(files["ndjson"], where, problems)
    header, records = (table[0], table[1:]) if table else ([], [])

    # Counts and order.
    if not (len(records) == len(lines) == total):
        problems.add(where, f"counts differ: CSV {len(records)} rows, NDJSON {len(lines)} lines, API total {total}", ("count",))
    api_ids = [row["id"] for row in rows]
    for kind, ids in (("CSV", [r[0] if r else None for r in records]), ("NDJSON", [line.get("id") for line in lines])):
        if ids != api_ids:
            index = next((i for i, (a, b) in enumerate(zip(ids, api_ids)) if a != b), min(len(ids), len(api_ids)))
            problems.add(where, f"{kind} IDs not in the paged API's order: first difference at row {index}: "
                                f"expected {api_ids[index] if index < len(api_ids) else '<end>'}, "
                                f"got {ids[index] if index < len(ids) else '<end>'}", ("order", kind))

    # NDJSON lines == API rows (a list's long text comes cut, with its whole length: the export has it whole).
    relationships = {r["name"]: r for r in entity["relationships"]}
    for line, row in zip(lines, rows):
        for key in ("id", "entity", "summary", "attrs"):
            value = line.get(key)
            if key == "attrs" and binary_mode == "base64" and isinstance(value, dict):
                value = {k: without_base64(v) for k, v in value.items()}
            if not same_value(value, row.get(key)):
                if key == "attrs" and isinstance(value, dict) and isinstance(row.get(key), dict):
                    for name in sorted(set(value) | set(row["attrs"])):
                        if not same_value(value.get(name, KeyError), row["attrs"].get(name, KeyError)):
                            problems.cell(where, row["id"], f"NDJSON attrs.{name}", row["attrs"].get(name, "<absent>"),
                                          value.get(name, "<absent>"))
                    continue
                problems.cell(where, row["id"], f"NDJSON {key}", row.get(key), value)
        related = line.get("relationships")
        if not isinstance(related, dict) or set(related) != set(relationships):
            problems.add(where, f"NDJSON row {row['id']} relationships keys {sorted(related or {})}, expected {sorted(relationships)}", ("ndjson-rel",))
            continue
        for rel_name, value in related.items():
            good = (isinstance(value, dict) and set(value) == {"count"} and isinstance(value["count"], int)) \
                if relationships[rel_name]["toMany"] else \
                (value is None or (isinstance(value, dict) and set(value) == {"id", "entity", "summary"}))
            if not good:
                problems.cell(where, row["id"], f"NDJSON relationships.{rel_name}", "to-many {count} / to-one {id,entity,summary}|null", value)

    # The CSV header.
    wanted = expected_header(entity)
    attribute_count = len(entity["attributes"])
    fixed, attributes, rest = header[:3], header[3:3 + attribute_count], header[3 + attribute_count:]
    if fixed != wanted[:3] or sorted(attributes) != sorted(wanted[3:3 + attribute_count]) or rest != wanted[3 + attribute_count:]:
        problems.add(where, f"CSV header: expected (attributes in any order) {wanted}, got {header}", ("header",))
    elif model_order is not None and name in model_order and attributes != model_order[name]:
        problems.add(where, f"CSV header attributes not in model order: expected {model_order[name]}, got {attributes}", ("header-order",))

    # Every CSV cell from the NDJSON line.
    types = {a["name"]: a["type"] for a in entity["attributes"]}
    for record, line in zip(records, lines):
        row_id = line.get("id")
        if len(record) != len(header):
            problems.add(where, f"row {row_id}: {len(record)} cells for {len(header)} columns", ("width",))
            continue
        cells = dict(zip(header, record))
        for column, expected in (("_id", line.get("id")), ("_entity", line.get("entity")),
                                 ("_name", neutralised(line.get("summary") or ""))):
            if cells.get("_id" if column == "_id" else column) != expected:
                problems.cell(where, row_id, column, expected, cells.get(column))
        attrs = line.get("attrs") or {}
        for attribute, attribute_type in types.items():
            if attribute not in cells:
                continue
            ok, expected = attribute_cell_matches(attrs.get(attribute), attribute_type, cells[attribute], binary_mode)
            if not ok:
                problems.cell(where, row_id, attribute, expected, cells[attribute])
        for rel_name, relationship in relationships.items():
            value = (line.get("relationships") or {}).get(rel_name)
            if relationship["toMany"]:
                expected = {f"{rel_name}.count": str(value["count"]) if isinstance(value, dict) and "count" in value else ""}
            elif isinstance(value, dict):
                expected = {rel_name: value.get("id"), f"{rel_name}.name": neutralised(value.get("summary") or "")}
            else:
                expected = {rel_name: "", f"{rel_name}.name": ""}
            for column, text in expected.items():
                if cells.get(column) != text:
                    problems.cell(where, row_id, column, text, cells.get(column))

    sampled = check_relationship_sample(base, where, lines, relationships, problems)
    return {"rows": len(rows), "csv": table, "ndjson": lines, "sampled": sampled, "where": where}


def check_relationship_sample(base: str, where: str, lines: list[dict], relationships: dict, problems: Problems) -> int:
    """Up to SAMPLE records, spread over the file: relationships as GET /api/object has them."""
    if not lines or not relationships:
        return 0
    count = min(SAMPLE, len(lines))
    indexes = sorted({round(i * (len(lines) - 1) / max(count - 1, 1)) for i in range(count)})
    for index in indexes:
        line = lines[index]
        object_ = get_json(base, "/api/object", {"id": line["id"]})
        by_name = {r["name"]: r for r in object_.get("relationships", [])}
        for rel_name, relationship in relationships.items():
            truth = by_name.get(rel_name)
            got = (line.get("relationships") or {}).get(rel_name)
            if truth is None:
                problems.cell(where, line["id"], f"relationships.{rel_name}", "a relationship /api/object lists", "none there")
                continue
            if relationship["toMany"]:
                expected = {"count": truth["count"]}
            elif truth["count"] == 0 or not truth["items"]:
                expected = None
            else:
                item = truth["items"][0]
                expected = {"id": item["id"], "entity": item["entity"], "summary": item["summary"]}
            if got != expected:
                problems.cell(where, line["id"], f"relationships.{rel_name} (vs /api/object)", expected, got)
    return len(indexes)


# MARK: Stores


def check_store(base: str, store: str, problems: Problems, model_order: dict | None = None) -> list[dict]:
    """Every entity of a store, exported whole. Prints one line for the store."""
    entities = get_json(base, "/api/entities")
    results = []
    rows = sampled = 0
    before = len(problems)
    for entity in entities:
        result = check_export(base, store, entity, {}, problems, model_order)
        results.append(result)
        rows += result["rows"]
        sampled += result.get("sampled", 0)
    status = "ok" if len(problems) == before else f"{len(problems) - before} problems"
    print(f"{store}: {len(entities)} entities, {rows} rows exported as CSV and NDJSON, "
          f"{sampled} records' relationships checked against /api/object: {status}")
    return entities


def check_variants(base: str, store: str, entities: list[dict], problems: Problems) -> None:
    """The demo store's records views with sort/order, search and relatedTo/via, compared with the paged API."""
    by_name = {e["name"]: e for e in entities}
    variants: list[tuple[dict, dict]] = []
    for entity in entities:
        sortable = [a for a in entity["attributes"] if a["type"] not in ("Binary", "Transformable", "Undefined", "ObjectID")]
        if sortable:
            preferred = next((a for a in sortable if a["name"] in ("pageCount", "name")), sortable[0])
            variants.append((entity, {"sort": preferred["name"], "order": "desc"}))
        if any(a["type"] == "String" for a in entity["attributes"]):
            variants.append((entity, {"search": "a"}))
    book = by_name.get("Book")
    if book:
        variants.append((book, {"search": "the", "searchAttr": "title", "sort": "title", "order": "asc"}))
    author = by_name.get("Author")
    if author and book:
        _, authors = paged_rows(base, "Author", {})
        counts = {a["id"]: get_json(base, "/api/object", {"id": a["id"]}) for a in authors}
        best = max(counts, key=lambda i: next(r["count"] for r in counts[i]["relationships"] if r["name"] == "books"))
        variants.append((book, {"relatedTo": best, "via": "books"}))
        variants.append((book, {"relatedTo": best, "via": "books", "sort": "rating", "order": "desc"}))
        variants.append((book, {"relatedTo": best, "via": "books", "search": "e"}))
    for entity, params in variants:
        before = len(problems)
        result = check_export(base, store, entity, params, problems)
        matched = result["rows"]
        status = "ok" if len(problems) == before else f"{len(problems) - before} problems"
        if matched == 0 and not params.get("sort"):
            problems.add(result.get("where", store), "the variant matched no rows: it proves nothing", ("empty",))
            status = "matched nothing"
        print(f"{result.get('where', store)}: {matched} rows, CSV = NDJSON = paged API: {status}")


def check_options(base: str, store: str, problems: Problems) -> None:
    """bom=1, binary=base64, and the refusals (bad format/bom/binary: 400 JSON; unknown entity: 404)."""
    where = f"{store} options"
    before = len(problems)
    for fmt in ("csv", "ndjson"):
        _, _, plain = export(base, "Book", {}, fmt)
        status, _, marked = export(base, "Book", {}, fmt, {"bom": "1"})
        if status != 200 or marked[:3] != BOM or marked[3:] != plain:
            problems.add(where, f"bom=1 {fmt}: expected EF BB BF + the {len(plain)} bytes without it, got status {status}, "
                                f"{len(marked)} bytes starting {marked[:8]!r}", ("bom", fmt))
    refusals = [("format=xml", "Book", {"format": "xml"}, 400), ("no format", "Book", {}, 400),
                ("bom=2", "Book", {"format": "csv", "bom": "2"}, 400), ("binary=hex", "Book", {"format": "csv", "binary": "hex"}, 400),
                ("order=up", "Book", {"format": "csv", "order": "up"}, 400),
                ("unknown entity", "NoSuchEntity", {"format": "csv"}, 404)]
    for label, entity, params, expected in refusals:
        status, headers, body = get(base, f"/api/entities/{entity}/export", params)
        try:
            error = json.loads(body).get("error")
        except ValueError:
            error = None
        if status != expected or not headers.get("content-type", "").startswith("application/json") or not error:
            problems.add(where, f"{label}: expected {expected} with a JSON {{\"error\"}}, got {status} "
                                f"{headers.get('content-type')!r} {body[:200]!r}", (label,))

    # binary=base64: every cell and NDJSON value carries the blob's bytes (checked against /api/object/blob).
    book = next(e for e in get_json(base, "/api/entities") if e["name"] == "Book")
    result = check_export(base, store, book, {}, problems, binary_mode="base64")
    blobs = 0
    for line in result["ndjson"]:
        for attribute, value in (line.get("attrs") or {}).items():
            if isinstance(value, dict) and value.get("type") == "binary" and blobs < SAMPLE:
                decoded = base64.b64decode(value.get("base64", ""), validate=True)
                _, _, served_bytes = get(base, "/api/object/blob", {"id": line["id"], "attr": attribute})
                blobs += 1
                if len(decoded) != value["bytes"] or decoded != served_bytes:
                    problems.cell(where, line["id"], f"{attribute} (base64)", f"{len(served_bytes)} bytes of /api/object/blob",
                                  f"{len(decoded)} bytes (bytes={value['bytes']})")
    if blobs == 0:
        problems.add(where, "binary=base64: no binary value in Book to compare", ("base64",))
    status = "ok" if len(problems) == before else f"{len(problems) - before} problems"
    print(f"{where}: bom=1 (csv, ndjson), binary=base64 ({result['rows']} rows, {blobs} values vs /api/object/blob), "
          f"{len(refusals)} refusals (400/404 JSON): {status}")


def fixture_stores() -> list[Path] | None:
    if not (FIXTURES / "SOURCES.md").exists():
        return None
    return sorted(p for p in FIXTURES.rglob("*") if p.suffix in (".sqlite", ".store") and p.is_file())


# MARK: The hostile store


def make_hostile_store(folder: Path) -> tuple[Path, Path, dict]:
    """A generated Library store whose Book titles/summaries, an author's name and a narrator are hostile strings,
    and one book holds negative numbers. Returns (store, model, what was written by Z_PK)."""
    store = folder / "hostile.sqlite"
    subprocess.run([sys.executable, str(REPO / "scripts/bench/generate_store.py"), "--books", "2000", "--out", str(store)],
                   check=True, capture_output=True)
    db = sqlite3.connect(store)
    columns = {row[1] for row in db.execute("PRAGMA table_info(ZBOOK)")}
    needed = {"ZTITLE", "ZSUMMARY", "ZPAGECOUNT", "ZRATING", "ZWORDCOUNT", "ZPRICE", "ZNARRATOR", "ZAUTHOR"}
    if not needed <= columns or "ZNAME" not in {row[1] for row in db.execute("PRAGMA table_info(ZAUTHOR)")}:
        raise RuntimeError(f"generate_store.py's ZBOOK has columns {sorted(columns)}, expected {sorted(needed)}")
    books = [pk for (pk,) in db.execute("SELECT Z_PK FROM ZBOOK WHERE Z_ENT = 2 ORDER BY Z_PK LIMIT ?", (len(HOSTILE_STRINGS),))]
    written: dict = {"books": {}}
    for index, pk in enumerate(books):
        title = HOSTILE_STRINGS[index]
        summary = HOSTILE_STRINGS[(index + 5) % len(HOSTILE_STRINGS)]
        db.execute("UPDATE ZBOOK SET ZTITLE = ?, ZSUMMARY = ? WHERE Z_PK = ?", (title, summary, pk))
        written["books"][pk] = {"title": title, "summary": summary}
    negative = books[0]
    db.execute("UPDATE ZBOOK SET ZPAGECOUNT = -5, ZRATING = -2.5, ZWORDCOUNT = -7, ZPRICE = -3.5 WHERE Z_PK = ?", (negative,))
    written["negative"] = negative
    (author,) = db.execute("SELECT ZAUTHOR FROM ZBOOK WHERE Z_PK = ?", (negative,)).fetchone()
    db.execute("UPDATE ZAUTHOR SET ZNAME = ? WHERE Z_PK = ?", ("=cmd|' /C calc'!A0", author))
    written["author"] = author
    db.execute("UPDATE ZBOOK SET ZRATING = ?, ZWORDCOUNT = ? WHERE Z_PK = ?", (float("inf"), 2**53 + 1, books[1]))
    db.execute("UPDATE ZBOOK SET ZRATING = ?, ZWORDCOUNT = ? WHERE Z_PK = ?", (float("-inf"), -(2**63), books[2]))
    written["beyond"] = (books[1], books[2])
    (audio,) = db.execute("SELECT Z_PK FROM ZBOOK WHERE Z_ENT = 3 ORDER BY Z_PK LIMIT 1").fetchone()
    db.execute("UPDATE ZBOOK SET ZNARRATOR = ? WHERE Z_PK = ?", ("-Narrator, \"the\" one", audio))
    written["audio"] = audio
    # A Float attribute (the generator's model has none): Tag.weight, column ZWEIGHT, values a Float cannot hold
    # exactly, so its CSV cell must read back to the Float's value as the API sends it (0.1, not 0.10000000149011612).
    db.execute("ALTER TABLE ZTAG ADD COLUMN ZWEIGHT FLOAT")
    for pk, weight in ((1, 0.1), (2, -0.25), (3, 1e-7), (4, 16777216.0), (5, 3.14159)):
        db.execute("UPDATE ZTAG SET ZWEIGHT = ? WHERE Z_PK = ?", (weight, pk))
    db.commit()
    db.close()
    model = folder / "Library.xcdatamodeld"
    contents = next(model.rglob("contents"))
    tag = '<attribute name="name" attributeType="String"/>\n        <relationship name="books" optional="YES" toMany="YES" deletionRule="Nullify" destinationEntity="Book" inverseName="tags"'
    text = contents.read_text()
    if text.count(tag) != 1:
        raise RuntimeError(f"generate_store.py's model changed: no single Tag.name attribute line in {contents}")
    contents.write_text(text.replace(tag, tag.replace('<attribute name="name" attributeType="String"/>',
        '<attribute name="name" attributeType="String"/>\n        <attribute name="weight" optional="YES" attributeType="Float" usesScalarValueType="YES"/>')))
    return store, model, written


def check_hostile_cells(base: str, written: dict, problems: Problems) -> int:
    """The hostile values' cells, spelled out (not derived by the same code as the general check)."""
    where = "hostile store cells"
    results = {name: export(base, name, {}, "csv")[2] for name in ("Book", "Author", "AudioBook", "Tag")}
    tables = {name: list(csv.reader(io.StringIO(body.decode("utf-8"), newline=""))) for name, body in results.items()}
    books = {row[0].rsplit("/p", 1)[-1]: dict(zip(tables["Book"][0], row)) for row in tables["Book"][1:]}
    ndjson = {line["id"].rsplit("/p", 1)[-1]: line for line in parse_ndjson(export(base, "Book", {}, "ndjson")[2], where, problems)}
    checked = 0

    def expect(row_id, column, cells, wanted) -> None:
        nonlocal checked
        checked += 1
        if cells.get(column) != wanted:
            problems.cell(where, row_id, column, wanted, cells.get(column))

    spelled = {'=HYPERLINK("http://x")': '\'=HYPERLINK("http://x")', "+1+1": "'+1+1", "-2": "'-2", "@SUM(A1)": "'@SUM(A1)",
               "\tTab": "'\tTab", "\rCR": "'\rCR", "a,b": "a,b", 'quote " inside': 'quote " inside',
               "line\r\nbreak": "line\r\nbreak", "ümlaut ☃ 😀": "ümlaut ☃ 😀", "": "", None: ""}
    for pk, values in written["books"].items():
        cells = books.get(str(pk), {})
        for column in ("title", "summary"):
            expect(f"Book p{pk}", column, cells, spelled[values[column]])
            line_value = ndjson.get(str(pk), {}).get("attrs", {}).get(column, KeyError)
            if line_value != values[column]:  # "" stays "", NULL stays null in NDJSON
                problems.cell(where, f"Book p{pk}", f"NDJSON attrs.{column}", values[column], line_value)
    body = results["Book"]
    for raw in (b'"quote "" inside"', b'"\'\rCR"', b'"a,b"', b'"line\r\nbreak"', b"'\tTab", "ümlaut ☃ 😀".encode()):
        checked += 1
        if raw not in body:
            problems.add(where, f"Book.csv does not hold the bytes {raw!r}", (raw,))

    negative = books.get(str(written["negative"]), {})
    for column, wanted in (("pageCount", "-5"), ("rating", "-2.5"), ("wordCount", "-7"), ("price", "-3.5")):
        expect(f"Book p{written['negative']}", column, negative, wanted)
    for pk, rating, words in zip(written["beyond"], ("Infinity", "-Infinity"), (str(2**53 + 1), str(-(2**63)))):
        expect(f"Book p{pk}", "rating", books.get(str(pk), {}), rating)
        expect(f"Book p{pk}", "wordCount", books.get(str(pk), {}), words)
    expect(f"Book p{written['negative']}", "author.name", negative, "'=cmd|' /C calc'!A0")
    authors = {row[0].rsplit("/p", 1)[-1]: dict(zip(tables["Author"][0], row)) for row in tables["Author"][1:]}
    author = authors.get(str(written["author"]), {})
    expect(f"Author p{written['author']}", "name", author, "'=cmd|' /C calc'!A0")
    expect(f"Author p{written['author']}", "_name", author, "'=cmd|' /C calc'!A0")
    audio = {row[0].rsplit("/p", 1)[-1]: dict(zip(tables["AudioBook"][0], row)) for row in tables["AudioBook"][1:]}
    expect(f"AudioBook p{written['audio']}", "narrator", audio.get(str(written["audio"]), {}), "'-Narrator, \"the\" one")
    if "narrator" in tables["Book"][0]:
        problems.add(where, "Book.csv has a narrator column: only the exported entity's attributes belong there", ("narrator",))
    tags = {row[0].rsplit("/p", 1)[-1]: dict(zip(tables["Tag"][0], row)) for row in tables["Tag"][1:]}
    expect("Tag p2", "weight", tags.get("2", {}), "-0.25")
    return checked


def check_hostile(binary: Path, problems: Problems) -> None:
    with tempfile.TemporaryDirectory() as folder:
        store, model, written = make_hostile_store(Path(folder))
        with DemoServer(binary, ["--store", str(store), "--model", str(model)]) as demo:
            base = demo.url
            check_store(base, "hostile.sqlite", problems, model_attribute_order(model))
            before = len(problems)
            checked = check_hostile_cells(base, written, problems)
            status = "ok" if len(problems) == before else f"{len(problems) - before} problems"
            print(f"hostile.sqlite cells: {len(written['books'])} books with hostile title/summary, an author, a narrator, "
                  f"negative numbers, ±Infinity, Integer 64 beyond 2^53, a Float: {checked} spelled-out cells/bytes checked: {status}")


# MARK: Main


def browser_demo() -> Path:
    path = Path(sys.argv[1] if len(sys.argv) > 1 else os.environ.get("BROWSER_DEMO", REPO / ".build/debug/browser-demo"))
    if not path.is_absolute():
        path = REPO / path
    if not path.exists() and path == REPO / ".build/debug/browser-demo":
        print("building browser-demo (swift build)…")
        subprocess.run(["swift", "build", "--product", "browser-demo"], cwd=REPO, check=True)
    if not path.exists():
        raise SystemExit(f"export check FAILED: no browser-demo at {path}")
    return path


def main() -> int:
    binary = browser_demo()
    problems = Problems()

    with DemoServer(binary) as demo:
        base = demo.url
        entities = check_store(base, "demo", problems)
        check_variants(base, "demo", entities, problems)
        check_options(base, "demo", problems)

    stores = fixture_stores()
    if stores is None:
        if os.environ.get("REQUIRE_FIXTURES") == "1":
            problems.add("fixtures", f"REQUIRE_FIXTURES=1 and no fixtures at {FIXTURES}")
        else:
            print(f"fixture stores skipped: no fixtures at {FIXTURES} (REQUIRE_FIXTURES=1 makes this a failure)")
    else:
        for store in stores:
            label = str(store.relative_to(FIXTURES))
            with tempfile.TemporaryDirectory() as folder:
                try:
                    with DemoServer(binary, ["--store", str(private_copy(store, Path(folder)))]) as demo:
                        base = demo.url
                        check_store(base, label, problems)
                except RuntimeError as error:
                    problems.add(label, str(error))
                    print(f"{label}: {error}")

    check_hostile(binary, problems)

    if problems:
        for message in problems.messages[:60]:
            print(f"  {message}")
        more = len(problems.messages) - 60
        print(f"export check FAILED: {len(problems)} problems"
              + (f" ({more} more not shown)" if more > 0 else "")
              + (f" ({problems.suppressed} repeats of a reported column not shown)" if problems.suppressed else ""))
        return 1
    print("export check passed")
    return 0


if __name__ == "__main__":
    sys.exit(main())
