#!/usr/bin/env python3
"""Fails when a brick imports, or depends on, a module it must not (imports point downward only), or when the web
UI's ES modules (web/) import each other in a loop.

    scripts/checks/architecture/check.py              check the repository
    scripts/checks/architecture/check.py --self-test  prove the check catches a violation, on a temporary tree

The rules are the table below; docs/decisions/bricks-and-imports.md explains them. The root Package.swift (what users resolve) declares
every brick's targets again with `path:` into Packages/…; the check reads both manifests and fails when they
disagree on a target's path or dependencies, or when a target is declared in one and not the other. In web/, every
`import … from "…"` and `import("…")` is read (scripts/lib/es_module_graph.py) and any cycle fails, named as its loop:
a module in a loop runs before the modules it imports have finished, and state modules import no UI.
"""
import pathlib
import re
import sys
import tempfile

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parents[2] / "lib"))
from es_module_graph import cycles, module_graph  # noqa: E402
from swift_manifest import app_linked_targets, manifest_targets  # noqa: E402

ROOT = pathlib.Path(__file__).resolve().parents[3]
SYSTEM = {"Foundation", "FoundationEssentials", "Dispatch", "Glibc", "Darwin", "Musl"}

# brick → modules its sources may import (besides SYSTEM). Bricks not listed here may not exist.
ALLOWED = {
    "BrowserFormats": set(),
    "BrowserCore": {"BrowserFormats"},
    "BrowserHTTP": set(),
    "BrowserWebAssets": set(),
    "BrowserMemory": {"BrowserCore"},
    "BrowserSQLite": {"BrowserCore", "BrowserFormats", "CSQLite", "SQLite3"},
    "BrowserCoreData": {"BrowserCore", "CoreData"},
    "BrowserDNSSD": {"CDNSSD"},
    "CoreDataBrowser": {"BrowserCore", "BrowserHTTP", "BrowserWebAssets", "BrowserSQLite", "BrowserCoreData",
                        "BrowserDNSSD", "CoreData", "SwiftData", "os"},
    "BrowserDesktop": {"BrowserSQLite"},
}
# Bricks whose code only a desktop tool runs (macOS-only API, other apps' files): no library product of the root
# manifest — what an app links — may contain them, directly or through a dependency.
DESKTOP_ONLY = {"BrowserDesktop"}
BRICKS = set(ALLOWED)
# Sideways dependencies a brick's manifest may declare for its tests only (besides BrowserMemory, which backs
# every brick's tests): the live adapter's parity test compares it with the store-file reader.
TEST_ONLY = {"BrowserCoreData": {"BrowserSQLite"}}
IMPORT = re.compile(r"^\s*(?:@\w+(?:\([^)]*\))?\s+)*(?:(?:public|package|internal|fileprivate|private)\s+)?"
                    r"import\s+(?:(?:struct|class|enum|protocol|func|var|let|typealias)\s+)?([A-Za-z_][A-Za-z0-9_]*)")
PATH_DEP = re.compile(r'\.package\(\s*path:\s*"\.\./([A-Za-z0-9_]+)"')


def check_root_manifest(root: pathlib.Path) -> list[str]:
    """The root manifest declares each brick's targets as the brick's own manifest does."""
    manifest = root / "Package.swift"
    if not manifest.exists():
        return []
    declared = manifest_targets(manifest.read_text(encoding="utf-8"))
    problems = []
    expected: dict[str, tuple[str, str, frozenset[str]]] = {}
    for brick_manifest in sorted((root / "Packages").glob("*/Package.swift")):
        brick = brick_manifest.parent.name
        for name, (kind, path, dependencies) in manifest_targets(brick_manifest.read_text(encoding="utf-8")).items():
            default = ("Tests/" if kind == "testTarget" else "Sources/") + name
            expected[name] = (kind, f"Packages/{brick}/{path or default}", dependencies)
    for name, (kind, path, dependencies) in sorted(expected.items()):
        if name not in declared:
            problems.append(f"Package.swift: declares no target {name} (Packages/{path.split('/')[1]}/Package.swift does)")
            continue
        root_kind, root_path, root_dependencies = declared[name]
        if root_kind != kind or root_path != path:
            problems.append(f"Package.swift: {name} is .{root_kind} at {root_path}, its brick declares .{kind} at {path}")
        if root_dependencies != dependencies:
            only_root = sorted(root_dependencies - dependencies)
            only_brick = sorted(dependencies - root_dependencies)
            problems.append(f"Package.swift: {name} depends on {sorted(root_dependencies)}, its brick's manifest on "
                            f"{sorted(dependencies)}" + (f" (only the root: {only_root})" if only_root else "")
                            + (f" (only the brick: {only_brick})" if only_brick else ""))
    for name, (_, path, _) in sorted(declared.items()):
        if path and path.startswith("Packages/") and name not in expected:
            problems.append(f"Package.swift: {name} at {path} is declared in no brick's manifest")
    return problems


