"""The predicate set of the equivalence harness: trees generated, deterministically, from a store's
description and its values, covering every operator of every attribute type with and without [c]/[d]/[cd],
nil, to-one key paths, object IDs, ANY/ALL/NONE, @count, NOT and nested groups.

A tree is JSON, one key per node:
    {"all": [tree…]}  {"any": [tree…]}  {"not": tree}
    {"cmp": {"path": ["author", "name"], "op": "BEGINSWITH", "options": "c", "value": operand}}
    {"quantified": {"quantifier": "ANY", "relationship": "tags", "cmp": {…}}}
    {"count": {"relationship": "tags", "op": ">", "value": 2}}      (through to-ones: "author.books")
    {"cmp": {"path": ["pageCount"], "op": ">", "keyPath": ["wordCount"]}}   (two attributes of one record)
    {"cmp": {"path": [], "op": "==", "value": {"object": …}}}      (in a quantifier: the related record itself)
and an operand one of {"null": true}, {"string": s}, {"integer": n}, {"double": x}, {"decimal": "1.5"},
{"date": seconds since 2001}, {"boolean": b}, {"uuid": "…"}, {"uri": s}, {"object": "x-coredata://…"},
{"objects": [uri…]} (IN, record IDs), {"list": [operand…]} (IN) or {"range": [low, high]} (BETWEEN). Values have their attribute type's case, as
validation guarantees a store. Every adapter can run the same cases: `generate(store)` gives
[{"entity", "filter", "label"}], and `oracle.py` adds what each matches.
"""

from __future__ import annotations

import random
import uuid
from decimal import Decimal

TEXT_OPERATORS = ["==", "!=", "CONTAINS", "BEGINSWITH", "ENDSWITH", "LIKE"]
ORDER_OPERATORS = ["==", "!=", "<", "<=", ">", ">="]
OPTIONS = ["", "c", "d", "cd"]
# Text a store may not hold, for the operators to meet: Unicode folding cases, LIKE's and SQL's special
# characters, the empty string.
PROBES = ["café", "CAFE", "Cafe\u0301", "strasse", "STRASSE", "ω", "Ω", "İ", "e", "", "*", "%", "_", "[", "a?",
          "日本", "👍"]


def operand(kind: str, value) -> dict:
    """A stored (decoded) value as a tree operand of the attribute's type."""
    if value is None:
        return {"null": True}
    if kind in ("Integer 16", "Integer 32", "Integer 64"):
        return {"integer": int(value)}
    if kind in ("Double", "Float"):
        return {"double": float(value)}
    if kind == "Date":
        return {"date": float(value)}
    if kind == "Decimal":
        return {"decimal": str(value)}
    if kind == "Boolean":
        return {"boolean": bool(value)}
    if kind == "UUID":
        return {"uuid": str(uuid.UUID(bytes=bytes(value))).upper()}
    if kind == "URI":
        return {"uri": value}
    return {"string": value}


def cmp(path, op, value, options="") -> dict:
    body = {"path": path, "op": op, "value": value}
    if options:
        body["options"] = options
    return {"cmp": body}


def decoded_values(store, entity: dict, attribute: dict) -> list:
    import oracle  # the one decoding of stored values
    values = {oracle.decode(row.get(attribute["column"]), attribute["type"]) for row in store.records(entity["name"])}
    values.discard(None)
    # JSON has no infinities (and NaN is stored as NULL).
    values = {v for v in values if not (isinstance(v, float) and (v != v or abs(v) == float("inf")))}
    return sorted(values, key=lambda v: (str(type(v)), v))


def text_variants(text: str, rng: random.Random) -> list[str]:
    """Operands derived from a stored text: itself, changed case, its start, end and middle, and a LIKE pattern."""
    variants = [text, text.upper(), text.lower()]
    if len(text) >= 3:
        start = rng.randrange(0, len(text) - 2)
        variants += [text[:3], text[-3:], text[start:start + 3]]
    return variants


