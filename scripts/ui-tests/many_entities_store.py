"""A store with a Photos-sized model (65 entities), which no fixture has: written here with the standard library in
Core Data's layout, with the `.xcdatamodeld` that describes it, for the model diagram's tests.

Shape (like Photos.sqlite's): a hub entity `Asset` that 32 detail entities point at (one-to-one and one-to-many),
a person/face cluster with three relationships between the same two entities (Person.faces ↔ Face.person,
Person.keyFace ↔ Face.keyFacePerson and Person.rejectedFaces ↔ Face.rejectedPerson: drawn as one line, "×3"), two
between Asset and Person of which one has no inverse (Asset.trashedBy; Person.coverPhoto ↔ Asset.coverOfPersons), an
abstract `GenericAlbum` with three sub-entities, a folder tree related to
itself (Folder.parentFolder ↔ Folder.childFolders), a relationship whose inverse is inherited (Folder.albums ↔
Album.parentFolder, declared on GenericAlbum), a chain of moments, relationships without an inverse, and a
handful of entities related to nothing. Every entity has a few rows (its count is `rows_of(name)`).

``build(folder) -> (store, model)``; ``ENTITIES`` lists the entities (name, parent, abstract, attributes,
relationships) for the tests to compare the diagram with.
"""

from __future__ import annotations

import sqlite3
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "lib"))
from core_data_store import (  # noqa: E402  (the one writer of Core Data's scaffolding)
    create_bookkeeping_tables, entity_table, metadata_plist, write_entities, write_metadata, write_model)

STORE_UUID = "6A1B2C3D-4E5F-4061-8293-A4B5C6D7E8F9"

SQL_TYPES = {"String": "VARCHAR", "Integer 64": "INTEGER", "Integer 16": "INTEGER", "Date": "TIMESTAMP",
             "Double": "FLOAT", "Boolean": "INTEGER", "Binary": "BLOB", "UUID": "BLOB"}


def _entity(name, attributes, relationships=(), parent=None, abstract=False):
    return {"name": name, "parent": parent, "abstract": abstract, "attributes": list(attributes),
            "relationships": list(relationships)}


def _rel(name, destination, inverse=None, to_many=False):
    return {"name": name, "destination": destination, "inverse": inverse, "toMany": to_many}


