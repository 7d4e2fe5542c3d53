#!/usr/bin/env bash
# Type-checks the Apple-only sources on Linux against a stand-in `CoreData` module (./CoreData/), so a misspelt
# Core Data method, a wrong argument label, a wrong optionality or a Swift 6 concurrency error fails here and
# not only on a Mac. See PLAN.md "Apple platforms" for what this proves and what it cannot.
#
#   scripts/apple-typecheck/run.sh            type-check everything below
#   scripts/apple-typecheck/run.sh --self-test  prove the check fails on a deliberate mistake
#
# Built with swiftc directly (no SwiftPM): the stand-in is named `CoreData`, so the adapter's files compile
# unmodified with their `import CoreData`, and `#if canImport(CoreData)` is true because the stand-in is found.
set -euo pipefail
cd "$(dirname "$0")/../.."

self_test=0
[ "${1:-}" = "--self-test" ] && self_test=1

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
modules="$work/modules"
mkdir -p "$modules"

# The same settings as the packages' manifests, plus warnings as errors.
common=(-swift-version 6 -strict-concurrency=complete -enable-upcoming-feature InternalImportsByDefault
        -warnings-as-errors -parse-as-library -I "$modules")

emit() { # emit <module> <files…>: type-check the files as one module and write its .swiftmodule
  local name=$1; shift
  swiftc -emit-module -wmo -module-name "$name" "${common[@]}" -emit-module-path "$modules/$name.swiftmodule" "$@"
}

sources() { find "$1" -name '*.swift' | sort; }

adapter_dir=Packages/BrowserCoreData/Sources/BrowserCoreData
if [ "$self_test" = 1 ]; then
  # A copy of the adapter with one call misspelt: the check must fail on it.
  cp -r "$adapter_dir" "$work/adapter"
  sed -i 's/objectIDs(forRelationshipNamed: scope.relationship)/objectIDs(forRelationship: scope.relationship)/' "$work/adapter/ManagedContextStore.swift"
  grep -q 'objectIDs(forRelationship: scope.relationship)' "$work/adapter/ManagedContextStore.swift"
  adapter_dir="$work/adapter"
fi

# 1. The stand-in, built with library evolution so its enums are not frozen (as Apple's NS_ENUMs are not).
emit CoreData -enable-library-evolution $(sources scripts/apple-typecheck/CoreData)
echo "built the CoreData stand-in"

# 2. The bricks the Apple-only code depends on, from their real sources.
emit BrowserCore $(sources Packages/BrowserCore/Sources/BrowserCore)

# 3. The adapter.
if [ "$self_test" = 1 ]; then
  if output=$(emit BrowserCoreData $(sources "$adapter_dir") 2>&1); then
    echo "apple-typecheck self-test FAILED: a misspelt Core Data method type-checked" >&2
    exit 1
  fi
  echo "$output" | grep -m1 'error:' || true
  echo "apple-typecheck self-test: a misspelt Core Data method fails the check"
  exit 0
fi
emit BrowserCoreData $(sources "$adapter_dir")
echo "type-checked Packages/BrowserCoreData"

# 4. The assembly with its Apple-only initializer: the whole CoreDataBrowser module, so the extension is checked
#    against the real CoreDataBrowserServer.
sqlite_maps=(-I Packages/BrowserSQLite/Sources/CSQLite -I Packages/BrowserSQLite/Sources/CZlib)
emit BrowserHTTP $(sources Packages/BrowserHTTP/Sources/BrowserHTTP)
emit BrowserWebAssets $(sources Packages/BrowserWebAssets/Sources/BrowserWebAssets)
emit BrowserSQLite "${sqlite_maps[@]}" $(sources Packages/BrowserSQLite/Sources/BrowserSQLite)
emit CoreDataBrowser "${sqlite_maps[@]}" $(sources Packages/CoreDataBrowser/Sources/CoreDataBrowser)
echo "type-checked Packages/CoreDataBrowser (with CoreDataBrowserServer+Context.swift)"

# 5. The adapter's tests (Swift Testing is in the Linux toolchain); they only run on macOS.
swiftc -typecheck -module-name BrowserCoreDataTests "${common[@]}" "${sqlite_maps[@]}" \
  $(sources Packages/BrowserCoreData/Tests/BrowserCoreDataTests)
echo "type-checked Packages/BrowserCoreData/Tests"

# 6. The iOS demo app's Core Data files (its seed is BrowserMemory's DemoSeed). Its SwiftUI/Combine files (the
#    App, the content view, the browser controller) cannot be checked here: there is no SwiftUI on Linux.
emit BrowserMemory $(sources Packages/BrowserMemory/Sources/BrowserMemory)
demo=(Apps/iOSDemo/Sources/PersistenceController.swift Apps/iOSDemo/Sources/SeedData.swift)
swiftc -typecheck -module-name iOSDemo "${common[@]}" "${demo[@]}"
echo "type-checked the iOS demo's Core Data files (not its SwiftUI files)"
