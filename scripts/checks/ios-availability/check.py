#!/usr/bin/env python3
"""Fails when code an app links uses Foundation, Darwin or Dispatch API that Apple documents as unavailable on
iOS or tvOS.

    scripts/checks/ios-availability/check.py              check the repository
    scripts/checks/ios-availability/check.py --self-test  prove a planted use fails, and exempt places pass

Why it exists: every brick builds on Linux, whose Foundation has API that iOS does not (our first iOS user's build
failed on `FileManager.homeDirectoryForCurrentUser`, which every Linux check passed). The compiler cannot tell here,
so this reads the sources against a list taken from Apple's documentation: `unavailable-api.tsv` beside this file,
each entry with the page that gives its platforms. The macOS GitHub job builds the package for the iOS and tvOS
simulators and Mac Catalyst too, and catches what the list misses; add each such miss to the list.

What is checked: every Swift file of every target a library product of the root Package.swift links (what an app
that adds the package compiles), and the iOS demo app's sources. Code that iOS and tvOS never compile is exempt:
a `#if` branch whose condition is false on both (`os(macOS)`, `os(Linux)`, `canImport(Glibc)`, …), and comments
and string literals. Conditions it cannot decide (`DEBUG`, `targetEnvironment(…)`, `swift(>=…)`) count as
possibly true, so their code is checked.
"""
from __future__ import annotations

import pathlib
import re
import sys
import tempfile

HERE = pathlib.Path(__file__).resolve().parent
ROOT = HERE.parents[2]
sys.path.insert(0, str(ROOT / "scripts/lib"))
from swift_manifest import app_linked_targets, manifest_targets  # noqa: E402

LIST = HERE / "unavailable-api.tsv"
# App sources that no manifest declares: the iOS demo is built by Xcode from its project.
EXTRA_APP_SOURCES = ["Apps/iOSDemo/Sources"]
# The platforms whose SDKs must accept the code (Mac Catalyst compiles with os(iOS) true).
PLATFORMS = ("iOS", "tvOS")
# canImport answers on iOS and tvOS: modules that do not exist there, and ones that do; others are undecided.
ABSENT_ON_APPLE_MOBILE = {"Glibc", "Musl", "WinSDK", "Android", "Bionic", "AppKit", "Cocoa", "FoundationXML"}
PRESENT_ON_APPLE_MOBILE = {"Darwin", "Foundation", "Dispatch", "ObjectiveC", "CoreData", "UIKit", "SwiftUI", "os",
                           "Network", "SQLite3", "zlib", "Security", "Combine"}

TRUE, FALSE, UNKNOWN = "true", "false", "unknown"


# MARK: Conditions of #if, evaluated for one platform in three values

def _tokens(condition: str) -> list[str]:
    return re.findall(r"&&|\|\||!|\(|\)|[A-Za-z_][A-Za-z0-9_]*\s*\([^()]*\)|[A-Za-z_][A-Za-z0-9_.]*|\S", condition)


def evaluate(condition: str, platform: str) -> str:
    """TRUE, FALSE or UNKNOWN: whether the `#if` condition holds when compiling for `platform`."""
    tokens = _tokens(condition)
    position = 0

    def peek() -> str | None:
        return tokens[position] if position < len(tokens) else None

    def take() -> str:
        nonlocal position
        position += 1
        return tokens[position - 1]

    def disjunction() -> str:
        value = conjunction()
        while peek() == "||":
            take()
            other = conjunction()
            value = TRUE if TRUE in (value, other) else FALSE if value == other == FALSE else UNKNOWN
        return value

    def conjunction() -> str:
        value = negation()
        while peek() == "&&":
            take()
            other = negation()
            value = FALSE if FALSE in (value, other) else TRUE if value == other == TRUE else UNKNOWN
        return value

    def negation() -> str:
        if peek() == "!":
            take()
            value = negation()
            return {TRUE: FALSE, FALSE: TRUE}.get(value, UNKNOWN)
        if peek() == "(":
            take()
            value = disjunction()
            if peek() == ")":
                take()
            return value
        return atom(take() if peek() else "")

    def atom(token: str) -> str:
        call = re.fullmatch(r"([A-Za-z_][A-Za-z0-9_]*)\s*\(\s*([^(),]*?)\s*(?:,[^()]*)?\)", token)
        if token == "true":
            return TRUE
        if token == "false":
            return FALSE
        if not call:
            return UNKNOWN  # a custom flag (DEBUG, XCODE16_SDK): either way
        name, argument = call.groups()
        if name == "os":
            return TRUE if argument == platform else FALSE
        if name == "canImport":
            if argument in ABSENT_ON_APPLE_MOBILE:
                return FALSE
            return TRUE if argument in PRESENT_ON_APPLE_MOBILE else UNKNOWN
        return UNKNOWN  # arch, targetEnvironment, swift, compiler, hasFeature, hasAttribute

    return disjunction()


