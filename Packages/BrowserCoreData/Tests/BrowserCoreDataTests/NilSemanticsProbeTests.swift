#if canImport(CoreData)
import CoreData
import Testing

/// What an app's own fetch from a SQLite store answers for nil values, next to Core Data's in-memory evaluation
/// of the same predicate (`NSPredicate.evaluate(with:)`), on `TestLibrary`'s books (some without a summary or a
/// price, one without tags). docs/decisions/predicate-nil-semantics.md lists these cases and what is known of
/// each; this test prints both answers of every case on the macOS job (the evidence the file still lacks) and
/// holds the one case with a published source: `!=` leaves nil values out of a SQLite fetch but not out of the
/// in-memory evaluation. Runs on the macOS job; compiled on Linux by apple-typecheck.
@Suite struct NilSemanticsProbeTests {
    static let cases = [
        "summary != \"x\"",
        "NOT (summary == \"x\")",
        "NOT (summary IN {\"x\", \"y\"})",
        "price != 5",
        "NOT (price > 5)",
        "author.bio != \"x\"",
        "NOT (author.bio == \"x\")",
        "ANY tags.name == \"classic\"",
        "NONE tags.name == \"classic\"",
        "NOT (ANY tags.name == \"classic\")",
    ]

    /// The titles each way selects, sorted: (the SQLite fetch, the in-memory evaluation).
    static func answers(_ text: String, in stack: TestStack) async throws -> (fetch: [String], memory: [String]) {
        try await stack.container.performBackgroundTask { context in
            let predicate = NSPredicate(format: text, argumentArray: nil)
            let fetch = NSFetchRequest<NSManagedObject>(entityName: "Book")
            fetch.predicate = predicate
            let fetched = try context.fetch(fetch)
            let every = try context.fetch(NSFetchRequest<NSManagedObject>(entityName: "Book"))
            let evaluated = every.filter { predicate.evaluate(with: $0) }
            func titles(_ objects: [NSManagedObject]) -> [String] {
                objects.compactMap { $0.value(forKey: "title") as? String }.sorted()
            }
            return (titles(fetched), titles(evaluated))
        }
    }

    @Test func fetchAndInMemoryEvaluationOfNilCases() async throws {
        let stack = try TestStack()
        try await stack.seed { TestLibrary.insert(into: $0) }
        for text in Self.cases {
            let (fetch, memory) = try await Self.answers(text, in: stack)
            // Evidence for the decision file, in the macOS job's log.
            print("nil-semantics: \(text): SQLite fetch \(fetch.count) \(fetch); in-memory evaluation \(memory.count) \(memory)")
        }
        let (fetch, memory) = try await Self.answers("summary != \"x\"", in: stack)
        let withoutSummary = try await Self.answers("summary == nil", in: stack).fetch
        #expect(!withoutSummary.isEmpty, "TestLibrary has books without a summary")
        #expect(Set(memory).isSuperset(of: withoutSummary), "in memory, nil != \"x\" holds")
        #expect(Set(fetch).isDisjoint(with: withoutSummary), "a SQLite fetch leaves nil out of != (douglashill.co)")
    }
}
#endif
