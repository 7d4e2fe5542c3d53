// The predicate benchmark's client, built by scripts/bench/predicates.py into a package of its own
// (never part of the root Package.swift): opens the generated store with SQLiteStore and times `page` (100
// records and the total) for RecordFilter trees, in process. Prints one JSON line per query.
//
// The store keeps a filtered list's total until the data changes, so a repeated query would time a kept count.
// Each timed run therefore asks an equivalent but distinct tree (the query AND'ed with k empty groups, which
// adds "AND 1" to the SQL k times): every run counts from scratch, as a new question does.
import BrowserCore
import BrowserSQLite
import Foundation

@main
struct PredicateBench {
    static func main() async throws {
        let arguments = CommandLine.arguments
        guard arguments.count >= 4, let runs = Int(arguments[3]) else {
            FileHandle.standardError.write(Data("usage: predicate-bench <store> <model> <runs>\n".utf8))
            exit(2)
        }
        let store = try SQLiteStore.open(storeAt: URL(fileURLWithPath: arguments[1]),
                                         model: URL(fileURLWithPath: arguments[2]))
        // The target's compound query, with its "x" (no generated title holds one) and with "cafe" (which many do).
        func compound(_ word: String) -> RecordFilter {
            .all([
                .contains("title", word),
                .comparison(FilterComparison(FilterKeyPath("pageCount"), .greaterThan, .value(.integer(300)))),
                .comparison(FilterComparison(FilterKeyPath(["author", "name"]), .beginsWith, options: .caseInsensitive,
                                             .value(.string("k")))),
            ])
        }
        let queries: [(key: String, filter: RecordFilter)] = [
            ("indexed_equality", .equals("pageCount", .integer(300))),
            ("compound", compound("x")),
            ("compound_cafe", compound("cafe")),
            ("search_box", .any(["title", "summary"].map { RecordFilter.contains($0, "cafe") })),
            ("no_tags", .count(relationship: "tags", .equals, 0)),
            ("any_tag", .quantified(.any, relationship: "tags",
                                    FilterComparison(FilterKeyPath("name"), .equals, .value(.string("classic 1"))))),
        ]
        var variant = 0
        for (key, filter) in queries {
            var samples: [Double] = []
            var total = 0
            for run in 0...runs {
                variant += 1
                let distinct = RecordFilter.all([filter] + Array(repeating: RecordFilter.all([]), count: variant))
                let started = DispatchTime.now().uptimeNanoseconds
                let page = try await store.page(RecordQuery(entity: "Book", filter: distinct, limit: 100))
                let milliseconds = Double(DispatchTime.now().uptimeNanoseconds - started) / 1e6
                total = page.total
                if run > 0 { samples.append(milliseconds) }  // run 0 warms the page cache up
            }
            samples.sort()
            let line: [String: Any] = ["query": key, "total": total, "p50": samples[samples.count / 2],
                                       "min": samples[0], "max": samples[samples.count - 1]]
            print(String(decoding: try JSONSerialization.data(withJSONObject: line, options: [.sortedKeys]), as: UTF8.self))
        }
    }
}