def check_app_linked_products(root: pathlib.Path) -> list[str]:
    """No library product of the root manifest links a desktop-only brick."""
    manifest = root / "Package.swift"
    if not manifest.exists():
        return []
    problems = []
    for product, linked in sorted(app_linked_targets(manifest.read_text(encoding="utf-8")).items()):
        for brick in sorted(linked & DESKTOP_ONLY):
            problems.append(f"Package.swift: the library product {product} links {brick}, which is desktop-only "
                            "(apps link library products; only executables may depend on it)")
    return problems


def check_web_import_cycles(root: pathlib.Path) -> list[str]:
    """No ES module of web/ reaches itself through its imports (static or dynamic)."""
    web = root / "web"
    if not web.is_dir():
        return []
    problems = []
    for loop, tangle in cycles(module_graph(web)):
        path = " -> ".join(f"web/{name}" for name in loop + [loop[0]])
        others = sorted(set(tangle) - set(loop))
        rest = f" ({len(tangle)} modules reach each other; also {', '.join(others)})" if others else ""
        problems.append(f"web/{loop[0]}: import cycle {path}{rest}")
    return problems


def check(root: pathlib.Path) -> list[str]:
    problems = []
    packages = root / "Packages"
    for brick_dir in sorted(p for p in packages.iterdir() if p.is_dir()):
        brick = brick_dir.name
        if brick not in ALLOWED:
            problems.append(f"Packages/{brick}: not a known brick; add it to scripts/checks/architecture/check.py and docs/decisions/bricks-and-imports.md")
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
    return problems + check_root_manifest(root) + check_app_linked_products(root) + check_web_import_cycles(root)


