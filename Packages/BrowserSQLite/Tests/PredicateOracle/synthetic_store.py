#!/usr/bin/env python3
"""Writes the equivalence harness's synthetic store: a Core Data SQLite store (format doc §2–§9) whose model uses
every attribute type and every way Core Data stores a relationship, with values chosen to be hard (Unicode
folding, decomposed accents, LIKE's and SQL's special characters, NULLs everywhere, Int64 past 2^53, ±Infinity,
-0.0, a Decimal stored one unit off 3.3333333333, INTEGER-stored dates and decimals, Booleans stored as 2, empty
blobs, external-storage markers), and `Model.xcdatamodel` beside it. Deterministic (fixed seed).

    Author(1) ─books/author─< Book(2) [AudioBook(3) a sub-entity]
    Author.mentor: to-one without inverse;  Author.friends: many-to-many, its own inverse (REFLEXIVE)
    Book.tags <ordered many-to-many> Tag(6).books (Z_2TAGS with Z_FOK_6TAGS)
    Book.chapters <ordered one-to-many> Chapter(4).book (ZCHAPTER.ZBOOK + Z2_BOOK + Z_FOK_BOOK)
    Book.notes: to-many without inverse (ZNOTE.Z2NOTES) → Note(5)

Its description for the oracle is stores/synthetic.json.  Usage: synthetic_store.py --out DIR
"""

from __future__ import annotations

import argparse
import os
import plistlib
import random
import sqlite3
import struct

MODEL = """<?xml version="1.0" encoding="UTF-8" standalone="yes"?>
<model type="com.apple.IDECoreDataModeler.DataModel" documentVersion="1.0" lastSavedToolsVersion="22758" systemVersion="23E224" minimumToolsVersion="Automatic" sourceLanguage="Swift" userDefinedModelVersionIdentifier="">
    <entity name="AudioBook" representedClassName="AudioBook" parentEntity="Book">
        <attribute name="narrator" optional="YES" attributeType="String"/>
    </entity>
    <entity name="Author" representedClassName="Author">
        <attribute name="active" optional="YES" attributeType="Boolean" usesScalarValueType="YES"/>
        <attribute name="born" optional="YES" attributeType="Date" usesScalarValueType="NO"/>
        <attribute name="name" optional="YES" attributeType="String"/>
        <attribute name="nickname" optional="YES" attributeType="String"/>
        <attribute name="photo" optional="YES" attributeType="Binary" allowsExternalBinaryDataStorage="YES"/>
        <attribute name="rating" optional="YES" attributeType="Float" usesScalarValueType="YES"/>
        <attribute name="website" optional="YES" attributeType="URI"/>
        <relationship name="books" optional="YES" toMany="YES" deletionRule="Nullify" destinationEntity="Book" inverseName="author" inverseEntity="Book"/>
        <relationship name="friends" optional="YES" toMany="YES" deletionRule="Nullify" destinationEntity="Author" inverseName="friends" inverseEntity="Author"/>
        <relationship name="mentor" optional="YES" maxCount="1" deletionRule="Nullify" destinationEntity="Author"/>
    </entity>
    <entity name="Book" representedClassName="Book">
        <attribute name="code" optional="YES" attributeType="Integer 16" usesScalarValueType="YES"/>
        <attribute name="cover" optional="YES" attributeType="Binary"/>
        <attribute name="extra" optional="YES" attributeType="Transformable"/>
        <attribute name="identifier" optional="YES" attributeType="UUID" usesScalarValueType="NO"/>
        <attribute name="inPrint" optional="YES" attributeType="Boolean" usesScalarValueType="YES"/>
        <attribute name="pageCount" optional="YES" attributeType="Integer 32" usesScalarValueType="YES"/>
        <attribute name="price" optional="YES" attributeType="Decimal"/>
        <attribute name="publishedAt" optional="YES" attributeType="Date" usesScalarValueType="NO"/>
        <attribute name="rating" optional="YES" attributeType="Double" usesScalarValueType="YES"/>
        <attribute name="title" optional="YES" attributeType="String"/>
        <attribute name="wordCount" optional="YES" attributeType="Integer 64" usesScalarValueType="YES"/>
        <relationship name="author" optional="YES" maxCount="1" deletionRule="Nullify" destinationEntity="Author" inverseName="books" inverseEntity="Author"/>
        <relationship name="chapters" optional="YES" toMany="YES" ordered="YES" deletionRule="Cascade" destinationEntity="Chapter" inverseName="book" inverseEntity="Chapter"/>
        <relationship name="notes" optional="YES" toMany="YES" deletionRule="Cascade" destinationEntity="Note"/>
        <relationship name="tags" optional="YES" toMany="YES" ordered="YES" deletionRule="Nullify" destinationEntity="Tag" inverseName="books" inverseEntity="Tag"/>
    </entity>
    <entity name="Chapter" representedClassName="Chapter">
        <attribute name="number" optional="YES" attributeType="Integer 16" usesScalarValueType="YES"/>
        <attribute name="title" optional="YES" attributeType="String"/>
        <relationship name="book" optional="YES" maxCount="1" deletionRule="Nullify" destinationEntity="Book" inverseName="chapters" inverseEntity="Book"/>
    </entity>
    <entity name="Note" representedClassName="Note">
        <attribute name="text" optional="YES" attributeType="String"/>
    </entity>
    <entity name="Tag" representedClassName="Tag">
        <attribute name="name" optional="YES" attributeType="String"/>
        <relationship name="books" optional="YES" toMany="YES" deletionRule="Nullify" destinationEntity="Book" inverseName="tags" inverseEntity="Book"/>
    </entity>
</model>
"""

