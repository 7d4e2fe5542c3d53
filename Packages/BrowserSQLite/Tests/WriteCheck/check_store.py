#!/usr/bin/env python3
"""Checks that a Core Data SQLite store keeps the invariants Core Data keeps, after a write.

An independent reading of the store (standard library only, sharing no code with BrowserSQLite): relationship
storage is derived here from the model's XML and the rules of the store format (shared/spec/coredata-sqlite-format.md
§2, §5, §6, §8), not from the writer's mapping.

Usage: check_store.py --model CONTENTS [--before BEFORE.sqlite] STORE.sqlite

  --model   the `contents` XML of the model version the store was written with
  --before  a copy of the store taken before the write: then every record whose row or relationship contents
            changed (compared before and after: its row's columns without Z_OPT, or the contents of any of its
            relationships) must have Z_OPT exactly one higher, every other record the same Z_OPT; new records
            Z_OPT 1 and keys above the old Z_MAX; Z_MAX never lower.

Checked on STORE always: PRAGMA integrity_check; Z_MAX >= every Z_PK per root entity; every row's Z_ENT is of its
table's tree and its Z_OPT at least 1; every relationship with an inverse refers only to records that exist and
both its sides agree (foreign keys, one-to-one columns on both tables, join tables); a to-one holds one record;
`Z<n>_<R>` entity columns name the target's Z_ENT; ordered relationships' order keys are present and distinct per
owner. Entities are numbered by Z_PRIMARYKEY.Z_NAME (a store whose entity was renamed needs its old name in the
model). Prints each problem and exits 1, or prints a summary and exits 0.
"""
import argparse
import re
import sqlite3
import sys
import xml.etree.ElementTree as ET


def read_model(path):
    entities = {}
    for element in ET.parse(path).getroot().findall("entity"):
        relationships = []
        for rel in element.findall("relationship"):
            if rel.get("transient") == "YES":
                continue
            relationships.append({
                "name": rel.get("name"), "destination": rel.get("destinationEntity"), "inverse": rel.get("inverseName"),
                "to_many": rel.get("toMany") == "YES", "ordered": rel.get("ordered") == "YES",
            })
        entities[element.get("name")] = {"parent": element.get("parentEntity"), "relationships": relationships}
    return entities


