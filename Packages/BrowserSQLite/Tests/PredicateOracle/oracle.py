#!/usr/bin/env python3
"""An independent oracle for RecordFilter predicates: evaluates predicate trees over the rows of a
Core Data SQLite store, read with Python's sqlite3 module, and writes the records each one matches.

It shares no code with the Swift side. What it knows of the store comes from a hand-written description
(`stores/*.json`: each entity's table, entity numbers, attribute columns and types, and how each relationship
is stored, read off the store's DDL and the format doc), and what a predicate means from RecordFilter's
documentation, implemented here directly over Python values:

  - two-valued logic: a missing value (NULL, or a key path through a nil to-one) satisfies `== nil` and
    `!= <value>` and nothing else; NOT is plain negation; ANY false and ALL/NONE true over no related record;
  - values as the store-file reader shows them: integers; Booleans non-zero = true; Double/Float REAL;
    Decimal through 15 significant digits ('%.15g') of a REAL; dates as seconds since 2001; UUID 16 bytes;
  - text without options compares code point by code point; [c]/[d]/[cd] compare folded forms (`fold` below:
    Unicode full case folding, and removal of combining marks after canonical decomposition), code point by
    code point too. One known gap: the Swift side's CONTAINS[cd] is the search box's `TextFolding.containsFolded`,
    which matches Swift Characters (grapheme clusters: "👍🏽" does not contain "👍", "a\r\nb" does not contain
    "\r"); the data avoids grapheme clusters that a needle could split, as RecordFilter does not say which it means;
  - LIKE: `*` any run, `?` one code point, the whole value; BETWEEN inclusive; @count the related rows (through
    to-one steps; through a nil one a missing value, which satisfies != only);
  - record membership: an empty path is the (related) record itself, compared with object IDs; a to-one IN a
    list of IDs; two attributes of one record: == when both missing or both equal, an order false when either is
    missing.

Usage (the Swift test runs it; `predicates.py` makes the trees):
    oracle.py --store S.sqlite --description stores/synthetic.json --out cases.json
"""

from __future__ import annotations

import argparse
import json
import os
import sqlite3
import sys
import unicodedata
from decimal import Decimal

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import predicates  # noqa: E402  (the predicate set: trees generated from the description and the data)


class Missing:
    """The value of a key path through a nil to-one relationship, or of a NULL column."""


MISSING = Missing()


def fold(text: str, options: str) -> str:
    """The [c], [d], [cd] forms: case folding (str.casefold, Unicode full folding) and/or removal of combining
    marks (categories Mn, Me) after canonical decomposition, recomposed."""
    if "d" in options:
        decomposed = unicodedata.normalize("NFD", text)
        text = unicodedata.normalize("NFC", "".join(c for c in decomposed if unicodedata.category(c) not in ("Mn", "Me")))
    if "c" in options:
        text = text.casefold()
    return text


def like(value: str, pattern: str) -> bool:
    """`*` matches any run, `?` one code point, everything else itself; the whole value must match. Dynamic
    programming over (pattern position, value position): linear in value × pattern."""
    reachable = {0}
    for p in pattern:
        if p == "*":
            start = min(reachable) if reachable else None
            reachable = set(range(start, len(value) + 1)) if start is not None else set()
        else:
            reachable = {i + 1 for i in reachable if i < len(value) and (p == "?" or value[i] == p)}
        if not reachable:
            return False
    return len(value) in reachable


