#if canImport(CoreData)
public import BrowserCoreData
public import CoreData

extension CoreDataBrowserServer {
    /// Which context the server reads through: `.privateQueue` (default) or `.givenContext`.
    public typealias ContextReading = BrowserCoreData.ContextReading

    /// Serves a live Core Data context: the app's own data while it runs, read-only unless `options.readOnly` is false
    /// (then records are created, edited and deleted through the reading context and saved with the transaction author
    /// "CoreDataBrowser"; with `.privateQueue` each save is merged into `context` before the write answers; with
    /// `.givenContext`, never while it holds unsaved changes of the app's; never to a store mirrored to CloudKit unless
    /// `options.allowsEditsThatSyncToICloud`).
    ///
    /// ```swift
    /// #if DEBUG
    /// let server = CoreDataBrowserServer(context: container.viewContext)
    /// try server.start()
    /// #endif
    /// ```
    ///
    /// Every access happens inside `context.perform { }`, so any kind of context is safe to pass. By default the
    /// server does not read through `context` itself but through a private-queue context of its own on the same
    /// persistent store coordinator, so browsing never runs on the main queue of a `viewContext`; it then shows
    /// saved data only. Pass `reading: .givenContext` to read through `context` (unsaved edits show, and every
    /// request runs on that context's queue; lists are still sorted and searched by the saved values). README
    /// "Using it in an iOS app" weighs the two.
    public convenience init(context: NSManagedObjectContext, options: Options = .init(), reading: ContextReading = .privateQueue) {
        // Named without touching the context off its queue; the advertisement asks the store for its files' names.
        let store = ManagedContextStore(context: context, reading: reading,
                                        allowsEditsThatSyncToICloud: options.allowsEditsThatSyncToICloud)
        var served = ServedStore(name: "App context", kind: .context, store: store)
        served.nameIsStandIn = true
        self.init(stores: [served], options: options)
    }
}

#endif
