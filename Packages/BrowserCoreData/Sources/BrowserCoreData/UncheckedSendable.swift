#if canImport(CoreData)

/// Carries a value that is not `Sendable` (a context, a coordinator) into a `perform` block of the context
/// that owns it. Safe only because every use dereferences it inside that context's own queue; nothing else
/// touches it. `NSManagedObjectContext` is not `Sendable`, and `perform`'s block is `@Sendable` in the iOS 26
/// SDK (before it the block was not `@Sendable`, and the box is harmless there).
struct UncheckedSendable<Value>: @unchecked Sendable {
    let value: Value
    init(_ value: Value) { self.value = value }
}

#endif
