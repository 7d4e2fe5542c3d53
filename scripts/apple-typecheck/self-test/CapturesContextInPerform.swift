// Self-test fixture for scripts/apple-typecheck/run.sh, never built: passes the Xcode 16 signature set and must
// fail the current one. `perform`'s block is `@Sendable` in the current SDK, so capturing the non-Sendable
// context in it is a Sendable violation (a warning through `@preconcurrency`, an error with warnings as errors).
import CoreData

func hasChanges(_ context: NSManagedObjectContext) async -> Bool {
    await context.perform { context.hasChanges }
}
