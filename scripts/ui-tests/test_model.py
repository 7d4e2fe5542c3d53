"""The Model view (/model): the diagram of the store's model, on the demo model and on a Photos-sized one (65
entities, many_entities_store.py). Geometry is read from the drawn SVG itself (each box's rect, each edge's line),
expected contents from /api/model and from the generator's own list of entities (an independent description of the
same model)."""

from __future__ import annotations

import struct
import zlib
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest
from selenium.webdriver.common.action_chains import ActionChains
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import Select

import many_entities_store

SVG_NS = "{http://www.w3.org/2000/svg}"
#: The target: the layout of a 60+-entity model done within this in headless Chromium (measured in the
#: page with performance.now around measuring the boxes' text, the layout, routing and label placement, and
#: building the SVG; 30–60 ms on an idle development machine, 170–540 ms on a shared one under load). Reported by
#: the tests, not asserted: a time is a figure to print, not a pass or fail (the project's rule for speed targets).
LAYOUT_BUDGET_MS = 500


def report_layout_time(what: str, drawn: dict) -> None:
    milliseconds = drawn["layoutMs"]
    print(f"{what}: drawn in {milliseconds} ms, {drawn['labelMs']} ms of it placing labels "
          f"({'within' if milliseconds <= LAYOUT_BUDGET_MS else 'OVER'} the {LAYOUT_BUDGET_MS} ms budget)")
#: Crossings between edges of the 65-entity model, at most: the orthogonal routes cross 37 times (a hub's 36 edges
#: run down through the rows of its neighbours); the straight lines they replaced crossed 17 times but ran through
#: a box that is not one of their ends 67 times (edge, box pairs), which is what made the picture unreadable.
MAX_CROSSINGS = 45
#: Edge ends must lie on their box's border to this many diagram pixels (coordinates are rounded to 0.01).
ON_BORDER = 0.6


@pytest.fixture(scope="module")
def many_entities():
    """(base URL, api) of a browser-demo serving the 65-entity store with its model."""
    from conftest import _StoreServers

    servers = _StoreServers()
    try:
        store, model = many_entities_store.build(servers.folder("cdb-ui-many-"))
        yield servers.serve(store, ["--model", str(model)])
    finally:
        servers.close()


def open_model(driver, wait_for, base: str, query: str = "") -> None:
    driver.get(f"{base}/model{query}")
    wait_for(driver, lambda d: d.execute_script("return document.body.dataset.modelState") in ("ready", "error"),
             message="the model view never finished loading")
    assert driver.execute_script("return document.body.dataset.modelState") == "ready", \
        driver.find_element(By.ID, "model-status").text


GEOMETRY = """
const boxes = {};
for (const group of document.querySelectorAll('#model-viewport .entity')) {
  const rect = group.querySelector('rect.entity-box');
  const m = /translate\\(([-\\d.e]+) ([-\\d.e]+)\\)/.exec(group.getAttribute('transform'));
  boxes[group.dataset.entity] = {x: +m[1], y: +m[2], width: +rect.getAttribute('width'), height: +rect.getAttribute('height'),
    attributes: [...group.querySelectorAll('text.attribute')].map((t) => t.dataset.attribute),
    count: (group.querySelector('.entity-count') || {}).textContent || null};
}
const edges = [...document.querySelectorAll('#model-viewport .edge')].map((g) => {
  // The drawn course: a line's two ends, a polyline's points, or (a loop, a path) its two ends.
  const line = g.querySelector('line');
  const polyline = g.querySelector('polyline');
  const path = g.querySelector('path');
  let points;
  if (line) points = [[+line.getAttribute('x1'), +line.getAttribute('y1')], [+line.getAttribute('x2'), +line.getAttribute('y2')]];
  else if (polyline) points = polyline.getAttribute('points').trim().split(/ +/).map((p) => p.split(',').map(Number));
  else points = [[+path.getAttribute('data-x1'), +path.getAttribute('data-y1')], [+path.getAttribute('data-x2'), +path.getAttribute('data-y2')]];
  const [x1, y1] = points[0];
  const [x2, y2] = points[points.length - 1];
  return {kind: g.dataset.kind, from: g.dataset.from, to: g.dataset.to, inverse: g.dataset.inverse || null,
    count: g.dataset.count ? +g.dataset.count : null, title: g.querySelector('title').textContent,
    loop: !line && !polyline, points, x1, y1, x2, y2};
});
return {boxes, edges, layoutMs: +document.body.dataset.layoutMs, labelMs: +document.body.dataset.labelMs};
"""


def geometry(driver) -> dict:
    return driver.execute_script(GEOMETRY)


#: Every text drawn on an edge (whatever its class), with the box its glyphs take as the browser measures it (getBBox, in the diagram's
#: coordinates like the boxes and lines: the edge groups have no transform of their own) and on screen.
LABELS = """
return [...document.querySelectorAll('#model-viewport .edge text')].map((t) => {
  const b = t.getBBox();
  const r = t.getBoundingClientRect();
  const g = t.closest('.edge');
  const name = t.querySelector('.relationship-name');
  return {x: b.x, y: b.y, width: b.width, height: b.height, screenHeight: r.height, screen: [r.left, r.top, r.right, r.bottom],
    text: t.textContent, name: name ? name.textContent.trim() : null, relationship: t.dataset.relationship || null,
    count: t.classList.contains('edge-count'), from: g.dataset.from, to: g.dataset.to, kind: g.dataset.kind};
});
"""


