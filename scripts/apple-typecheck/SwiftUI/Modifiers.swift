// The view and scene modifiers the iOS demo's view files call. Apple declares them `nonisolated` (callable from
// any isolation; they only build a description of the view), which is what their documentation pages show; the
// closures they take carry the isolation that matters. Bodies are never run.
//
// One of them differs between the two signature sets run.sh checks (compilation condition XCODE16_SDK, as in the
// CoreData stand-in): `task`. Apple's current page (iOS 26 SDK and later) shows
//   task(name:priority:file:line:_:) with `_ action: sending @escaping @isolated(any) () async -> Void`;
// the Xcode 16 SDK (iOS 18) declared
//   task(priority:_:) with `@_inheritActorContext _ action: @escaping @Sendable () async -> Void`.
// In both, the action inherits the isolation of the code that writes it (`@_inheritActorContext`), so in a view's
// body it runs on the main actor: the documentation pages never show underscored attributes, so this one is not
// read from a page but from how `.task` behaves (it may touch main-actor state without `await`), and a `sending` or
// `@Sendable` closure without it would be nonisolated (as `Task.detached`'s is).

/// https://developer.apple.com/documentation/swiftui/view
extension View {
    /// https://developer.apple.com/documentation/swiftui/view/textselection(_:)
    /// `nonisolated func textSelection<S>(_ selectability: S) -> some View where S : TextSelectability` (iOS 15)
    @available(iOS, introduced: 15.0)
    nonisolated public func textSelection<S: TextSelectability>(_ selectability: S) -> some View { self }

    /// https://developer.apple.com/documentation/swiftui/view/contextmenu(menuitems:)
    /// `nonisolated func contextMenu<MenuItems>(@ViewBuilder menuItems: () -> MenuItems) -> some View
    ///  where MenuItems : View` (iOS 13; the page now shows `@ContentBuilder`, a newer SDK's builder)
    @available(iOS, introduced: 13.0)
    nonisolated public func contextMenu<MenuItems: View>(@ViewBuilder menuItems: () -> MenuItems) -> some View { self }

    /// https://developer.apple.com/documentation/swiftui/view/navigationtitle(_:)
    /// `nonisolated func navigationTitle(_ titleKey: LocalizedStringKey) -> some View` (iOS 14)
    @available(iOS, introduced: 14.0)
    nonisolated public func navigationTitle(_ titleKey: LocalizedStringKey) -> some View { self }

    #if XCODE16_SDK
    /// Xcode 16 form of https://developer.apple.com/documentation/swiftui/view/task(priority:_:)
    /// `nonisolated func task(priority: TaskPriority = .userInitiated,
    ///  @_inheritActorContext _ action: @escaping @Sendable () async -> Void) -> some View` (iOS 15)
    @available(iOS, introduced: 15.0)
    nonisolated public func task(
        priority: TaskPriority = .userInitiated,
        @_inheritActorContext _ action: @escaping @Sendable () async -> Void
    ) -> some View { self }
    #else
    /// https://developer.apple.com/documentation/swiftui/view/task(name:priority:file:line:_:)
    /// `nonisolated func task(name: String? = nil, priority: TaskPriority = .userInitiated, file: String = #fileID,
    ///  line: Int = #line, _ action: sending @escaping @isolated(any) () async -> Void) -> some View` (iOS 15; the
    /// page also shows `@export(implementation)`, an implementation detail left out), plus `@_inheritActorContext`
    /// (see the top of this file).
    @available(iOS, introduced: 15.0)
    nonisolated public func task(
        name: String? = nil,
        priority: TaskPriority = .userInitiated,
        file: String = #fileID,
        line: Int = #line,
        @_inheritActorContext _ action: sending @escaping @isolated(any) () async -> Void
    ) -> some View { self }
    #endif
}

/// https://developer.apple.com/documentation/swiftui/scene
extension Scene {
    /// https://developer.apple.com/documentation/swiftui/scene/onchange(of:perform:)
    /// `nonisolated func onChange<V>(of value: V, perform action: @escaping (V) -> Void) -> some Scene
    ///  where V : Equatable`, iOS 14, deprecated in iOS 17 ("iOS: 14.0.0 - 17.0.0" on the page; Xcode's message is
    /// the one below). The action is neither `@Sendable` nor `@MainActor`: formed in an App's body it is main-actor
    /// isolated by inference. The deprecation warns only when the deployment target is iOS 17 or later; the demo's
    /// is iOS 15 (Apps/iOSDemo/project.yml), so Xcode does not warn, and swiftc on Linux never applies iOS
    /// availability at all.
    @available(iOS, introduced: 14.0, deprecated: 17.0, message: "Use `onChange` with a two or zero parameter action closure instead.")
    nonisolated public func onChange<V: Equatable>(of value: V, perform action: @escaping (_ newValue: V) -> Void) -> some Scene { self }
}
