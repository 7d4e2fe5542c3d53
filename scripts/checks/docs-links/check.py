#!/usr/bin/env python3
"""Checks that the docs lead somewhere: every relative Markdown link in the repository's Markdown (README, ARCHITECTURE,
PLAN, CHANGELOG, docs/, every package's and script's README) resolves to a file or folder, and every file path the
entry-point pages (README.md, ARCHITECTURE.md, PLAN.md) name in backticks exists.

A backticked path counts when it has a known file extension or ends with "/". One that starts at the repository's
top (`Packages/…`, `web/…`, `scripts/…`) must exist there; a shorter one (`Service/BrowserService.swift`, named
relative to the brick its paragraph is about) must be the end of some file's path; `../shared/…` is the shared spec
and fixtures beside the repository and is not checked. Paths with placeholders (`<…>`, `…`, `*`) are skipped.

    python3 scripts/checks/docs-links/check.py            # prints each broken link or path; exit 1 if any
    python3 scripts/checks/docs-links/check.py --self-test
"""
import os
import re
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.normpath(os.path.join(HERE, "..", "..", ".."))
ENTRY_PAGES = ["README.md", "ARCHITECTURE.md", "PLAN.md"]
SKIPPED_DIRS = {".git", "node_modules", "artifacts"}
EXTENSIONS = (".swift", ".js", ".css", ".html", ".py", ".sh", ".md", ".yml", ".tsv", ".json", ".txt", ".svg", ".h",
              ".modulemap", ".xcdatamodeld")
SOURCE_EXTENSIONS = (".swift", ".js", ".css", ".html", ".py", ".sh")
TOP = ("Packages/", "Apps/", "web/", "scripts/", "docs/", ".github/", ".ci/")
LINK = re.compile(r"\[[^\]]*\]\(([^)\s]+)\)")
CODE = re.compile(r"`([^`\s]+)`")


def markdown_files(root):
    for directory, dirs, files in os.walk(root):
        dirs[:] = [d for d in dirs if d not in SKIPPED_DIRS and not d.startswith(".build")]
        for name in files:
            if name.endswith(".md"):
                yield os.path.join(directory, name)


def all_paths(root):
    paths = []
    for directory, dirs, files in os.walk(root):
        dirs[:] = [d for d in dirs if d not in SKIPPED_DIRS and not d.startswith(".build")]
        rel = os.path.relpath(directory, root)
        for name in files + dirs:
            paths.append(name if rel == "." else f"{rel}/{name}")
    return paths


def problems(root):
    found = []
    for path in markdown_files(root):
        text = open(path, encoding="utf-8").read()
        rel = os.path.relpath(path, root)
        for target in LINK.findall(text):
            if re.match(r"^[a-z]+:", target) or target.startswith("#"):
                continue
            target = target.split("#", 1)[0]
            if not os.path.exists(os.path.normpath(os.path.join(os.path.dirname(path), target))):
                found.append(f"{rel}: link to {target}, which does not exist")
    known = all_paths(root)
    for page in ENTRY_PAGES:
        path = os.path.join(root, page)
        if not os.path.exists(path):
            continue
        for token in CODE.findall(open(path, encoding="utf-8").read()):
            token = token.split(":", 1)[0] if re.match(r"^[\w./+-]+:\d", token) else token
            if any(mark in token for mark in ("<", "…", "*", "$", "=")) or token.startswith(("../", "~", "/", "http")):
                continue
            if not (token.endswith(EXTENSIONS) or (token.endswith("/") and "/" in token[:-1]) or token.startswith(TOP)):
                continue
            if token.startswith("."):
                continue  # an extension named on its own (`.xcdatamodeld`)
            if "/" not in token.rstrip("/") and not token.startswith(TOP):
                # A bare source file name must exist somewhere (`+Context.swift` is the end of a name); other bare
                # names (`dns_sd.h`, the shared spec's `style.md`, a generated `cases.json`) are not the repository's.
                if not token.endswith(SOURCE_EXTENSIONS):
                    continue
                if not any(p == token or p.endswith("/" + token) or (token[0] == "+" and p.endswith(token))
                           for p in known):
                    found.append(f"{page}: `{token}` is no file of the repository")
                continue
            clean = token.rstrip("/")
            if token.startswith(TOP):
                if not os.path.exists(os.path.join(root, clean)):
                    found.append(f"{page}: `{token}` does not exist")
            elif not any(p == clean or p.endswith("/" + clean) for p in known):
                found.append(f"{page}: `{token}` is the end of no path in the repository")
    return found


def self_test():
    with tempfile.TemporaryDirectory() as root:
        os.makedirs(os.path.join(root, "docs", "decisions"))
        os.makedirs(os.path.join(root, "Packages", "BrowserCore", "Sources", "Service"))
        open(os.path.join(root, "Packages", "BrowserCore", "Sources", "Service", "BrowserService.swift"), "w").close()
        open(os.path.join(root, "docs", "decisions", "a.md"), "w").write("[ok](../../PLAN.md) [bad](missing.md)\n")
        open(os.path.join(root, "PLAN.md"), "w").write("`Service/BrowserService.swift` `web/gone.js` `Gone.swift`\n")
        open(os.path.join(root, "README.md"), "w").write("[x](docs/decisions/a.md#part) [y](https://e.org) `../shared/x.md`\n")
        found = problems(root)
        expected = ["docs/decisions/a.md: link to missing.md, which does not exist",
                    "PLAN.md: `web/gone.js` does not exist", "PLAN.md: `Gone.swift` is no file of the repository"]
        if sorted(found) != sorted(expected):
            print("self-test FAILED:\n  " + "\n  ".join(found))
            return 1
    print("docs-links self-test: a broken link, a missing top-level path and a missing file name are caught")
    return 0


def main():
    if "--self-test" in sys.argv:
        return self_test()
    found = problems(REPO)
    for line in found:
        print(line)
    if found:
        return 1
    print("docs links and the entry pages' file paths resolve")
    return 0


if __name__ == "__main__":
    sys.exit(main())
