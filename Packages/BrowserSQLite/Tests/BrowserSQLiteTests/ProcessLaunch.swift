import Foundation

/// Starts the helper processes the tests run (the Python oracles and checkers, a writing app), one at a time.
///
/// Why: swift-corelibs-foundation's `Process.run()` crashed (a bad read in its memcpy) while another test thread
/// launched a process at the same moment: suites run in parallel, and the predicate oracle, the write checker and
/// the concurrent-writer tests each start Python. Only the launch is serialised; the processes then run side by side.
enum ProcessLaunch {
    private static let lock = NSLock()

    static func run(_ process: Process) throws {
        lock.lock()
        defer { lock.unlock() }
        try process.run()
    }
}
