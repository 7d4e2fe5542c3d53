#!/usr/bin/env python3
"""Content check: every Binary and Transformable value of every fixture store, served and inspected by
browser-demo, compared with an independent reading in Python.

    scripts/checks/content/check.py [--binary .build/debug/browser-demo] [--fixtures ../shared/fixtures/coredata]

For each store file under the fixtures folder (each opened by browser-demo on a private copy, never in place),
every record's Binary and Transformable values are fetched twice:

* ``GET /api/object/blob``: the bytes must equal the column's bytes read here with Python's sqlite3 (minus
  Core Data's one-byte 0x01 external-storage marker where the attribute has one), and a ``Range`` request for a
  slice must return exactly that slice with 206;
* ``GET /api/object/content``: the kind must agree with what Python's own libraries make of the bytes:
  ``plistlib`` (binary and XML property lists, and NSKeyedArchiver archives with their root class), ``json``,
  ``gzip``/``zlib`` (and, recursively, what the inflated bytes are), PNG/GIF/JPEG signatures and dimensions,
  UTF-8 text. Values Python has no opinion on (protobuf, unknown) are counted, not compared.

Then a store written here (`scripts/lib/attachment_store.py`) holds the kinds the fixtures lack — PNG, GIF, JPEG, PDF, binary
and XML property lists, a keyed archive, JSON, gzip and zlib, UTF-16 text, a URL, a value kept in an external
file — and the hostile ones: a decompression bomb (must stop at the inflate cap and say so), truncated PNG, JPEG,
GIF, PDF, binary plist, keyed archive and JSON values, a gzip with a wrong CRC and a zlib stream with a wrong
Adler-32. Each hostile value must get its kind and the note that names its damage, and Python's own reading must
agree it is damaged (so the test values are what they claim). The others get the same comparisons.

Exits 1 on any mismatch, 2 when the fixtures are missing and ``REQUIRE_FIXTURES=1``. Without fixtures (and without
``REQUIRE_FIXTURES=1``) only the fixture stores are skipped, with a message: the synthetic store is written here,
so its phase always runs. Standard library only.
"""

from __future__ import annotations

import argparse
import gzip
import json
import os
import plistlib
import re
import sqlite3
import struct
import sys
import tempfile
import urllib.error
import urllib.parse
import urllib.request
import zlib
from pathlib import Path

REPO = Path(__file__).resolve().parents[3]
sys.path.insert(0, str(REPO / "scripts/lib"))
import attachment_store  # noqa: E402
from demo_server import DemoServer, DemoServerError  # noqa: E402
from fixture_copy import private_copy  # noqa: E402


