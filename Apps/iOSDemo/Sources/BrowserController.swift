import CoreData
import SwiftUI
#if DEBUG
import CoreDataBrowser
#endif

/// Seeds the store and, in debug builds only, starts the browser on the app's context.
@MainActor
final class BrowserController: ObservableObject {
    @Published private(set) var status = "Starting…"
    @Published private(set) var urls: [URL] = []

    #if DEBUG
    private var server: CoreDataBrowserServer?
    #endif

    func start(_ persistence: PersistenceController) async {
        do {
            try await persistence.seedIfEmpty()
        } catch {
            status = "Could not seed the demo library: \(error.localizedDescription)"
            return
        }
        #if DEBUG
        // Reads through a private-queue context on the same coordinator, so browsing never runs on the main
        // queue; pass `reading: .givenContext` to see unsaved edits of the viewContext instead.
        // Advertised over Bonjour, so `browser-demo discover` on the Mac lists it (Info.plist: NSBonjourServices and
        // NSLocalNetworkUsageDescription, set in project.yml).
        var options = CoreDataBrowserServer.Options()
        options.advertise = true
        // Read-only unless launched with `--writable` (the scheme's "Arguments Passed On Launch", as
        // `browser-demo --writable`): then records can be created, edited and deleted from the browser, through a
        // private-queue context of the browser's own, saved with the transaction author "CoreDataBrowser".
        options.readOnly = !ProcessInfo.processInfo.arguments.contains("--writable")
        let server = server ?? CoreDataBrowserServer(context: persistence.container.viewContext, options: options)
        self.server = server
        do {
            let info = try server.start()   // also prints "CoreDataBrowser: http://…" for each URL
            urls = info.urls
            status = "Serving on port \(info.port)" + (options.readOnly ? "" : ", writes on")
        } catch {
            status = "The browser could not start: \(error)"
        }
        #else
        status = "The browser only runs in debug builds."
        #endif
    }

    /// Fresh one-time pairing links for another browser (the printed ones pair one browser each, once).
    func newPairingLinks() {
        #if DEBUG
        guard let server else { return }
        do {
            urls = try server.newPairingLinks()
        } catch {
            status = "No new pairing link: \(error)"
        }
        #endif
    }

    /// While the app was suspended iOS defuncted the server's listening socket. The server binds the same port
    /// again by itself on UIKit's foreground notification; calling `start()` on the running server does the
    /// same explicitly and tells us whether it worked, which the demo shows.
    func returnedToForeground() {
        #if DEBUG
        guard let server, server.isRunning else { return }
        do {
            let info = try server.start()
            status = "Serving on port \(info.port) (listening again after the background)"
        } catch {
            status = "The browser could not listen again: \(error)"
        }
        #endif
    }
}
