"""The import graph of the web UI's ES modules, read as text, and the cycles in it. Used by check-architecture.py,
which fails on any cycle: a module that (through others) imports itself runs before its own imports have finished
evaluating, so which names exist at load time depends on which page loaded the loop first.

What is read: static `import … from "…"`, side-effect `import "…"`, `export … from "…"`, and dynamic `import("…")`
with a literal specifier. Specifiers that start with `/`, `./` or `../` are resolved against the web folder (the
server serves web/x/y.js as /x/y.js); anything else (a bare name, a URL) is not a file of the UI and is skipped.
"""
from __future__ import annotations

import pathlib
import posixpath
import re

STATIC = re.compile(r"""^\s*(?:import|export)\b[^;'"]*?\bfrom\s*(['"])([^'"]+)\1""", re.MULTILINE | re.DOTALL)
SIDE_EFFECT = re.compile(r"""^\s*import\s*(['"])([^'"]+)\1""", re.MULTILINE)
DYNAMIC = re.compile(r"""\bimport\(\s*(['"])([^'"]+)\1\s*\)""")


def imports_of(text: str) -> list[str]:
    """The module specifiers a module's source names, in the order they appear."""
    found = []
    for pattern in (STATIC, SIDE_EFFECT, DYNAMIC):
        found += [(match.start(), match.group(2)) for match in pattern.finditer(text)]
    return [specifier for _, specifier in sorted(found)]


def resolve(module: str, specifier: str) -> str | None:
    """A specifier as a path under the web folder (`shared/api.js`), or None when it names no file of the UI."""
    if specifier.startswith("/"):
        joined = specifier[1:]
    elif specifier.startswith(("./", "../")):
        joined = posixpath.join(posixpath.dirname(module), specifier)
    else:
        return None
    return posixpath.normpath(joined)


def module_graph(web: pathlib.Path) -> dict[str, list[str]]:
    """Each module under `web` (path relative to it) → the modules it imports that exist under `web`."""
    modules = {path.relative_to(web).as_posix(): path for path in sorted(web.rglob("*.js")) if path.is_file()}
    graph = {}
    for name, path in modules.items():
        targets = (resolve(name, spec) for spec in imports_of(path.read_text(encoding="utf-8")))
        graph[name] = sorted({target for target in targets if target in modules})
    return graph


def cycles(graph: dict[str, list[str]]) -> list[tuple[list[str], list[str]]]:
    """For each tangle (a strongly connected component: modules that all reach each other) one of its shortest loops,
    as the modules in import order starting from the alphabetically first (so the message is stable), and all the
    tangle's modules; a module importing itself is a loop of one."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    components: list[list[str]] = []

    def connect(node: str) -> None:
        # Tarjan's algorithm, iterative so a deep import chain cannot reach Python's recursion limit.
        work = [(node, iter(graph.get(node, [])))]
        index[node] = low[node] = len(index)
        stack.append(node)
        on_stack.add(node)
        while work:
            current, children = work[-1]
            child = next(children, None)
            if child is not None:
                if child not in index:
                    index[child] = low[child] = len(index)
                    stack.append(child)
                    on_stack.add(child)
                    work.append((child, iter(graph.get(child, []))))
                elif child in on_stack:
                    low[current] = min(low[current], index[child])
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[current])
            if low[current] == index[current]:
                component = []
                while True:
                    member = stack.pop()
                    on_stack.discard(member)
                    component.append(member)
                    if member == current:
                        break
                components.append(component)

    for node in sorted(graph):
        if node not in index:
            connect(node)
    loops = []
    for component in components:
        members = set(component)
        if len(component) == 1 and component[0] not in graph.get(component[0], []):
            continue
        loops.append((_loop_through(min(members), members, graph), sorted(members)))
    return sorted(loops)


def _loop_through(start: str, members: set[str], graph: dict[str, list[str]]) -> list[str]:
    """A shortest path from `start` back to itself inside one strongly connected component."""
    previous: dict[str, str] = {}
    frontier = [start]
    while frontier:
        following = []
        for node in frontier:
            for child in graph.get(node, []):
                if child not in members:
                    continue
                if child == start:
                    path = [node]
                    while path[-1] != start:
                        path.append(previous[path[-1]])
                    return list(reversed(path))
                if child not in previous:
                    previous[child] = node
                    following.append(child)
        frontier = following
    return [start]
