import Foundation

/// Runs the independent invariant checker (`Tests/WriteCheck/check_store.py` of this brick, Python's sqlite3 only) on
/// a store after a write, against a copy taken before it. It lives beside the tests, outside any target, so the brick
/// tests alone (`swift test --package-path Packages/BrowserSQLite`).
enum WriteCheck {
    static let script = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("WriteCheck/check_store.py")

    struct Outcome {
        var passed: Bool
        var output: String
    }

    /// Runs the checker and waits for it on a thread of its own: blocking a thread of Swift's cooperative pool (two
    /// on a 2-core machine) for a python3 run stalls every other suite of the test process (see `PredicateCases`).
    static func run(model: URL, before: URL?, store: URL) async throws -> Outcome {
        try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Outcome, any Error>) in
            Thread.detachNewThread {
                continuation.resume(with: Result { try runBlocking(model: model, before: before, store: store) })
            }
        }
    }

    private static func runBlocking(model: URL, before: URL?, store: URL) throws -> Outcome {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", script.path, "--model", model.path] + (before.map { ["--before", $0.path] } ?? []) + [store.path]
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = pipe
        try ProcessLaunch.run(process)
        let output = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        return Outcome(passed: process.terminationStatus == 0, output: output)
    }

    /// A consistent copy of the store as it is now (`VACUUM INTO` on a connection of its own), for `before`.
    static func snapshot(_ store: URL, into directory: TemporaryDirectory, name: String = "before.sqlite") throws -> URL {
        let copy = directory.path(name)
        try? FileManager.default.removeItem(at: copy)
        let database = try RawDatabase(path: store.path)
        try database.execute("VACUUM INTO '\(copy.path.replacingOccurrences(of: "'", with: "''"))'")
        return copy
    }
}
