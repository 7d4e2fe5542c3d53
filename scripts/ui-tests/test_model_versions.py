"""Model versions (/api/model/versions, /api/model/diff and the Model view's Versions pane) on the fixtures with
versioned models. The differences are checked against this file's own reading of the versions' `contents` XML
(ElementTree, written from the model editor's format, sharing no code with the server), for every ordered pair of
versions of each model."""

from __future__ import annotations

import itertools
import plistlib
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import Select

from conftest import FIXTURES, copy_fixture

MODELS = {
    # fixture store (matched to its version by SOURCES.md) -> (model, the version it was written with)
    "jb-model-versions/Example_v1.1.2.sqlite": ("jb-model-versions/Model.xcdatamodeld", "v1.1.2"),
    "wibosco-migration/CoreDataMigration_Example_2.sqlite":
        ("wibosco-migration/CoreDataMigration_Example.xcdatamodeld", "CoreDataMigration_Example 2"),
    "wibosco-revised/CoreDataMigration_Example_3.sqlite":
        ("wibosco-revised/CoreDataMigration_Example.xcdatamodeld", "CoreDataMigration_Example 3"),
    "bookmigration/Model1.sqlite": ("bookmigration/Model.xcdatamodeld", "Model1"),
    "bnr-coredatastack/TestModel.sqlite": ("bnr-coredatastack/Sample.xcdatamodeld", "TestModel"),
    # Its Z_PRIMARYKEY still names an entity the model renamed (SOURCES.md): the hashes decide the version.
    "coredataplus/SampleModel/SampleModel_V2.sqlite": ("coredataplus/SampleModel/SampleModel.xcdatamodeld", "SampleModel2"),
    "coredataplus/SampleModel3/SampleModel3_V1.sqlite": ("coredataplus/SampleModel3/SampleModel3.xcdatamodeld", "SampleModel3"),
}


def read_version(contents: Path) -> dict:
    """entity name -> its declared fields, attributes and relationships, as the model editor writes them."""
    flag = lambda element, name: "true" if element.get(name) == "YES" else "false"  # noqa: E731
    entities = {}
    for entity in ET.parse(contents).getroot().iter("entity"):
        attributes, relationships = {}, {}
        for attribute in entity.findall("attribute"):
            attributes[attribute.get("name")] = {
                "renaming": attribute.get("elementID"),
                "fields": {"type": attribute.get("attributeType"), "optional": flag(attribute, "optional"),
                           "transient": flag(attribute, "transient"), "defaultValue": attribute.get("defaultValueString"),
                           "minimum": attribute.get("minValueString"), "maximum": attribute.get("maxValueString"),
                           "externalStorage": flag(attribute, "allowsExternalBinaryDataStorage"),
                           "transformer": attribute.get("valueTransformerName")}}
        for relationship in entity.findall("relationship"):
            to_many = relationship.get("toMany") == "YES"
            max_count = relationship.get("maxCount")
            relationships[relationship.get("name")] = {
                "renaming": relationship.get("elementID"),
                "fields": {"destination": relationship.get("destinationEntity"), "inverse": relationship.get("inverseName"),
                           "toMany": "true" if to_many else "false", "ordered": flag(relationship, "ordered"),
                           "optional": flag(relationship, "optional"), "transient": flag(relationship, "transient"),
                           "minCount": relationship.get("minCount", "0"),
                           "maxCount": (None if max_count in (None, "0") else max_count) if to_many else "1",
                           "deleteRule": relationship.get("deletionRule")}}
        indexes = sorted(f"{index.get('name')}({','.join(e.get('property') for e in index.findall('fetchIndexElement'))})"
                         for index in entity.findall("fetchIndex"))
        constraints = sorted("+".join(c.get("value") for c in u.findall("constraint"))
                             for u in entity.findall("uniquenessConstraints/uniquenessConstraint"))
        entities[entity.get("name")] = {
            "renaming": entity.get("elementID"), "attributes": attributes, "relationships": relationships,
            "fields": {"parent": entity.get("parentEntity"), "abstract": flag(entity, "isAbstract"),
                       "className": entity.get("representedClassName"), "fetchIndexes": "; ".join(indexes),
                       "uniquenessConstraints": "; ".join(constraints)}}
    return entities


