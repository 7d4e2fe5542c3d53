#!/usr/bin/env bash
# Compiles the Apple-only sources on Linux against a stand-in `CoreData` module (./CoreData/), so a misspelt
# Core Data method, a wrong argument label, a wrong optionality or a Swift 6 concurrency error fails here and
# not only on a Mac. See docs/decisions/apple-typecheck.md for what this proves and what it cannot.
#
#   scripts/apple-typecheck/run.sh              compile everything below, against both signature sets
#   scripts/apple-typecheck/run.sh --self-test  prove the check fails on deliberate mistakes, under each signature set
#
# Built with swiftc directly (no SwiftPM): the stand-in is named `CoreData`, so the adapter's files compile
# unmodified with their `import CoreData`, and `#if canImport(CoreData)` is true because the stand-in is found.
# Two more stand-ins let the whole iOS demo compile: `SwiftUI` (./SwiftUI/: the protocols, result builders, views,
# modifiers and property wrappers the demo's two view files and its BrowserController use, with Apple's isolation:
# View, Scene and App are `@MainActor`) and `UIKit` (./UIKit/: UIPasteboard), which the SwiftUI stand-in re-exports
# as Apple's does on iOS. `@main` on the demo's App works because every module is compiled with -parse-as-library.
# The assembly compiles against two more: `SwiftData` (./SwiftData/: ModelContainer, ModelConfiguration, ModelContext,
# for `init(modelContainer:)` and its tests) and `os` (./os/: Logger and its OSLogMessage, for BrowserLog); and against
# BrowserDNSSD built from its sources over this machine's dns_sd.h (Avahi's copy of Apple's API).
#
# Every module, the tests and the demo included, is compiled with `-emit-module -wmo`, never `-typecheck`:
# `-typecheck` stops after type checking, and Swift 6's region-based isolation errors ("sending … risks causing
# data races") are found later, on SIL, which only a real compile (`-emit-module` or `-c`) reaches.
#
# Everything that imports CoreData or SwiftUI is compiled twice, once per signature set of the stand-ins (see
# CoreData/ManagedObjectContext.swift and SwiftUI/Modifiers.swift): `current` (the iOS 26 SDK: `perform`'s block
# `@Sendable`, `.task`'s action `sending @isolated(any)`) and `xcode16` (compiled with -D XCODE16_SDK: the same
# blocks without `@Sendable`, `.task`'s action `@Sendable`), because code that passes one can fail the other.
set -euo pipefail
cd "$(dirname "$0")/../.."

self_test=0
case "${1:-}" in
  "") ;;
  --self-test) self_test=1 ;;
  *) echo "scripts/apple-typecheck/run.sh: unknown argument $1" >&2; exit 2 ;;
esac

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
shared="$work/shared"   # modules that do not import CoreData: built once
mkdir -p "$shared"

# The same settings as the packages' manifests, plus warnings as errors.
settings=(-swift-version 6 -strict-concurrency=complete -enable-upcoming-feature InternalImportsByDefault
          -warnings-as-errors -parse-as-library)
# The C modules' maps: SQLite (BrowserSQLite), dns_sd (BrowserDNSSD, which the assembly imports).
c_maps=(-I Packages/BrowserSQLite/Sources/CSQLite -I Packages/BrowserDNSSD/Sources/CDNSSD)

# compile <module directory> <module name> <swiftc options and files…>: compiles the files as one module
# (whole-module, through SIL diagnostics) and writes its .swiftmodule into <module directory>.
compile() {
  local into=$1 name=$2; shift 2
  swiftc -emit-module -wmo -module-name "$name" "${settings[@]}" -I "$into" -I "$shared" \
    -emit-module-path "$into/$name.swiftmodule" "$@"
}

sources() { find "$1" -name '*.swift' | sort; }

