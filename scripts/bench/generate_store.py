#!/usr/bin/env python3
"""Deterministic generator of large Core Data SQLite stores for the demo model (benchmark harness).

Writes a store in Core Data's exact SQLite layout (docs: shared/spec/coredata-sqlite-format.md §2–§8) for the
demo model of `Packages/BrowserMemory/Sources/BrowserMemory/DemoLibrary.swift`:

    Author(1) ─books/author─< Book(2) >─tags/books─< Tag(4);  AudioBook(3) is a sub-entity of Book

At the default size: 1,000,000 books (5 % of them AudioBooks, stored in ZBOOK with Z_ENT 3), 10,000 authors,
100 tags, about 3 tags per book, one author with 100,000 books, titles with accents and mixed case.
Beside the store it writes `Library.xcdatamodeld` (the demo model's `contents` XML with a fetch index on
Book.pageCount), so `browser-demo --store X --model Library.xcdatamodeld` needs nothing from elsewhere.
`--books N` scales everything (authors = N/100, the prolific author has N/10 books, tags stay 100).

The same arguments always give the same bytes of table content (fixed seed; no clock, no os.urandom).
A JSON sidecar `<store>.json` records what the benchmark needs (store UUID, the prolific author, the search
term and how many titles it matches with and without Unicode folding, …).

Not part of `swift test`. Usage:  generate_store.py --books 20000 --out /tmp/cdb-bench/library-20000.sqlite
"""

from __future__ import annotations

import argparse
import json
import os
import random
import sqlite3
import sys
import time
import unicodedata
import uuid
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "lib"))
from core_data_store import (  # noqa: E402  (the one writer of Core Data's scaffolding)
    METADATA_TABLE, PRIMARY_KEY_TABLE, entity_table, metadata_plist, write_entities, write_metadata,
    write_model as write_model_bundle)

SEED = 20240601
GENERATOR_VERSION = 2  # bump when the content changes, so cached stores are rebuilt

# Entity numbers (§2): roots in case-insensitive alphabetical order, each followed by its sub-entities.
ENT_AUTHOR, ENT_BOOK, ENT_AUDIOBOOK, ENT_TAG = 1, 2, 3, 4

# Seconds between the Unix epoch and Core Data's reference date 2001-01-01T00:00:00Z (§7).
REFERENCE_DATE_UNIX = 978_307_200

SEARCH_TERM = "cafe"  # matches Café / CAFÉ / café / Cafe / cafetière … only with case + diacritic folding

# Column order as Core Data writes it (§7, observation only): INTEGER group (entity by entity, root first,
# attributes before FK columns), then TIMESTAMP/DECIMAL/FLOAT, then VARCHAR, then BLOB.
DDL = [
    entity_table("ZAUTHOR", "ZBIRTHDATE TIMESTAMP, ZBIO VARCHAR, ZNAME VARCHAR"),
    entity_table("ZBOOK", "ZINPRINT INTEGER, ZPAGECOUNT INTEGER, ZWORDCOUNT INTEGER, ZAUTHOR INTEGER, "
                 "ZDURATIONMINUTES INTEGER, ZPUBLISHEDAT TIMESTAMP, ZPRICE DECIMAL, ZRATING FLOAT, ZSUMMARY VARCHAR, "
                 "ZTITLE VARCHAR, ZNARRATOR VARCHAR, ZCOVER BLOB, ZIDENTIFIER BLOB"),
    entity_table("ZTAG", "ZNAME VARCHAR"),
    # Many-to-many Book.tags <-> Tag.books (§8): table named after the side with the lower entity number
    # (Book(2).tags -> Z_2TAGS); each column is Z_<destination entity number><relationship reaching it>:
    # Book PKs are reached through Tag.books (destination Book 2) -> Z_2BOOKS; Tag PKs through Book.tags
    # (destination Tag 4) -> Z_4TAGS.
    "CREATE TABLE Z_2TAGS ( Z_2BOOKS INTEGER, Z_4TAGS INTEGER, PRIMARY KEY (Z_2BOOKS, Z_4TAGS) )",
    PRIMARY_KEY_TABLE,
    METADATA_TABLE,
]