DDL = [
    "CREATE TABLE Z_PRIMARYKEY (Z_ENT INTEGER PRIMARY KEY, Z_NAME VARCHAR, Z_SUPER INTEGER, Z_MAX INTEGER)",
    "CREATE TABLE Z_METADATA (Z_VERSION INTEGER PRIMARY KEY, Z_UUID VARCHAR(255), Z_PLIST BLOB)",
    "CREATE TABLE ZAUTHOR ( Z_PK INTEGER PRIMARY KEY, Z_ENT INTEGER, Z_OPT INTEGER, ZACTIVE INTEGER, ZMENTOR INTEGER, "
    "ZBORN TIMESTAMP, ZRATING FLOAT, ZNAME VARCHAR, ZNICKNAME VARCHAR, ZWEBSITE VARCHAR, ZPHOTO BLOB )",
    "CREATE TABLE ZBOOK ( Z_PK INTEGER PRIMARY KEY, Z_ENT INTEGER, Z_OPT INTEGER, ZCODE INTEGER, ZINPRINT INTEGER, "
    "ZPAGECOUNT INTEGER, ZWORDCOUNT INTEGER, ZAUTHOR INTEGER, ZPUBLISHEDAT TIMESTAMP, ZPRICE DECIMAL, ZRATING FLOAT, "
    "ZTITLE VARCHAR, ZNARRATOR VARCHAR, ZCOVER BLOB, ZEXTRA BLOB, ZIDENTIFIER BLOB )",
    "CREATE TABLE ZCHAPTER ( Z_PK INTEGER PRIMARY KEY, Z_ENT INTEGER, Z_OPT INTEGER, ZNUMBER INTEGER, ZBOOK INTEGER, "
    "Z2_BOOK INTEGER, Z_FOK_BOOK INTEGER, ZTITLE VARCHAR )",
    "CREATE TABLE ZNOTE ( Z_PK INTEGER PRIMARY KEY, Z_ENT INTEGER, Z_OPT INTEGER, Z2NOTES INTEGER, ZTEXT VARCHAR )",
    "CREATE TABLE ZTAG ( Z_PK INTEGER PRIMARY KEY, Z_ENT INTEGER, Z_OPT INTEGER, ZNAME VARCHAR )",
    "CREATE TABLE Z_1FRIENDS ( Z_1FRIENDS INTEGER, REFLEXIVE INTEGER, PRIMARY KEY (Z_1FRIENDS, REFLEXIVE) )",
    "CREATE TABLE Z_2TAGS ( Z_2BOOKS INTEGER, Z_6TAGS INTEGER, Z_FOK_6TAGS INTEGER, PRIMARY KEY (Z_2BOOKS, Z_6TAGS) )",
    "CREATE INDEX ZAUTHOR_ZMENTOR_INDEX ON ZAUTHOR (ZMENTOR)",
    "CREATE INDEX ZBOOK_ZAUTHOR_INDEX ON ZBOOK (ZAUTHOR)",
    "CREATE INDEX ZBOOK_Z_ENT_INDEX ON ZBOOK (Z_ENT)",
    "CREATE INDEX Z_Book_byTitle ON ZBOOK (ZTITLE COLLATE BINARY ASC)",
    "CREATE INDEX Z_Book_byPageCount ON ZBOOK (ZPAGECOUNT COLLATE BINARY ASC)",
    "CREATE INDEX ZCHAPTER_ZBOOK_INDEX ON ZCHAPTER (ZBOOK)",
    "CREATE INDEX ZNOTE_Z2NOTES_INDEX ON ZNOTE (Z2NOTES)",
    "CREATE INDEX Z_1FRIENDS_REFLEXIVE_INDEX ON Z_1FRIENDS (REFLEXIVE, Z_1FRIENDS)",
    "CREATE INDEX Z_2TAGS_Z_6TAGS_INDEX ON Z_2TAGS (Z_6TAGS, Z_2BOOKS)",
]