# The modules the Apple-only code depends on, from their real sources; none imports CoreData.
compile "$shared" BrowserFormats $(sources Packages/BrowserFormats/Sources/BrowserFormats)
compile "$shared" BrowserCore $(sources Packages/BrowserCore/Sources/BrowserCore)
compile "$shared" BrowserHTTP $(sources Packages/BrowserHTTP/Sources/BrowserHTTP)
compile "$shared" BrowserWebAssets $(sources Packages/BrowserWebAssets/Sources/BrowserWebAssets)
compile "$shared" BrowserSQLite "${c_maps[@]}" $(sources Packages/BrowserSQLite/Sources/BrowserSQLite)
compile "$shared" BrowserMemory $(sources Packages/BrowserMemory/Sources/BrowserMemory)
compile "$shared" UIKit -enable-library-evolution $(sources scripts/apple-typecheck/UIKit)
# The `os` (Logger) and `SwiftData` stand-ins: the same declarations under both signature sets. SwiftData's names
# Foundation's URL in its API, which a module built with library evolution may not do with Linux's Foundation; it
# declares no enum whose frozenness could matter.
compile "$shared" os -enable-library-evolution $(sources scripts/apple-typecheck/os)
compile "$shared" SwiftData $(sources scripts/apple-typecheck/SwiftData)
# The DNS-SD client the assembly advertises through on Apple platforms, from its sources, against the dns_sd.h on
# this machine (Avahi's copy of Apple's API, libavahi-compat-libdnssd-dev, which browser-demo needs anyway).
compile "$shared" BrowserDNSSD -I Packages/BrowserDNSSD/Sources/CDNSSD $(sources Packages/BrowserDNSSD/Sources/BrowserDNSSD)
# The raw-socket test client, for the CoreDataBrowser test files compiled below.
compile "$shared" BrowserHTTPTesting $(sources Packages/BrowserHTTP/Tests/BrowserHTTPTesting)
echo "built BrowserFormats, BrowserCore, BrowserHTTP, BrowserWebAssets, BrowserSQLite, BrowserMemory and BrowserHTTPTesting from their sources, and the UIKit, os and SwiftData stand-ins"

# stand_in <variant>: builds the CoreData and SwiftUI stand-ins for one signature set into $work/<variant>, with
# library evolution so their enums are not frozen (as Apple's are not).
stand_in() {
  local variant=$1 flags=()
  [ "$variant" = xcode16 ] && flags=(-D XCODE16_SDK)
  mkdir -p "$work/$variant"
  compile "$work/$variant" CoreData -enable-library-evolution "${flags[@]}" $(sources scripts/apple-typecheck/CoreData)
  compile "$work/$variant" SwiftUI -enable-library-evolution "${flags[@]}" $(sources scripts/apple-typecheck/SwiftUI)
}

demo=(Apps/iOSDemo/Sources/PersistenceController.swift Apps/iOSDemo/Sources/SeedData.swift)
# The CoreDataBrowser tests of `init(modelContainer:)` (macOS job), less the file holding the `@Model` class, which
# needs SwiftData's macro plugin; with the test helpers they use.
tests=Packages/CoreDataBrowser/Tests/CoreDataBrowserTests
model_container_tests=("$tests/ModelContainerServing.swift" "$tests/TestClient.swift" "$tests/TestOptions.swift")
# The demo file that starts the server and listens again on returning to the foreground, compiled with DEBUG (where it
# starts the server) and without.
demo_controller=Apps/iOSDemo/Sources/BrowserController.swift
# The demo's two SwiftUI view files: the content view and the `@main` App.
demo_views=(Apps/iOSDemo/Sources/ContentView.swift Apps/iOSDemo/Sources/LibraryDemoApp.swift)