# Created after the bulk insert (faster, same result).
INDEXES = [
    "CREATE INDEX ZBOOK_ZAUTHOR_INDEX ON ZBOOK (ZAUTHOR)",
    "CREATE INDEX ZBOOK_Z_ENT_INDEX ON ZBOOK (Z_ENT)",
    # The model declares a fetch index `byPageCount` on Book.pageCount, as an app that sorts by it would; Core Data
    # names it Z_<Entity>_<index name> (format doc §10, e.g. Z_Car_byMakerAndNumberPlate). Title stays unindexed.
    "CREATE INDEX Z_Book_byPageCount ON ZBOOK (ZPAGECOUNT COLLATE BINARY ASC)",
    "CREATE INDEX Z_2TAGS_Z_4TAGS_INDEX ON Z_2TAGS (Z_4TAGS, Z_2BOOKS)",
]

ARTICLES = ["The", "A", "Le", "La", "Les", "Das", "El", "Il", "", "", "", ""]
ADJECTIVES = [
    "Silent", "Crimson", "Lost", "Hidden", "Golden", "Broken", "Étrange", "Dernière", "Naïve", "Öde",
    "Último", "Señorial", "Fröhliche", "Bleue", "Quiet", "Ancient", "Bright", "Wild", "Frozen", "Hollow",
    "Éternel", "Sœur", "Petite", "Grüne", "Açaí", "Tiny", "Endless", "Secret", "Distant", "Little",
]
NOUNS = [
    "Café", "River", "Garden", "Château", "Mountain", "Crème", "Façade", "Fjörd", "Résumé", "Island",
    "Ångström", "Passage", "Letters", "Émigré", "Jalapeño", "Straße", "Œuvre", "Piñata", "Kraków", "Zoë",
    "Cafe", "Harbour", "Library", "Cafetière", "Lighthouse", "Orchard", "Déjà Vu", "Night", "Kitchen", "Map",
    "Forest", "Station", "Mirror", "Clockwork", "Voyage", "Winter", "Cathedral", "Señora", "Bridge", "Café Noir",
]
SUFFIXES = ["", "", "", "", " of Paris", " in Winter", " à la Carte", " at Dawn", " Revisited", " (Second Edition)",
            " and the Sea", " für Elise", " — Part II", " of the North", " Über Alles", " on the Café Terrace"]
FIRST_NAMES = [
    "Émile", "José", "Zoë", "Björk", "Ada", "Octavia", "Søren", "François", "Ngozi", "Hiroshi", "Łukasz",
    "Ana", "Chloé", "Mårten", "Raúl", "Ingrid", "Tomás", "Aoife", "Jürgen", "Inès", "Kwame", "Mei", "Dmitri",
    "Noémie", "Olúwaseun", "Pål", "Renée", "Siobhán", "Ümit", "Yaël",
]
LAST_NAMES = [
    "Zola", "Saramago", "Butler", "Byron", "Kierkegaard", "Mauriac", "Adichie", "Murakami", "Núñez", "Östlund",
    "García", "Brontë", "Müller", "Çelik", "Dvořák", "Hašek", "Ibáñez", "Jönsson", "Kowalski", "Lefèvre",
    "Moreau", "Nakamura", "O'Brien", "Petrović", "Quiñones", "Rousseau", "Schäfer", "Tanaka", "Varga", "Weiß",
]
TAG_WORDS = [
    "classic", "science", "fiction", "café culture", "notes", "poésie", "history", "mystery", "romance",
    "thriller", "biography", "cuisine", "voyage", "philosophy", "drama", "humour", "essai", "fantasy",
    "children", "art",
]
NARRATORS = ["Kim Staunton", "Leighton Pugh", "Frédérique Bel", "Jürgen Prochnow", "Zoë Wanamaker", "Ana Ortiz"]