# MARK: Reading a Swift file: code only, and which lines a platform compiles

def code_only(text: str) -> str:
    """The text with comments and string literals blanked (newlines kept, so line numbers hold)."""
    out = []
    index, length = 0, len(text)
    while index < length:
        if text.startswith("//", index):
            end = text.find("\n", index)
            end = length if end < 0 else end
            out.append(" " * (end - index))
            index = end
        elif text.startswith("/*", index):
            depth, end = 1, index + 2
            while end < length and depth:
                if text.startswith("/*", end):
                    depth, end = depth + 1, end + 2
                elif text.startswith("*/", end):
                    depth, end = depth - 1, end + 2
                else:
                    end += 1
            out.append(re.sub(r"[^\n]", " ", text[index:end]))
            index = end
        elif re.match(r'#*"', text[index:index + 8]):
            hashes = len(re.match(r"#*", text[index:]).group(0))
            multiline = text.startswith('"""', index + hashes)
            opening = hashes + (3 if multiline else 1)
            closing = ('"""' if multiline else '"') + "#" * hashes
            end = index + opening
            while end < length:
                if text.startswith("\\" + "#" * hashes, end) and hashes == 0:
                    end += 2  # an escaped character in a plain string
                    continue
                if text.startswith(closing, end):
                    end += len(closing)
                    break
                if not multiline and text[end] == "\n":
                    break
                end += 1
            out.append(re.sub(r"[^\n]", " ", text[index:end]))
            index = end
        else:
            out.append(text[index])
            index += 1
    return "".join(out)


DIRECTIVE = re.compile(r"^\s*#(if|elseif|else|endif)\b(.*)$")


def compiled_lines(code: str, platform: str) -> list[bool]:
    """For each line: whether the compiler may compile it for `platform` (not inside a branch that is false there)."""
    # Each open #if: (enclosing branch live, a previous branch of this chain certainly taken, this branch live).
    stack: list[tuple[bool, bool, bool]] = []
    live = True
    result = []
    for line in code.split("\n"):
        directive = DIRECTIVE.match(line)
        if not directive:
            result.append(live)
            continue
        result.append(False)
        keyword, condition = directive.group(1), directive.group(2).strip()
        if keyword == "if":
            value = evaluate(condition, platform)
            stack.append((live, value == TRUE, live and value != FALSE))
        elif keyword in ("elseif", "else") and stack:
            outer, taken, _ = stack[-1]
            value = TRUE if keyword == "else" else evaluate(condition, platform)
            stack[-1] = (outer, taken or value == TRUE, outer and not taken and value != FALSE)
        elif keyword == "endif" and stack:
            stack.pop()
        live = stack[-1][2] if stack else True
    return result


# MARK: The list and the check

def read_list(path: pathlib.Path) -> list[tuple[re.Pattern[str], str, str, str]]:
    """(pattern, symbol, platforms, page) for each entry of the tab-separated list (# starts a comment line)."""
    entries = []
    for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
        if not line.strip() or line.startswith("#"):
            continue
        fields = line.split("\t")
        if len(fields) != 4:
            raise SystemExit(f"{path}:{number}: expected 4 tab-separated fields (pattern, symbol, platforms, page)")
        entries.append((re.compile(fields[0]), fields[1], fields[2], fields[3]))
    return entries


def app_sources(root: pathlib.Path) -> list[pathlib.Path]:
    """Every Swift file an app that adds the package compiles, and the iOS demo's."""
    text = (root / "Package.swift").read_text(encoding="utf-8")
    targets = manifest_targets(text)
    linked = set().union(*app_linked_targets(text).values())
    folders = [root / targets[name][1] for name in sorted(linked)
               if name in targets and targets[name][0] == "target" and targets[name][1]]
    folders += [root / extra for extra in EXTRA_APP_SOURCES if (root / extra).is_dir()]
    return sorted(path for folder in folders for path in folder.rglob("*.swift"))


