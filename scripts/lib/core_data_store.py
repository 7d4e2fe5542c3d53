"""The SQLite scaffolding of a Core Data store, for every script that writes a synthetic one (the benchmarks'
library, the checks' and browser tests' stores): the bookkeeping tables Z_PRIMARYKEY and Z_METADATA, the entity
tables' leading columns, the model beside the store, and Z_MAX kept up when a script adds a record to a store.
What the tables hold is the caller's: each store exists for values no fixture has.

The layout is the one Core Data writes (shared/spec/coredata-sqlite-format.md): one table per root entity,
``Z<ENTITY>`` with ``Z_PK``, ``Z_ENT`` (the entity's number in Z_PRIMARYKEY) and ``Z_OPT`` first; Z_PRIMARYKEY
numbers the entities (Z_SUPER: the parent's number, 0 for a root; Z_MAX: the highest key given out in the root's
table); Z_METADATA's one row holds the store's UUID and a binary property list. Standard library only.
"""
from __future__ import annotations

import plistlib
import sqlite3
from pathlib import Path
from typing import Iterable

PRIMARY_KEY_TABLE = "CREATE TABLE Z_PRIMARYKEY (Z_ENT INTEGER PRIMARY KEY, Z_NAME VARCHAR, Z_SUPER INTEGER, Z_MAX INTEGER)"
METADATA_TABLE = "CREATE TABLE Z_METADATA (Z_VERSION INTEGER PRIMARY KEY, Z_UUID VARCHAR(255), Z_PLIST BLOB)"


def entity_table(table: str, columns: str = "") -> str:
    """The CREATE TABLE of an entity's table, `table` (``ZBOOK``) with Z_PK, Z_ENT and Z_OPT before `columns`
    (``"ZTITLE VARCHAR, ZCOVER BLOB"``), spaced as Core Data writes it."""
    return f"CREATE TABLE {table} ( Z_PK INTEGER PRIMARY KEY, Z_ENT INTEGER, Z_OPT INTEGER{', ' + columns if columns else ''} )"


def create_bookkeeping_tables(db: sqlite3.Connection) -> None:
    """Z_PRIMARYKEY and Z_METADATA, empty."""
    db.execute(PRIMARY_KEY_TABLE)
    db.execute(METADATA_TABLE)


def metadata_plist(version_hashes: dict[str, bytes] | None = None, *, store_uuid: str | None = None,
                   extra: dict | None = None) -> bytes:
    """Z_METADATA's Z_PLIST (a binary property list): the store type, the entities' version hashes (none: a model
    named with --model, or inferred from the tables, is matched by its tables), the store's UUID again when
    `store_uuid` is given (as Core Data writes it), and `extra` keys."""
    plist = {"NSStoreType": "SQLite", "NSStoreModelVersionHashes": version_hashes or {},
             "NSStoreModelVersionHashesVersion": 3, "NSStoreModelVersionIdentifiers": [""],
             "NSPersistenceFrameworkVersion": 1523}
    if store_uuid is not None:
        plist["NSStoreUUID"] = store_uuid
    plist.update(extra or {})
    return plistlib.dumps(plist, fmt=plistlib.FMT_BINARY)


def write_metadata(db: sqlite3.Connection, store_uuid: str, plist: bytes | None = None) -> None:
    """Z_METADATA's one row: the store's UUID (the host of every object ID, x-coredata://<UUID>/…) and `plist`
    (default: `metadata_plist()`)."""
    db.execute("INSERT INTO Z_METADATA VALUES (1, ?, ?)", (store_uuid, plist if plist is not None else metadata_plist()))


def write_entities(db: sqlite3.Connection, entities: Iterable[tuple[int, str, int, int]]) -> None:
    """Z_PRIMARYKEY's rows: (number, name, parent's number or 0, Z_MAX) for each entity."""
    db.executemany("INSERT INTO Z_PRIMARYKEY VALUES (?, ?, ?, ?)", list(entities))


def entity_number(db: sqlite3.Connection, name: str) -> int:
    """An entity's Z_ENT, by name."""
    return db.execute("SELECT Z_ENT FROM Z_PRIMARYKEY WHERE Z_NAME = ?", (name,)).fetchone()[0]


def record_key_given(db: sqlite3.Connection, entity: int, key: int) -> None:
    """Z_MAX after a script inserted the record `key` of `entity`, as Core Data keeps it: the highest key given out."""
    db.execute("UPDATE Z_PRIMARYKEY SET Z_MAX = ? WHERE Z_ENT = ?", (key, entity))


def write_model(folder: Path, name: str, contents: str, current_version: bool = False) -> Path:
    """The model beside a store: ``<name>.xcdatamodel/contents``, or with `current_version` a one-version bundle
    ``<name>.xcdatamodeld`` (that version and its .xccurrentversion); returns the path to give --model."""
    if not current_version:
        model = Path(folder) / f"{name}.xcdatamodel"
        model.mkdir(parents=True, exist_ok=True)
        (model / "contents").write_text(contents, encoding="utf-8")
        return model
    bundle = Path(folder) / f"{name}.xcdatamodeld"
    write_model(bundle, name, contents)
    (bundle / ".xccurrentversion").write_text(CURRENT_VERSION.format(name=name), encoding="utf-8")
    return bundle


# A model bundle's .xccurrentversion, as Xcode writes it.
CURRENT_VERSION = """<?xml version="1.0" encoding="UTF-8"?>
<!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">
<plist version="1.0">
<dict>
	<key>_XCCurrentVersionName</key>
	<string>{name}.xcdatamodel</string>
</dict>
</plist>
"""