if [ "$self_test" = 1 ]; then
  # 1. A copy of the adapter with one Core Data call misspelt must fail.
  stand_in current
  cp -r Packages/BrowserCoreData/Sources/BrowserCoreData "$work/adapter"
  sed -i 's/objectIDs(forRelationshipNamed: scope.relationship)/objectIDs(forRelationship: scope.relationship)/' "$work/adapter/ManagedContextStore.swift"
  grep -q 'objectIDs(forRelationship: scope.relationship)' "$work/adapter/ManagedContextStore.swift"
  if output=$(compile "$work/current" BrowserCoreData $(sources "$work/adapter") 2>&1); then
    echo "apple-typecheck self-test FAILED: a misspelt Core Data method compiled" >&2
    exit 1
  fi
  echo "$output" | grep -m1 'error:' || true
  echo "apple-typecheck self-test: a misspelt Core Data method fails the check"

  # 2. The demo's original seeding (a main-actor method handing a block that is not @Sendable to the async,
  #    nonisolated performBackgroundTask) must fail with the region-based isolation error under both signature
  #    sets: `-typecheck` passed it, Xcode refused it.
  # 1b. The golden "Copy as Swift" code with one argument label wrong must fail too.
  sed 's/argumentArray:/arguments:/' Packages/BrowserCore/Tests/Golden/CoreDataFetchRequests.swift > "$work/golden.swift"
  if output=$(compile "$work/current" FetchRequestGolden "$work/golden.swift" 2>&1); then
    echo "apple-typecheck self-test FAILED: a wrong NSPredicate label in the golden fetch requests compiled" >&2
    exit 1
  fi
  echo "$output" | grep -m1 'error:' || true
  echo "apple-typecheck self-test: a wrong NSPredicate label in the golden fetch requests fails the check"

  original=scripts/apple-typecheck/self-test/PersistenceController-original.swift
  stand_in xcode16
  for variant in current xcode16; do
    if output=$(compile "$work/$variant" iOSDemo "$original" Apps/iOSDemo/Sources/SeedData.swift 2>&1); then
      echo "apple-typecheck self-test FAILED ($variant signatures): the demo's original main-actor seeding compiled" >&2
      exit 1
    fi
    if ! echo "$output" | grep -q 'risks causing data races'; then
      echo "apple-typecheck self-test FAILED ($variant signatures): the demo's original seeding failed for another reason:" >&2
      echo "$output" >&2
      exit 1
    fi
    echo "$output" | grep -m1 'risks causing data races'
    echo "apple-typecheck self-test ($variant signatures): the demo's original seeding fails with \"sending … risks causing data races\""
  done

  # 3. The two signature sets differ where it matters: each fixture compiles against one set and fails the other,
  #    so checking both catches what either alone would let through.
  # expect_only <fixture> <variant it must fail> <variant it must pass> <what the failure shows>
  expect_only() {
    local fixture=scripts/apple-typecheck/self-test/$1 fails=$2 passes=$3
    if ! output=$(compile "$work/$passes" Probe "$fixture" 2>&1); then
      echo "apple-typecheck self-test FAILED: $1 should compile against the $passes signatures:" >&2
      echo "$output" >&2
      exit 1
    fi
    if output=$(compile "$work/$fails" Probe "$fixture" 2>&1); then
      echo "apple-typecheck self-test FAILED: $1 compiled against the $fails signatures" >&2
      exit 1
    fi
    echo "$output" | grep -m1 'error:' || true
    echo "apple-typecheck self-test: $1 fails only against the $fails signatures ($4)"
  }
  expect_only CapturesContextInPerform.swift current xcode16 "a context captured in perform's @Sendable block"
  expect_only MainActorBlockToPerform.swift xcode16 current "a main-actor block sent to perform"

  # 4. The demo's BrowserController is really compiled, in its DEBUG form: a copy calling a method the server does
  #    not have must fail.
  compile "$work/current" BrowserCoreData $(sources Packages/BrowserCoreData/Sources/BrowserCoreData)
  compile "$work/current" CoreDataBrowser "${c_maps[@]}" $(sources Packages/CoreDataBrowser/Sources/CoreDataBrowser)
  sed 's/let info = try server.start()   \/\/ also prints/let info = try server.restart()   \/\/ also prints/' "$demo_controller" > "$work/BrowserController.swift"
  grep -q 'server.restart()' "$work/BrowserController.swift"
  if output=$(compile "$work/current" iOSDemo "${c_maps[@]}" -D DEBUG "${demo[@]}" "$work/BrowserController.swift" 2>&1); then
    echo "apple-typecheck self-test FAILED: the demo's BrowserController calling a missing method compiled" >&2
    exit 1
  fi
  echo "$output" | grep -m1 'error:' || true
  echo "apple-typecheck self-test: a mistake in the demo's BrowserController (DEBUG) fails the check"

  # 4b. The SwiftData initializer is really compiled against the stand-in's signatures: a copy of the assembly asking
  #     a configuration for a property ModelConfiguration does not have must fail; and so must a copy of the logging
  #     type handing the unified log a String where Apple's Logger takes an interpolated OSLogMessage.
  # expect_assembly_fails <file> <sed expression> <what the mistake is>
  expect_assembly_fails() {
    local file=$1 expression=$2 what=$3
    rm -rf "$work/assembly" && cp -r Packages/CoreDataBrowser/Sources/CoreDataBrowser "$work/assembly"
    sed -i "$expression" "$work/assembly/$file"
    if cmp -s "$work/assembly/$file" "Packages/CoreDataBrowser/Sources/CoreDataBrowser/$file"; then
      echo "apple-typecheck self-test FAILED: the sed for \"$what\" changed nothing in $file" >&2
      exit 1
    fi
    if output=$(compile "$work/current" CoreDataBrowser "${c_maps[@]}" $(sources "$work/assembly") 2>&1); then
      echo "apple-typecheck self-test FAILED: $what compiled" >&2
      exit 1
    fi
    echo "$output" | grep -m1 'error:' || true
    echo "apple-typecheck self-test: $what fails the check"
  }
  expect_assembly_fails Server/CoreDataBrowserServer+ModelContainer.swift 's/configuration\.isStoredInMemoryOnly/configuration.isInMemoryOnly/' \
    "a ModelConfiguration property misspelt in init(modelContainer:)"
  expect_assembly_fails Server/BrowserLog.swift 's/logger\.notice("\\(line, privacy: \.public)")/logger.notice(line)/' \
    "a String handed to os.Logger as a message"
  compile "$work/current" CoreDataBrowser "${c_maps[@]}" $(sources Packages/CoreDataBrowser/Sources/CoreDataBrowser)

  # 5. The demo's view files are really compiled, with SwiftUI's isolation: a copy of LibraryDemoApp whose `.task`
  #    hands main-actor state (a non-Sendable value the App holds) to a nonisolated async function must fail with the
  #    region-based isolation error under both signature sets. It shows that the App is main-actor isolated, that
  #    `.task`'s action inherits that isolation (under both forms of `task`) and that the views reach SIL diagnostics.
  for variant in current xcode16; do
    if output=$(compile "$work/$variant" iOSDemo "${demo[@]}" "$demo_controller" Apps/iOSDemo/Sources/ContentView.swift \
        scripts/apple-typecheck/self-test/LibraryDemoApp-sendsMainActorState.swift 2>&1); then
      echo "apple-typecheck self-test FAILED ($variant signatures): a view sending main-actor state off the main actor compiled" >&2
      exit 1
    fi
    if ! echo "$output" | grep -q "sending 'self.launchLog' risks causing data races"; then
      echo "apple-typecheck self-test FAILED ($variant signatures): the view fixture failed for another reason:" >&2
      echo "$output" >&2
      exit 1
    fi
    echo "$output" | grep -m1 'risks causing data races'
    echo "apple-typecheck self-test ($variant signatures): a view's .task sending main-actor state to a nonisolated async function fails"
  done
  exit 0
