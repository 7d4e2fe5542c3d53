// The part of Apple's `SwiftUI` module the iOS demo's BrowserController uses: Combine's `ObservableObject` and
// `Published`, which SwiftUI re-exports. Only what that file needs, with Apple's Swift signatures, so the file that
// starts the server and rebinds it on returning to the foreground is compiled here too. The rest of this stand-in
// (Protocols.swift, PropertyWrappers.swift, Views.swift, Modifiers.swift) is what the demo's two view files need.

/// https://developer.apple.com/documentation/combine/observableobject
/// `protocol ObservableObject : AnyObject` (its `objectWillChange` publisher is left out: the demo never reads it).
public protocol ObservableObject: AnyObject {}

/// https://developer.apple.com/documentation/combine/published
/// `@propertyWrapper struct Published<Value>` with `init(wrappedValue: Value)`. Apple's reaches the value through the
/// enclosing instance (`_enclosingInstance`), so it can only wrap a class's property; this one stores it.
@propertyWrapper
public struct Published<Value> {
    private var value: Value

    /// https://developer.apple.com/documentation/combine/published/init(wrappedvalue:)
    public init(wrappedValue: Value) {
        value = wrappedValue
    }

    public var wrappedValue: Value {
        get { value }
        set { value = newValue }
    }
}