UUID = "5E1F0C2A-9B3D-4E7A-8C61-0D2B4F6A8E10"

NAMES = ["Émile Zola", "EMILE ZOLA", "émile zola", "E\u0301mile Zola", "Straße Weiß", "STRASSE WEISS", "Ωmega Σίσυφος",
         "İlkay Öz", "ǅemal Đukić", "日本 太郎", "한국 사람", "👍 Thumb", "a*b?c", "100% _sure_", "[bracket] name", "",
         None, "Kim", "kim", "KIM", "Kwame Nkrumah", "Zoë", "zoe", "Ana", "Åsa", "ASA", "Øyvind", "ﬁsh ﬂy", "Ǻngel",
         "naïve café", "Crème Brûlée", "cafe\u0301", "CAFÉ", "Ngozi", "kaffe", "Karl", "Kåre", "Mañana", "O'Brien", "x"]
WORDS = ["Café", "cafe", "CAFÉ", "Straße", "strasse", "Garden", "river", "Ωmega", "Île", "naïve", "Résumé", "résumé",
         "Jalapeño", "日本", "한국", "emoji 👍", "50%", "a_b", "[x]", "*star*", "what?", "Zoë", "Kraków", "Œuvre", "ﬁne"]
TAGS = ["classic", "Classic", "CLASSIC", "science", "café", "cafe", "poésie", "poesie", "", None, "sci-fi", "日本"]


def float32(value: float) -> float:
    """A Float attribute's value as Core Data stores it: the float's double."""
    return struct.unpack("f", struct.pack("f", value))[0]


