// The part of Apple's `UIKit` module the iOS demo's views use: the general pasteboard. On iOS, `import SwiftUI`
// re-exports UIKit, which is how ContentView.swift reaches `UIPasteboard` with only `import SwiftUI`; the SwiftUI
// stand-in (../SwiftUI/) re-exports this module the same way. Bodies are never run: this module exists to be
// compiled against.
//
// Not mirrored: Apple's UIKit re-exports all of Foundation; this one re-exports only NSObject (the CoreData stand-in re-exports only part
// of Foundation on purpose, see ../CoreData/FoundationSurface.swift, and a file importing both would see two
// declarations of some names). A view file naming a Foundation type with only `import SwiftUI` would therefore fail
// here while Xcode accepts it: a false alarm, never a false pass.

@_exported import class Foundation.NSObject   // Apple's UIKit re-exports all of Foundation; see above

/// https://developer.apple.com/documentation/uikit/uipasteboard
/// `class UIPasteboard : NSObject` (iOS 3). Whether the current SDK also marks it `@MainActor` or `Sendable` is not
/// shown on the page and not assumed here: the demo only touches it from a main-actor closure, where either form
/// compiles.
@available(iOS, introduced: 3.0)
open class UIPasteboard: NSObject {
    /// https://developer.apple.com/documentation/uikit/uipasteboard/general
    /// `class var general: UIPasteboard { get }`
    open class var general: UIPasteboard { fatalError() }

    /// https://developer.apple.com/documentation/uikit/uipasteboard/string
    /// `var string: String? { get set }`
    open var string: String? {
        get { fatalError() }
        set { fatalError() }
    }
}
