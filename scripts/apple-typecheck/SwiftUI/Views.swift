// The views and scene the iOS demo's view files build: WindowGroup, NavigationView, List, Section, ForEach, Text,
// Button, and the values they take (LocalizedStringKey, Font, text selectability). Only the initializers the demo
// calls, with Apple's Swift signatures and isolation (types Apple declares `@MainActor` are `@MainActor` here, their
// documented `nonisolated` initializers `nonisolated`); bodies are never run.
//
// `@available(iOS, …)` mirrors Apple's introduction and deprecation versions. swiftc on Linux does not enforce
// iOS availability (it is not compiling for iOS), so these attributes document rather than check; at the demo's
// deployment target (iOS 15.0, Apps/iOSDemo/project.yml) nothing the demo calls is unavailable and none of its
// deprecations applies yet (Swift warns about an iOS deprecation only once the deployment target reaches it).

@_exported import class Foundation.Bundle   // Text(_:tableName:bundle:comment:); Apple's SwiftUI re-exports all of Foundation
@_exported import UIKit   // as Apple's SwiftUI re-exports UIKit on iOS (UIPasteboard in ContentView)

/// https://developer.apple.com/documentation/swiftui/localizedstringkey
/// `@frozen struct LocalizedStringKey`: a string literal becomes one, which is how `Text("…")`, `Section("…")`,
/// `Button("…")` and `.navigationTitle("…")` pick their localized overload. Apple's is
/// ExpressibleByStringInterpolation with its own interpolation type; the demo's literals have no interpolation,
/// so this one is ExpressibleByStringLiteral only.
@available(iOS, introduced: 13.0)
@frozen
public struct LocalizedStringKey: Equatable, ExpressibleByStringLiteral {
    private let key: String

    /// https://developer.apple.com/documentation/swiftui/localizedstringkey/init(stringliteral:)
    public init(stringLiteral value: String) { key = value }
}

/// https://developer.apple.com/documentation/swiftui/text
/// `@frozen struct Text` (Equatable, Sendable; a View). Not actor-isolated.
@available(iOS, introduced: 13.0)
@frozen
public struct Text: Equatable, Sendable {
    /// https://developer.apple.com/documentation/swiftui/text/init(_:tablename:bundle:comment:)
    /// `init(_ key: LocalizedStringKey, tableName: String? = nil, bundle: Bundle? = nil, comment: StaticString? = nil)`
    public init(_ key: LocalizedStringKey, tableName: String? = nil, bundle: Bundle? = nil, comment: StaticString? = nil) {}

    /// https://developer.apple.com/documentation/swiftui/text/init(_:) (the StringProtocol overload)
    /// `@_disfavoredOverload init<S>(_ content: S) where S : StringProtocol` (a string variable, shown verbatim)
    @_disfavoredOverload
    public init<S: StringProtocol>(_ content: S) {}

    /// https://developer.apple.com/documentation/swiftui/text/font(_:)
    /// `func font(_ font: Font?) -> Text`
    public func font(_ font: Font?) -> Text { self }
}

extension Text: View {
    public var body: Never { fatalError() }
}

/// https://developer.apple.com/documentation/swiftui/font
/// `@frozen struct Font` (Hashable, Sendable)
@available(iOS, introduced: 13.0)
@frozen
public struct Font: Hashable, Sendable {
    /// https://developer.apple.com/documentation/swiftui/font/textstyle
    /// `enum TextStyle`: only the case the demo uses (not frozen: the module is built with library evolution).
    public enum TextStyle: Hashable, Sendable {
        /// https://developer.apple.com/documentation/swiftui/font/textstyle/body
        case body
    }

    /// https://developer.apple.com/documentation/swiftui/font/design
    /// `enum Design` (Hashable, Sendable): `default` (the parameter's default) and the case the demo uses.
    public enum Design: Hashable, Sendable {
        /// https://developer.apple.com/documentation/swiftui/font/design/default
        case `default`
        /// https://developer.apple.com/documentation/swiftui/font/design/monospaced
        case monospaced
    }

    /// https://developer.apple.com/documentation/swiftui/font/system(_:design:)
    /// `static func system(_ style: Font.TextStyle, design: Font.Design = .default) -> Font` (iOS 13; the page lists
    /// it until iOS 27). The iOS 16 overload `system(_:design:weight:)` is left out: it is unavailable at the demo's
    /// iOS 15 target, and for `.system(.body, design: .monospaced)` Swift prefers this one anyway (no optional
    /// promotion, no defaulted weight).
    public static func system(_ style: Font.TextStyle, design: Font.Design = .default) -> Font { Font() }
}

/// https://developer.apple.com/documentation/swiftui/textselectability
/// `protocol TextSelectability` (iOS 15)
@available(iOS, introduced: 15.0)
public protocol TextSelectability {
    /// https://developer.apple.com/documentation/swiftui/textselectability/allowsselection
    /// `static var allowsSelection: Bool { get }`
    static var allowsSelection: Bool { get }
}

