import BrowserCore
@testable import BrowserSQLite
import Foundation
import Testing

/// The predicate equivalence proof for the store-file reader and the in-memory store: thousands of predicate trees (every operator of every
/// attribute type with and without `[c]`/`[d]`/`[cd]`, nil, Unicode, to-one key paths, object IDs, ANY/ALL/NONE,
/// `@count`, NOT and nested groups; `Tests/PredicateOracle/predicates.py`) give, through `SQLiteStore`, exactly
/// the records an independent Python oracle finds by evaluating `RecordFilter`'s documented semantics over rows it
/// reads itself with the `sqlite3` module (`oracle.py`, which shares no code with this package); and the same cases
/// asked of an `InMemoryStore` holding the same records (`MemoryMirror`), IDs mapped, give the same records.
///
/// On the synthetic store (every type, every relationship storage, hard values; `synthetic_store.py`), on the demo
/// library's model, and on Apple-written fixtures with relationships and inheritance (opened as copies).
struct PredicateEquivalenceTests {
    /// The cases a store answers differently from the oracle, described (case number, entity, tree, the IDs
    /// only one side found). `asked` turns the oracle's tree into the store's question and `fileID` the store's
    /// IDs into the file's (both identity for the file itself; the mirror's mapping for `MemoryMirror`).
    static func disagreements(_ cases: PredicateCases, store: any BrowserStore, name: String = "SQLite",
                              asked: (RecordFilter) -> RecordFilter = { $0 },
                              fileID: (ObjectID) -> ObjectID? = { $0 }) async -> [String] {
        var failures: [String] = []
        for (number, item) in cases.cases.enumerated() {
            var found: [String] = []
            var total = 0
            do {
                repeat {
                    let page = try await store.page(RecordQuery(entity: item.entity, filter: asked(item.filter.filter),
                                                                limit: RecordQuery.maximumLimit, offset: found.count))
                    found += page.records.map { fileID($0.id)?.uri ?? "unmapped \($0.id.uri)" }
                    total = page.total
                } while found.count < total && !found.isEmpty
            } catch {
                failures.append("#\(number) \(item.entity) \(item.filter.filter): \(name) threw \(error)")
                continue
            }
            let expected = Set(item.expected), actual = Set(found)
            if actual != expected || total != item.expected.count || found.count != item.expected.count {
                failures.append("#\(number) \(item.entity) \(item.filter.filter): total \(total), expected \(item.expected.count); "
                    + "only in \(name): \(actual.subtracting(expected).sorted().prefix(5)); only in the oracle: \(expected.subtracting(actual).sorted().prefix(5))")
            }
        }
        return failures
    }

    /// The oracle's cases asked of the store file and of its mirror in memory (BrowserMemory's `FilterMatcher`
    /// over the same records): both must find exactly the oracle's records.
    static func expectBothAgree(_ cases: PredicateCases, file store: SQLiteStore) async throws {
        let failures = await disagreements(cases, store: store)
        #expect(failures.isEmpty, Comment(rawValue: "\(failures.count) of \(cases.cases.count) cases differ from the oracle on SQLite:\n"
            + failures.prefix(30).joined(separator: "\n")))
        let mirror = try await MemoryMirror.of(store)
        let memoryFailures = await disagreements(cases, store: mirror.memory, name: "memory", asked: mirror.mapped,
                                                 fileID: { mirror.toFile[$0] })
        #expect(memoryFailures.isEmpty, Comment(rawValue: "\(memoryFailures.count) of \(cases.cases.count) cases differ from the oracle in memory:\n"
            + memoryFailures.prefix(30).joined(separator: "\n")))
    }

    @Test func syntheticStoreAnswersAsTheOracle() async throws {
        let directory = TemporaryDirectory()
        try await PredicateCases.runPython(["synthetic_store.py", "--out", directory.url.path])
        let storeURL = directory.path("Synthetic.sqlite")
        let cases = try await PredicateCases.fromOracle(store: storeURL, description: "synthetic.json", in: directory)
        #expect(cases.cases.count > 3000)
        // The harness must not be vacuous: most cases match some records, and not all of them.
        #expect(cases.cases.filter { !$0.expected.isEmpty }.count > cases.cases.count / 2)
        let store = try SQLiteStore.open(storeAt: storeURL, model: directory.path("Model.xcdatamodel"))
        try await Self.expectBothAgree(cases, file: store)
    }

    /// The demo library's model (BrowserMemory's `DemoLibrary`) with the benchmark generator's data: Unicode
    /// titles, the AudioBook sub-entity, Book.tags many-to-many.
    @Test func demoLibraryModelAnswersAsTheOracle() async throws {
        let directory = TemporaryDirectory()
        let storeURL = directory.path("library.sqlite")
        try await PredicateCases.runPython(["../../../../scripts/bench/generate_store.py", "--books", "1000", "--quiet", "--out", storeURL.path])
        let cases = try await PredicateCases.fromOracle(store: storeURL, description: "demo-library.json", in: directory)
        #expect(cases.cases.count > 1000)
        let store = try SQLiteStore.open(storeAt: storeURL, model: directory.path("Library.xcdatamodeld"))
        try await Self.expectBothAgree(cases, file: store)
    }

    @Test("fixtures answer as the oracle", arguments: [
        ("coredataplus/SampleModel2/SampleModel2_V1.sqlite", "coredataplus-SampleModel2_V1.json"),
        ("coredataplus/SampleModel/SampleModel_V1.sqlite", "coredataplus-SampleModel_V1.json"),
        ("wibosco-revised/CoreDataMigration_Example_3.sqlite", "wibosco-revised-3.json"),
        ("wibosco-migration/CoreDataMigration_Example_WAL.sqlite", "wibosco-migration-WAL.json"),
    ])
    func fixtureAnswersAsTheOracle(store path: String, description: String) async throws {
        guard Fixtures.available else { return }
        let directory = TemporaryDirectory()
        let copy = try directory.copyStore(path)
        let cases = try await PredicateCases.fromOracle(store: copy, description: description, in: directory)
        #expect(cases.cases.count > 1000)
        let store = try SQLiteStore.open(storeAt: copy)
        try await Self.expectBothAgree(cases, file: store)
    }
}