def labels(driver) -> list[dict]:
    return driver.execute_script(LABELS)


def label_problems(drawn: dict, drawn_labels: list[dict]) -> list[str]:
    """Every pair of labels whose boxes intersect, and every label over a box or a line (an inheritance line or any
    other): measured on the drawn SVG with the browser's own text boxes."""
    found = []
    for i, a in enumerate(drawn_labels):
        for b in drawn_labels[i + 1:]:
            if a["x"] < b["x"] + b["width"] and b["x"] < a["x"] + a["width"] and \
               a["y"] < b["y"] + b["height"] and b["y"] < a["y"] + a["height"]:
                found.append(f"label {a['text']!r} ({a['from']}→{a['to']}) over label {b['text']!r} ({b['from']}→{b['to']})")
    for label in drawn_labels:
        for name, box in drawn["boxes"].items():
            if overlapping({"label": label, name: box}):
                found.append(f"label {label['text']!r} ({label['from']}→{label['to']}) over box {name}")
        for edge in drawn["edges"]:
            # The line's stroke is 1.4 px (2.4 for a bundle): grown by half of it, the label's box must miss it.
            if not edge["loop"] and any(passes_through(a, b, label, inset=-1.2) for a, b in segments(edge)):
                found.append(f"label {label['text']!r} ({label['from']}→{label['to']}) over the {edge['kind']} line "
                             f"{edge['from']}→{edge['to']}")
    return found


def overlapping(boxes: dict) -> list[tuple[str, str]]:
    names = sorted(boxes)
    found = []
    for i, a in enumerate(names):
        for b in names[i + 1:]:
            p, q = boxes[a], boxes[b]
            if p["x"] < q["x"] + q["width"] and q["x"] < p["x"] + p["width"] and \
               p["y"] < q["y"] + q["height"] and q["y"] < p["y"] + p["height"]:
                found.append((a, b))
    return found


def on_border(box: dict, x: float, y: float) -> bool:
    inside = box["x"] - ON_BORDER <= x <= box["x"] + box["width"] + ON_BORDER and \
        box["y"] - ON_BORDER <= y <= box["y"] + box["height"] + ON_BORDER
    near_edge = min(abs(x - box["x"]), abs(x - box["x"] - box["width"]),
                    abs(y - box["y"]), abs(y - box["y"] - box["height"])) <= ON_BORDER
    return inside and near_edge


def edges_off_their_boxes(drawn: dict) -> list[str]:
    wrong = []
    for edge in drawn["edges"]:
        start, end = drawn["boxes"][edge["from"]], drawn["boxes"][edge["to"]]
        if not on_border(start, edge["x1"], edge["y1"]) or not on_border(end, edge["x2"], edge["y2"]):
            wrong.append(f"{edge['kind']} {edge['from']} → {edge['to']} ({edge['x1']},{edge['y1']} → {edge['x2']},{edge['y2']})")
    return wrong


def segments(edge: dict) -> list[tuple[tuple[float, float], tuple[float, float]]]:
    points = [tuple(p) for p in edge["points"]]
    return [(a, b) for a, b in zip(points, points[1:]) if a != b]


def passes_through(a: tuple, b: tuple, box: dict, inset: float = 1.0) -> bool:
    """Whether the segment a→b enters the box's inside (the box shrunk by `inset`): Liang–Barsky clipping."""
    left, right = box["x"] + inset, box["x"] + box["width"] - inset
    top, bottom = box["y"] + inset, box["y"] + box["height"] - inset
    dx, dy = b[0] - a[0], b[1] - a[1]
    low, high = 0.0, 1.0
    for p, q in ((-dx, a[0] - left), (dx, right - a[0]), (-dy, a[1] - top), (dy, bottom - a[1])):
        if p == 0:
            if q < 0:
                return False
        else:
            t = q / p
            if p < 0:
                low = max(low, t)
            else:
                high = min(high, t)
    return low < high


def through_boxes(drawn: dict) -> list[str]:
    """Each (edge, box) where an edge runs through a box that is not one of its ends."""
    found = []
    for edge in drawn["edges"]:
        if edge["loop"]:
            continue
        for name, box in drawn["boxes"].items():
            if name in (edge["from"], edge["to"]):
                continue
            if any(passes_through(a, b, box) for a, b in segments(edge)):
                found.append(f"{edge['from']} → {edge['to']} through {name}")
    return found


def crossings(drawn: dict) -> int:
    """Points where segments of two different edges cross (strictly: touching or running alongside is not counted)."""
    def side(o, a, b):
        value = (a[0] - o[0]) * (b[1] - o[1]) - (a[1] - o[1]) * (b[0] - o[0])
        return 0 if abs(value) < 1e-6 else (1 if value > 0 else -1)

    lines = [segments(e) for e in drawn["edges"] if not e["loop"]]
    count = 0
    for i, first in enumerate(lines):
        for second in lines[i + 1:]:
            for a, b in first:
                for c, d in second:
                    if side(a, b, c) * side(a, b, d) < 0 and side(c, d, a) * side(c, d, b) < 0:
                        count += 1
    return count