/// https://developer.apple.com/documentation/swiftui/enabledtextselectability
/// `struct EnabledTextSelectability` (iOS 15)
@available(iOS, introduced: 15.0)
public struct EnabledTextSelectability: TextSelectability {
    public static var allowsSelection: Bool { true }
}

@available(iOS, introduced: 15.0)
extension TextSelectability where Self == EnabledTextSelectability {
    /// https://developer.apple.com/documentation/swiftui/textselectability/enabled
    /// `static var enabled: EnabledTextSelectability { get }`
    public static var enabled: EnabledTextSelectability { EnabledTextSelectability() }
}

/// https://developer.apple.com/documentation/swiftui/section
/// `struct Section<Parent, Content, Footer>`, a View when all three are. Not actor-isolated (its documented
/// initializers carry no `nonisolated`).
@available(iOS, introduced: 13.0)
public struct Section<Parent, Content, Footer> {}

extension Section: View where Parent: View, Content: View, Footer: View {
    public var body: Never { fatalError() }
}

extension Section where Parent == Text, Content: View, Footer == EmptyView {
    /// https://developer.apple.com/documentation/swiftui/section/init(_:content:)
    /// `init(_ titleKey: LocalizedStringKey, @ViewBuilder content: () -> Content)` (iOS 15)
    @available(iOS, introduced: 15.0)
    public init(_ titleKey: LocalizedStringKey, @ViewBuilder content: () -> Content) {}
}

/// https://developer.apple.com/documentation/swiftui/list
/// `@MainActor @preconcurrency struct List<SelectionValue, Content> where SelectionValue : Hashable, Content : View`
@available(iOS, introduced: 13.0)
@MainActor @preconcurrency
public struct List<SelectionValue: Hashable, Content: View>: View {
    public var body: Never { fatalError() }
}

extension List where SelectionValue == Never {
    /// https://developer.apple.com/documentation/swiftui/list/init(content:)
    /// `nonisolated init(@ViewBuilder content: () -> Content)`
    nonisolated public init(@ViewBuilder content: () -> Content) {}
}

/// https://developer.apple.com/documentation/swiftui/foreach
/// `struct ForEach<Data, ID, Content> where Data : RandomAccessCollection, ID : Hashable`, a View when its
/// content is. Not actor-isolated.
@available(iOS, introduced: 13.0)
public struct ForEach<Data: RandomAccessCollection, ID: Hashable, Content> {}

extension ForEach: View where Content: View {
    public var body: Never { fatalError() }
}

extension ForEach where Content: View {
    /// https://developer.apple.com/documentation/swiftui/foreach/init(_:id:content:)
    /// `init(_ data: Data, id: KeyPath<Data.Element, ID>, @ViewBuilder content: @escaping (Data.Element) -> Content)`
    /// The row closure escapes and is not `@Sendable`: formed in a view's body it is main-actor isolated.
    public init(_ data: Data, id: KeyPath<Data.Element, ID>, @ViewBuilder content: @escaping (Data.Element) -> Content) {}
}

/// https://developer.apple.com/documentation/swiftui/navigationview
/// `@MainActor @preconcurrency struct NavigationView<Content> where Content : View`. Deprecated for
/// NavigationStack/NavigationSplitView without a version (Apple's `deprecated: 100000.0`, which never warns), so
/// the demo, whose target is iOS 15 (before NavigationStack), keeps it.
@available(iOS, introduced: 13.0, deprecated: 100000.0, message: "use NavigationStack or NavigationSplitView instead")
@MainActor @preconcurrency
public struct NavigationView<Content: View>: View {
    /// https://developer.apple.com/documentation/swiftui/navigationview/init(content:)
    /// `nonisolated init(@ViewBuilder content: () -> Content)`
    nonisolated public init(@ViewBuilder content: () -> Content) {}

    public var body: Never { fatalError() }
}

/// https://developer.apple.com/documentation/swiftui/button
/// `@MainActor @preconcurrency struct Button<Label> where Label : View`
@available(iOS, introduced: 13.0)
@MainActor @preconcurrency
public struct Button<Label: View>: View {
    public var body: Never { fatalError() }
}

extension Button where Label == Text {
    /// https://developer.apple.com/documentation/swiftui/button/init(_:action:)-1asy
    /// `@preconcurrency nonisolated init(_ titleKey: LocalizedStringKey, action: @escaping @MainActor () -> Void)`:
    /// the action runs on the main actor.
    @preconcurrency
    nonisolated public init(_ titleKey: LocalizedStringKey, action: @escaping @MainActor () -> Void) {}
}

/// https://developer.apple.com/documentation/swiftui/windowgroup
/// `@MainActor @preconcurrency struct WindowGroup<Content> where Content : View`, a Scene (iOS 14).
@available(iOS, introduced: 14.0)
@MainActor @preconcurrency
public struct WindowGroup<Content: View>: Scene {
    /// https://developer.apple.com/documentation/swiftui/windowgroup/init(content:)
    /// `nonisolated init(@ViewBuilder content: () -> Content)` (the page now shows `@ContentBuilder`, the builder
    /// of an SDK newer than the two checked here).
    nonisolated public init(@ViewBuilder content: () -> Content) {}

    public var body: Never { fatalError() }
}