def independent_kind(data: bytes, depth: int = 0) -> dict | None:
    """What Python's libraries make of the bytes: {kind, …details}, or None for no opinion."""
    if len(data) == 0:
        return {"kind": "empty"}
    if data.startswith(b"\x89PNG\r\n\x1a\n") and len(data) >= 24 and data[12:16] == b"IHDR":
        width, height = struct.unpack(">II", data[16:24])
        return {"kind": "png", "width": width, "height": height}
    if data[:3] == b"\xff\xd8\xff":
        offset = 2
        while offset + 9 < len(data) and data[offset] == 0xFF:
            marker, length = data[offset + 1], struct.unpack(">H", data[offset + 2:offset + 4])[0]
            if 0xC0 <= marker <= 0xCF and marker not in (0xC4, 0xC8, 0xCC):
                height, width = struct.unpack(">HH", data[offset + 5:offset + 9])
                return {"kind": "jpeg", "width": width, "height": height}
            offset += 2 + length
        return None
    if data.startswith(b"%PDF-"):
        return {"kind": "pdf", "pageCount": len(re.findall(rb"/Type\s*/Page(?![a-zA-Z])", data))}
    if data[:2] in (b"\xff\xfe", b"\xfe\xff"):
        try:
            data.decode("utf-16")
            return {"kind": "utf16Text"}
        except UnicodeDecodeError:
            return None
    if data[:6] in (b"GIF87a", b"GIF89a") and len(data) >= 10:
        width, height = struct.unpack("<HH", data[6:10])
        return {"kind": "gif", "width": width, "height": height}
    if data.startswith(b"bplist00") or (data.lstrip().startswith(b"<?xml") and b"<plist" in data[:512]):
        try:
            value = plistlib.loads(data)
        except Exception:
            return None
        binary = data.startswith(b"bplist00")
        if isinstance(value, dict) and value.get("$archiver") == "NSKeyedArchiver":
            return {"kind": "keyedArchive", "archivedClass": keyed_archive_root_class(value)}
        return {"kind": "binaryPlist" if binary else "xmlPlist"}
    if data[:2] == b"\x1f\x8b":
        try:
            inner = gzip.decompress(data)
        except Exception:
            return None
        return {"kind": "gzip", "inflatedSize": len(inner), "inner": independent_kind(inner, depth + 1) if depth < 3 else None}
    if len(data) >= 2 and data[0] & 0x0F == 8 and (data[0] << 8 | data[1]) % 31 == 0:
        try:
            inner = zlib.decompress(data)
        except Exception:
            inner = None
        if inner is not None:
            return {"kind": "zlib", "inflatedSize": len(inner), "inner": independent_kind(inner, depth + 1) if depth < 3 else None}
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError:
        return None
    stripped = text.strip()
    if stripped[:1] in ("{", "["):
        try:
            json.loads(text)
            return {"kind": "json"}
        except ValueError:
            pass
    if re.fullmatch(r"[a-zA-Z][a-zA-Z0-9+.-]*://\S+", text):
        return {"kind": "url"}
    if all(ch.isprintable() or ch in "\r\n\t" for ch in text):
        return {"kind": "utf8Text"}
    return None


def keyed_archive_root_class(archive: dict) -> str | None:
    try:
        objects = archive["$objects"]
        top = archive["$top"]
        root = next(iter(top.values())) if "root" not in top else top["root"]
        root_object = objects[root.data if isinstance(root, plistlib.UID) else root]
        class_ref = root_object["$class"]
        return objects[class_ref.data]["$classname"]
    except Exception:
        return None


def get(base: str, path: str, headers: dict[str, str] | None = None) -> tuple[int, dict, bytes]:
    request = urllib.request.Request(base + path, headers=headers or {})
    try:
        with urllib.request.urlopen(request, timeout=30) as response:
            return response.status, {k.lower(): v for k, v in response.headers.items()}, response.read()
    except urllib.error.HTTPError as error:
        return error.code, {k.lower(): v for k, v in error.headers.items()}, error.read()


def column_bytes(db: sqlite3.Connection, entity: str, attribute: str, primary_key: int) -> bytes | None:
    """The raw column value read here, independently of the server: table Z<ROOT>, column Z<ATTRIBUTE>."""
    names = {row[0]: (row[1], row[2]) for row in db.execute("SELECT Z_ENT, Z_NAME, Z_SUPER FROM Z_PRIMARYKEY")}
    by_name = {name: (ent, parent) for ent, (name, parent) in names.items()}
    if entity not in by_name:
        return None
    ent, parent = by_name[entity]
    root = entity
    while parent:
        root = names[parent][0]
        parent = names[parent][1]
    table = "Z" + root.upper()
    columns = {row[1].upper(): row[1] for row in db.execute(f'PRAGMA table_info("{table}")')}
    column = columns.get("Z" + attribute.upper())
    if column is None:
        return None
    row = db.execute(f'SELECT CAST("{column}" AS BLOB) FROM "{table}" WHERE Z_PK = ?', (primary_key,)).fetchone()
    return None if row is None or row[0] is None else bytes(row[0])