def shared_runs(drawn: dict) -> list[str]:
    """Horizontal or vertical stretches longer than a pixel that two different edges both run along (one line
    would hide the other)."""
    runs = []
    for index, edge in enumerate(drawn["edges"]):
        for a, b in segments(edge):
            if a[1] == b[1]:
                runs.append((index, "h", a[1], min(a[0], b[0]), max(a[0], b[0])))
            elif a[0] == b[0]:
                runs.append((index, "v", a[0], min(a[1], b[1]), max(a[1], b[1])))
    found = []
    for i, (e1, k1, c1, lo1, hi1) in enumerate(runs):
        for e2, k2, c2, lo2, hi2 in runs[i + 1:]:
            if e1 != e2 and k1 == k2 and abs(c1 - c2) < 0.5 and min(hi1, hi2) - max(lo1, lo2) > 1:
                found.append(f"{drawn['edges'][e1]['from']}→{drawn['edges'][e1]['to']} and "
                             f"{drawn['edges'][e2]['from']}→{drawn['edges'][e2]['to']} along {k1} {c1}")
    return found


def expected_edges(entities: dict) -> tuple[set, set, set]:
    """From the generator's own model: relationship pairs (an inverse pair once), one-way relationships, and
    (child, parent) inheritance pairs."""
    pairs, one_way, inheritance = set(), set(), set()
    for name, entity in entities.items():
        for relationship in entity["relationships"]:
            if relationship["inverse"]:
                pairs.add(frozenset({(name, relationship["name"]), (relationship["destination"], relationship["inverse"])}))
            else:
                one_way.add((name, relationship["name"], relationship["destination"]))
        if entity["parent"]:
            inheritance.add((name, entity["parent"]))
    return pairs, one_way, inheritance


def expected_lines(entities: dict) -> dict:
    """From the generator's own model: for each two entities related at all, the relationships between them, each
    an inverse pair (a frozenset of two (entity, name)) or one relationship without inverse (a set of one)."""
    lines: dict = {}
    for name, entity in entities.items():
        for relationship in entity["relationships"]:
            member = {(name, relationship["name"])}
            if relationship["inverse"]:
                member.add((relationship["destination"], relationship["inverse"]))
            lines.setdefault(frozenset((name, relationship["destination"])), set()).add(frozenset(member))
    return lines


def test_the_demo_model_is_drawn_with_counts_attributes_one_edge_per_inverse_pair_and_inheritance(
        driver, server, api, wait_for, console_errors, screenshot):
    open_model(driver, wait_for, server)
    model = api("/api/model")
    drawn = geometry(driver)
    assert sorted(drawn["boxes"]) == sorted(e["name"] for e in model["entities"])
    for entity in model["entities"]:
        box = drawn["boxes"][entity["name"]]
        assert box["count"] == f"{entity['count']:,}", entity["name"]
        assert box["attributes"] == [a["name"] for a in entity["attributes"]], entity["name"]
    # AudioBook lists only what it adds to Book; the inheritance is an edge of its own kind.
    assert drawn["boxes"]["AudioBook"]["attributes"] == ["durationMinutes", "narrator"]
    kinds = sorted((e["kind"], *sorted((e["from"], e["to"]))) for e in drawn["edges"])
    assert kinds == [("inheritance", "AudioBook", "Book"), ("relationship", "Author", "Book"), ("relationship", "Book", "Tag")]
    assert all(e["inverse"] is None for e in drawn["edges"])
    assert overlapping(drawn["boxes"]) == []
    assert edges_off_their_boxes(drawn) == []
    report_layout_time("the demo model", drawn)
    # Cardinality marks: Book.author is a to-one (0..1 at Author's end), Author.books a to-many (* at Book's end).
    marks = driver.execute_script("""return [...document.querySelectorAll('.edge[data-from="Author"][data-to="Book"] .cardinality, '
        + '.edge[data-from="Book"][data-to="Author"] .cardinality')].map((t) => t.textContent).sort();""")
    assert marks == ["*", "0..1"]

    # Every relationship's name is drawn at the end it arrives at, readable at the zoom the page opens with (at least
    # 11 px tall on screen, inside the canvas), and no label lies over another, a box or a line — the AudioBook
    # inheritance line under Book included.
    drawn_labels = labels(driver)
    assert label_problems(drawn, drawn_labels) == []
    named = sorted((label["from"], label["to"], label["name"]) for label in drawn_labels if label["name"])
    expected = []
    for entity in model["entities"]:
        for relationship in entity["relationships"]:
            line = next(e for e in drawn["edges"] if {e["from"], e["to"]} == {entity["name"], relationship["destination"]})
            expected.append((line["from"], line["to"], relationship["name"]))
    assert named == sorted(expected)
    for label in drawn_labels:
        relationship = next(r for e in model["entities"] for r in e["relationships"] if r["name"] == label["relationship"])
        assert label["text"].endswith(" " + ("*" if relationship["toMany"] else "0..1" if relationship.get("optional") is not False else "1"))
    canvas = driver.execute_script("const r = document.getElementById('model-canvas').getBoundingClientRect(); "
                                   "return [r.left, r.top, r.right, r.bottom];")
    for label in drawn_labels:
        assert label["screenHeight"] >= 11, label
        left, top, right, bottom = label["screen"]
        assert canvas[0] <= left and right <= canvas[2] and canvas[1] <= top and bottom <= canvas[3], label
    screenshot(driver, "model-demo")
    assert console_errors(driver) == []


