"""A store in Core Data's layout, written here for values no fixture holds: one entity `Attachment` with a String
`name` and a Binary `payload` that allows external storage (so inline values carry the 0x01 marker and external
ones a 0x02 reference to a file in `.<store>_SUPPORT/_EXTERNAL_DATA/`), and an `.xcdatamodel` describing it.

Used by scripts/checks/content/check.py (kinds the fixtures lack), scripts/bench/content.py (large values) and the
browser tests (scripts/ui-tests/conftest.py `synthetic_server`: values no fixture or demo record has).
Standard library only.
"""

from __future__ import annotations

import sqlite3
from pathlib import Path

from core_data_store import create_bookkeeping_tables, entity_table, metadata_plist, write_entities, write_metadata, write_model

STORE_UUID = "5E7F1C2A-0B8E-4F0E-9A51-3E7D2C1B9A77"
MODEL = """<?xml version="1.0" encoding="UTF-8" standalone="yes"?>
<model type="com.apple.IDECoreDataModeler.DataModel" documentVersion="1.0" lastSavedToolsVersion="22758" systemVersion="23E224" minimumToolsVersion="Automatic" sourceLanguage="Swift" userDefinedModelVersionIdentifier="">
    <entity name="Attachment" representedClassName="Attachment" syncable="YES">
        <attribute name="name" attributeType="String"/>
        <attribute name="payload" optional="YES" attributeType="Binary" allowsExternalBinaryDataStorage="YES"/>
    </entity>
</model>
"""


def build(folder: Path, inline: dict[str, bytes | None], external: dict[str, bytes] | None = None) -> tuple[Path, Path, dict[str, int]]:
    """Writes Bench.sqlite and Model.xcdatamodel into `folder`; returns (store, model, primary key by name).
    `inline` values are stored in the row (None: a record with a name and no payload); `external` ones in files
    beside the store."""
    store = folder / "Bench.sqlite"
    db = sqlite3.connect(store)
    create_bookkeeping_tables(db)
    write_entities(db, [(1, "Attachment", 0, len(inline) + len(external or {}))])
    write_metadata(db, STORE_UUID, metadata_plist({"Attachment": b"\x01" * 32}))
    db.execute(entity_table("ZATTACHMENT", "ZNAME VARCHAR, ZPAYLOAD BLOB"))
    keys: dict[str, int] = {}
    key = 0
    for name, payload in inline.items():
        key += 1
        db.execute("INSERT INTO ZATTACHMENT VALUES (?, 1, 1, ?, ?)", (key, name, None if payload is None else b"\x01" + payload))
        keys[name] = key
    external_folder = folder / ".Bench_SUPPORT" / "_EXTERNAL_DATA"
    for name, payload in (external or {}).items():
        key += 1
        file_name = f"6A1B1C2D-0000-4000-8000-{key:012d}"
        external_folder.mkdir(parents=True, exist_ok=True)
        (external_folder / file_name).write_bytes(payload)
        db.execute("INSERT INTO ZATTACHMENT VALUES (?, 1, 1, ?, ?)", (key, name, b"\x02" + file_name.encode() + b"\x00"))
        keys[name] = key
    db.commit()
    db.close()
    return store, write_model(folder, "Model", MODEL), keys


def object_id(key: int) -> str:
    return f"x-coredata://{STORE_UUID}/Attachment/p{key}"
