// The part of Apple's `SwiftData` module that CoreDataBrowser's `init(modelContainer:)` and its macOS test use:
// the container, its configurations, a context that inserts and saves, and the model protocol. Every declaration
// copies the Swift signature on its Apple documentation page (cited); bodies are never run: this module exists to
// be compiled against, under both signature sets (SwiftData's surface used here is the same in both).
//
// Not standing in: the `@Model` macro (a compiler plugin this machine does not have), so a `@Model` class cannot
// be compiled here; the macOS test keeps that one class in a file of its own, and everything else it does is
// written against `PersistentModel` and compiled here.
//
// Sendability as Apple declares it (Apple's pages, as read here, do not list conformances; Hacking with Swift's
// "How SwiftData works with Swift concurrency" states it: "ModelContainer and PersistentIdentifier are both
// sendable, whereas model objects and model contexts are not"; the macOS job builds against the real SDK):
// `ModelContainer` is `Sendable` (a container is handed between actors, `ModelActor.modelContainer` is
// `nonisolated`), `ModelConfiguration` is a `Sendable`, `Hashable` struct (it is the element of `configurations`'
// `Set`), and `ModelContext` is not `Sendable` (a context stays on the actor that made it). A stand-in that made the
// context `Sendable` would let code pass that Xcode refuses.

public import struct Foundation.URL

/// https://developer.apple.com/documentation/swiftdata/persistentmodel
/// `protocol PersistentModel : AnyObject, Observable, Hashable, Identifiable` (iOS 17). The stand-in keeps the
/// class constraint only: the macro-generated requirements cannot be met without the macro.
@available(iOS 17, macOS 14, tvOS 17, watchOS 10, *)
public protocol PersistentModel: AnyObject {}

/// https://developer.apple.com/documentation/swiftdata/schemamigrationplan (iOS 17), named by the container's
/// initializer.
@available(iOS 17, macOS 14, tvOS 17, watchOS 10, *)
public protocol SchemaMigrationPlan {}

/// https://developer.apple.com/documentation/swiftdata/schema (iOS 17): `class Schema`, named by the
/// configuration's initializer.
@available(iOS 17, macOS 14, tvOS 17, watchOS 10, *)
public final class Schema: Hashable, @unchecked Sendable {
    public static func == (lhs: Schema, rhs: Schema) -> Bool { lhs === rhs }
    public func hash(into hasher: inout Hasher) { hasher.combine(ObjectIdentifier(self)) }
}

/// https://developer.apple.com/documentation/swiftdata/modelconfiguration
/// `struct ModelConfiguration` (iOS 17).
@available(iOS 17, macOS 14, tvOS 17, watchOS 10, *)
public struct ModelConfiguration: Hashable, Sendable {
    /// https://developer.apple.com/documentation/swiftdata/modelconfiguration/url
    /// `let url: URL`: "The on-disk location of the schema's persistent storage."
    public let url: URL
    /// https://developer.apple.com/documentation/swiftdata/modelconfiguration/isstoredinmemoryonly
    /// `let isStoredInMemoryOnly: Bool`
    public let isStoredInMemoryOnly: Bool

    /// https://developer.apple.com/documentation/swiftdata/modelconfiguration/cloudkitdatabase-swift.struct
    public struct CloudKitDatabase: Hashable, Sendable {
        public static var automatic: CloudKitDatabase { CloudKitDatabase() }
        public static var none: CloudKitDatabase { CloudKitDatabase() }
    }

    /// https://developer.apple.com/documentation/swiftdata/modelconfiguration/init(isstoredinmemoryonly:)
    /// `init(isStoredInMemoryOnly: Bool = false)`
    public init(isStoredInMemoryOnly: Bool = false) {
        self.url = URL(fileURLWithPath: "/dev/null")
        self.isStoredInMemoryOnly = isStoredInMemoryOnly
    }

    /// https://developer.apple.com/documentation/swiftdata/modelconfiguration/init(_:schema:url:allowssave:cloudkitdatabase:)
    /// `init(_ name: String? = nil, schema: Schema? = nil, url: URL, allowsSave: Bool = true,
    ///  cloudKitDatabase: ModelConfiguration.CloudKitDatabase = .automatic)`
    public init(_ name: String? = nil, schema: Schema? = nil, url: URL, allowsSave: Bool = true,
                cloudKitDatabase: ModelConfiguration.CloudKitDatabase = .automatic) {
        self.url = url
        self.isStoredInMemoryOnly = false
    }
}

/// https://developer.apple.com/documentation/swiftdata/modelcontainer
/// `class ModelContainer` (iOS 17), `Sendable`. `@unchecked` here only because the stand-in stores
/// `configurations` in a `var` (Apple's is a `{ get set }` property).
@available(iOS 17, macOS 14, tvOS 17, watchOS 10, *)
public final class ModelContainer: @unchecked Sendable {
    /// https://developer.apple.com/documentation/swiftdata/modelcontainer/configurations
    /// `var configurations: Set<ModelConfiguration> { get set }`
    public var configurations: Set<ModelConfiguration>

    /// https://developer.apple.com/documentation/swiftdata/modelcontainer/init(for:migrationplan:configurations:)-8s4ts
    /// `convenience init(for forTypes: any PersistentModel.Type..., migrationPlan: (any SchemaMigrationPlan.Type)? = nil,
    ///  configurations: ModelConfiguration...) throws`
    public init(for forTypes: any PersistentModel.Type..., migrationPlan: (any SchemaMigrationPlan.Type)? = nil,
                configurations: ModelConfiguration...) throws {
        self.configurations = Set(configurations)
    }
}

/// https://developer.apple.com/documentation/swiftdata/modelcontext
/// `class ModelContext` (iOS 17), not `Sendable`.
@available(iOS 17, macOS 14, tvOS 17, watchOS 10, *)
public final class ModelContext {
    /// https://developer.apple.com/documentation/swiftdata/modelcontext/init(_:)
    /// `init(_ container: ModelContainer)`
    public init(_ container: ModelContainer) {}

    /// https://developer.apple.com/documentation/swiftdata/modelcontext/insert(_:)
    /// `func insert<T>(_ model: T) where T : PersistentModel`
    public func insert<T>(_ model: T) where T: PersistentModel {}

    /// https://developer.apple.com/documentation/swiftdata/modelcontext/save()
    /// `func save() throws`
    public func save() throws {}

    /// https://developer.apple.com/documentation/swiftdata/modelcontext/autosaveenabled
    /// `var autosaveEnabled: Bool { get set }`
    public var autosaveEnabled = true
}
