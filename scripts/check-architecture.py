#!/usr/bin/env python3
"""Fails when a brick imports, or depends on, a module it must not (imports point downward only).

    scripts/check-architecture.py              check the repository
    scripts/check-architecture.py --self-test  prove the check catches a violation, on a temporary tree

The rules are the table below; PLAN.md explains them. Each brick's own Package.swift and the root
Package.swift must also agree on which bricks a brick depends on.
"""
import pathlib
import re
import sys
import tempfile

ROOT = pathlib.Path(__file__).resolve().parent.parent
SYSTEM = {"Foundation", "FoundationEssentials", "Dispatch", "Glibc", "Darwin", "Musl"}

# brick → modules its sources may import (besides SYSTEM). Bricks not listed here may not exist.
ALLOWED = {
    "BrowserCore": set(),
    "BrowserHTTP": set(),
    "BrowserWebAssets": set(),
    "BrowserMemory": {"BrowserCore"},
    "BrowserSQLite": {"BrowserCore", "CSQLite", "CZlib", "SQLite3", "zlib"},
    "BrowserCoreData": {"BrowserCore", "CoreData", "CoreDataStandIn"},
    "CoreDataBrowser": {"BrowserCore", "BrowserHTTP", "BrowserWebAssets", "BrowserSQLite", "BrowserCoreData",
                        "CoreData"},
}
BRICKS = set(ALLOWED)
# Sideways dependencies a brick's manifest may declare for its tests only (besides BrowserMemory, which backs
# every brick's tests): the live adapter's parity test compares it with the store-file reader.
TEST_ONLY = {"BrowserCoreData": {"BrowserSQLite"}}
IMPORT = re.compile(r"^\s*(?:@\w+(?:\([^)]*\))?\s+)*(?:(?:public|package|internal|fileprivate|private)\s+)?"
                    r"import\s+(?:(?:struct|class|enum|protocol|func|var|let|typealias)\s+)?([A-Za-z_][A-Za-z0-9_]*)")
PATH_DEP = re.compile(r'\.package\(\s*path:\s*"\.\./([A-Za-z0-9_]+)"')


def check(root: pathlib.Path) -> list[str]:
    problems = []
    packages = root / "Packages"
    for brick_dir in sorted(p for p in packages.iterdir() if p.is_dir()):
        brick = brick_dir.name
        if brick not in ALLOWED:
            problems.append(f"Packages/{brick}: not a known brick; add it to scripts/check-architecture.py and PLAN.md")
            continue
        allowed = ALLOWED[brick] | SYSTEM
        for source in sorted((brick_dir / "Sources").rglob("*.swift")):
            for number, line in enumerate(source.read_text(encoding="utf-8").splitlines(), 1):
                match = IMPORT.match(line)
                if match and match.group(1) not in allowed:
                    rel = source.relative_to(root)
                    problems.append(f"{rel}:{number}: {brick} must not import {match.group(1)}")
        manifest = brick_dir / "Package.swift"
        if not manifest.exists():
            problems.append(f"Packages/{brick}: has no Package.swift (every brick builds and tests alone)")
            continue
        for dependency in PATH_DEP.findall(manifest.read_text(encoding="utf-8")):
            # Test-only dependencies may reach sideways; sources are held to ALLOWED by the import check above.
            if dependency not in ALLOWED[brick] and dependency not in TEST_ONLY.get(brick, set()) | {"BrowserMemory"}:
                problems.append(f"Packages/{brick}/Package.swift: {brick} must not depend on {dependency}")
    return problems


def self_test() -> int:
    with tempfile.TemporaryDirectory() as temp:
        root = pathlib.Path(temp)
        core = root / "Packages/BrowserCore"
        (core / "Sources/BrowserCore").mkdir(parents=True)
        (core / "Package.swift").write_text("// manifest\n")
        (core / "Sources/BrowserCore/Bad.swift").write_text("import Foundation\npublic import BrowserHTTP\n")
        http = root / "Packages/BrowserHTTP"
        (http / "Sources/BrowserHTTP").mkdir(parents=True)
        (http / "Package.swift").write_text('dependencies: [.package(path: "../BrowserCore")]\n')
        (http / "Sources/BrowserHTTP/Fine.swift").write_text("#if canImport(Glibc)\nimport Glibc\n#endif\n")
        found = check(root)
        expected = [
            "Packages/BrowserCore/Sources/BrowserCore/Bad.swift:2: BrowserCore must not import BrowserHTTP",
            "Packages/BrowserHTTP/Package.swift: BrowserHTTP must not depend on BrowserCore",
        ]
        if found != expected:
            print("self-test failed:\n  expected " + repr(expected) + "\n  got      " + repr(found), file=sys.stderr)
            return 1
    print("architecture check self-test: the check catches an upward import and an upward dependency")
    return 0


def main() -> int:
    if "--self-test" in sys.argv[1:]:
        return self_test()
    problems = check(ROOT)
    for problem in problems:
        print(problem, file=sys.stderr)
    if problems:
        print(f"architecture check: {len(problems)} problem(s)", file=sys.stderr)
        return 1
    print("architecture check: every brick imports only what it may")
    return 0


if __name__ == "__main__":
    sys.exit(main())