def check_store(binary: Path, store: Path, problems: list[str], stats: dict) -> None:
    with tempfile.TemporaryDirectory() as folder:
        copy = private_copy(store, Path(folder))
        demo = start(binary, ["--store", str(copy)], str(store), problems)
        if demo is None:
            return
        base = demo.url
        try:
            db = sqlite3.connect(f"file:{copy}?mode=ro", uri=True)
            status, _, body = get(base, "/api/entities")
            for entity in json.loads(body):
                byte_attributes = [a["name"] for a in entity["attributes"] if a["type"] in ("Binary", "Transformable")]
                if not byte_attributes or entity["count"] == 0:
                    continue
                offset = 0
                while True:
                    status, _, body = get(base, f"/api/entities/{urllib.parse.quote(entity['name'])}?limit=500&offset={offset}")
                    page = json.loads(body)
                    for row in page["rows"]:
                        if row["entity"] != entity["name"]:
                            continue  # a sub-entity's record: checked under its own entity
                        for attribute in byte_attributes:
                            value = row["attrs"].get(attribute)
                            if isinstance(value, dict) and value.get("type") == "binary":
                                check_value(base, db, row, attribute, store, problems, stats)
                    offset += len(page["rows"])
                    if offset >= page["total"] or not page["rows"]:
                        break
            db.close()
        finally:
            stop(demo, str(store), problems)


def start(binary: Path, arguments: list[str], where: str, problems: list[str]) -> DemoServer | None:
    """browser-demo serving with these arguments, once it prints its URL; None (and a problem) when it does not."""
    demo = DemoServer(binary, arguments)
    try:
        demo.wait_for_url()
        return demo
    except DemoServerError as error:
        problems.append(f"{where}: browser-demo did not start: {error}")
        return None


def stop(demo: DemoServer, where: str, problems: list[str]) -> None:
    """Ends browser-demo with SIGTERM, as Ctrl-C would; one that has not exited 10 s later is a problem (and killed)."""
    if not demo.stop():
        problems.append(f"{where}: browser-demo did not exit within 10 s of SIGTERM")


def content_report(base: str, query: str, where: str, problems: list[str], stats: dict) -> dict | None:
    """The server's content report of a value, counted under its kind; None (and a problem) on an error status."""
    status, _, body = get(base, f"/api/object/content?{query}")
    if status != 200:
        problems.append(f"{where}: content status {status}: {body[:200]!r}")
        return None
    report = json.loads(body)
    stats.setdefault("kinds", {})
    stats["kinds"][report.get("kind")] = stats["kinds"].get(report.get("kind"), 0) + 1
    return report


def check_value(base: str, db: sqlite3.Connection, row: dict, attribute: str, store: Path,
                problems: list[str], stats: dict) -> None:
    where = f"{store.name} {row['entity']} {row['id'].rsplit('/', 1)[-1]}.{attribute}"
    query = f"id={urllib.parse.quote(row['id'], safe='')}&attr={urllib.parse.quote(attribute)}"
    status, headers, served = get(base, f"/api/object/blob?{query}")
    if status != 200:
        problems.append(f"{where}: blob status {status}: {served[:200]!r}")
        return
    stats["values"] += 1
    raw = column_bytes(db, row["entity"], attribute, int(row["id"].rsplit("/p", 1)[-1]))
    # An external value's column holds only a reference (0x02 and a file name): its bytes are checked by the
    # synthetic phase, which wrote the file.
    if raw is not None and raw[:1] != b"\x02" and served not in (raw, raw[1:] if raw[:1] == b"\x01" else raw):
        problems.append(f"{where}: served {len(served)} bytes differ from the column's {len(raw)}")
    if headers.get("content-security-policy") != "sandbox" or headers.get("x-content-type-options") != "nosniff":
        problems.append(f"{where}: blob without CSP sandbox / nosniff: {headers}")
    if len(served) > 2:
        status, headers, part = get(base, f"/api/object/blob?{query}", {"Range": "bytes=1-2"})
        if status != 206 or part != served[1:3] or headers.get("content-range") != f"bytes 1-2/{len(served)}":
            problems.append(f"{where}: Range bytes=1-2 gave {status} {part!r} {headers.get('content-range')}")
    report = content_report(base, query, where, problems, stats)
    if report is None:
        return
    expected = independent_kind(served)
    if report.get("size") != len(served):
        problems.append(f"{where}: content size {report.get('size')} but {len(served)} bytes served")
    if expected is None:
        stats["no opinion"] += 1
        stats.setdefault("kinds without an independent reading", set()).add(report.get("kind"))
        return
    stats["compared"] += 1
    compare(where, report, expected, problems)


