import SwiftUI

/// The iOS demo: a Core Data library, browsable from a desktop browser while the app runs (debug builds).
@main
struct LibraryDemoApp: App {
    @StateObject private var browser = BrowserController()
    @Environment(\.scenePhase) private var scenePhase

    var body: some Scene {
        WindowGroup {
            ContentView(browser: browser)
                .task { await browser.start(PersistenceController.shared) }
        }
        // iOS takes a suspended app's listening socket away; coming back, the server listens again.
        .onChange(of: scenePhase) { phase in
            if phase == .active { browser.returnedToForeground() }
        }
    }
}
