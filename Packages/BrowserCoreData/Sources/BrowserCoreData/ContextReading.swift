#if canImport(CoreData)

/// Which context the live adapter reads through.
///
/// A `viewContext` runs everything on the main queue, so a request served through it takes main-thread time:
/// a count over a large table with a search, or a 500-row page, can cost tens of milliseconds and drop frames
/// in the app being inspected. Reading through a private-queue context on the same coordinator keeps that work
/// off the main thread; the price is that changes the app has not saved yet are not visible.
public enum ContextReading: Sendable, Hashable {
    /// A private-queue context of the browser's own on the given context's persistent store coordinator
    /// (default): shows what is saved, never runs on the app's queue, keeps no objects between requests.
    case privateQueue
    /// The given context itself, on its own queue (the main queue for a `viewContext`): unsaved edits of saved
    /// records show, at the cost of running every request on that queue. Records inserted but not yet saved
    /// are left out either way: their IDs are temporary and cannot be linked to. Lists are sorted, searched,
    /// counted and paged by the saved values (the fetch runs in the store, without pending changes) while
    /// each row shows the context's unsaved values, so an edited record can look out of order or match a
    /// search for its old value.
    case givenContext
}

#endif