def compare(where: str, report: dict, expected: dict, problems: list[str]) -> None:
    if report.get("kind") != expected["kind"]:
        problems.append(f"{where}: kind {report.get('kind')!r}, Python reads {expected['kind']!r}")
        return
    image = report.get("image") or {}
    for key in ("width", "height"):
        if key in expected and image.get(key) != expected[key]:
            problems.append(f"{where}: {key} {image.get(key)} but Python reads {expected[key]}")
    if expected.get("archivedClass") and report.get("archivedClass") != expected["archivedClass"]:
        problems.append(f"{where}: archived class {report.get('archivedClass')!r}, Python reads {expected['archivedClass']!r}")
    if "pageCount" in expected and report.get("pageCount") != expected["pageCount"]:
        problems.append(f"{where}: {report.get('pageCount')} pages, Python counts {expected['pageCount']}")
    if "inflatedSize" in expected and report.get("inflatedSize") != expected["inflatedSize"]:
        problems.append(f"{where}: inflated {report.get('inflatedSize')} bytes, Python {expected['inflatedSize']}")
    if expected.get("inner"):
        compare(where + " (inflated)", report.get("inner") or {}, expected["inner"], problems)


def synthetic_values() -> tuple[dict[str, bytes], dict[str, bytes]]:
    """Inline and external values of the kinds the fixtures lack, made here with the standard library."""
    def png(width: int, height: int) -> bytes:
        raw = b"".join(b"\x00" + bytes(v for x in range(width) for v in (x * 40 % 256, y * 60 % 256, 200))
                       for y in range(height))
        chunk = lambda kind, body: struct.pack(">I", len(body)) + kind + body + struct.pack(">I", zlib.crc32(kind + body))
        return (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0))
                + chunk(b"IDAT", zlib.compress(raw)) + chunk(b"IEND", b""))
    gif = b"GIF89a" + struct.pack("<HH", 3, 2) + b"\x80\x00\x00" + b"\x00\x00\x00\xff\xff\xff" \
        + b"\x2c" + struct.pack("<HHHH", 0, 0, 3, 2) + b"\x00" + b"\x02\x02\x44\x01\x00" + b"\x3b"
    jpeg = (b"\xff\xd8" + b"\xff\xe0" + struct.pack(">H", 16) + b"JFIF\x00\x01\x01\x00\x00\x01\x00\x01\x00\x00"
            + b"\xff\xc0" + struct.pack(">HBHHB", 17, 8, 480, 640, 3) + b"\x01\x11\x00\x02\x11\x01\x03\x11\x01"
            + b"\xff\xd9")
    pdf = (b"%PDF-1.4\n1 0 obj << /Type /Catalog /Pages 2 0 R >> endobj\n"
           b"2 0 obj << /Type /Pages /Kids [3 0 R 4 0 R] /Count 2 >> endobj\n"
           b"3 0 obj << /Type /Page /Parent 2 0 R >> endobj\n4 0 obj << /Type/Page /Parent 2 0 R >> endobj\n"
           b"trailer << /Root 1 0 R >>\n%%EOF\n")
    archive = plistlib.dumps({"$archiver": "NSKeyedArchiver", "$version": 100000, "$top": {"root": plistlib.UID(1)},
                              "$objects": ["$null", {"$class": plistlib.UID(2), "NS.string": "hello"},
                                           {"$classname": "NSString", "$classes": ["NSString", "NSObject"]}]},
                             fmt=plistlib.FMT_BINARY)
    document = json.dumps({"items": [{"id": i, "name": f"item {i}"} for i in range(50)]}).encode()
    picture = png(3, 2)
    inline = {
        "png": picture, "gif": gif, "jpeg": jpeg, "pdf": pdf,
        "binary plist": plistlib.dumps({"a": [1, 2, {"b": True}]}, fmt=plistlib.FMT_BINARY),
        "xml plist": plistlib.dumps({"a": [1, 2], "c": "d"}, fmt=plistlib.FMT_XML),
        "keyed archive": archive, "json": document, "gzip": gzip.compress(document), "zlib": zlib.compress(b"plain text, compressed\n" * 20),
        "utf16": "héllo wörld\n".encode("utf-16"), "url": b"https://example.com/a/b?c=d", "text": b"first line\nsecond line\n",
    }
    return inline, {"external png": picture}