class Store:
    def __init__(self, path, model):
        self.db = sqlite3.connect(path)
        self.model = model
        self.numbers = {name: number for number, name in self.db.execute("SELECT Z_ENT, Z_NAME FROM Z_PRIMARYKEY")}
        self.z_max = {number: z_max for number, z_max in self.db.execute("SELECT Z_ENT, Z_MAX FROM Z_PRIMARYKEY")}
        self.columns = {}
        for (table,) in self.db.execute("SELECT name FROM sqlite_master WHERE type = 'table'"):
            self.columns[table.upper()] = [row[1] for row in self.db.execute(f'PRAGMA table_info("{table}")')]
        self.rows = {}
        for name in model:
            table = self.table(name)
            if table not in self.rows and table in self.columns:
                cursor = self.db.execute(f'SELECT * FROM "{table}"')
                names = [d[0] for d in cursor.description]
                self.rows[table] = {row[0]: dict(zip(names, row)) for row in cursor}

    def root(self, name):
        while self.model[name]["parent"]:
            name = self.model[name]["parent"]
        return name

    def table(self, name):
        return "Z" + self.root(name).upper()

    def subtree(self, name):
        result = {self.numbers[name]}
        for child, entity in self.model.items():
            if entity["parent"] == name:
                result |= self.subtree(child)
        return result

    def has_children(self, name):
        return any(entity["parent"] == name for entity in self.model.values())

    def column(self, table, base):
        """The column named `base`, or `base` with Core Data's numeric collision suffix (format doc §7)."""
        found = [c for c in self.columns.get(table, []) if re.fullmatch(re.escape(base) + r"\d*", c, re.I)]
        exact = [c for c in found if c.upper() == base.upper()]
        return (exact or found or [None])[0]

    def declaring(self, entity, relationship):
        while entity:
            for rel in self.model[entity]["relationships"]:
                if rel["name"] == relationship:
                    return entity, rel
            entity = self.model[entity]["parent"]
        return None, None

    def storage(self, owner, rel):
        """How a relationship is stored, from the format doc's rules (§8)."""
        name = rel["name"].upper()
        destination = rel["destination"]
        inverse_owner, inverse = self.declaring(destination, rel["inverse"]) if rel["inverse"] else (None, None)
        if not rel["to_many"]:
            column = self.column(self.table(owner), "Z" + name)
            if column:
                entity_column = None
                if self.has_children(destination):
                    entity_column = self.column(self.table(owner), "Z%d_%s" % (self.numbers[destination], name))
                return ("fk", column, entity_column)
            if inverse and not inverse["to_many"]:
                return ("inverse-fk", self.column(self.table(destination), "Z" + inverse["name"].upper()))
            return ("missing",)
        if inverse and not inverse["to_many"]:
            column = self.column(self.table(destination), "Z" + inverse["name"].upper())
            order = self.column(self.table(destination), "Z_FOK_" + column[1:]) if rel["ordered"] and column else None
            return ("targets", column, order)
        if inverse:
            candidates = ["Z_%d%s" % (self.numbers[owner], name), "Z_%d%s" % (self.numbers[inverse_owner], inverse["name"].upper())]
            join = next((c for c in candidates if c in self.columns), None)
            if not join:
                return ("missing",)
            target = self.column(join, "Z_%d%s" % (self.numbers[destination], name))
            source = self.column(join, "Z_%d%s" % (self.numbers[inverse["destination"]], inverse["name"].upper()))
            order = self.column(join, "Z_FOK_" + target[2:]) if rel["ordered"] and target else None
            return ("join", join, source, target, order)
        column = self.column(self.table(destination), "Z%d%s" % (self.numbers[owner], name))
        order = self.column(self.table(destination), "Z_FOK_" + column[1:]) if rel["ordered"] and column else None
        return ("targets", column, order)

    def records(self, entity):
        numbers = self.subtree(entity)
        return [pk for pk, row in self.rows.get(self.table(entity), {}).items() if row["Z_ENT"] in numbers]

    def contents(self, owner, rel):
        """{source pk: [target pk, …]} for every record of `owner`'s tree, in relationship order when ordered."""
        storage = self.storage(owner, rel)
        sources = self.records(owner)
        result = {pk: [] for pk in sources}
        destination_rows = self.rows.get(self.table(rel["destination"]), {})
        if storage[0] == "fk":
            for pk in sources:
                value = self.rows[self.table(owner)][pk][storage[1]]
                if value is not None:
                    result[pk] = [value]
        elif storage[0] == "inverse-fk":
            for pk, row in destination_rows.items():
                if row[storage[1]] in result:
                    result[row[storage[1]]].append(pk)
        elif storage[0] == "targets":
            _, column, order = storage
            members = sorted(((row[order] if order else 0, pk, row[column]) for pk, row in destination_rows.items()
                              if row[column] is not None and row["Z_ENT"] in self.subtree(rel["destination"])),
                             key=lambda item: (item[0] is None, item[0] or 0, item[1]))
            for _, pk, source in members:
                if source in result:
                    result[source].append(pk)
        elif storage[0] == "join":
            _, join, source, target, order = storage
            query = f'SELECT "{source}", "{target}" FROM "{join}" ORDER BY ' + (f'"{order}", ' if order else "") + f'"{target}"'
            for source_pk, target_pk in self.db.execute(query):
                if source_pk in result:
                    result[source_pk].append(target_pk)
        return storage, result

    def all_relationships(self):
        for owner, entity in self.model.items():
            for rel in entity["relationships"]:
                yield owner, rel