def _model():
    entities = {}

    def add(entity):
        entities[entity["name"]] = entity

    asset_attributes = [("uuid", "UUID"), ("dateCreated", "Date"), ("modificationDate", "Date"), ("filename", "String"),
                        ("width", "Integer 64"), ("height", "Integer 64"), ("latitude", "Double"), ("longitude", "Double"),
                        ("favorite", "Boolean"), ("hidden", "Boolean"), ("kind", "Integer 16"), ("duration", "Double"),
                        ("title", "String"), ("cloudIdentifier", "String"), ("orientation", "Integer 16"),
                        ("thumbnail", "Binary"), ("trashedDate", "Date"), ("playbackStyle", "Integer 16")]
    add(_entity("Asset", asset_attributes, [_rel("moment", "Moment", "assets"), _rel("faces", "Face", "asset", True),
                                            _rel("keywords", "AssetKeyword", "asset", True),
                                            _rel("coverOfPersons", "Person", "coverPhoto", True),
                                            _rel("trashedBy", "Person")]))  # no inverse
    details = ["AdditionalAssetAttributes", "AssetDescription", "ExtendedAttributes", "ComputedAssetAttributes",
               "MediaAnalysisAttributes", "SceneClassification", "PhotoAnalysisAttributes", "CloudMaster",
               "UnmanagedAdjustment", "ImportSession", "SceneprintAttributes", "CharacterRecognition",
               "VisualSearchAttributes", "AssetAnalysisState", "Memory", "SuggestionAsset", "ShareParticipant",
               "DeferredRebuildFace", "LocationData", "EditedIPTCAttributes", "GenericAsset", "AudioAttributes",
               "TextUnderstanding", "ComputeSyncAttributes", "AssetContributor", "AdjustmentData", "PhotoSuggestion",
               "AssetResource", "SpatialAttributes", "StickerSuggestion", "WallpaperSuggestion", "AssetConformance"]
    for index, name in enumerate(details):
        one_to_one = index % 3 != 0
        back = name[0].lower() + name[1:] + ("" if one_to_one else "s")
        attributes = [("identifier", "String"), ("version", "Integer 64"), ("computedAt", "Date")]
        attributes += [(f"score{n}", "Double") for n in range(index % 5)]
        add(_entity(name, attributes, [_rel("asset", "Asset", back)]))
        entities["Asset"]["relationships"].append(_rel(back, name, "asset", not one_to_one))

    add(_entity("Person", [("displayName", "String"), ("fullName", "String"), ("verified", "Boolean"), ("faceCount", "Integer 64")],
                [_rel("faces", "Face", "person", True), _rel("keyFace", "Face", "keyFacePerson"),
                 _rel("rejectedFaces", "Face", "rejectedPerson", True), _rel("coverPhoto", "Asset", "coverOfPersons"),
                 _rel("contactMatches", "ContactMatch", "person", True)]))
    add(_entity("Face", [("centerX", "Double"), ("centerY", "Double"), ("size", "Double"), ("quality", "Double")],
                [_rel("asset", "Asset", "faces"), _rel("person", "Person", "faces"), _rel("keyFacePerson", "Person", "keyFace"),
                 _rel("rejectedPerson", "Person", "rejectedFaces"),
                 _rel("faceCrop", "FaceCrop", "face"), _rel("group", "FaceGroup", "faces")]))
    add(_entity("FaceCrop", [("data", "Binary"), ("state", "Integer 16")], [_rel("face", "Face", "faceCrop")]))
    add(_entity("FaceGroup", [("size", "Integer 64")], [_rel("faces", "Face", "group", True)]))
    add(_entity("ContactMatch", [("contactIdentifier", "String")], [_rel("person", "Person", "contactMatches")]))

    add(_entity("Moment", [("startDate", "Date"), ("endDate", "Date"), ("title", "String")],
                [_rel("assets", "Asset", "moment", True), _rel("highlight", "PhotosHighlight", "moments")]))
    add(_entity("PhotosHighlight", [("title", "String"), ("kind", "Integer 16")],
                [_rel("moments", "Moment", "highlight", True), _rel("parentHighlight", "DayGroupHighlight", "childHighlights")]))
    add(_entity("DayGroupHighlight", [("title", "String")],
                [_rel("childHighlights", "PhotosHighlight", "parentHighlight", True), _rel("yearHighlight", "YearHighlight", "dayGroups")]))
    add(_entity("YearHighlight", [("year", "Integer 64")], [_rel("dayGroups", "DayGroupHighlight", "yearHighlight", True)]))

    add(_entity("Keyword", [("title", "String")], [_rel("assetKeywords", "AssetKeyword", "keyword", True)]))
    add(_entity("AssetKeyword", [("weight", "Double")], [_rel("asset", "Asset", "keywords"), _rel("keyword", "Keyword", "assetKeywords")]))

    add(_entity("GenericAlbum", [("title", "String"), ("kind", "Integer 16"), ("creationDate", "Date")],
                [_rel("parentFolder", "Folder", "childCollections")], abstract=True))
    add(_entity("Album", [("customSortKey", "Integer 16")], parent="GenericAlbum"))
    add(_entity("SmartAlbum", [("query", "String")], parent="GenericAlbum"))
    add(_entity("ImportSessionAlbum", [("importDate", "Date")], parent="GenericAlbum"))
    add(_entity("Folder", [("name", "String"), ("sortKey", "Integer 64")],
                [_rel("childCollections", "GenericAlbum", "parentFolder", True),
                 # Its inverse is declared on Album's parent (GenericAlbum.parentFolder): the edge still ends at Album.
                 _rel("albums", "Album", "parentFolder", True),
                 _rel("parentFolder", "Folder", "childFolders"), _rel("childFolders", "Folder", "parentFolder", True)]))

    add(_entity("CloudSharedComment", [("text", "String"), ("date", "Date")], [_rel("commenter", "ShareParticipant")]))
    add(_entity("Share", [("title", "String"), ("url", "String")], [_rel("owner", "Person")]))
    add(_entity("SearchEntity", [("text", "String")], [_rel("person", "Person")]))
    add(_entity("DetectedFace", [("x", "Double"), ("y", "Double")], [_rel("face", "Face")]))
    for name in ["Keyword2", "GlobalKeyValue", "CloudFeedEntry", "ProcessedLocation", "BackgroundJob", "FileSystemVolume",
                 "LegacyFaceImport", "MigrationHistory", "SyncState", "Setting", "Undo", "ZoneInfo"]:
        add(_entity(name, [("key", "String"), ("value", "String"), ("updatedAt", "Date")]))
    return entities