def test_a_65_entity_model_is_laid_out_without_overlaps_every_edge_on_its_boxes_within_the_budget(
        driver, many_entities, wait_for, console_errors, screenshot):
    base, api = many_entities
    open_model(driver, wait_for, base)
    drawn = geometry(driver)
    entities = many_entities_store.ENTITIES
    assert len(entities) >= 60
    assert sorted(drawn["boxes"]) == sorted(entities)
    assert overlapping(drawn["boxes"]) == []
    assert edges_off_their_boxes(drawn) == []
    report_layout_time(f"{len(entities)} entities", drawn)
    # Edges as short and uncrossed as we can make them: measured on the drawn SVG, independently of the layout code.
    through, crossed = through_boxes(drawn), crossings(drawn)
    print(f"edges: {len(drawn['edges'])}, through a third box: {len(through)}, crossings: {crossed}, "
          f"shared runs: {len(shared_runs(drawn))}")
    assert through == []
    assert crossed <= MAX_CROSSINGS
    assert shared_runs(drawn) == []

    _, _, inheritance = expected_edges(entities)
    relationships = [e for e in drawn["edges"] if e["kind"] == "relationship"]
    # One line for all the relationships between two entities, counting them (an inverse pair once); its tooltip
    # names every one; the arrow of a relationship without inverse only where the line is that relationship alone.
    lines = expected_lines(entities)
    ends = lambda pair: tuple(sorted(pair))  # noqa: E731
    assert sorted(ends({e["from"], e["to"]}) for e in relationships) == sorted(ends(pair) for pair in lines)
    for edge in relationships:
        members = lines[frozenset((edge["from"], edge["to"]))]
        assert edge["count"] == len(members), (edge["from"], edge["to"])
        for member in members:
            for source, name in member:
                if source in (edge["from"], edge["to"]):
                    assert f"{source}.{name} →" in edge["title"], (edge["title"], source, name)
    assert sorted(ends({e["from"], e["to"]}) for e in relationships if e["inverse"] == "none") == sorted(
        ends(pair) for pair, members in lines.items() if len(members) == 1 and len(next(iter(members))) == 1)
    assert lines[frozenset(("Person", "Face"))] and len(lines[frozenset(("Person", "Face"))]) == 3
    assert sorted((e["from"], e["to"]) for e in drawn["edges"] if e["kind"] == "inheritance") == sorted(inheritance)
    # Folder.albums' inverse is declared on Album's parent: the edge still ends at Album, its destination.
    assert ("Folder", "Album") in {(e["from"], e["to"]) for e in relationships}
    # The folder tree: a loop on Folder's own box.
    assert [e for e in relationships if e["from"] == e["to"]] and all(
        on_border(drawn["boxes"]["Folder"], e["x1"], e["y1"]) for e in relationships if e["from"] == "Folder" == e["to"])

    # Counts on the boxes are the store's.
    for name in ("Asset", "Person", "Setting"):
        assert drawn["boxes"][name]["count"] == f"{many_entities_store.rows_of(name):,}"
    assert drawn["boxes"]["GenericAlbum"]["count"] == str(sum(
        many_entities_store.rows_of(n) for n in ("Album", "SmartAlbum", "ImportSessionAlbum")))

    # The same picture after a reload.
    driver.refresh()
    open_model(driver, wait_for, base)
    again = geometry(driver)
    assert {n: (b["x"], b["y"]) for n, b in again["boxes"].items()} == {n: (b["x"], b["y"]) for n, b in drawn["boxes"].items()}
    screenshot(driver, "model-65-entities")
    assert console_errors(driver) == []


