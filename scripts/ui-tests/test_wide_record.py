"""A wide record fits on one screen: Apple Notes' ICAttachment has 73 attributes (most of them nil) and 11
relationships. In both views' detail at 1440×900 and 1024×700: a jump bar reaches the relationships without
scrolling past the attributes, "Hide empty" hides the nil attributes and empty relationships and is remembered
(across reloads and views), and every attribute name is shown whole — names sharing a long prefix
(croppingQuadBottomLeftX, …Y) never look alike."""

from __future__ import annotations

import pytest
from selenium.webdriver.common.by import By

from test_exports import open_inspector, open_lab

STORE = "apple-notes-13/NoteStore.sqlite"
SIZES = [(1024, 700), (1440, 900)]

# The detail's attribute rows as the person sees them: the name's rendered text (line breaks taken out), the attribute
# it belongs to, whether it is shown, and whether its text is cut.
ROWS = """
const rows = [...document.querySelectorAll(arguments[0])];
return rows.map((row) => {
  const label = row.querySelector(arguments[1]);
  const name = label.cloneNode(true);
  name.querySelectorAll('.attr-type').forEach((type) => type.remove());  // the Lab shows the type under the name
  return {attr: row.dataset.attr, shown: row.getClientRects().length > 0,
          text: name.textContent.replace(/\\s+/g, ''), cut: label.scrollWidth > label.clientWidth + 1};
});
"""

VIEWS = {
    # view: (opener, detail root, row selector, name selector, relationship block selector)
    "Inspector": (open_inspector, "#detail", "#detail tr.attr-row", ".attr-name", "#detail .rel-block"),
    "Lab": (open_lab, "#detail-content", "#detail-content .attr-row", "dt", "#detail-content .rel-card"),
}


def set_viewport(driver, width, height):
    driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride",
                           {"width": width, "height": height, "deviceScaleFactor": 1, "mobile": False})


def open_detail(driver, wait_for, view, base, record):
    opener, root, rows, _, _ = VIEWS[view]
    opener(driver, base, wait_for, entity="ICAttachment", id=record["id"])
    wait_for(driver, lambda d: len(d.find_elements(By.CSS_SELECTOR, rows)) >= 70, message=f"the {view}'s detail")
    return root


@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
@pytest.mark.parametrize("view", VIEWS)
def test_a_wide_record_fits(driver, store_server, wait_for, console_errors, view, size):
    base, api = store_server(STORE)
    record = api("/api/entities/ICAttachment", limit=1)["rows"][0]
    detail = api("/api/object", id=record["id"])
    nil = sorted(name for name, value in detail["attrs"].items() if value is None)
    empty_relationships = sorted(rel["name"] for rel in detail["relationships"] if rel["count"] == 0)
    assert len(detail["attrs"]) >= 70 and len(nil) > 20, "the fixture's wide, mostly nil record"
    set_viewport(driver, *size)
    _, root, rows, name, blocks = VIEWS[view]
    open_detail(driver, wait_for, view, base, record)

    # Every name whole, and no two alike.
    shown = driver.execute_script(ROWS, rows, name)
    assert sorted(row["attr"] for row in shown) == sorted(detail["attrs"])
    for row in shown:
        assert row["text"] == row["attr"] and not row["cut"], f"{row['attr']} is shown as {row['text']!r}"
    assert len({row["text"] for row in shown}) == len(shown)

    # The relationships are one click away, and on screen after it.
    jump = driver.find_element(By.CSS_SELECTOR, f"{root} .detail-jump-to[data-jump='relationships']")
    assert jump.text == f"Relationships ({len(detail['relationships'])})"
    assert jump.is_displayed() and jump.rect["y"] + jump.rect["height"] <= size[1], "the jump bar is on screen"
    first_relationship = driver.find_element(By.CSS_SELECTOR, blocks)
    assert first_relationship.rect["y"] > size[1], "the relationships start below the first screen without the jump"
    jump.click()
    wait_for(driver, lambda d: 0 <= d.find_element(By.CSS_SELECTOR, blocks).rect["y"] < size[1] - 40,
             message="the first relationship on screen after the jump")

    # Hide empty: the nil attributes and the empty relationships go, the rest stay; remembered across a reload.
    toggle = driver.find_element(By.ID, "detail-hide-empty")
    if toggle.is_selected():
        toggle.click()
    toggle.click()
    wait_for(driver, lambda d: sorted(row["attr"] for row in d.execute_script(ROWS, rows, name) if not row["shown"]) == nil,
             message="the nil attributes hidden")
    hidden_blocks = driver.execute_script(
        "return [...document.querySelectorAll(arguments[0])].filter((b) => !b.getClientRects().length)"
        ".map((b) => b.dataset.rel)", blocks)
    assert sorted(hidden_blocks) == empty_relationships
    open_detail(driver, wait_for, view, base, record)
    assert driver.find_element(By.ID, "detail-hide-empty").is_selected(), "Hide empty is remembered"
    assert sorted(row["attr"] for row in driver.execute_script(ROWS, rows, name) if not row["shown"]) == nil
    other = "Lab" if view == "Inspector" else "Inspector"
    open_detail(driver, wait_for, other, base, record)
    assert driver.find_element(By.ID, "detail-hide-empty").is_selected(), "one choice for both views"
    driver.find_element(By.ID, "detail-hide-empty").click()
    assert console_errors(driver) == []
