// The property wrappers and environment value the iOS demo's view files use: `@StateObject` and `@ObservedObject`
// (holding the main-actor BrowserController) and `@Environment(\.scenePhase)`. Apple's Swift signatures and
// isolation; bodies are never run. `DynamicProperty` (which Apple's wrappers conform to) and the projected values
// (`$browser`) are left out: the demo uses neither.

/// https://developer.apple.com/documentation/swiftui/stateobject
/// `@MainActor @frozen @propertyWrapper @preconcurrency struct StateObject<ObjectType> where ObjectType : ObservableObject`
@available(iOS, introduced: 14.0)
@MainActor @frozen @propertyWrapper @preconcurrency
public struct StateObject<ObjectType: ObservableObject> {
    /// https://developer.apple.com/documentation/swiftui/stateobject/init(wrappedvalue:)
    /// `nonisolated init(wrappedValue thunk: @autoclosure @escaping () -> ObjectType)`: the initial value is an
    /// autoclosure formed where the property is declared (main-actor isolated in an App or View, so it may call the
    /// main-actor BrowserController's initializer).
    nonisolated public init(wrappedValue thunk: @autoclosure @escaping () -> ObjectType) {}

    /// https://developer.apple.com/documentation/swiftui/stateobject/wrappedvalue
    /// `@MainActor @preconcurrency var wrappedValue: ObjectType { get }`
    @MainActor @preconcurrency
    public var wrappedValue: ObjectType { fatalError() }
}

/// https://developer.apple.com/documentation/swiftui/observedobject
/// `@MainActor @propertyWrapper @preconcurrency @frozen struct ObservedObject<ObjectType> where ObjectType : ObservableObject`
@available(iOS, introduced: 13.0)
@MainActor @propertyWrapper @preconcurrency @frozen
public struct ObservedObject<ObjectType: ObservableObject> {
    /// https://developer.apple.com/documentation/swiftui/observedobject/init(wrappedvalue:)
    /// `@MainActor @preconcurrency init(wrappedValue: ObjectType)`
    @MainActor @preconcurrency
    public init(wrappedValue: ObjectType) { self.wrappedValue = wrappedValue }

    /// https://developer.apple.com/documentation/swiftui/observedobject/wrappedvalue
    /// `@MainActor @preconcurrency var wrappedValue: ObjectType`
    @MainActor @preconcurrency
    public var wrappedValue: ObjectType
}

/// https://developer.apple.com/documentation/swiftui/environment
/// `@frozen @propertyWrapper struct Environment<Value>` (not actor-isolated).
@available(iOS, introduced: 13.0)
@frozen @propertyWrapper
public struct Environment<Value> {
    private let keyPath: KeyPath<EnvironmentValues, Value>

    /// https://developer.apple.com/documentation/swiftui/environment/init(_:)
    /// `init(_ keyPath: KeyPath<EnvironmentValues, Value>)`
    public init(_ keyPath: KeyPath<EnvironmentValues, Value>) { self.keyPath = keyPath }

    /// https://developer.apple.com/documentation/swiftui/environment/wrappedvalue
    /// `var wrappedValue: Value { get }`
    public var wrappedValue: Value { EnvironmentValues()[keyPath: keyPath] }
}

/// https://developer.apple.com/documentation/swiftui/environmentvalues
/// `struct EnvironmentValues`: only the value the demo reads.
@available(iOS, introduced: 13.0)
public struct EnvironmentValues {
    /// https://developer.apple.com/documentation/swiftui/environmentvalues/init()
    public init() {}

    /// https://developer.apple.com/documentation/swiftui/environmentvalues/scenephase
    /// `var scenePhase: ScenePhase { get set }` (iOS 14)
    @available(iOS, introduced: 14.0)
    public var scenePhase: ScenePhase {
        get { .active }
        set {}
    }
}

/// https://developer.apple.com/documentation/swiftui/scenephase
/// `enum ScenePhase` (iOS 14), compared with `==` by the demo. Its three documented cases; the module is built with
/// library evolution, so the enum is not frozen, as Apple's is not.
@available(iOS, introduced: 14.0)
public enum ScenePhase: Hashable, Sendable {
    /// https://developer.apple.com/documentation/swiftui/scenephase/background
    case background
    /// https://developer.apple.com/documentation/swiftui/scenephase/inactive
    case inactive
    /// https://developer.apple.com/documentation/swiftui/scenephase/active
    case active
}