def test_on_the_65_entity_model_no_label_overlaps_and_bundled_lines_list_their_relationships(
        driver, many_entities, wait_for, console_errors, screenshot):
    base, _ = many_entities
    open_model(driver, wait_for, base)
    drawn = geometry(driver)
    drawn_labels = labels(driver)
    # No label over another, over a box, or over any line (inheritance lines included): the browser's own text
    # boxes against the drawn shapes.
    assert label_problems(drawn, drawn_labels) == []
    assert any(e["kind"] == "inheritance" for e in drawn["edges"])
    relationships = [e for e in drawn["edges"] if e["kind"] == "relationship"]
    bundles = [e for e in relationships if e["count"] > 1]
    ends = sum(1 if e["inverse"] == "none" else 2 for e in relationships if e["count"] == 1)
    named = [label for label in drawn_labels if label["name"]]
    marks_only = [label for label in drawn_labels if not label["name"] and not label["count"]]
    print(f"lines: {len(relationships)} relationship ({len(bundles)} bundled), labels: {len(drawn_labels)}; "
          f"ends: {ends}, named {len(named)}, cardinality only {len(marks_only)}, "
          f"in the tooltip and details only {ends - len(named) - len(marks_only)}")
    # Every bundled line carries its count.
    counts = {(label["from"], label["to"]): label["text"] for label in drawn_labels if label["count"]}
    assert {(e["from"], e["to"]): f"×{e['count']}" for e in bundles} == counts
    # A name drawn at an end is that end's relationship, on the line between its two entities.
    for label in named:
        assert label["name"] == label["relationship"]
        declared = [(source, r) for source, entity in many_entities_store.ENTITIES.items()
                    for r in entity["relationships"] if r["name"] == label["name"]]
        assert any({source, r["destination"]} == {label["from"], label["to"]} for source, r in declared), label

    # Person ⇄ Face: three relationships (six names), one line "×3"; its tooltip names them, a click on its count
    # lists them in the details pane, and so does each of its entities.
    line = next(e for e in bundles if {e["from"], e["to"]} == {"Person", "Face"})
    assert line["count"] == 3 and "3 relationships between" in line["title"]
    names = ["Person.faces", "Face.person", "Person.keyFace", "Face.keyFacePerson", "Person.rejectedFaces", "Face.rejectedPerson"]
    for name in names:
        assert f"{name} →" in line["title"]
    # The whole diagram (Fit): the line is outside the part shown at the readable zoom it opens at.
    driver.find_element(By.ID, "zoom-fit").click()
    count = driver.find_element(By.CSS_SELECTOR, f'.edge[data-from="{line["from"]}"][data-to="{line["to"]}"] .edge-count')
    assert count.text == "×3"
    ActionChains(driver).move_to_element(count).click().perform()
    wait_for(driver, lambda d: d.find_elements(By.CSS_SELECTOR, "#model-details .model-line-relationships"),
             message="clicking the count showed the line's relationships")
    listed = [row.find_element(By.CSS_SELECTOR, "td").text
              for row in driver.find_elements(By.CSS_SELECTOR, "#model-details .model-line-relationships tr")[1:]]
    assert sorted(listed) == sorted(names)
    assert driver.execute_script(
        "return document.querySelector('.edge.is-selected')?.dataset.from") == line["from"]
    # Asset ⇄ Person mixes an inverse pair with a relationship without inverse (Asset.trashedBy, declared on Asset
    # only): Person's details list it too, as well as its own relationships to Face.
    driver.find_element(By.CSS_SELECTOR, "#model-details .model-details-actions button[title='Show Person']").click()
    wait_for(driver, lambda d: d.find_element(By.CSS_SELECTOR, "#model-details h2").text == "Person",
             message="the pane's button showed Person")
    details = driver.find_element(By.ID, "model-details").text
    for name in ("faces", "keyFace", "rejectedFaces", "coverPhoto", "Asset.trashedBy"):
        assert name in details, name
    asset_person = next(e for e in bundles if {e["from"], e["to"]} == {"Asset", "Person"})
    assert asset_person["count"] == 2 and "Asset.trashedBy → Person (0..1) (no inverse)" in asset_person["title"]
    driver.execute_script("document.querySelector('#model-viewport .entity[data-entity=\"Face\"]').focus()")
    ActionChains(driver).send_keys("\n").perform()
    wait_for(driver, lambda d: d.find_element(By.CSS_SELECTOR, "#model-details h2").text == "Face",
             message="Enter on Face showed its details")
    details = driver.find_element(By.ID, "model-details").text
    for name in ("person", "keyFacePerson", "rejectedPerson"):
        assert name in details, name
    screenshot(driver, "model-65-entities-labels")
    # Found by name, the diagram is centred on Person at a readable zoom: what a reader of the labels sees.
    search = driver.find_element(By.ID, "model-search")
    search.send_keys("Person\n")
    wait_for(driver, lambda d: d.execute_script(
        "return document.querySelector('#model-viewport .entity.is-found')?.dataset.entity") == "Person",
        message="the search found Person")
    screenshot(driver, "model-65-entities-person")
    # The albums: inheritance lines, a relationship whose inverse is inherited, and the folder tree's loop.
    search.clear()
    search.send_keys("Folder\n")
    wait_for(driver, lambda d: d.execute_script(
        "return document.querySelector('#model-viewport .entity.is-found')?.dataset.entity") == "Folder",
        message="the search found Folder")
    assert "No entity matches" not in driver.find_element(By.ID, "model-status").text
    screenshot(driver, "model-65-entities-folder")
    assert console_errors(driver) == []


#: Every text of the diagram with its font size, the viewport's scale on screen and the glyphs' box on screen: what a
#: reader sees of it at the current zoom.
TEXT_SIZES = """
const viewport = document.getElementById('model-viewport');
const scale = viewport.getScreenCTM().a;
return [...viewport.querySelectorAll('text')].filter((t) => t.textContent.trim()).map((t) => ({
  text: t.textContent, font: parseFloat(getComputedStyle(t).fontSize), scale,
  screenHeight: t.getBoundingClientRect().height, entityName: t.classList.contains('entity-name')}));
"""

#: The smallest text on screen, in CSS pixels, a reader reads at the zoom the diagram opens at.
READABLE_PX = 9


