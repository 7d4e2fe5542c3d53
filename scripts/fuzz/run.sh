#!/usr/bin/env bash
# Fuzzes the request decoder, the API's query parsing, the byte formats, the content inspector and predicate text
# with libFuzzer (swiftc -sanitize=fuzzer,address).
#
#   scripts/fuzz/run.sh                 30 s per target (what scripts/test.sh runs: about a minute in all)
#   scripts/fuzz/run.sh 600             10 minutes per target
#   scripts/fuzz/run.sh 60 query        one target: http (RequestDecoderFuzzer.swift), query (QueryFuzzer.swift),
#                                       formats (FormatsFuzzer.swift), content (ContentFuzzer.swift) or
#                                       predicate (PredicateFuzzer.swift)
#
# Each target is one swiftc invocation over the brick sources it needs plus its harness, compiled into one
# module so internal types are reachable; nothing is added to any Package.swift. BrowserCore imports
# BrowserFormats, so the targets built over BrowserCore link BrowserFormats compiled first as its own module
# (the same sanitizers); the formats target compiles BrowserFormats' sources into its own module instead. Seeds: scripts/fuzz/corpus/
# (small, committed). Everything the fuzzer writes goes to scripts/fuzz/out/ (gitignored): binaries, the grown
# corpus, and crash-*/timeout-*/leak-* files. Exits non-zero on any crash, hang (an input taking over 10 s),
# leak (LeakSanitizer) or memory blow-up; the failing input's path is printed. Turn every crasher into a
# regression test (see HTTPRequestDecoderTests / MalformedInputTests) before fixing it.
#
# Needs: the Swift toolchain for Linux (it ships libFuzzer and AddressSanitizer). Not for macOS's Xcode
# toolchain, whose swiftc has no libFuzzer.
set -euo pipefail
cd "$(dirname "$0")"
seconds=${1:-30}
shift || true
targets=("$@")
[ ${#targets[@]} -gt 0 ] || targets=(http query formats content predicate)

root=../..
out=out
mkdir -p "$out"

# -O: fuzzing speed; overflow and precondition checks stay on. The gold linker's "Cannot export local
# symbol" lines about ASan internals are noise.
swift_flags=(-sanitize=fuzzer,address -parse-as-library -O -g -swift-version 6 -enable-upcoming-feature InternalImportsByDefault)
formats_sources() { find "$root/Packages/BrowserFormats/Sources" -name '*.swift' | sort; }

# BrowserFormats as a module of its own (an object file and its .swiftmodule), for the targets over BrowserCore.
formats_module() {
  if [ ! -f "$out/modules/BrowserFormats.o" ]; then
    mkdir -p "$out/modules"
    mapfile -t formats < <(formats_sources)
    swiftc "${swift_flags[@]}" -c -wmo -module-name BrowserFormats -emit-module \
      -emit-module-path "$out/modules/BrowserFormats.swiftmodule" "${formats[@]}" -o "$out/modules/BrowserFormats.o"
  fi
  echo "$out/modules/BrowserFormats.o"
}

sources_for() {
  case "$1" in
    http) find "$root/Packages/BrowserHTTP/Sources" -name '*.swift' | sort; echo RequestDecoderFuzzer.swift ;;
    query) find "$root/Packages/BrowserHTTP/Sources" "$root/Packages/BrowserCore/Sources" -name '*.swift' | sort
           echo QueryFuzzer.swift ;;
    formats) formats_sources; echo FormatsFuzzer.swift ;;
    content) find "$root/Packages/BrowserCore/Sources" -name '*.swift' | sort; echo ContentFuzzer.swift ;;
    predicate) find "$root/Packages/BrowserCore/Sources" -name '*.swift' | sort; echo PredicateFuzzer.swift ;;
    *) echo "scripts/fuzz/run.sh: unknown target $1 (http, query, formats, content or predicate)" >&2; exit 2 ;;
  esac
}

status=0
# A fresh BrowserFormats module for each run (its sources may have changed since the last).
rm -rf "$out/modules"
for target in "${targets[@]}"; do
  binary="$out/fuzz-$target"
  mapfile -t sources < <(sources_for "$target")
  linked=()
  case "$target" in query|content|predicate) linked=(-I "$out/modules" "$(formats_module)") ;; esac
  echo "==> building $binary (${#sources[@]} files)"
  swiftc "${swift_flags[@]}" -module-name "Fuzz$target" \
    "${sources[@]}" "${linked[@]}" -o "$binary" 2> >(grep -v "Cannot export local symbol" >&2)

  corpus="$out/corpus-$target"
  mkdir -p "$corpus" "$out/crashes"
  echo "==> fuzzing $target for ${seconds}s"
  log="$out/fuzz-$target.log"
  # The first corpus folder receives new inputs; the committed seeds are only read.
  if "$binary" "$corpus" "corpus/$target" -dict="$target.dict" -max_total_time="$seconds" -timeout=10 \
      -rss_limit_mb=2048 -max_len=4096 -detect_leaks=1 -print_final_stats=1 \
      -artifact_prefix="$out/crashes/$target-" >"$log" 2>&1; then
    grep -E "^(Done|stat::number_of_executed_units|stat::peak_rss_mb)" "$log" || tail -3 "$log"
  else
    status=1
    echo "FAIL: the $target fuzzer found a problem; last lines of $log:" >&2
    tail -40 "$log" >&2
  fi
done
exit $status