# The demo model (BrowserMemory's DemoLibrary) as Xcode writes it in an .xcdatamodel's `contents` (format doc §14),
# plus the fetch index on Book.pageCount that the store's Z_Book_byPageCount index comes from.
MODEL_XML = """<?xml version="1.0" encoding="UTF-8" standalone="yes"?>
<model type="com.apple.IDECoreDataModeler.DataModel" documentVersion="1.0" lastSavedToolsVersion="22522" systemVersion="23F79" minimumToolsVersion="Automatic" sourceLanguage="Swift" userDefinedModelVersionIdentifier="">
    <entity name="AudioBook" representedClassName="AudioBook" parentEntity="Book">
        <attribute name="durationMinutes" attributeType="Integer 16" defaultValueString="0" usesScalarValueType="YES"/>
        <attribute name="narrator" optional="YES" attributeType="String"/>
    </entity>
    <entity name="Author" representedClassName="Author">
        <attribute name="bio" optional="YES" attributeType="String"/>
        <attribute name="birthDate" optional="YES" attributeType="Date" usesScalarValueType="NO"/>
        <attribute name="name" attributeType="String"/>
        <relationship name="books" optional="YES" toMany="YES" deletionRule="Nullify" destinationEntity="Book" inverseName="author" inverseEntity="Book"/>
    </entity>
    <entity name="Book" representedClassName="Book">
        <attribute name="cover" optional="YES" attributeType="Binary"/>
        <attribute name="identifier" attributeType="UUID" usesScalarValueType="NO"/>
        <attribute name="inPrint" attributeType="Boolean" defaultValueString="YES" usesScalarValueType="YES"/>
        <attribute name="pageCount" attributeType="Integer 32" defaultValueString="0" usesScalarValueType="YES"/>
        <attribute name="price" optional="YES" attributeType="Decimal"/>
        <attribute name="publishedAt" optional="YES" attributeType="Date" usesScalarValueType="NO"/>
        <attribute name="rating" optional="YES" attributeType="Double" usesScalarValueType="YES"/>
        <attribute name="summary" optional="YES" attributeType="String"/>
        <attribute name="title" attributeType="String"/>
        <attribute name="wordCount" optional="YES" attributeType="Integer 64" usesScalarValueType="YES"/>
        <relationship name="author" optional="YES" maxCount="1" deletionRule="Nullify" destinationEntity="Author" inverseName="books" inverseEntity="Author"/>
        <relationship name="tags" optional="YES" toMany="YES" deletionRule="Nullify" destinationEntity="Tag" inverseName="books" inverseEntity="Tag"/>
        <fetchIndex name="byPageCount">
            <fetchIndexElement property="pageCount" type="Binary" order="ascending"/>
        </fetchIndex>
    </entity>
    <entity name="Tag" representedClassName="Tag">
        <attribute name="name" attributeType="String"/>
        <relationship name="books" optional="YES" toMany="YES" deletionRule="Nullify" destinationEntity="Book" inverseName="tags" inverseEntity="Book"/>
    </entity>
</model>
"""

def write_model(directory: str) -> str:
    """Writes `<directory>/Library.xcdatamodeld` (one version, `Library.xcdatamodel/contents`); returns its path."""
    return str(write_model_bundle(Path(directory), "Library", MODEL_XML, current_version=True))


def fold(text: str) -> str:
    """Case + diacritic folding close to Core Data's CONTAINS[cd] (for the sidecar's expected count)."""
    decomposed = unicodedata.normalize("NFD", text.casefold())
    return "".join(c for c in decomposed if not unicodedata.combining(c))


def mixed_case(rng: random.Random, text: str) -> str:
    roll = rng.random()
    if roll < 0.12:
        return text.upper()
    if roll < 0.24:
        return text.lower()
    return text


def title_for(rng: random.Random, number: int) -> str:
    article = rng.choice(ARTICLES)
    words = [rng.choice(ADJECTIVES), rng.choice(NOUNS)]
    title = " ".join(w for w in [article, *words] if w) + rng.choice(SUFFIXES)
    if rng.random() < 0.3:
        title += f", Vol. {number % 97 + 1}"
    return mixed_case(rng, title)


def reference_seconds(rng: random.Random, first_year: int, last_year: int) -> float:
    """A date between two years, as seconds since 2001-01-01 (fractional, like Core Data's REAL values)."""
    start = (first_year - 1970) * 365.2425 * 86_400 - REFERENCE_DATE_UNIX
    end = (last_year - 1970) * 365.2425 * 86_400 - REFERENCE_DATE_UNIX
    value = rng.uniform(start, end)
    return round(value) if rng.random() < 0.5 else round(value, 3)