def unlabelled_ends(root) -> list[str]:
    """Every relationship line end without its label: a bundled line's count, else one label per direction (one for
    a relationship without inverse), read from the drawn SVG."""
    return root.execute_script("""
const missing = [];
for (const g of document.querySelectorAll('#model-viewport .edge[data-kind=relationship]')) {
  const line = `${g.dataset.from}–${g.dataset.to}`;
  if (+g.dataset.count > 1) { if (!g.querySelector('.edge-count')) missing.push(`${line}: its count`); continue; }
  const wanted = g.dataset.inverse === 'none' ? 1 : 2;
  const found = g.querySelectorAll('.edge-label').length;
  if (found < wanted) missing.push(`${line}: ${found} of ${wanted} ends`);
}
return missing;""")


def test_the_65_entity_model_opens_readable_with_every_line_end_labelled(
        driver, many_entities, wait_for, console_errors, screenshot):
    base, _ = many_entities
    open_model(driver, wait_for, base)
    drawn = geometry(driver)
    drawn_labels = labels(driver)
    relationships = [e for e in drawn["edges"] if e["kind"] == "relationship"]
    ends = sum(1 if e["count"] > 1 or e["inverse"] == "none" else 2 for e in relationships)
    missing = unlabelled_ends(driver)
    sizes = driver.execute_script(TEXT_SIZES)
    smallest = min(size["font"] * size["scale"] for size in sizes)
    print(f"line ends labelled: {ends - len(missing)} of {ends}; smallest text at the opening zoom: {smallest:.2f} px "
          f"(scale {sizes[0]['scale']:.3f}, {len(sizes)} texts)")
    report_layout_time(f"{len(drawn['boxes'])} entities", drawn)
    # Every end carries its label (a name and cardinality, the cardinality, or the bundle's count) and no label
    # overlaps another, a box or a line.
    assert missing == []
    assert len(drawn_labels) == ends
    assert label_problems(drawn, drawn_labels) == []
    # Every entity's name and every label at a readable size on screen: the font size times the zoom, and the
    # browser's own box of the glyphs (at least as tall as the font).
    assert {size["text"] for size in sizes if size["entityName"]} >= {
        name for name, entity in many_entities_store.ENTITIES.items() if not entity["abstract"]}
    too_small = [size for size in sizes if size["font"] * size["scale"] < READABLE_PX - 0.01
                 or size["screenHeight"] < READABLE_PX]
    assert too_small == []
    # Too big to fit at that size, it opens on its hub (the entity with the most lines); Fit still shows it whole.
    hub = driver.execute_script("""
const r = document.querySelector('#model-viewport .entity[data-entity="Asset"] rect').getBoundingClientRect();
const c = document.getElementById('model-canvas').getBoundingClientRect();
return {left: r.left, right: r.right, top: r.top, bottom: r.bottom, canvas: [c.left, c.top, c.right, c.bottom]};""")
    middle = (hub["left"] + hub["right"]) / 2
    assert hub["canvas"][0] <= middle <= hub["canvas"][2] and hub["top"] < hub["canvas"][3], hub
    screenshot(driver, "model-65-entities-opening")
    driver.find_element(By.ID, "zoom-fit").click()
    overview = driver.execute_script(
        "return document.getElementById('model-viewport').getScreenCTM().a")
    assert overview < sizes[0]["scale"]
    assert console_errors(driver) == []


def test_focus_search_hiding_attributes_and_browsing_an_entity(driver, many_entities, wait_for, console_errors):
    base, _ = many_entities
    open_model(driver, wait_for, base, "?focus=Person&hops=1")
    neighbours = {"Person"}
    for name, entity in many_entities_store.ENTITIES.items():
        for relationship in entity["relationships"]:
            if name == "Person":
                neighbours.add(relationship["destination"])
            if relationship["destination"] == "Person":
                neighbours.add(name)
    assert sorted(geometry(driver)["boxes"]) == sorted(neighbours)
    assert Select(driver.find_element(By.ID, "model-focus")).first_selected_option.get_attribute("value") == "Person"

    Select(driver.find_element(By.ID, "model-hops")).select_by_value("2")
    wait_for(driver, lambda d: len(geometry(d)["boxes"]) > len(neighbours), message="two hops show more entities")
    assert "hops=2" in driver.current_url and "focus=Person" in driver.current_url
    two = geometry(driver)
    assert overlapping(two["boxes"]) == [] and edges_off_their_boxes(two) == []
    assert label_problems(two, labels(driver)) == []

    tall = two["boxes"]["Person"]["height"]
    driver.find_element(By.ID, "model-attributes").click()
    wait_for(driver, lambda d: geometry(d)["boxes"]["Person"]["height"] < tall, message="boxes without attributes are shorter")
    assert driver.execute_script("return document.querySelectorAll('#model-viewport text.attribute').length") == 0
    assert "attributes=0" in driver.current_url

    # Search: an entity outside the focus brings the whole model back, centred on the match.
    search = driver.find_element(By.ID, "model-search")
    search.send_keys("yearhigh\n")
    wait_for(driver, lambda d: d.execute_script(
        "return document.querySelector('#model-viewport .entity.is-found')?.dataset.entity") == "YearHighlight",
        message="the search found YearHighlight (three hops from Person and more)")
    assert driver.find_element(By.CSS_SELECTOR, "#model-details h2").text == "YearHighlight"
    assert int(driver.execute_script("return document.body.dataset.entitiesShown")) == len(many_entities_store.ENTITIES)
    centre = driver.execute_script("""
        const r = document.querySelector('#model-viewport .entity[data-entity="YearHighlight"] rect').getBoundingClientRect();
        const c = document.getElementById('model-canvas').getBoundingClientRect();
        return [r.left + r.width / 2 - c.left - c.width / 2, r.top + r.height / 2 - c.top - c.height / 2];""")
    assert abs(centre[0]) < 2 and abs(centre[1]) < 2, centre

    # A real click on a box (not on its name) selects it and shows its details.
    def click_box(name):
        # Near the box's lower right corner, away from its name (a link).
        box = driver.find_element(By.CSS_SELECTOR, f'#model-viewport .entity[data-entity="{name}"] rect.entity-box')
        ActionChains(driver).move_to_element_with_offset(box, box.rect["width"] / 2 - 5, box.rect["height"] / 2 - 4).click().perform()

    driver.find_element(By.ID, "model-details").find_element(By.CSS_SELECTOR, "button").click()  # close
    click_box("YearHighlight")
    wait_for(driver, lambda d: d.execute_script(
        "return document.querySelector('#model-viewport .entity.is-selected')?.dataset.entity") == "YearHighlight",
        message="clicking the box selected it")
    click_box("DayGroupHighlight")
    wait_for(driver, lambda d: d.find_element(By.CSS_SELECTOR, "#model-details h2").text == "DayGroupHighlight",
             message="clicking another box showed its details")
    assert "Browse" in driver.find_element(By.CSS_SELECTOR, "#model-details .model-browse").text
    # From the keyboard: a box takes the focus and Enter shows its details.
    driver.execute_script("document.querySelector('#model-viewport .entity[data-entity=\"YearHighlight\"]').focus()")
    ActionChains(driver).send_keys("\n").perform()
    wait_for(driver, lambda d: d.find_element(By.CSS_SELECTOR, "#model-details h2").text == "YearHighlight",
             message="Enter on a focused box showed its details")

    # The entity's name leads to its records in the Inspector.
    driver.find_element(By.CSS_SELECTOR, '#model-viewport .entity[data-entity="YearHighlight"] a').click()
    wait_for(driver, lambda d: d.current_url.endswith("/?entity=YearHighlight"), message="the Inspector opened YearHighlight")
    assert console_errors(driver) == []


