// Self-test fixture for scripts/apple-typecheck/run.sh, never built: passes the current signature set and must
// fail the Xcode 16 one. There `perform`'s block is not `@Sendable`, so a block formed on the main actor is
// main-actor isolated, and handing it to the nonisolated `async` `perform` is "sending … risks causing data races".
import CoreData

@MainActor func answer() async -> Int {
    let context = NSManagedObjectContext(concurrencyType: .privateQueueConcurrencyType)
    return await context.perform { 42 }
}