def self_test() -> int:
    with tempfile.TemporaryDirectory() as temp:
        root = pathlib.Path(temp)
        core = root / "Packages/BrowserCore"
        (core / "Sources/BrowserCore").mkdir(parents=True)
        (core / "Package.swift").write_text("// manifest\n")
        (core / "Sources/BrowserCore/Bad.swift").write_text("import Foundation\npublic import BrowserHTTP\n")
        formats = root / "Packages/BrowserFormats"
        (formats / "Sources/BrowserFormats").mkdir(parents=True)
        (formats / "Package.swift").write_text("// manifest\n")
        (formats / "Sources/BrowserFormats/Up.swift").write_text("internal import BrowserCore\n")
        http = root / "Packages/BrowserHTTP"
        (http / "Sources/BrowserHTTP").mkdir(parents=True)
        (http / "Package.swift").write_text('dependencies: [.package(path: "../BrowserCore")]\n')
        (http / "Sources/BrowserHTTP/Fine.swift").write_text("#if canImport(Glibc)\nimport Glibc\n#endif\n")
        memory = root / "Packages/BrowserMemory"
        (memory / "Sources/BrowserMemory").mkdir(parents=True)
        (memory / "Package.swift").write_text(
            '.target(name: "BrowserMemory", dependencies: [.product(name: "BrowserCore", package: "BrowserCore")],'
            ' path: "Sources/BrowserMemory"),\n.testTarget(name: "BrowserMemoryTests", dependencies: ["BrowserMemory"])\n')
        desktop = root / "Packages/BrowserDesktop"
        (desktop / "Sources/BrowserDesktop").mkdir(parents=True)
        (desktop / "Package.swift").write_text('.target(name: "BrowserDesktop", path: "Sources/BrowserDesktop")\n')
        # The root manifest drifted: a dependency only it declares, and a test target it forgot; and a library
        # product reaches the desktop-only brick through a dependency.
        (root / "Package.swift").write_text(
            '.library(name: "Memory", targets: ["BrowserMemory"]),\n'
            '.executable(name: "demo", targets: ["Demo"]),\n'
            '.target(name: "BrowserMemory", dependencies: ["BrowserCore", "BrowserHTTP"],'
            ' path: "Packages/BrowserMemory/Sources/BrowserMemory"),\n'
            '.target(name: "BrowserHTTP", dependencies: ["BrowserDesktop"], path: "Packages/BrowserHTTP/Sources/BrowserHTTP"),\n'
            '.target(name: "BrowserDesktop", path: "Packages/BrowserDesktop/Sources/BrowserDesktop"),\n'
            '.executableTarget(name: "Demo", dependencies: ["BrowserDesktop"], path: "Apps/Demo"),\n')
        # web/: a page whose modules form a three-module loop (one edge a dynamic import) and a module importing
        # itself, beside an acyclic diamond (two modules importing one shared module) that must pass.
        web = root / "web"
        for folder in ("pages/a", "shared", "features/f"):
            (web / folder).mkdir(parents=True)
        (web / "pages/a/a.js").write_text("import { b } from './b.js';\nimport * as s from '../../shared/s.js';\n")
        (web / "pages/a/b.js").write_text('import {\n  c,\n} from "/features/f/c.js";\nexport const b = 1;\n')
        (web / "features/f/c.js").write_text("export const c = () => import('../../pages/a/a.js');\n")
        (web / "features/f/self.js").write_text("export { x } from './self.js';\n")
        (web / "shared/s.js").write_text("import { t } from './t.js';\n// import { a } from '../pages/a/a.js' is prose\n")
        (web / "shared/t.js").write_text("export const t = 1;\n")
        (web / "shared/u.js").write_text("import { t } from './t.js';\nimport { s } from './s.js';\n")
        found = check(root)
        expected = [
            "Packages/BrowserCore/Sources/BrowserCore/Bad.swift:2: BrowserCore must not import BrowserHTTP",
            "Packages/BrowserFormats/Sources/BrowserFormats/Up.swift:1: BrowserFormats must not import BrowserCore",
            "Packages/BrowserHTTP/Package.swift: BrowserHTTP must not depend on BrowserCore",
            "Package.swift: BrowserMemory depends on ['BrowserCore', 'BrowserHTTP'], its brick's manifest on "
            "['BrowserCore'] (only the root: ['BrowserHTTP'])",
            "Package.swift: declares no target BrowserMemoryTests (Packages/BrowserMemory/Package.swift does)",
            "Package.swift: BrowserHTTP at Packages/BrowserHTTP/Sources/BrowserHTTP is declared in no brick's manifest",
            "Package.swift: the library product Memory links BrowserDesktop, which is desktop-only (apps link library "
            "products; only executables may depend on it)",
            "web/features/f/c.js: import cycle web/features/f/c.js -> web/pages/a/a.js -> web/pages/a/b.js -> "
            "web/features/f/c.js",
            "web/features/f/self.js: import cycle web/features/f/self.js -> web/features/f/self.js",
        ]
        if found != expected:
            print("self-test failed:\n  expected " + repr(expected) + "\n  got      " + repr(found), file=sys.stderr)
            return 1
    print("architecture check self-test: the check catches an upward import, an upward dependency, a root "
          "manifest that drifted from a brick's, a library product linking a desktop-only brick, and web/ modules "
          "importing in a loop (an acyclic diamond passes)")
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
    print("architecture check: every brick imports only what it may, the root manifest matches the bricks', no "
          "library product links a desktop-only brick, and web/'s modules import in no loop")
    return 0


if __name__ == "__main__":
    sys.exit(main())