def like_patterns(text: str, rng: random.Random) -> list[str]:
    patterns = ["*", "?*", text]
    if text:
        patterns += [text[:2] + "*", "*" + text[-2:], text[0] + "?" * (len(text) - 1), "*" + text[len(text) // 2:].upper() + "*"]
    return patterns


def attribute_cases(store, entity: dict, path: list, attribute: dict, rng: random.Random, depth: int) -> list[dict]:
    """Comparisons of one attribute (reached through `path`'s to-one relationships)."""
    kind = attribute["type"]
    full = path
    cases = [cmp(full, "==", {"null": True}), cmp(full, "!=", {"null": True})]
    values = decoded_values(store, store.entities[entity["name"]], attribute)
    picks = [values[i] for i in sorted(rng.sample(range(len(values)), min(len(values), 3 if depth == 0 else 2)))] if values else []
    if kind == "String":
        texts = []
        for value in picks:
            texts += text_variants(value, rng)
        texts += rng.sample(PROBES, 5 if depth == 0 else 2)
        for text in texts:
            for op in TEXT_OPERATORS:
                for options in (OPTIONS if depth == 0 else ["", "c"]):
                    if op == "LIKE":
                        continue
                    if rng.random() < (0.35 if depth == 0 else 0.15):
                        cases.append(cmp(full, op, {"string": text}, options))
        for value in picks + ["Café"]:
            for pattern in like_patterns(value, rng):
                cases.append(cmp(full, "LIKE", {"string": pattern}, rng.choice(OPTIONS)))
        members = [{"string": t} for t in rng.sample(texts, min(3, len(texts)))]
        for options in OPTIONS:
            cases.append(cmp(full, "IN", {"list": members}, options))
        cases.append(cmp(full, "IN", {"list": []}))
    elif kind in ("Integer 16", "Integer 32", "Integer 64", "Double", "Float", "Date", "Decimal"):
        numbers = list(picks)
        if values:
            numbers += [values[0], values[-1]]
        for value in numbers:
            for op in ORDER_OPERATORS:
                cases.append(cmp(full, op, operand(kind, value)))
        if len(values) >= 2:
            low, high = values[len(values) // 4], values[3 * len(values) // 4]
            cases.append(cmp(full, "BETWEEN", {"range": [operand(kind, low), operand(kind, high)]}))
            cases.append(cmp(full, "BETWEEN", {"range": [operand(kind, high), operand(kind, low)]}))
            cases.append(cmp(full, "IN", {"list": [operand(kind, v) for v in picks]}))
        if kind in ("Integer 16", "Integer 32", "Integer 64"):
            cases += [cmp(full, "==", {"integer": 0}), cmp(full, ">", {"integer": -1}), cmp(full, "<", {"integer": 2 ** 53})]
        if kind == "Decimal":
            cases += [cmp(full, "==", {"decimal": d}) for d in ("10.11", "3.3333333333", "10", "0.1")]
    elif kind == "Boolean":
        cases += [cmp(full, "==", {"boolean": True}), cmp(full, "==", {"boolean": False}), cmp(full, "!=", {"boolean": True})]
    elif kind in ("UUID", "URI"):
        for value in picks:
            cases += [cmp(full, "==", operand(kind, value)), cmp(full, "!=", operand(kind, value))]
        members = [operand(kind, v) for v in picks] + ([{"uuid": "00000000-0000-4000-8000-000000000000"}] if kind == "UUID" else [{"uri": "https://example.invalid/"}])
        cases.append(cmp(full, "IN", {"list": members}))
    return cases


def comparisons(store, entity: dict, path: list, rng: random.Random, depth: int) -> list[dict]:
    """Every attribute's comparisons, and a to-one's object and nil comparisons, then through to-one paths."""
    cases = []
    for name, attribute in sorted(entity["attributes"].items()):
        if depth > 0 and rng.random() < 0.5:
            continue
        cases += attribute_cases(store, entity, path + [name], attribute, rng, depth)
    for name, relationship in sorted(entity["relationships"].items()):
        if relationship.get("toMany"):
            continue
        destination = store.entities[relationship["destination"]]
        targets = store.records(destination["name"])
        cases += [cmp(path + [name], "==", {"null": True}), cmp(path + [name], "!=", {"null": True})]
        for target in rng.sample(targets, min(2, len(targets))):
            cases += [cmp(path + [name], "==", {"object": store.object_id(target)}),
                      cmp(path + [name], "!=", {"object": store.object_id(target)})]
        # IDs no row has: another entity of the same table, a key past the end, another store.
        cases.append(cmp(path + [name], "==", {"object": f"x-coredata://{store.uuid}/{destination['name']}/p999999"}))
        cases.append(cmp(path + [name], "!=", {"object": f"x-coredata://00000000-0000-0000-0000-000000000000/{destination['name']}/p1"}))
        if depth < 1:
            cases += comparisons(store, destination, path + [name], rng, depth + 1)
    return cases


def quantified_cases(store, entity: dict, rng: random.Random) -> list[dict]:
    cases = []
    for name, relationship in sorted(entity["relationships"].items()):
        if not relationship.get("toMany"):
            continue
        destination = store.entities[relationship["destination"]]
        inner = comparisons(store, destination, [], rng, 1)
        for comparison in rng.sample(inner, min(len(inner), 12)):
            for quantifier in ("ANY", "ALL", "NONE"):
                cases.append({"quantified": {"quantifier": quantifier, "relationship": name, "cmp": comparison["cmp"]}})
        for op in ORDER_OPERATORS:
            for count in (0, 1, 2, 3):
                cases.append({"count": {"relationship": name, "op": op, "value": count}})
    return cases


def app_form_cases(store, entity: dict, rng: random.Random) -> list[dict]:
    """The forms apps write beyond one attribute against one value: two attributes of one record compared, a to-one
    IN a list of record IDs, record membership in a to-many (ANY/ALL/NONE, == / != / IN), and @count after to-one
    steps."""
    cases = []
    numbers = sorted(n for n, a in entity["attributes"].items()
                     if a["type"] in ("Integer 16", "Integer 32", "Integer 64", "Double", "Float"))
    for left in numbers:
        for right in numbers:
            for op in ORDER_OPERATORS:
                if left != right or op in ("==", "!="):
                    cases.append({"cmp": {"path": [left], "op": op, "keyPath": [right]}})
    for kind in ("String", "Date", "Boolean"):
        same = sorted(n for n, a in entity["attributes"].items() if a["type"] == kind)
        for left in same:
            for right in same:
                for op in (ORDER_OPERATORS if kind == "Date" else ["==", "!="]):
                    cases.append({"cmp": {"path": [left], "op": op, "keyPath": [right]}})
    for name, relationship in sorted(entity["relationships"].items()):
        destination = store.entities[relationship["destination"]]
        targets = [store.object_id(r) for r in store.records(destination["name"])]
        picks = rng.sample(targets, min(3, len(targets)))
        unknown = f"x-coredata://{store.uuid}/{destination['name']}/p999999"
        if not relationship.get("toMany"):
            cases += [cmp([name], "IN", {"objects": picks + [unknown]}), cmp([name], "IN", {"objects": []}),
                      cmp([name], "IN", {"objects": picks[:1]})]
            # @count of the destination's to-many relationships, through this to-one.
            for far, farRelationship in sorted(destination["relationships"].items()):
                if farRelationship.get("toMany"):
                    for op, value in (("==", 0), (">", 0), ("!=", 1), (">=", 2)):
                        cases.append({"count": {"relationship": f"{name}.{far}", "op": op, "value": value}})
            continue
        for quantifier in ("ANY", "ALL", "NONE"):
            for target in picks[:2]:
                for op in ("==", "!="):
                    cases.append({"quantified": {"quantifier": quantifier, "relationship": name,
                                                 "cmp": {"path": [], "op": op, "value": {"object": target}}}})
            cases.append({"quantified": {"quantifier": quantifier, "relationship": name,
                                         "cmp": {"path": [], "op": "IN", "value": {"objects": picks + [unknown]}}}})
    return cases


def generate(store) -> list[dict]:
    """The cases of every entity of the store: atoms, their negations, and groups of them."""
    rng = random.Random(14)
    cases = []
    for entity_name in sorted(store.entities):
        entity = store.entities[entity_name]
        atoms = comparisons(store, entity, [], rng, 0) + quantified_cases(store, entity, rng) \
            + app_form_cases(store, entity, random.Random(29))
        trees = list(atoms)
        trees += [{"not": atom} for atom in rng.sample(atoms, min(len(atoms), len(atoms) // 3))]
        for _ in range(min(40, len(atoms) // 4)):
            a, b, c = rng.sample(atoms, 3)
            trees += [{"all": [a, b]}, {"any": [a, {"not": b}]}, {"not": {"all": [a, {"any": [b, c]}]}},
                      {"not": {"any": [{"not": a}, b]}}]
        trees += [{"all": []}, {"any": []}, {"not": {"all": []}}, {"not": {"any": []}}]
        cases += [{"entity": entity_name, "filter": tree} for tree in trees]
    return cases