#: Hostile values: the kind the report must give, and a phrase its `problems` or `truncated` list must hold.
HOSTILE = {
    "bomb": ("gzip", "truncated", "inflated output stopped at 64 MB"),
    "truncated png": ("png", "problems", "no IEND chunk"),
    "bad gzip crc": ("gzip", "problems", "gzip CRC mismatch"),
    "truncated jpeg": ("jpeg", "problems", "no end-of-image marker"),
    "truncated gif": ("gif", "problems", "no trailer"),
    "truncated pdf": ("pdf", "problems", "no %%EOF marker"),
    "truncated binary plist": ("binaryPlist", "problems", "may be truncated"),
    "truncated keyed archive": ("binaryPlist", "problems", "may be truncated"),
    "truncated json": ("utf8Text", "problems", "ends before it closes"),
    "bad zlib adler": ("zlib", "problems", "zlib Adler-32 mismatch"),
}


def hostile_values() -> dict[str, bytes]:
    inline, _ = synthetic_values()
    good = gzip.compress(b"x" * 1000)
    return {
        "bomb": gzip.compress(b"\x00" * (80 * 1024 * 1024), 9),  # inflates past the 64 MiB cap
        "truncated png": inline["png"][:40],
        "bad gzip crc": good[:-8] + bytes(b ^ 0xFF for b in good[-8:-4]) + good[-4:],
        "truncated jpeg": inline["jpeg"][:-2],  # the frame header is there, the end-of-image marker is not
        "truncated gif": inline["gif"][:-6],
        "truncated pdf": inline["pdf"][:-20],
        "truncated binary plist": inline["binary plist"][:-10],  # the trailer (offsets, object count) is cut
        "truncated keyed archive": inline["keyed archive"][:-20],
        # Cut after an element of the array, halfway: valid so far, and nothing closes it.
        "truncated json": inline["json"][:inline["json"].index(b"}, {", len(inline["json"]) // 2) + 1],
        "bad zlib adler": inline["zlib"][:-4] + bytes(b ^ 0xFF for b in inline["zlib"][-4:]),
    }


def python_sees_the_damage(name: str, payload: bytes) -> str | None:
    """Why Python's own reading agrees the value is damaged, or None when it does not (a test of the test)."""
    def fails(reader) -> bool:
        try:
            reader()
        except Exception:
            return True
        return False
    if name == "bomb":
        inflater = zlib.decompressobj(wbits=31)
        inflater.decompress(payload, 64 * 1024 * 1024)
        return "inflates past 64 MiB" if inflater.unconsumed_tail else None
    if name == "truncated png":
        return "no IEND" if b"IEND" not in payload else None
    if name == "bad gzip crc":
        return "gzip refuses it" if fails(lambda: gzip.decompress(payload)) else None
    if name == "truncated jpeg":
        return "no FFD9" if not payload.endswith(b"\xff\xd9") else None
    if name == "truncated gif":
        return "no 0x3B trailer" if not payload.endswith(b"\x3b") else None
    if name == "truncated pdf":
        return "no %%EOF" if b"%%EOF" not in payload else None
    if name in ("truncated binary plist", "truncated keyed archive"):
        return "plistlib refuses it" if fails(lambda: plistlib.loads(payload)) else None
    if name == "truncated json":
        try:
            json.loads(payload)
        except json.JSONDecodeError as error:
            return "json stops at its end" if error.pos >= len(payload.rstrip()) else None
        return None
    if name == "bad zlib adler":
        # The DEFLATE stream itself is whole (raw inflate reads it); only the checksum is wrong.
        whole = fails(lambda: zlib.decompress(payload[2:-4], -15)) is False
        return "zlib: incorrect data check" if whole and fails(lambda: zlib.decompress(payload)) else None
    return None


def check_synthetic(binary: Path, problems: list[str], stats: dict) -> None:
    inline, external = synthetic_values()
    hostile = hostile_values()
    with tempfile.TemporaryDirectory() as folder:
        store, model, keys = attachment_store.build(Path(folder), {**inline, **hostile}, external)
        demo = start(binary, ["--store", str(store), "--model", str(model)], "the synthetic store", problems)
        if demo is None:
            return
        base = demo.url
        try:
            for name, payload in {**inline, **hostile, **external}.items():
                query = f"id={urllib.parse.quote(attachment_store.object_id(keys[name]), safe='')}&attr=payload"
                status, _, served = get(base, f"/api/object/blob?{query}")
                where = f"synthetic {name}"
                if status != 200 or served != payload:
                    problems.append(f"{where}: blob status {status}, {len(served)} bytes served of {len(payload)}")
                    continue
                stats["values"] += 1
                report = content_report(base, query, where, problems, stats)
                if report is None:
                    continue
                if name in external and (report.get("storage") != "external" or not report.get("externalName")):
                    problems.append(f"{where}: storage {report.get('storage')!r}, {report.get('externalName')!r}")
                if name in hostile:
                    kind, field, phrase = HOSTILE[name]
                    if python_sees_the_damage(name, payload) is None:
                        problems.append(f"{where}: Python reads this value as sound; the test value is wrong")
                    notes = report.get(field) or []
                    if report.get("kind") != kind or not any(phrase in note for note in notes):
                        problems.append(f"{where}: kind {report.get('kind')!r} with {field} {notes!r}; "
                                        f"expected {kind!r} and a note with {phrase!r}")
                    stats["compared"] += 1
                    continue
                expected = independent_kind(payload)
                if expected is None:
                    problems.append(f"{where}: Python has no reading of a value made to have one")
                    continue
                stats["compared"] += 1
                compare(where, report, expected, problems)
        finally:
            stop(demo, "the synthetic store", problems)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--binary", default=str(REPO / ".build/debug/browser-demo"))
    parser.add_argument("--fixtures", default=str(REPO.parent / "shared/fixtures/coredata"))
    args = parser.parse_args()
    fixtures = Path(args.fixtures)
    stores: list[Path] = []
    if (fixtures / "SOURCES.md").exists():
        stores = sorted(p for p in fixtures.rglob("*") if p.suffix in (".sqlite", ".store") and p.is_file())
    elif os.environ.get("REQUIRE_FIXTURES") == "1":
        print(f"content check FAILED: REQUIRE_FIXTURES=1 and no fixtures at {fixtures}")
        return 2
    else:
        # The synthetic store is written here, so its phase runs everywhere (GitHub CI has no fixtures).
        print(f"content check: no fixtures at {fixtures}, fixture stores skipped (REQUIRE_FIXTURES=1 makes this a "
              "failure); the synthetic store is still checked")
    problems: list[str] = []
    stats = {"values": 0, "compared": 0, "no opinion": 0}
    for store in stores:
        check_store(Path(args.binary), store, problems, stats)
    fixture_values = stats["values"]
    check_synthetic(Path(args.binary), problems, stats)
    kinds = sorted(k for k in stats.pop("kinds without an independent reading", set()) if k)
    seen = stats.pop("kinds", {})
    print(f"content check: {len(stores)} fixture stores and a synthetic one, {stats['values']} Binary/Transformable values served; "
          f"{stats['compared']} kinds compared with Python's reading, {stats['no opinion']} without one "
          f"({', '.join(kinds) or 'none'}); kinds: {', '.join(f'{k} {n}' for k, n in sorted(seen.items()))}")
    for problem in problems[:40]:
        print(f"  {problem}")
    if problems:
        print(f"content check FAILED: {len(problems)} problems")
        return 1
    if stores and fixture_values == 0:
        print("content check FAILED: the fixtures held no Binary or Transformable value")
        return 1
    print("content check passed")
    return 0


if __name__ == "__main__":
    sys.exit(main())