def pair(old: dict, new: dict):
    """(old name, new name) pairs: same name, else a renaming identifier naming the other; unpaired ones alone."""
    pairs, left = [], dict(old)
    unmatched = []
    for name in new:
        if name in left:
            left.pop(name)
            pairs.append((name, name))
        else:
            unmatched.append(name)
    for name in unmatched:
        renamed_from = new[name]["renaming"]
        if renamed_from in left:
            left.pop(renamed_from)
            pairs.append((renamed_from, name))
            continue
        back = next((o for o in sorted(left) if left[o]["renaming"] == name), None)
        if back is not None:
            left.pop(back)
            pairs.append((back, name))
        else:
            pairs.append((None, name))
    pairs += [(name, None) for name in sorted(left)]
    return pairs


def changed_fields(old: dict, new: dict) -> list:
    return [{"field": key, "from": old[key], "to": new[key]} for key in old if old[key] != new[key]]


def expected_difference(old_model: dict, new_model: dict) -> set:
    """Every difference as a flat, comparable tuple."""
    found = set()
    for old, new in pair(old_model, new_model):
        if new is None:
            found.add(("entity", "removed", old, None, ()))
        elif old is None:
            found.add(("entity", "added", new, None, ()))
        else:
            before, after = old_model[old], new_model[new]
            fields = changed_fields(before["fields"], after["fields"])
            properties = set()
            for kind in ("attributes", "relationships"):
                for p_old, p_new in pair(before[kind], after[kind]):
                    if p_new is None:
                        properties.add((kind, "removed", f"{new}.{p_old}", None, ()))
                    elif p_old is None:
                        properties.add((kind, "added", f"{new}.{p_new}", None, ()))
                    else:
                        p_fields = tuple(sorted(map(str, changed_fields(before[kind][p_old]["fields"], after[kind][p_new]["fields"]))))
                        if p_old != p_new:
                            properties.add((kind, "renamed", f"{new}.{p_new}", p_old, p_fields))
                        elif p_fields:
                            properties.add((kind, "changed", f"{new}.{p_new}", None, p_fields))
            if old != new or fields or properties:
                found.add(("entity", "renamed" if old != new else "changed", new, old if old != new else None,
                           tuple(sorted(map(str, fields)))))
                found |= properties
    return found


def api_difference(answer: dict) -> set:
    found = set()
    for entity in answer["entities"]:
        found.add(("entity", entity["change"], entity["name"], entity.get("previousName"),
                   tuple(sorted(map(str, entity["fields"])))))
        for kind in ("attributes", "relationships"):
            for item in entity[kind]:
                found.add((kind, item["change"], f"{entity['name']}.{item['name']}", item.get("previousName"),
                           tuple(sorted(map(str, item["fields"])))))
    return found


def serve_with_model(store_servers, store: str):
    """A server of its own for a copy of `store` opened with its versioned model (store_server's session servers
    are keyed by the store alone, and another test may serve the same store without a model)."""
    model_path, _ = MODELS[store]
    copy = copy_fixture(store, store_servers.folder("cdb-ui-versions-"))
    return store_servers.serve(copy, ["--model", str(FIXTURES / model_path)])


def versions_of(model: Path) -> tuple[dict, str]:
    current = plistlib.loads((model / ".xccurrentversion").read_bytes())["_XCCurrentVersionName"].removesuffix(".xcdatamodel")
    versions = {path.name.removesuffix(".xcdatamodel"): read_version(path / "contents")
                for path in sorted(model.glob("*.xcdatamodel"))}
    return versions, current