ENTITIES = _model()


def rows_of(name: str) -> int:
    """How many records each entity has: varied, never zero for a concrete entity, none for an abstract one."""
    entity = ENTITIES[name]
    if entity["abstract"]:
        return 0
    return 1 + (sum(map(ord, name)) % 17)


def _model_xml() -> str:
    lines = ['<?xml version="1.0" encoding="UTF-8" standalone="yes"?>',
             '<model type="com.apple.IDECoreDataModeler.DataModel" documentVersion="1.0" lastSavedToolsVersion="22522" '
             'systemVersion="23F79" minimumToolsVersion="Automatic" sourceLanguage="Swift" userDefinedModelVersionIdentifier="">']
    for name in sorted(ENTITIES):
        entity = ENTITIES[name]
        extra = (f' parentEntity="{entity["parent"]}"' if entity["parent"] else "") + (' isAbstract="YES"' if entity["abstract"] else "")
        lines.append(f'    <entity name="{name}" representedClassName="{name}"{extra}>')
        for attribute, kind in sorted(entity["attributes"]):
            lines.append(f'        <attribute name="{attribute}" optional="YES" attributeType="{kind}"/>')
        for relationship in sorted(entity["relationships"], key=lambda r: r["name"]):
            many = ' toMany="YES"' if relationship["toMany"] else ' maxCount="1"'
            inverse = (f' inverseName="{relationship["inverse"]}" inverseEntity="{relationship["destination"]}"'
                       if relationship["inverse"] else "")
            lines.append(f'        <relationship name="{relationship["name"]}" optional="YES"{many} deletionRule="Nullify" '
                         f'destinationEntity="{relationship["destination"]}"{inverse}/>')
        lines.append("    </entity>")
    lines.append("</model>")
    return "\n".join(lines) + "\n"


def build(folder: Path) -> tuple[Path, Path]:
    """Writes Photos.sqlite and Photos.xcdatamodeld into `folder`; returns (store, model)."""
    model = write_model(folder, "Photos", _model_xml(), current_version=True)

    names = sorted(ENTITIES)
    number = {name: index + 1 for index, name in enumerate(names)}
    root = {}
    for name in names:
        current = name
        while ENTITIES[current]["parent"]:
            current = ENTITIES[current]["parent"]
        root[name] = current

    store = folder / "Photos.sqlite"
    db = sqlite3.connect(store)
    columns = {}
    for name in names:
        table = root[name]
        entity = ENTITIES[name]
        found = columns.setdefault(table, {})
        for attribute, kind in entity["attributes"]:
            found["Z" + attribute.upper()] = SQL_TYPES[kind]
        for relationship in entity["relationships"]:
            if not relationship["toMany"]:
                found["Z" + relationship["name"].upper()] = "INTEGER"
    for table, found in columns.items():
        definition = ", ".join(f"{column} {kind}" for column, kind in found.items())
        db.execute(entity_table(f"Z{table.upper()}", definition))
    create_bookkeeping_tables(db)
    next_key = {}
    for name in names:
        table = root[name]
        for _ in range(rows_of(name)):
            key = next_key.get(table, 0) + 1
            next_key[table] = key
            db.execute(f"INSERT INTO Z{table.upper()} (Z_PK, Z_ENT, Z_OPT) VALUES (?, ?, 1)", (key, number[name]))
    write_entities(db, [(number[name], name, number[ENTITIES[name]["parent"]] if ENTITIES[name]["parent"] else 0,
                         next_key.get(root[name], 0)) for name in names])
    write_metadata(db, STORE_UUID, metadata_plist(store_uuid=STORE_UUID))
    db.commit()
    db.close()
    return store, model
