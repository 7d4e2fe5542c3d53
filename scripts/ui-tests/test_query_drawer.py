"""The Query drawer, in both views: for the page on screen it shows the statements the server ran
(SQL, values, rows, time), SQLite's plan, how the page was served and the fetch index that would speed it up —
exactly what /api/entities/:name/explain answers — and follows the page as the person pages on."""

from __future__ import annotations

from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys

from test_exports import open_inspector, open_lab

STORE = "wibosco-migration/CoreDataMigration_Example_3.sqlite"

JS_DRAWER = """
const d = document.getElementById('query-drawer');
if (!d || d.hidden) return null;
const texts = (css) => [...d.querySelectorAll(css)].map(n => n.textContent);
return {state: d.dataset.state, steps: texts('.qd-steps li'), sql: texts('.qd-sql'), values: texts('.qd-values'),
        plans: texts('.qd-plan'), hints: texts('.qd-hint-text'), snippets: texts('.qd-snippet'), summary: texts('.qd-summary')};
"""


def drawer(driver):
    return driver.execute_script(JS_DRAWER)


def shows(explained):
    """What the drawer shows for an explain answer."""
    return {
        "steps": explained["steps"],
        "sql": [s["sql"] for s in explained["statements"]],
        "values": [f"Values: {', '.join(s['arguments'])}" for s in explained["statements"] if s["arguments"]],
        "plans": ["\n".join(s["plan"]) for s in explained["statements"]],
        "hints": [h["text"] for h in explained["hints"]],
    }


def matches(driver, expected):
    shown = drawer(driver)
    return shown is not None and shown["state"] == "ready" and all(shown[k] == v for k, v in expected.items())


def test_inspector_drawer_shows_the_pages_sql_plan_and_hint_and_follows_paging(driver, store_server, wait_for, console_errors):
    base, api = store_server(STORE)
    params = {"sort": "postID", "order": "desc", "limit": 100}
    open_inspector(driver, base, wait_for, entity="Post", **params)
    driver.find_element(By.ID, "query-btn").click()
    # The drawer's request runs the page again, which the store counts like any other: compare with an answer
    # taken after the drawer's, so both describe the same state of the kept orders and counts.
    wait_for(driver, lambda d: (drawer(d) or {}).get("state") == "ready", message="the drawer explained the page")
    expected = shows(api("/api/entities/Post/explain", **params, offset=0))
    assert expected["hints"] and expected["hints"][0].startswith("Sorting Post by postID reads all 7995 rows")
    shown = drawer(driver)
    assert shown["hints"] == expected["hints"]
    assert shown["snippets"] == [api("/api/entities/Post/explain", **params)["hints"][0]["modelEditor"],
                                 "#Index<Post>([\\.postID])"]
    assert shown["summary"][0].startswith("Post · 7,995 records · the page took ")
    assert len(shown["sql"]) >= 1 and shown["plans"]
    assert driver.find_element(By.ID, "query-btn").get_attribute("aria-expanded") == "true"

    # Paging on: the drawer explains the new page (its OFFSET value).
    driver.find_element(By.ID, "next-btn").click()
    wait_for(driver, lambda d: any(v.endswith(", 100") for v in (drawer(d) or {}).get("values", [])) or
             any("Page: the keys of Post in postID order are kept" in s for s in (drawer(d) or {}).get("steps", [])),
             message="the drawer followed to page 2")
    assert console_errors(driver) == []


def test_lab_drawer_matches_the_api_for_a_search(driver, store_server, wait_for):
    base, api = store_server(STORE)
    open_lab(driver, base, wait_for, entity="Color", search="ff", limit=50)
    driver.find_element(By.ID, "grid-query-btn").click()
    wait_for(driver, lambda d: (drawer(d) or {}).get("state") == "ready", message="the drawer explained the page")
    # A search's total is kept after its first page: explain the same page again and compare what is stable.
    expected = shows(api("/api/entities/Color/explain", search="ff", limit=50, offset=0))
    shown = drawer(driver)
    assert shown["sql"][0] == expected["sql"][0]
    assert shown["values"][0] == expected["values"][0] and "'ff'" in shown["values"][0]
    assert shown["plans"][0] == expected["plans"][0]
    assert shown["hints"] == expected["hints"] and shown["hints"][0].startswith("A text search reads every Color row")
    # Escape closes it and gives focus back to its button.
    driver.find_element(By.CSS_SELECTOR, "#query-drawer .qd-close").send_keys(Keys.ESCAPE)
    wait_for(driver, lambda d: drawer(d) is None, message="the drawer closed")
    assert driver.switch_to.active_element.get_attribute("id") == "grid-query-btn"


def test_the_demo_stores_drawer_says_there_is_no_sql(driver, server, wait_for):
    open_inspector(driver, server, wait_for, entity="Book")
    driver.find_element(By.ID, "query-btn").click()
    wait_for(driver, lambda d: (drawer(d) or {}).get("state") == "ready", message="the drawer explained the page")
    shown = drawer(driver)
    assert shown["sql"] == [] and shown["steps"][0].startswith("This store filters, sorts and pages its records in its own code")
    assert "InMemoryStore" in shown["summary"][0]
