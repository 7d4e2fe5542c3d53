"""A store in Core Data's layout with a relationship into an abstract entity, as Photos has (Folder →
childCollections → GenericAlbum), which no fixture holds: written here with the standard library, with the
`.xcdatamodeld` describing it.

Entities: Folder (1), GenericAlbum (2, abstract), Album (3) and SmartAlbum (4), both sub-entities of GenericAlbum
and sharing its table. 1,400 albums (so counts need grouping: "1,400"): every fifth a SmartAlbum; albums 251–320 in
the folder "Family", the others in "Trips". So in primary-key order Album p251 is the 201st Album (on the third page
of 100), and SmartAlbum p255 the 51st SmartAlbum.

Folder also has `notes`, a String: "Trips" holds a long one (LONG_NOTES_LENGTH characters, as long as the text that
once made an Inspector cell 188,000 px tall), "Family" a short one.
"""

from __future__ import annotations

import sqlite3
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "lib"))
from core_data_store import (  # noqa: E402  (the one writer of Core Data's scaffolding)
    create_bookkeeping_tables, entity_table, metadata_plist, write_entities, write_metadata, write_model)

STORE_UUID = "0C7A1B2D-3E4F-4A5B-8C6D-7E8F9A0B1C2D"
ALBUMS = 1400
FOLDERS = {1: "Trips", 2: "Family"}
LONG_NOTES_LENGTH = 187_008


def long_notes() -> str:
    """Numbered lines of text, exactly LONG_NOTES_LENGTH characters."""
    lines = []
    number = 0
    while sum(len(line) + 1 for line in lines) < LONG_NOTES_LENGTH:
        number += 1
        lines.append(f"{number:05d} Trips we took, the places we saw and the people we met on the way there.")
    return "\n".join(lines)[:LONG_NOTES_LENGTH]

MODEL = """<?xml version="1.0" encoding="UTF-8" standalone="yes"?>
<model type="com.apple.IDECoreDataModeler.DataModel" documentVersion="1.0" lastSavedToolsVersion="22522" systemVersion="23F79" minimumToolsVersion="Automatic" sourceLanguage="Swift" userDefinedModelVersionIdentifier="">
    <entity name="Album" representedClassName="Album" parentEntity="GenericAlbum">
        <attribute name="kind" optional="YES" attributeType="String"/>
    </entity>
    <entity name="Folder" representedClassName="Folder">
        <attribute name="name" optional="YES" attributeType="String"/>
        <attribute name="notes" optional="YES" attributeType="String"/>
        <relationship name="childCollections" optional="YES" toMany="YES" deletionRule="Nullify" destinationEntity="GenericAlbum" inverseName="parentFolder" inverseEntity="GenericAlbum"/>
    </entity>
    <entity name="GenericAlbum" representedClassName="GenericAlbum" isAbstract="YES">
        <attribute name="title" optional="YES" attributeType="String"/>
        <relationship name="parentFolder" optional="YES" maxCount="1" deletionRule="Nullify" destinationEntity="Folder" inverseName="childCollections" inverseEntity="Folder"/>
    </entity>
    <entity name="SmartAlbum" representedClassName="SmartAlbum" parentEntity="GenericAlbum">
        <attribute name="rule" optional="YES" attributeType="String"/>
    </entity>
</model>
"""


def build(folder: Path) -> tuple[Path, Path]:
    """Writes Photos.sqlite and Photos.xcdatamodeld into `folder`; returns (store, model)."""
    model = write_model(folder, "Photos", MODEL, current_version=True)
    store = folder / "Photos.sqlite"
    db = sqlite3.connect(store)
    db.execute(entity_table("ZFOLDER", "ZNAME VARCHAR, ZNOTES VARCHAR"))
    db.execute(entity_table("ZGENERICALBUM", "ZPARENTFOLDER INTEGER, ZTITLE VARCHAR, ZKIND VARCHAR, ZRULE VARCHAR"))
    db.execute("CREATE INDEX ZGENERICALBUM_ZPARENTFOLDER_INDEX ON ZGENERICALBUM (ZPARENTFOLDER)")
    db.execute("CREATE INDEX ZGENERICALBUM_Z_ENT_INDEX ON ZGENERICALBUM (Z_ENT)")
    create_bookkeeping_tables(db)
    notes = {1: long_notes(), 2: "Family albums."}
    db.executemany("INSERT INTO ZFOLDER VALUES (?, 1, 1, ?, ?)", [(key, name, notes[key]) for key, name in FOLDERS.items()])
    rows = []
    for key in range(1, ALBUMS + 1):
        smart = key % 5 == 0
        rows.append((key, 4 if smart else 3, 2 if 251 <= key <= 320 else 1, f"Album {key:04d}",
                     None if smart else "user", "favorites" if smart else None))
    db.executemany("INSERT INTO ZGENERICALBUM VALUES (?, ?, 1, ?, ?, ?, ?)", rows)
    write_entities(db, [(1, "Folder", 0, len(FOLDERS)), (2, "GenericAlbum", 0, ALBUMS), (3, "Album", 2, 0),
                        (4, "SmartAlbum", 2, 0)])
    write_metadata(db, STORE_UUID, metadata_plist(store_uuid=STORE_UUID))
    db.commit()
    db.close()
    return store, model
