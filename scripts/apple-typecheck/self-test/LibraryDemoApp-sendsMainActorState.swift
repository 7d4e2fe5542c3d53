// Self-test fixture for scripts/apple-typecheck/run.sh, never built into the app: Apps/iOSDemo/Sources/
// LibraryDemoApp.swift with one deliberate concurrency mistake, which must fail under both signature sets.
// The App is main-actor isolated (`App` is a `@MainActor` protocol), and so is its `.task` action (it inherits the
// isolation of the body that writes it), so `launchLog`, a non-Sendable value the App holds, is main-actor state;
// handing it to `record(_:)`, a nonisolated `async` function, sends it off the main actor while the App keeps it:
// Swift 6 refuses that ("sending 'self.launchLog' risks causing data races"), as Xcode does with the project's
// Swift 6 mode. Found on SIL by region-based isolation checking, so only a real compile (not `-typecheck`) sees it.
import SwiftUI

/// Not Sendable: a mutable class.
final class LaunchLog {
    var entries: [String] = []
}

/// Nonisolated and async: runs off the main actor (Swift 6 mode, without NonisolatedNonsendingByDefault).
func record(_ log: LaunchLog) async {
    log.entries.append("launched")
}

@main
struct LibraryDemoApp: App {
    @StateObject private var browser = BrowserController()
    @Environment(\.scenePhase) private var scenePhase
    private let launchLog = LaunchLog()

    var body: some Scene {
        WindowGroup {
            ContentView(browser: browser)
                .task {
                    await record(launchLog)   // the mistake: main-actor state sent to a nonisolated async function
                    await browser.start(PersistenceController.shared)
                }
        }
        // iOS takes a suspended app's listening socket away; coming back, the server listens again.
        .onChange(of: scenePhase) { phase in
            if phase == .active { browser.returnedToForeground() }
        }
    }
}