def test_pan_and_zoom_move_the_diagram(driver, many_entities, wait_for):
    base, _ = many_entities
    open_model(driver, wait_for, base)
    transform = lambda d: d.find_element(By.ID, "model-viewport").get_attribute("transform")  # noqa: E731
    scale = lambda d: float(transform(d).split("scale(")[1].rstrip(")"))  # noqa: E731
    fitted = scale(driver)
    driver.find_element(By.ID, "zoom-in").click()
    assert scale(driver) == pytest.approx(fitted * 1.25)
    canvas = driver.find_element(By.ID, "model-canvas")
    driver.execute_script("""arguments[0].dispatchEvent(new WheelEvent('wheel', {deltaY: -100, clientX: 400, clientY: 300,
        bubbles: true, cancelable: true}));""", canvas)
    assert scale(driver) == pytest.approx(fitted * 1.25 * 1.15)
    translate = lambda d: [float(n) for n in transform(d).split("translate(")[1].split(")")[0].split()]  # noqa: E731
    before = translate(driver)
    ActionChains(driver).move_to_element_with_offset(canvas, 10, 10).click_and_hold().move_by_offset(120, 80).release().perform()
    after = translate(driver)
    assert after[0] - before[0] == pytest.approx(120, abs=1) and after[1] - before[1] == pytest.approx(80, abs=1)
    assert scale(driver) == pytest.approx(fitted * 1.25 * 1.15)
    # Fit shows the whole diagram (smaller than the readable zoom it opened at); 0 on the canvas does the same.
    driver.find_element(By.ID, "zoom-fit").click()
    whole = scale(driver)
    assert whole < fitted
    box = driver.execute_script("const r = document.getElementById('model-viewport').getBoundingClientRect(); "
                                "const c = document.getElementById('model-canvas').getBoundingClientRect(); "
                                "return [r.left - c.left, r.top - c.top, c.right - r.right, c.bottom - r.bottom];")
    assert min(box) >= -1, box


def png_size(data: bytes) -> tuple[int, int]:
    assert data[:8] == b"\x89PNG\r\n\x1a\n", "a PNG file"
    return struct.unpack(">II", data[16:24])


