import BrowserHTTPTesting
import CoreDataBrowser

extension CoreDataBrowserServer.Options {
    /// How every test here starts a server: any free port, 127.0.0.1 unless a test needs every interface, no
    /// printed URLs, and no token file (a test never touches the user's caches). Tests set what they exercise.
    static func forTests(port: UInt16 = 0, bind: CoreDataBrowserServer.BindAddress = .loopback) -> Self {
        DescriptorLimit.raised
        var options = Self()
        options.port = port
        options.bindAddress = bind
        options.printsURLs = false
        options.pairingTokenFile = nil
        return options
    }
}
