// SwiftUI's three root protocols (View, Scene, App) and their two result builders, as the iOS demo's view files
// (Apps/iOSDemo/Sources/ContentView.swift, LibraryDemoApp.swift) need them. Only what those files use, with Apple's
// Swift signatures and isolation; bodies are never run: this module exists to be compiled against.
//
// Isolation is the point: `View`, `Scene` and `App` are `@MainActor @preconcurrency` protocols, so a type that
// conforms to one of them (the demo's ContentView and LibraryDemoApp) is main-actor isolated, and the closures it
// forms in `body` are main-actor isolated unless they are `@Sendable` or `sending`. That is what the region-based
// "sending … risks causing data races" analysis then checks in these files. The same holds in the Xcode 16 SDK
// (iOS 18), where `View` became `@MainActor` as a whole; before it (Xcode 15) only `body` was. Nothing in this file
// differs between the two signature sets run.sh checks (see Modifiers.swift for the one that does).
//
// Not mirrored: `DynamicProperty`, `Commands`, `buildExpression`/`buildIf`/`buildEither` and the builders' other
// arities; the demo uses none of them.

/// https://developer.apple.com/documentation/swiftui/view
/// `@MainActor @preconcurrency protocol View`
@available(iOS, introduced: 13.0)
@MainActor @preconcurrency
public protocol View {
    /// https://developer.apple.com/documentation/swiftui/view/body-swift.associatedtype
    associatedtype Body: View

    /// https://developer.apple.com/documentation/swiftui/view/body-swift.property
    /// `@ViewBuilder @MainActor @preconcurrency var body: Self.Body { get }`
    @ViewBuilder @MainActor @preconcurrency var body: Self.Body { get }
}

/// https://developer.apple.com/documentation/swiftui/viewbuilder
/// `@resultBuilder struct ViewBuilder`: only the block arities the demo's views use (one and two views).
@available(iOS, introduced: 13.0)
@resultBuilder
public struct ViewBuilder {
    /// https://developer.apple.com/documentation/swiftui/viewbuilder/buildblock(_:)
    /// `static func buildBlock<Content>(_ content: Content) -> Content where Content : View`
    public static func buildBlock<Content: View>(_ content: Content) -> Content { content }

    /// https://developer.apple.com/documentation/swiftui/viewbuilder/buildblock(_:_:)
    /// `static func buildBlock<C0, C1>(_ c0: C0, _ c1: C1) -> TupleView<(C0, C1)> where C0 : View, C1 : View`
    /// (the iOS 13 form; the iOS 17 SDK's parameter-pack `buildBlock` is not available at the demo's iOS 15 target).
    public static func buildBlock<C0: View, C1: View>(_ c0: C0, _ c1: C1) -> TupleView<(C0, C1)> {
        TupleView((c0, c1))
    }
}

/// https://developer.apple.com/documentation/swiftui/tupleview
/// `@frozen struct TupleView<T>`, a View.
@available(iOS, introduced: 13.0)
@frozen
public struct TupleView<T> {
    /// https://developer.apple.com/documentation/swiftui/tupleview/value
    public var value: T

    /// https://developer.apple.com/documentation/swiftui/tupleview/init(_:)
    public init(_ value: T) { self.value = value }
}

extension TupleView: View {
    public var body: Never { fatalError() }
}

/// https://developer.apple.com/documentation/swiftui/emptyview
/// `@frozen struct EmptyView`, a View (Section's footer type when it has none).
@available(iOS, introduced: 13.0)
@frozen
public struct EmptyView {
    /// https://developer.apple.com/documentation/swiftui/emptyview/init()
    public init() {}
}

extension EmptyView: View {
    public var body: Never { fatalError() }
}

/// https://developer.apple.com/documentation/swiftui/view — `Never` is listed among View's conforming types (the
/// `Body` of every primitive view), and https://developer.apple.com/documentation/swiftui/scene among Scene's.
extension Never: View, Scene {
    public var body: Never { return fatalError() }   // `return`: no result builder (View and Scene each infer one)
}

/// https://developer.apple.com/documentation/swiftui/scene
/// `@MainActor @preconcurrency protocol Scene`
@available(iOS, introduced: 14.0)
@MainActor @preconcurrency
public protocol Scene {
    /// https://developer.apple.com/documentation/swiftui/scene/body-swift.associatedtype
    associatedtype Body: Scene

    /// https://developer.apple.com/documentation/swiftui/scene/body-swift.property
    /// `@SceneBuilder @MainActor @preconcurrency var body: Self.Body { get }`
    @SceneBuilder @MainActor @preconcurrency var body: Self.Body { get }
}

/// https://developer.apple.com/documentation/swiftui/scenebuilder
/// `@resultBuilder struct SceneBuilder`: only the one-scene block the demo uses.
@available(iOS, introduced: 14.0)
@resultBuilder
public struct SceneBuilder {
    /// https://developer.apple.com/documentation/swiftui/scenebuilder/buildblock(_:)
    /// `static func buildBlock<Content>(_ content: Content) -> Content where Content : Scene`
    public static func buildBlock<Content: Scene>(_ content: Content) -> Content { content }
}

/// https://developer.apple.com/documentation/swiftui/app
/// `@MainActor @preconcurrency protocol App`
@available(iOS, introduced: 14.0)
@MainActor @preconcurrency
public protocol App {
    /// https://developer.apple.com/documentation/swiftui/app/body-swift.associatedtype
    associatedtype Body: Scene

    /// https://developer.apple.com/documentation/swiftui/app/body-swift.property
    /// `@SceneBuilder @MainActor @preconcurrency var body: Self.Body { get }`
    @SceneBuilder @MainActor @preconcurrency var body: Self.Body { get }

    /// https://developer.apple.com/documentation/swiftui/app/init()
    /// `@MainActor @preconcurrency init()`
    @MainActor @preconcurrency init()
}

extension App {
    /// https://developer.apple.com/documentation/swiftui/app/main()
    /// `@MainActor @preconcurrency static func main()`: what `@main` on an App calls.
    @MainActor @preconcurrency
    public static func main() { fatalError() }
}