def png_pixels(data: bytes) -> tuple[int, int, list[bytes]]:
    """(width, height, rows of RGBA bytes) of an 8-bit RGB or RGBA, non-interlaced PNG — what a canvas exports —
    decoded with the standard library: the IDAT chunks inflated and each row's filter undone (PNG spec, section 9)."""
    width, height = png_size(data)
    depth, colour, _, _, interlace = struct.unpack(">BBBBB", data[24:29])
    assert depth == 8 and colour in (2, 6) and interlace == 0, (depth, colour, interlace)
    channels = 4 if colour == 6 else 3
    compressed, offset = b"", 8
    while offset < len(data):
        length, kind = struct.unpack(">I4s", data[offset:offset + 8])
        if kind == b"IDAT":
            compressed += data[offset + 8:offset + 8 + length]
        offset += 12 + length
    raw = zlib.decompress(compressed)
    stride = width * channels
    rows, previous = [], bytearray(stride)
    for y in range(height):
        kind = raw[y * (stride + 1)]
        line = bytearray(raw[y * (stride + 1) + 1:(y + 1) * (stride + 1)])
        for i in range(stride):
            left = line[i - channels] if i >= channels else 0
            up = previous[i]
            corner = previous[i - channels] if i >= channels else 0
            if kind == 1:
                line[i] = (line[i] + left) & 255
            elif kind == 2:
                line[i] = (line[i] + up) & 255
            elif kind == 3:
                line[i] = (line[i] + (left + up) // 2) & 255
            elif kind == 4:
                estimate = left + up - corner
                pa, pb, pc = abs(estimate - left), abs(estimate - up), abs(estimate - corner)
                line[i] = (line[i] + (left if pa <= pb and pa <= pc else up if pb <= pc else corner)) & 255
        rows.append(bytes(line) if channels == 4 else b"".join(bytes(line[i:i + 3]) + b"\xff" for i in range(0, stride, 3)))
        previous = line
    return width, height, rows


def test_the_diagram_exports_as_a_self_contained_svg_and_a_png(driver, many_entities, wait_for, download_dir):
    base, _ = many_entities
    open_model(driver, wait_for, base)
    driver.find_element(By.ID, "export-svg").click()
    path = download_dir / "model.svg"
    wait_for(driver, lambda d: path.exists() and path.stat().st_size > 0
             and not any(p.suffix == ".crdownload" for p in download_dir.iterdir()), message="model.svg was saved")
    root = ET.fromstring(path.read_bytes())
    assert root.tag == f"{SVG_NS}svg" and float(root.get("width")) > 0 and root.get("viewBox")
    texts = {"".join(t.itertext()) for t in root.iter(f"{SVG_NS}text")}
    missing = [name for name in many_entities_store.ENTITIES if name not in texts and f"{name} (abstract)" not in texts]
    assert missing == []
    # The edges' labels are in the file as drawn: every count, name and cardinality, and nothing else of the page's.
    page_labels = sorted(label["text"] for label in labels(driver))
    file_labels = sorted("".join(t.itertext()) for t in root.iter(f"{SVG_NS}text") if "edge-label" in (t.get("class") or ""))
    assert page_labels == file_labels and "×3" in file_labels and any(" " in text for text in file_labels)
    # Self-contained: no script, no links back to this server, no external stylesheet; every shape carries its colours.
    assert not list(root.iter(f"{SVG_NS}script")) and not list(root.iter(f"{SVG_NS}a"))
    assert "href" not in path.read_text() and "class=\"is-" not in path.read_text() and "tabindex" not in path.read_text()
    for shape in root.iter(f"{SVG_NS}rect"):
        assert shape.get("fill"), ET.tostring(shape)[:120]
    lines = [*root.iter(f"{SVG_NS}line"), *root.iter(f"{SVG_NS}polyline")]
    assert lines
    for line in lines:
        assert line.get("stroke")
    for text in root.iter(f"{SVG_NS}text"):
        assert text.get("fill") and text.get("font-family")

    driver.find_element(By.ID, "export-png").click()
    png = download_dir / "model.png"
    wait_for(driver, lambda d: png.exists() and png.stat().st_size > 0
             and not any(p.suffix == ".crdownload" for p in download_dir.iterdir()), message="model.png was saved", timeout=60)
    width, height = png_size(png.read_bytes())
    assert width >= float(root.get("width")) and height >= float(root.get("height"))

    # Something was drawn: a small export (FaceCrop and its one neighbour; the whole model's PNG is too large to
    # decode in Python quickly), decoded here, where pixels inside each box differ from the background.
    open_model(driver, wait_for, base, "?focus=FaceCrop&hops=1")
    boxes = geometry(driver)["boxes"]
    assert sorted(boxes) == ["Face", "FaceCrop"]
    driver.find_element(By.ID, "export-png").click()
    png = download_dir / "model-FaceCrop.png"
    wait_for(driver, lambda d: png.exists() and png.stat().st_size > 0
             and not any(p.suffix == ".crdownload" for p in download_dir.iterdir()), message="model-FaceCrop.png was saved")
    width, height, rows = png_pixels(png.read_bytes())
    drawn_width = driver.execute_script("return +document.querySelector('#model-viewport .diagram-background').getAttribute('width')")
    scale = width / drawn_width
    background = rows[0][:4]  # the diagram's corner, outside every box
    for name, box in boxes.items():
        inside = [rows[int((box["y"] + y) * scale)][int((box["x"] + x) * scale) * 4:][:4]
                  for y in range(3, int(box["height"]) - 3, 3) for x in range(3, int(box["width"]) - 3, 3)]
        assert sum(pixel != background for pixel in inside) > len(inside) * 0.9, name
    assert len({row[i:i + 4] for row in rows for i in range(0, len(row), 4)}) > 8


def test_both_views_link_to_the_model(driver, server, wait_for):
    for page in ("/", "/lab"):
        driver.get(f"{server}{page}")
        link = driver.find_element(By.ID, "tab-model")
        assert link.get_attribute("href") == f"{server}/model"
    link.click()
    wait_for(driver, lambda d: d.execute_script("return document.body.dataset.modelState") == "ready",
             message="the link opened the model")
