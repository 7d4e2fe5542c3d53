import SwiftUI

/// The iOS demo: a Core Data library, browsable from a desktop browser while the app runs (debug builds).
@main
struct LibraryDemoApp: App {
    @StateObject private var browser = BrowserController()

    var body: some Scene {
        WindowGroup {
            ContentView(browser: browser)
                .task { await browser.start(PersistenceController.shared) }
        }
    }
}