fi

for variant in current xcode16; do
  case "$variant" in
    current) echo "== checking against the current SDK's signatures (iOS 26 SDK: perform's block @Sendable, .task's action sending @isolated(any))" ;;
    xcode16) echo "== checking against the Xcode 16 signatures (-D XCODE16_SDK: perform's block not @Sendable, .task's action @Sendable)" ;;
  esac
  out="$work/$variant"
  stand_in "$variant"
  echo "built the CoreData and SwiftUI stand-ins ($variant)"

  # 1. The adapter.
  compile "$out" BrowserCoreData $(sources Packages/BrowserCoreData/Sources/BrowserCoreData)
  echo "compiled Packages/BrowserCoreData ($variant)"

  # 2. The assembly with its Apple-only initializer: the whole CoreDataBrowser module, so the extension is
  #    checked against the real CoreDataBrowserServer.
  compile "$out" CoreDataBrowser "${c_maps[@]}" $(sources Packages/CoreDataBrowser/Sources/CoreDataBrowser)
  echo "compiled Packages/CoreDataBrowser with CoreDataBrowserServer+Context.swift and +ModelContainer.swift ($variant)"

  # 2b. The tests of `init(modelContainer:)` against the SwiftData stand-in (they run on macOS).
  compile "$out" ModelContainerServingTests "${c_maps[@]}" "${model_container_tests[@]}"
  echo "compiled the CoreDataBrowser tests of init(modelContainer:) ($variant)"

  # 3. The adapter's tests (Swift Testing is in the Linux toolchain); they only run on macOS.
  compile "$out" BrowserCoreDataTests "${c_maps[@]}" $(sources Packages/BrowserCoreData/Tests/BrowserCoreDataTests)
  echo "compiled Packages/BrowserCoreData/Tests ($variant)"

  # 4. The iOS demo app, every source as one module as Xcode builds it: its Core Data files (its seed is
  #    BrowserMemory's DemoSeed), the controller that starts the server, and its two SwiftUI view files (the
  #    content view and the `@main` App), in debug and release form, against the SwiftUI and UIKit stand-ins.
  compile "$out" iOSDemo "${c_maps[@]}" -D DEBUG "${demo[@]}" "$demo_controller" "${demo_views[@]}"
  compile "$out" iOSDemo "${c_maps[@]}" "${demo[@]}" "$demo_controller" "${demo_views[@]}"
  echo "compiled the whole iOS demo: its Core Data files, BrowserController.swift, ContentView.swift and LibraryDemoApp.swift (DEBUG and not) ($variant)"

  # "Copy as Swift": the Core Data code BrowserCore writes for each view of its golden test.
  compile "$out" FetchRequestGolden Packages/BrowserCore/Tests/Golden/CoreDataFetchRequests.swift
  echo "compiled the golden \"Copy as Swift\" fetch requests ($variant)"
done
echo "apple-typecheck: everything compiled against both signature sets (current, xcode16)"