class Store:
    """The rows of a store, as the description says to read them."""

    def __init__(self, path: str, description: dict):
        self.description = description
        self.db = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
        self.uuid = self.db.execute("SELECT Z_UUID FROM Z_METADATA").fetchone()[0]
        self.names = {int(k): v for k, v in description["names"].items()}
        self.entities = {}
        for name, entity in description["entities"].items():
            self.entities[name] = self._resolve(name)
        self.tables = {}
        for entity in self.entities.values():
            if entity["table"] not in self.tables:
                cursor = self.db.execute(f'SELECT * FROM "{entity["table"]}"')
                columns = [d[0] for d in cursor.description]
                self.tables[entity["table"]] = {row[0]: dict(zip(columns, row)) for row in cursor}
        self._joins = {}

    def _resolve(self, name: str) -> dict:
        entity = dict(self.description["entities"][name])
        attributes, relationships = {}, {}
        if "parent" in entity:
            parent = self._resolve(entity["parent"])
            entity.setdefault("table", parent["table"])
            attributes.update(parent["attributes"])
            relationships.update(parent["relationships"])
        attributes.update(entity.get("attributes", {}))
        relationships.update(entity.get("relationships", {}))
        entity["attributes"], entity["relationships"], entity["name"] = attributes, relationships, name
        return entity

    def records(self, entity_name: str) -> list[dict]:
        entity = self.entities[entity_name]
        return [row for pk, row in sorted(self.tables[entity["table"]].items()) if row["Z_ENT"] in entity["entities"]]

    def object_id(self, row: dict) -> str:
        return f"x-coredata://{self.uuid}/{self.names[row['Z_ENT']]}/p{row['Z_PK']}"

    def target(self, row: dict, relationship: dict):
        """The row a to-one relationship reaches, or None."""
        destination = self.entities[relationship["destination"]]
        key = row.get(relationship["column"])
        if key is None:
            return None
        target = self.tables[destination["table"]].get(key)
        return target if target is not None and target["Z_ENT"] in destination["entities"] else None

    def related(self, row: dict, relationship: dict) -> list[dict]:
        """The rows a to-many relationship reaches."""
        destination = self.entities[relationship["destination"]]
        rows = self.tables[destination["table"]]
        if "inverseColumn" in relationship:
            key = (destination["name"], relationship["inverseColumn"])
            if key not in self._joins:
                owners = {}
                for pk, r in sorted(rows.items()):
                    if r["Z_ENT"] in destination["entities"]:
                        owners.setdefault(r[relationship["inverseColumn"]], []).append(r)
                self._joins[key] = owners
            return self._joins[key].get(row["Z_PK"], [])
        key = (relationship["joinTable"], relationship["sourceColumn"], relationship["targetColumn"])
        if key not in self._joins:
            pairs = self.db.execute(f'SELECT "{key[1]}", "{key[2]}" FROM "{key[0]}"').fetchall()
            if relationship.get("reflexive"):  # its own inverse: a pair may be stored either way round
                pairs += [(t, s) for s, t in pairs]
            targets = {}
            for s, t in pairs:
                targets.setdefault(s, set()).add(t)
            self._joins[key] = targets
        keys = self._joins[key].get(row["Z_PK"], set())
        return [rows[k] for k in sorted(keys) if k in rows and rows[k]["Z_ENT"] in destination["entities"]]


def decode(value, kind: str):
    """A stored value as the reader shows it (None for NULL)."""
    if value is None:
        return None
    if kind in ("Integer 16", "Integer 32", "Integer 64"):
        return int(value)
    if kind == "Boolean":
        return value != 0
    if kind in ("Double", "Float", "Date"):
        return float(value)
    if kind == "Decimal":
        if isinstance(value, float):
            return Decimal("%.15g" % value)
        return Decimal(str(value))
    return value  # String, URI: str; UUID, Binary, Transformable: bytes


def operand_value(operand: dict, kind: str):
    """A tree operand as a Python value comparable with `decode`'s."""
    (tag, value), = operand.items()
    if tag == "null":
        return None
    if tag == "decimal":
        return Decimal(value)
    if tag == "uuid":
        import uuid
        return uuid.UUID(value).bytes
    if tag == "boolean":
        return bool(value)
    if tag in ("integer",):
        return int(value)
    if tag in ("double", "date"):
        return float(value)
    return value


def compare_value(value, op: str, options: str, operand, kind: str) -> bool:
    """A comparison on a present value."""
    if op == "IN":
        members = [operand_value(v, kind) for v in operand["list"]]
        if kind == "String" and options:
            return fold(value, options) in {fold(m, options) for m in members}
        return any(value == m for m in members)
    if op == "BETWEEN":
        low, high = (operand_value(v, kind) for v in operand["range"])
        return low <= value <= high
    right = operand_value(operand, kind)
    if right is None:
        return op == "!="
    if kind == "String" and options:
        value, right = fold(value, options), fold(right, options)
    if isinstance(right, float) and right != right:  # NaN equals and orders with nothing
        return op == "!="
    if op == "==":
        return value == right
    if op == "!=":
        return value != right
    if op == "<":
        return value < right
    if op == "<=":
        return value <= right
    if op == ">":
        return value > right
    if op == ">=":
        return value >= right
    if op == "CONTAINS":
        return right in value
    if op == "BEGINSWITH":
        return value.startswith(right)
    if op == "ENDSWITH":
        return value.endswith(right)
    if op == "LIKE":
        return like(value, right)
    raise ValueError(f"unknown operator {op}")