def generate(books: int, out: str, batch: int = 50_000, quiet: bool = False) -> dict:
    started = time.perf_counter()
    rng = random.Random(SEED)
    authors = max(10, books // 100)
    tags = 100
    prolific_author = 7 if authors >= 7 else 1
    store_uuid = str(uuid.UUID(int=rng.getrandbits(128), version=4)).upper()

    for suffix in ("", "-wal", "-shm", "-journal"):
        if os.path.exists(out + suffix):
            os.remove(out + suffix)
    os.makedirs(os.path.dirname(os.path.abspath(out)), exist_ok=True)
    tmp = out + ".partial"
    for suffix in ("", "-wal", "-shm", "-journal"):
        if os.path.exists(tmp + suffix):
            os.remove(tmp + suffix)

    db = sqlite3.connect(tmp, isolation_level=None)
    db.execute("PRAGMA page_size = 4096")
    db.execute("PRAGMA auto_vacuum = 2")  # incremental, as Core Data (metadata _NSAutoVacuumLevel "2")
    db.execute("PRAGMA journal_mode = WAL")  # Core Data's default since iOS 7 / OS X 10.9
    db.execute("PRAGMA synchronous = OFF")  # generation only; the file is checkpointed and closed cleanly below
    db.execute("PRAGMA cache_size = -262144")
    db.execute("BEGIN")
    for statement in DDL:
        db.execute(statement)

    # Tags (pk 1…100)
    db.executemany(
        "INSERT INTO ZTAG (Z_PK, Z_ENT, Z_OPT, ZNAME) VALUES (?, ?, 1, ?)",
        ((pk, ENT_TAG, f"{TAG_WORDS[(pk - 1) % len(TAG_WORDS)]} {(pk - 1) // len(TAG_WORDS) + 1}") for pk in range(1, tags + 1)),
    )

    # Authors
    def author_rows():
        for pk in range(1, authors + 1):
            name = f"{rng.choice(FIRST_NAMES)} {rng.choice(LAST_NAMES)}"
            if pk == prolific_author:
                name = "Émile Prolifique"
            bio = None if rng.random() < 0.5 else f"Author number {pk}; écrit des livres depuis {rng.randint(1900, 2020)}."
            birth = None if rng.random() < 0.1 else reference_seconds(rng, 1800, 2000)
            yield (pk, ENT_AUTHOR, birth, bio, name)

    db.executemany(
        "INSERT INTO ZAUTHOR (Z_PK, Z_ENT, Z_OPT, ZBIRTHDATE, ZBIO, ZNAME) VALUES (?, ?, 1, ?, ?, ?)", author_rows()
    )
    db.execute("COMMIT")

    # Books, in transactions of `batch` rows
    other_authors = [pk for pk in range(1, authors + 1) if pk != prolific_author]
    search_folded = fold(SEARCH_TERM)
    matches_folded = 0
    matches_like = 0  # what SQLite's LIKE (ASCII-only case folding, no diacritic folding) finds
    audiobooks = 0
    prolific_books = 0
    join_rows_total = 0
    book_sql = (
        "INSERT INTO ZBOOK (Z_PK, Z_ENT, Z_OPT, ZINPRINT, ZPAGECOUNT, ZWORDCOUNT, ZAUTHOR, ZDURATIONMINUTES, "
        "ZPUBLISHEDAT, ZPRICE, ZRATING, ZSUMMARY, ZTITLE, ZNARRATOR, ZCOVER, ZIDENTIFIER) "
        "VALUES (?, ?, 1, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)"
    )
    join_sql = "INSERT INTO Z_2TAGS (Z_2BOOKS, Z_4TAGS) VALUES (?, ?)"
    tag_pks = list(range(1, tags + 1))
    tag_counts = [1, 2, 3, 3, 4, 5]  # about 3 tags per book
    for first in range(1, books + 1, batch):
        last = min(books, first + batch - 1)
        book_rows = []
        join_rows = []
        for pk in range(first, last + 1):
            is_audio = pk % 20 == 0
            if is_audio:
                audiobooks += 1
            if pk % 10 == 3:  # exactly books/10 books (for books a multiple of 10) for one author
                author = prolific_author
                prolific_books += 1
            else:
                author = other_authors[rng.randrange(len(other_authors))]
            pages = rng.randint(1, 1500)
            title = title_for(rng, pk)
            folded = fold(title)
            if search_folded in folded:
                matches_folded += 1
            if SEARCH_TERM in title.lower():  # LIKE lower-cases ASCII letters only; é stays é
                matches_like += 1
            words_roll = rng.random()
            word_count = None if words_roll < 0.2 else (pages * rng.randint(200, 400) if words_roll < 0.999 else 9_007_199_254_740_993 + pk)
            published = None if rng.random() < 0.03 else reference_seconds(rng, 1850, 2024)
            price = None if rng.random() < 0.1 else round(rng.uniform(0.99, 99.99), 2)
            rating_roll = rng.random()
            rating = None if rating_roll < 0.05 else round(rng.uniform(0, 5), 3)
            summary = None if rng.random() < 0.5 else f"Volume {pk} — a story of {rng.choice(NOUNS).lower()} and {rng.choice(NOUNS)}."
            cover = rng.randbytes(rng.randint(64, 1024)) if rng.random() < 0.02 else None
            identifier = uuid.UUID(int=rng.getrandbits(128), version=4).bytes
            book_rows.append((
                pk,
                ENT_AUDIOBOOK if is_audio else ENT_BOOK,
                0 if rng.random() < 0.2 else 1,
                pages,
                word_count,
                author,
                rng.randint(30, 2400) if is_audio else None,
                published,
                price,
                rating,
                summary,
                title,
                rng.choice(NARRATORS) if is_audio else None,
                cover,
                identifier,
            ))
            for tag in sorted(rng.sample(tag_pks, rng.choice(tag_counts))):
                join_rows.append((pk, tag))
        db.execute("BEGIN")
        db.executemany(book_sql, book_rows)
        db.executemany(join_sql, join_rows)
        db.execute("COMMIT")
        join_rows_total += len(join_rows)
        if not quiet and (last == books or (last // batch) % 4 == 0):
            print(f"  {last:,} books ({time.perf_counter() - started:.1f} s)", file=sys.stderr)

    db.execute("BEGIN")
    for statement in INDEXES:
        db.execute(statement)
    write_entities(db, [
        (ENT_AUTHOR, "Author", 0, authors),
        (ENT_BOOK, "Book", 0, books),  # Z_MAX for the root table; AudioBook rows share ZBOOK's keys
        (ENT_AUDIOBOOK, "AudioBook", ENT_BOOK, 0),
        (ENT_TAG, "Tag", 0, tags),
    ])
    # Core Data's metadata for an incrementally vacuumed store (PRAGMA auto_vacuum = 2 above).
    write_metadata(db, store_uuid, metadata_plist(extra={"_NSAutoVacuumLevel": "2"}))
    db.execute("COMMIT")
    # No ANALYZE: none of the real stores in shared/fixtures has sqlite_stat1, so no peer gets planner statistics.
    db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    db.close()  # the last connection to close removes the empty -wal; the file stays in WAL mode (header 2,2)
    for suffix in ("", "-wal", "-shm"):
        if os.path.exists(tmp + suffix):
            os.replace(tmp + suffix, out + suffix)

    model_path = write_model(os.path.dirname(os.path.abspath(out)))
    elapsed = time.perf_counter() - started
    info = {
        "generatorVersion": GENERATOR_VERSION,
        "seed": SEED,
        "books": books,
        "audiobooks": audiobooks,
        "authors": authors,
        "tags": tags,
        "tagLinks": join_rows_total,
        "prolificAuthorPK": prolific_author,
        "prolificAuthorBooks": prolific_books,
        "storeUUID": store_uuid,
        "searchTerm": SEARCH_TERM,
        "searchMatchesFolded": matches_folded,
        "searchMatchesLike": matches_like,
        "indexedSortAttribute": "pageCount",
        "modelPath": model_path,
        "bytes": os.path.getsize(out),
        "seconds": round(elapsed, 1),
    }
    with open(out + ".json", "w") as sidecar:
        json.dump(info, sidecar, indent=2, sort_keys=True)
        sidecar.write("\n")
    return info


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--books", type=int, default=1_000_000, help="number of books (default 1,000,000)")
    parser.add_argument("--out", required=True, help="path of the .sqlite file to write (replaced)")
    parser.add_argument("--quiet", action="store_true")
    args = parser.parse_args()
    if args.books < 100:
        parser.error("--books must be at least 100")
    info = generate(args.books, args.out, quiet=args.quiet)
    print(
        f"Generated {args.out}: {info['books']:,} books ({info['audiobooks']:,} audiobooks), {info['authors']:,} authors, "
        f"{info['tags']} tags, {info['tagLinks']:,} book-tag links, {info['bytes'] / 1e6:.1f} MB "
        f"in {info['seconds']:.1f} s"
    )


if __name__ == "__main__":
    main()