def check_file(path: pathlib.Path, entries, root: pathlib.Path) -> list[str]:
    code = code_only(path.read_text(encoding="utf-8"))
    lines = code.split("\n")
    live = [any(flags) for flags in zip(*(compiled_lines(code, platform) for platform in PLATFORMS))]
    problems = []
    for number, (line, compiled) in enumerate(zip(lines, live), 1):
        if not compiled:
            continue
        for pattern, symbol, platforms, page in entries:
            if pattern.search(line):
                problems.append(f"{path.relative_to(root)}:{number}: {symbol} is not available on iOS/tvOS "
                                f"(Apple lists: {platforms}; {page}) — move it behind #if os(macOS), or out of what "
                                "apps link")
    return problems


def check(root: pathlib.Path, entries) -> tuple[list[str], int]:
    sources = app_sources(root)
    return [problem for source in sources for problem in check_file(source, entries, root)], len(sources)


def self_test(entries) -> int:
    with tempfile.TemporaryDirectory() as temp:
        root = pathlib.Path(temp)
        (root / "Package.swift").write_text(
            '.library(name: "Lib", targets: ["Lib"]),\n.executable(name: "tool", targets: ["Tool"]),\n'
            '.target(name: "Lib", path: "Sources/Lib"),\n'
            '.executableTarget(name: "Tool", dependencies: ["Lib"], path: "Sources/Tool"),\n')
        (root / "Sources/Lib").mkdir(parents=True)
        (root / "Sources/Tool").mkdir(parents=True)
        (root / "Sources/Lib/Planted.swift").write_text(
            "import Foundation\n"
            "let home = FileManager.default.homeDirectoryForCurrentUser\n"             # 2: reported
            "#if os(macOS)\nlet a = FileManager.default.homeDirectoryForCurrentUser\n"  # 4: exempt
            "#elseif os(Linux)\nlet b = FileManager.default.homeDirectoryForCurrentUser\n"  # 6: exempt
            "#else\nlet c = 1\n#endif\n"
            "#if os(iOS)\nlet d = 1\n#else\nlet e = Process()\n#endif\n"               # 13: tvOS compiles it
            "#if canImport(Glibc) || os(macOS)\nlet f = Host.current()\n#endif\n"       # 16: exempt
            "#if DEBUG\nlet g = ProcessInfo.processInfo.fullUserName\n#endif\n"                                 # 19: undecided: checked
            "// homeDirectoryForCurrentUser in a comment\n"
            'let h = "homeDirectoryForCurrentUser in a string"\n'
            "/* Process() /* nested */ Host.current() */ let i = 1\n"
            "#if !os(Linux) && !os(macOS)\nlet j = ProcessInfo.processInfo.environment\n#endif\n"
            "#if !os(iOS) && !os(tvOS)\nlet k = XMLDocument()\n#endif\n")        # 28: exempt
        # The executable is not linked by apps: its uses are its own business.
        (root / "Sources/Tool/main.swift").write_text("let home = FileManager.default.homeDirectoryForCurrentUser\n")
        found, _ = check(root, entries)
        lines = [problem.split(":")[1] for problem in found]
        expected = ["2", "13", "19"]
        if lines != expected:
            print("ios-availability self-test failed: expected reports on lines " + repr(expected) + ", got:\n  "
                  + "\n  ".join(found), file=sys.stderr)
            return 1
    print("ios-availability self-test: a planted use fails (in code, in a branch tvOS compiles, under an undecided "
          "flag); macOS- and Linux-only branches, comments, strings and executables pass")
    return 0


def main() -> int:
    entries = read_list(LIST)
    if "--self-test" in sys.argv[1:]:
        return self_test(entries)
    problems, count = check(ROOT, entries)
    for problem in problems:
        print(problem, file=sys.stderr)
    if problems:
        print(f"ios-availability: {len(problems)} use(s) of API that iOS or tvOS lacks", file=sys.stderr)
        return 1
    print(f"ios-availability: {count} Swift files that apps compile use none of the {len(entries)} API entries "
          "Apple documents as unavailable on iOS or tvOS")
    return 0


if __name__ == "__main__":
    sys.exit(main())