def write(out: str) -> str:
    os.makedirs(out, exist_ok=True)
    path = os.path.join(out, "Synthetic.sqlite")
    for suffix in ("", "-wal", "-shm", "-journal"):
        if os.path.exists(path + suffix):
            os.remove(path + suffix)
    rng = random.Random(1414)
    db = sqlite3.connect(path, isolation_level=None)
    db.execute("BEGIN")
    for statement in DDL:
        db.execute(statement)

    authors = len(NAMES)
    for pk, name in enumerate(NAMES, start=1):
        photo = rng.choice([None, bytes([1]) + rng.randbytes(5), bytes([2]) + b"5F3C-EXTERNAL" + bytes([0]), b""])
        db.execute("INSERT INTO ZAUTHOR VALUES (?, 1, 1, ?, ?, ?, ?, ?, ?, ?, ?)", (
            pk, rng.choice([None, 0, 1, 1, 2]), rng.choice([None, None, rng.randint(1, authors)]),
            rng.choice([None, -631064399, 12345.5, rng.uniform(-1e9, 7e8), 0]),
            rng.choice([None, float32(0.1), float32(4.5), float32(rng.uniform(0, 5)), -0.0]),
            name, rng.choice([None, name.lower() if name else name, "Kim", "kim"]),
            rng.choice([None, "https://example.com/a", "https://example.com/A", f"https://example.com/{pk}"]), photo))
    for a in range(1, authors + 1):
        for b in rng.sample(range(1, authors + 1), rng.choice([0, 0, 1, 2, 3])):
            if a != b:
                db.execute("INSERT OR IGNORE INTO Z_1FRIENDS VALUES (?, ?)", (b, a))

    books = 160
    for pk in range(1, books + 1):
        audio = pk % 9 == 0
        title = rng.choice([None] + NAMES[:16] + [" ".join(rng.sample(WORDS, rng.randint(1, 3))) for _ in range(6)])
        db.execute("INSERT INTO ZBOOK VALUES (?, ?, 1, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)", (
            pk, 3 if audio else 2, rng.choice([None, -3, 0, 1, 2, 3]), rng.choice([None, 0, 1, 1, 2]),
            rng.choice([None, 0, 1, 300, 301, rng.randint(1, 1500), rng.randint(1, 1500)]),
            rng.choice([None, -5, 0, 2 ** 53 + 1, 2 ** 63 - 1, rng.randint(1000, 400000)]),
            rng.choice([None] + list(range(1, authors + 1))),
            rng.choice([None, -631064399, 0, 639503569.64, rng.uniform(-3e9, 8e8), 700000000]),
            rng.choice([None, 10.11, 3.3333333332999993, 10, 0.1, 0.30000000000000004, 99.99, -2.5, 1e20]),
            rng.choice([None, 0.1, float("inf"), float("-inf"), 4.5, -0.0, rng.uniform(0, 5)]),
            title, rng.choice(["Kim Staunton", "Zoë Wanamaker", "", None]) if audio else None,
            rng.choice([None, b"", rng.randbytes(8)]), rng.choice([None, b"bplist00" + rng.randbytes(4)]),
            rng.choice([None, rng.randbytes(16)])))
    for pk, name in enumerate(TAGS, start=1):
        db.execute("INSERT INTO ZTAG VALUES (?, 6, 1, ?)", (pk, name))
    for book in range(1, books + 1):
        for order, tag in enumerate(rng.sample(range(1, len(TAGS) + 1), rng.choice([0, 1, 2, 3, 4]))):
            db.execute("INSERT INTO Z_2TAGS VALUES (?, ?, ?)", (book, tag, (order + 1) * 1024))
    chapter = 0
    for book in range(1, books + 1):
        for order in range(rng.choice([0, 0, 1, 2, 3, 5])):
            chapter += 1
            db.execute("INSERT INTO ZCHAPTER VALUES (?, 4, 1, ?, ?, ?, ?, ?)", (
                chapter, rng.choice([None, order + 1, -1]), book, 3 if book % 9 == 0 else 2, order + 1,
                rng.choice([None, f"Chapter {order + 1}", rng.choice(WORDS)])))
    for extra in range(5):  # chapters of no book
        chapter += 1
        db.execute("INSERT INTO ZCHAPTER VALUES (?, 4, 1, ?, NULL, NULL, NULL, ?)", (chapter, extra, rng.choice(WORDS)))
    for pk in range(1, 81):
        db.execute("INSERT INTO ZNOTE VALUES (?, 5, 1, ?, ?)", (pk, rng.choice([None] + list(range(1, books + 1))),
                                                                rng.choice([None, rng.choice(WORDS), rng.choice(NAMES)])))

    for number, name, parent, maximum in [(1, "Author", 0, authors), (2, "Book", 0, books), (3, "AudioBook", 2, 0),
                                          (4, "Chapter", 0, chapter), (5, "Note", 0, 80), (6, "Tag", 0, len(TAGS))]:
        db.execute("INSERT INTO Z_PRIMARYKEY VALUES (?, ?, ?, ?)", (number, name, parent, maximum))
    metadata = plistlib.dumps({"NSStoreType": "SQLite", "NSStoreModelVersionHashes": {},
                               "NSStoreModelVersionHashesVersion": 3, "NSStoreModelVersionIdentifiers": [""],
                               "NSPersistenceFrameworkVersion": 1523}, fmt=plistlib.FMT_BINARY)
    db.execute("INSERT INTO Z_METADATA VALUES (1, ?, ?)", (UUID, metadata))
    db.execute("COMMIT")
    db.close()

    model = os.path.join(out, "Model.xcdatamodel")
    os.makedirs(model, exist_ok=True)
    with open(os.path.join(model, "contents"), "w", encoding="utf-8") as file:
        file.write(MODEL)
    return path


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--out", required=True)
    args = parser.parse_args()
    print(write(args.out))


if __name__ == "__main__":
    main()