def holds_for_missing(comparison: dict) -> bool:
    operand = comparison.get("value")
    is_nil = operand == {"null": True}
    return (comparison["op"] == "==" and is_nil) or (comparison["op"] == "!=" and not is_nil)


def record_ids(operand: dict) -> list:
    """The object ID URIs of an {"object": …} or {"objects": […]} operand."""
    return [operand["object"]] if "object" in operand else list(operand["objects"])


def compare_attributes(left, op: str, right) -> bool:
    """Two attributes of one record: == holds when both are missing or both equal, != when not; an order is false
    when either is missing."""
    if left is None or right is None:
        both = left is None and right is None
        return both if op == "==" else (not both if op == "!=" else False)
    if op == "==":
        return left == right
    if op == "!=":
        return left != right
    return {"<": left < right, "<=": left <= right, ">": left > right, ">=": left >= right}[op]


def compare(store: Store, row: dict, entity: dict, comparison: dict) -> bool:
    path = comparison["path"]
    op, operand = comparison["op"], comparison.get("value")
    if not path:  # the (related) record itself, compared with records
        member = store.object_id(row) in record_ids(operand)
        return not member if op == "!=" else member
    for name in path[:-1]:
        relationship = entity["relationships"][name]
        row = store.target(row, relationship)
        if row is None:
            return holds_for_missing(comparison)
        entity = store.entities[relationship["destination"]]
    last = path[-1]
    if last in entity["relationships"]:  # a to-one compared with an object ID (or a list of them) or nil
        target = store.target(row, entity["relationships"][last])
        if operand == {"null": True}:
            equal = target is None
        else:
            equal = target is not None and store.object_id(target) in record_ids(operand)
        return not equal if op == "!=" else equal
    attribute = entity["attributes"][last]
    value = decode(row.get(attribute["column"]), attribute["type"])
    if "keyPath" in comparison:  # another attribute of the same record
        other = entity["attributes"][comparison["keyPath"][-1]]
        return compare_attributes(value, op, decode(row.get(other["column"]), other["type"]))
    if value is None:
        return holds_for_missing(comparison)
    if operand == {"null": True}:
        return op == "!="
    return compare_value(value, op, comparison.get("options", ""), operand, attribute["type"])


def evaluate(store: Store, row: dict, entity: dict, tree: dict) -> bool:
    (tag, body), = tree.items()
    if tag == "all":
        return all(evaluate(store, row, entity, part) for part in body)
    if tag == "any":
        return any(evaluate(store, row, entity, part) for part in body)
    if tag == "not":
        return not evaluate(store, row, entity, body)
    if tag == "cmp":
        return compare(store, row, entity, body)
    if tag == "quantified":
        relationship = entity["relationships"][body["relationship"]]
        destination = store.entities[relationship["destination"]]
        answers = [compare(store, r, destination, body["cmp"]) for r in store.related(row, relationship)]
        return {"ANY": any(answers), "ALL": all(answers), "NONE": not any(answers)}[body["quantifier"]]
    if tag == "count":
        steps = body["relationship"].split(".")
        for name in steps[:-1]:  # to-one steps: through a nil one the count is missing, which satisfies != only
            relationship = entity["relationships"][name]
            row = store.target(row, relationship)
            if row is None:
                return body["op"] == "!="
            entity = store.entities[relationship["destination"]]
        count = len(store.related(row, entity["relationships"][steps[-1]]))
        return compare_value(count, body["op"], "", {"integer": body["value"]}, "Integer 64")
    raise ValueError(f"unknown node {tag}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--store", required=True)
    parser.add_argument("--description", required=True)
    parser.add_argument("--out", required=True)
    args = parser.parse_args()
    with open(args.description, encoding="utf-8") as file:
        description = json.load(file)
    store = Store(args.store, description)
    cases = []
    for case in predicates.generate(store):
        entity = store.entities[case["entity"]]
        matched = [store.object_id(row) for row in store.records(case["entity"]) if evaluate(store, row, entity, case["filter"])]
        cases.append({**case, "expected": sorted(matched)})
    with open(args.out, "w", encoding="utf-8") as file:
        json.dump({"store": os.path.basename(args.store), "cases": cases}, file, ensure_ascii=False, indent=1)
    print(f"{len(cases)} cases written to {args.out}")


if __name__ == "__main__":
    main()
