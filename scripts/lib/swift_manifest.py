"""Reading SwiftPM manifests (Package.swift) without running Swift: the targets each declares and what a library
product links. Shared by the checks that hold the manifests to the project's rules (checks/architecture/check.py,
checks/ios-availability/check.py). A manifest is Swift, so this reads the declarations the project writes —
`.target(…)` and `.library(…)` calls with literal names — not every form SwiftPM accepts.
"""
from __future__ import annotations

import re

TARGET_CALL = re.compile(r"\.(target|testTarget|executableTarget|systemLibrary)\(")
LIBRARY_PRODUCT = re.compile(r'\.library\(\s*name:\s*"([^"]+)"[^)]*?targets:\s*\[([^\]]*)\]')


def balanced(text: str, start: int, opening: str, closing: str) -> str:
    """The text from `start` (just after an opening bracket) to its matching closing bracket."""
    depth = 1
    for index in range(start, len(text)):
        if text[index] == opening:
            depth += 1
        elif text[index] == closing:
            depth -= 1
            if depth == 0:
                return text[start:index]
    return text[start:]


def manifest_targets(text: str) -> dict[str, tuple[str, str | None, frozenset[str]]]:
    """name → (kind, path, dependency names) for every target a Package.swift declares."""
    text = re.sub(r"//[^\n]*", "", text)  # comments may mention targets
    targets = {}
    for match in TARGET_CALL.finditer(text):
        body = balanced(text, match.end(), "(", ")")
        name = re.search(r'\bname:\s*"([^"]+)"', body)
        if not name:
            continue
        path = re.search(r'\bpath:\s*"([^"]+)"', body)
        dependencies: set[str] = set()
        deps = re.search(r"\bdependencies:\s*\[", body)
        if deps:
            listing = balanced(body, deps.end(), "[", "]")
            dependencies |= set(re.findall(r'\.(?:product|target|byName)\(\s*name:\s*"([^"]+)"', listing))
            listing = re.sub(r"\.(?:product|target|byName)\([^)]*\)", "", listing)
            dependencies |= set(re.findall(r'"([^"]+)"', listing))
        targets[name.group(1)] = (match.group(1), path.group(1) if path else None, frozenset(dependencies))
    return targets


def app_linked_targets(text: str) -> dict[str, set[str]]:
    """library product → every target it links (its targets and their dependencies, transitively): what an app
    that adds the product compiles. Executables and tests are not linked by apps."""
    targets = manifest_targets(text)
    products = {}
    for product in LIBRARY_PRODUCT.finditer(re.sub(r"//[^\n]*", "", text)):
        linked: set[str] = set()
        pending = re.findall(r'"([^"]+)"', product.group(2))
        while pending:
            name = pending.pop()
            if name not in linked:
                linked.add(name)
                pending.extend(targets.get(name, ("", None, frozenset()))[2])
        products[product.group(1)] = linked
    return products
