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

import plistlib
import sqlite3
from pathlib import Path

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
CURRENT_VERSION = """<?xml version="1.0" encoding="UTF-8"?>
<!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">
<plist version="1.0"><dict><key>_XCCurrentVersionName</key><string>Photos.xcdatamodel</string></dict></plist>
"""


def write_metadata(db: sqlite3.Connection, store_uuid: str) -> None:
    """Z_METADATA as Core Data writes it (no version hashes: the model named with --model is matched by its tables)."""
    metadata = plistlib.dumps({"NSStoreType": "SQLite", "NSStoreUUID": store_uuid, "NSStoreModelVersionHashes": {},
                               "NSStoreModelVersionHashesVersion": 3, "NSStoreModelVersionIdentifiers": [""],
                               "NSPersistenceFrameworkVersion": 1523}, fmt=plistlib.FMT_BINARY)
    db.execute("INSERT INTO Z_METADATA VALUES (1, ?, ?)", (store_uuid, metadata))


def build(folder: Path) -> tuple[Path, Path]:
    """Writes Photos.sqlite and Photos.xcdatamodeld into `folder`; returns (store, model)."""
    model = folder / "Photos.xcdatamodeld"
    (model / "Photos.xcdatamodel").mkdir(parents=True, exist_ok=True)
    (model / "Photos.xcdatamodel" / "contents").write_text(MODEL)
    (model / ".xccurrentversion").write_text(CURRENT_VERSION)
    store = folder / "Photos.sqlite"
    db = sqlite3.connect(store)
    db.execute("CREATE TABLE ZFOLDER (Z_PK INTEGER PRIMARY KEY, Z_ENT INTEGER, Z_OPT INTEGER, ZNAME VARCHAR, ZNOTES VARCHAR)")
    db.execute("CREATE TABLE ZGENERICALBUM (Z_PK INTEGER PRIMARY KEY, Z_ENT INTEGER, Z_OPT INTEGER, ZPARENTFOLDER INTEGER,"
               " ZTITLE VARCHAR, ZKIND VARCHAR, ZRULE VARCHAR)")
    db.execute("CREATE INDEX ZGENERICALBUM_ZPARENTFOLDER_INDEX ON ZGENERICALBUM (ZPARENTFOLDER)")
    db.execute("CREATE INDEX ZGENERICALBUM_Z_ENT_INDEX ON ZGENERICALBUM (Z_ENT)")
    db.execute("CREATE TABLE Z_PRIMARYKEY (Z_ENT INTEGER PRIMARY KEY, Z_NAME VARCHAR, Z_SUPER INTEGER, Z_MAX INTEGER)")
    db.execute("CREATE TABLE Z_METADATA (Z_VERSION INTEGER PRIMARY KEY, Z_UUID VARCHAR(255), Z_PLIST BLOB)")
    notes = {1: long_notes(), 2: "Family albums."}
    db.executemany("INSERT INTO ZFOLDER VALUES (?, 1, 1, ?, ?)", [(key, name, notes[key]) for key, name in FOLDERS.items()])
    rows = []
    for key in range(1, ALBUMS + 1):
        smart = key % 5 == 0
        rows.append((key, 4 if smart else 3, 2 if 251 <= key <= 320 else 1, f"Album {key:04d}",
                     None if smart else "user", "favorites" if smart else None))
    db.executemany("INSERT INTO ZGENERICALBUM VALUES (?, ?, 1, ?, ?, ?, ?)", rows)
    db.executemany("INSERT INTO Z_PRIMARYKEY VALUES (?, ?, ?, ?)",
                   [(1, "Folder", 0, len(FOLDERS)), (2, "GenericAlbum", 0, ALBUMS), (3, "Album", 2, 0), (4, "SmartAlbum", 2, 0)])
    write_metadata(db, STORE_UUID)
    db.commit()
    db.close()
    return store, model