def check(store, problems):
    integrity = store.db.execute("PRAGMA integrity_check").fetchall()
    if integrity != [("ok",)]:
        problems.append(f"integrity_check: {integrity[:5]}")
    for name, entity in store.model.items():
        if entity["parent"]:
            continue
        table = store.table(name)
        largest = max(store.rows.get(table, {}) or [0])
        if (store.z_max.get(store.numbers[name]) or 0) < largest:
            problems.append(f"Z_MAX of {name} is {store.z_max.get(store.numbers[name])}, below {table}'s largest Z_PK {largest}")
        tree = store.subtree(name)
        for pk, row in store.rows.get(table, {}).items():
            if row["Z_ENT"] not in tree:
                problems.append(f"{table} row {pk} has Z_ENT {row['Z_ENT']}, not an entity of {name}'s tree")
            if row["Z_OPT"] is None or row["Z_OPT"] < 1:
                problems.append(f"{table} row {pk} has Z_OPT {row['Z_OPT']}")
    checked = 0
    for owner, rel in store.all_relationships():
        storage, contents = store.contents(owner, rel)
        if storage[0] == "missing":
            problems.append(f"{owner}.{rel['name']}: no storage found")
            continue
        checked += 1
        destination_table = store.table(rel["destination"])
        destination_tree = store.subtree(rel["destination"])
        inverse_contents = None
        if rel["inverse"]:
            inverse_owner, inverse = store.declaring(rel["destination"], rel["inverse"])
            inverse_contents = store.contents(inverse_owner, inverse)[1]
        for source, targets in contents.items():
            if not rel["to_many"] and len(targets) > 1:
                problems.append(f"{owner} {source}.{rel['name']} is a to-one holding {targets}")
            for target in targets:
                row = store.rows.get(destination_table, {}).get(target)
                if row is None or row["Z_ENT"] not in destination_tree:
                    if rel["inverse"]:
                        problems.append(f"{owner} {source}.{rel['name']} refers to {rel['destination']} {target}, which does not exist")
                    continue
                if inverse_contents is not None and source not in inverse_contents.get(target, []):
                    problems.append(f"{owner} {source}.{rel['name']} holds {rel['destination']} {target}, whose {rel['inverse']} does not hold it back")
                if storage[0] == "fk" and storage[2]:
                    entity_value = store.rows[store.table(owner)][source][storage[2]]
                    if entity_value != row["Z_ENT"]:
                        problems.append(f"{owner} {source}.{storage[2]} is {entity_value}, the target's Z_ENT is {row['Z_ENT']}")
            if rel["ordered"] and rel["to_many"]:
                order_column = storage[2] if storage[0] == "targets" else storage[4] if storage[0] == "join" else None
                if order_column and storage[0] == "targets":
                    keys = [store.rows[destination_table][t][order_column] for t in targets]
                elif order_column:
                    keys = [k for (k,) in store.db.execute(
                        f'SELECT "{order_column}" FROM "{storage[1]}" WHERE "{storage[2]}" = ?', (source,))]
                else:
                    keys = []
                if any(k is None for k in keys) or len(set(keys)) != len(keys):
                    problems.append(f"{owner} {source}.{rel['name']}: order keys {keys} are not distinct and present")
        if storage[0] == "fk" and storage[2]:
            for pk in store.records(owner):
                row = store.rows[store.table(owner)][pk]
                if row[storage[1]] is None and row[storage[2]] is not None:
                    problems.append(f"{owner} {pk}.{storage[2]} is {row[storage[2]]} with no target")
    return checked


def snapshot(store):
    """Per record (table, pk): its row without Z_OPT, and its relationship contents (order kept where ordered)."""
    records = {}
    for table, rows in store.rows.items():
        for pk, row in rows.items():
            records[(table, pk)] = {"row": {k: v for k, v in row.items() if k != "Z_OPT"}, "opt": row["Z_OPT"], "rels": {}}
    for owner, rel in store.all_relationships():
        for source, targets in store.contents(owner, rel)[1].items():
            key = (store.table(owner), source)
            records[key]["rels"][rel["name"]] = (tuple(targets) if rel["ordered"] else tuple(sorted(targets)),
                                                 store.table(rel["destination"]))
    return records


def compare(before, after, problems):
    old, new = snapshot(before), snapshot(after)
    for number, z_max in before.z_max.items():
        if (after.z_max.get(number) or 0) < (z_max or 0):
            problems.append(f"Z_MAX of entity {number} went down from {z_max} to {after.z_max.get(number)}")
    changed = 0
    for key, record in new.items():
        table, pk = key
        if key not in old:
            root_number = next(n for name, n in after.numbers.items() if after.table(name) == table and not after.model[name]["parent"])
            if record["opt"] != 1:
                problems.append(f"new record {table} {pk} has Z_OPT {record['opt']}, not 1")
            if pk <= (before.z_max.get(root_number) or 0):
                problems.append(f"new record {table} {pk} reuses a key at or below the old Z_MAX {before.z_max.get(root_number)}")
            continue
        previous = old[key]
        # A survivor of a delete whose inverse lost the deleted record changed too (Nullify); one left naming it
        # (No Action) did not.
        differs = record["row"] != previous["row"] or record["rels"] != previous["rels"]
        expected = (previous["opt"] or 0) + (1 if differs else 0)
        changed += differs
        if record["opt"] != expected:
            problems.append(f"{table} {pk}: Z_OPT {previous['opt']} -> {record['opt']}, expected {expected} "
                            f"({'changed' if differs else 'unchanged'})")
    return changed


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--model", required=True)
    parser.add_argument("--before")
    parser.add_argument("store")
    arguments = parser.parse_args()
    model = read_model(arguments.model)
    after = Store(arguments.store, model)
    problems = []
    checked = check(after, problems)
    changed = compare(Store(arguments.before, model), after, problems) if arguments.before else None
    for problem in problems:
        print(problem)
    if problems:
        return 1
    print(f"ok: {sum(len(r) for r in after.rows.values())} records, {checked} relationships"
          + (f", {changed} records changed" if changed is not None else ""))
    return 0


if __name__ == "__main__":
    sys.exit(main())
