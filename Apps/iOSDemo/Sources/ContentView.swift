import SwiftUI

/// The app's only screen: whether the browser runs, the URLs to open on a computer, and how.
/// No browser UI in the app itself: the web UI runs in the computer's browser.
struct ContentView: View {
    @ObservedObject var browser: BrowserController

    var body: some View {
        NavigationView {
            List {
                Section("CoreDataBrowser") {
                    Text(browser.status)
                    ForEach(browser.urls, id: \.self) { url in
                        // Selectable and copyable, so the URL can be sent to the computer.
                        Text(url.absoluteString)
                            .font(.system(.body, design: .monospaced))
                            .textSelection(.enabled)
                            .contextMenu {
                                Button("Copy") { UIPasteboard.general.string = url.absoluteString }
                                // Each link pairs one browser, once: another browser needs a new one.
                                Button("New pairing link") { browser.newPairingLinks() }
                            }
                    }
                }
                Section("How to browse") {
                    Text("Open one of these URLs in a desktop browser on the same Wi-Fi. On the simulator, 127.0.0.1 works from the Mac. Each link pairs one browser, once, within 10 minutes (that browser stays paired); touch and hold a link for a new one.")
                    Text("The library (authors, books, audiobooks, tags) is seeded on first launch.")
                }
            }
            .navigationTitle("Library")
        }
    }
}