@pytest.mark.parametrize("store", sorted(MODELS))
def test_every_pair_of_versions_differs_as_the_contents_files_say(store, store_servers):
    model_path, written_with = MODELS[store]
    base, api = serve_with_model(store_servers, store)
    versions, current = versions_of(FIXTURES / model_path)
    listed = api("/api/model/versions")
    assert listed["available"] is True
    assert sorted(v["name"] for v in listed["versions"]) == sorted(versions)
    assert [v["name"] for v in listed["versions"] if v["current"]] == [current]
    assert [v["name"] for v in listed["versions"] if v["matchesStore"]] == [written_with]
    assert [v["name"] for v in listed["versions"] if v["used"]] == [written_with]
    compared = 0
    for old, new in itertools.permutations(sorted(versions), 2):
        expected = expected_difference(versions[old], versions[new])
        assert api_difference(api("/api/model/diff", **{"from": old, "to": new})) == expected, f"{old} → {new}"
        compared += 1
    # Each model's neighbouring versions do differ (the comparison is not vacuous).
    assert compared == len(versions) * (len(versions) - 1)
    assert all(expected_difference(versions[a], versions[b]) for a, b in itertools.pairwise(sorted(versions)))


def test_the_versions_pane_marks_the_versions_and_shows_what_differs(driver, store_servers, wait_for, console_errors):
    base, _ = serve_with_model(store_servers, "wibosco-revised/CoreDataMigration_Example_3.sqlite")
    driver.get(f"{base}/model")
    wait_for(driver, lambda d: d.execute_script("return document.body.dataset.versionsState") == "ready",
             message="the versions were listed")
    button = driver.find_element(By.ID, "versions-btn")
    assert button.text == "Versions (4)"
    button.click()
    wait_for(driver, lambda d: d.execute_script("return document.body.dataset.versionsState") == "diff-ready",
             message="the default comparison was shown")
    marks = driver.execute_script("""return Object.fromEntries([...document.querySelectorAll('#versions-table tr[data-version]')]
        .map((row) => [row.dataset.version, [...row.querySelectorAll('.version-mark')].map((m) => m.dataset.mark)]));""")
    assert marks == {"CoreDataMigration_Example": [], "CoreDataMigration_Example 2": [],
                     "CoreDataMigration_Example 3": ["used", "matches"], "CoreDataMigration_Example 4": ["current"]}
    # By default: the version in use against the current one.
    assert "from=CoreDataMigration_Example+3" in driver.current_url and "to=CoreDataMigration_Example+4" in driver.current_url
    items = driver.execute_script("""return [...document.querySelectorAll('#versions-diff li')].map((li) =>
        `${li.dataset.change} ${li.dataset.entity || li.dataset.property}`);""")
    assert items == ["changed Post", "added softDeleted", "changed sections"]
    assert "deleteRule: Cascade → Nullify" in driver.find_element(By.CSS_SELECTOR, '#versions-diff li[data-property="sections"]').text

    Select(driver.find_element(By.ID, "diff-from")).select_by_value("CoreDataMigration_Example")
    Select(driver.find_element(By.ID, "diff-to")).select_by_value("CoreDataMigration_Example 2")
    wait_for(driver, lambda d: d.execute_script(
        "return document.querySelector('#versions-diff li[data-change=\"renamed\"]')?.textContent || ''").endswith("color → hexColor"),
        message="the renaming color → hexColor was listed")

    # A version's own diagram.
    driver.find_element(By.CSS_SELECTOR, '#versions-table tr[data-version="CoreDataMigration_Example"] a').click()
    wait_for(driver, lambda d: d.execute_script("return document.body.dataset.modelState") == "ready"
             and "version=" in d.current_url, message="the version's diagram opened")
    texts = driver.execute_script("return [...document.querySelectorAll('#model-viewport text.attribute')].map((t) => t.dataset.attribute)")
    assert sorted(texts) == ["color", "content", "date", "postID"]
    assert console_errors(driver) == []
