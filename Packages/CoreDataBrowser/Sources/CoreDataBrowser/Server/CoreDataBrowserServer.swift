public import BrowserCore
public import BrowserHTTP
public import Foundation
import BrowserWebAssets

/// Serves a store's contents to a desktop browser: the web UI and its JSON API.
///
/// ```swift
/// let server = CoreDataBrowserServer(store: try await DemoLibrary.makeStore())
/// let info = try server.start()   // logs "http://192.168.1.42:8080/?pair=…" … (`BrowserLog`)
/// ```
///
/// Beyond loopback a pairing token is required by default (see `PairingTokenPolicy`); every request's `Host`
/// must name this server; limits and timeouts protect it from hostile clients (`Options.limits`).
///
/// Thread-safe: `start()`, `stop()` and the properties may be called from any thread. Several servers, each
/// on its own port, may run in one process.
public final class CoreDataBrowserServer: Sendable {
    public struct Options: Sendable {
        /// Preferred port. If it is taken the server tries `port + 1` up to `port + 10`; 0 picks any free port.
        public var port: UInt16 = 8080
        /// `.loopback` (127.0.0.1 only) or `.allInterfaces` (0.0.0.0).
        public var bindAddress: BindAddress = .allInterfaces
        /// Whether writes are refused. With `false`, `POST /api/entities/:name`, `PATCH` and `DELETE /api/object` exist
        /// (docs/API.md "Editing") and work for stores with the `write` capability; others answer 403 with why.
        public var readOnly: Bool = true
        /// Whether a live Core Data context (`init(context:options:reading:)`) may be written when its store is mirrored
        /// to CloudKit by `NSPersistentCloudKitContainer`. Off by default: an edit there would sync to the user's iCloud
        /// and their other devices, so such a store answers writes with 403 and says why, even with `readOnly = false`.
        public var allowsEditsThatSyncToICloud: Bool = false
        /// Serve the UI from this directory instead of the compiled-in copy (for working on `web/`).
        public var webRoot: URL?
        /// Write one line per URL when the server starts, and whether a token is needed: to the unified log on Apple
        /// platforms (category `CoreDataBrowser`, the token private), printed as `CoreDataBrowser: <url>` on Linux and
        /// by a process without a bundle ID (see README "Where the URL shows").
        public var printsURLs: Bool = true
        /// Whether a browser needs the pairing token. Default `.automatic`: required beyond loopback.
        public var pairingToken: PairingTokenPolicy = .automatic
        /// Where a generated token is remembered between launches (for 7 days, then replaced); nil: a new
        /// token on every launch. Default: a file named after the process in the user's caches directory.
        public var pairingTokenFile: URL? = PairingTokenFile.defaultLocation
        /// Extra names the server answers to in `Host`, e.g. a DNS name or a tunnel's host. Always accepted:
        /// `localhost`, `127.0.0.1`, `[::1]`, the machine's host name and its `.local` name, and the
        /// addresses in `RunningInfo.urls`. Any other name gets 421 before routing (DNS-rebinding defence).
        public var allowedHostNames: [String] = []
        /// Sizes, timeouts and the connection caps; see `HTTPServerLimits` for each default and its status.
        public var limits = HTTPServerLimits()
        /// Seconds one request's store work may take before the store stops it and the request gets **503**
        /// with a message saying so (`RequestBudget`). BrowserSQLite stops a query midway; the live Core Data
        /// adapter does not start a request whose budget ran out while it waited for the context's queue (a fetch
        /// Core Data has started cannot be stopped); the in-memory demo store does not check. Default 30 s; nil for
        /// no limit. A request whose client leaves is stopped as soon as the store can (BrowserSQLite at once).
        public var requestTimeBudget: TimeInterval? = 30
        /// Seconds a facet (`/api/entities/:name/facets`) counts before it answers with what it has counted, marked
        /// `cut`, rather than a 503: a facet is a glance. Never more than three quarters of what is left of
        /// `requestTimeBudget`, so the partial answer is sent in time. Default 10 s; nil: only that share limits it.
        /// BrowserSQLite stops between its statements' parts; the stores that count in Swift stop between batches.
        public var facetTimeBudget: TimeInterval? = FacetRequest.defaultTimeBudget
        /// How often the store is asked whether it changed while a browser listens to `/api/events` (never when
        /// none does). Default 0.25 s: a change reaches the page within about half a second.
        public var changePollInterval: TimeInterval = 0.25
        /// How long an event stream may stay silent before a heartbeat comment is sent. Default 15 s.
        public var eventHeartbeatInterval: TimeInterval = 15
        /// Publish the server on the local network over Bonjour as `_cdbrowser._tcp` (app name, bundle ID, store,
        /// whether a token is needed; never the token), so `browser-demo discover` and other DNS-SD browsers find
        /// it. Off by default: on iOS, advertising shows the local-network permission prompt, and needs
        /// `NSLocalNetworkUsageDescription` and `_cdbrowser._tcp` in `NSBonjourServices` (`start()` logs the
        /// lines to add when they are missing). Apple platforms only (the system's DNS-SD, `DNSServiceRegister`);
        /// elsewhere `start()` says it does nothing. Not with `bindAddress = .loopback`: nobody on the network could
        /// reach the server, so `start()` says so instead. A failed registration is logged; a successful one too,
        /// with the name registered, when `printsURLs` is set.
        public var advertise = false

        public init() {}
    }

    public enum BindAddress: Sendable {
        case loopback
        case allInterfaces
    }

    /// Whether requests must carry the pairing token (as `Authorization: Bearer`) or a session cookie, which a
    /// browser gets through a printed one-time pairing link (`/?pair=…`; the token itself never goes into a URL). The token protects the store from other people on the network; it does not
    /// encrypt anything (the traffic is plain HTTP).
    public enum PairingTokenPolicy: Sendable, Equatable {
        /// Required when listening beyond loopback (`.allInterfaces`), not on `.loopback`, which nothing else
        /// can reach. The token is generated and remembered in `pairingTokenFile`.
        case automatic
        /// Always required, with the host's own token (e.g. kept in the Keychain): at least 22 characters from
        /// `A–Z a–z 0–9 - _ . ~`, and as unguessable as 128 random bits.
        case token(String)
        /// Never required, even beyond loopback: anyone who can reach the port can read the whole store.
        case disabledAnyoneOnTheNetworkCanReadTheStore
    }

    public struct RunningInfo: Sendable {
        public let port: UInt16
        /// Every URL the server can be reached at, LAN addresses first, e.g.
        /// `http://192.168.1.42:8080/?pair=…`, `http://127.0.0.1:8080/?pair=…`; without `/?pair=…` when no
        /// token is required. The `pair` code is one-time: it pairs one browser, once, within
        /// `PairingCodes.lifetime` (10 minutes); `newPairingLinks()` makes more, and so does opening a spent one.
        public let urls: [URL]
        /// The token requests must carry, or nil when none is required.
        public let pairingToken: String?

        public var tokenRequired: Bool { pairingToken != nil }
    }

    public enum StartError: Error, CustomStringConvertible, Sendable {
        /// No port of `port…port+10` could be bound.
        case noFreePort(first: UInt16, last: UInt16, reason: String)
        /// `webRoot` was set but its files could not be read.
        case webRootUnreadable(path: String, reason: String)
        /// `PairingTokenPolicy.token` was too short or held characters a URL would have to escape.
        case invalidPairingToken

        public var description: String {
            switch self {
            case .noFreePort(let first, let last, let reason):
                first == last ? "Could not listen on port \(first): \(reason)"
                    : "Could not listen on any port from \(first) to \(last): \(reason)"
            case .webRootUnreadable(let path, let reason):
                "Cannot serve the web UI from \(path): \(reason)"
            case .invalidPairingToken:
                "The pairing token must be \(PairingToken.minimumLength) to \(PairingToken.maximumLength) characters "
                    + "from A-Z a-z 0-9 - _ . ~"
            }
        }
    }

    /// How many ports after the preferred one `start()` tries.
    public static let portRetryCount: UInt16 = 10

    let options: Options
    /// Every store served, each opened on first use with its own API router and change feed.
    let servedStores: ServedStores
    /// The running server: `start()` and `stop()` may race from different threads.
    private let state = Locked<RunningServer?>(nil)
    /// Used when no token file is set (or it is unusable): kept for the life of this object, so `stop()` then
    /// `start()` keeps the browser's cookie valid; replaced only by `renewPairingToken()`.
    private let sessionToken = Locked(PairingToken.generate())

    /// Serves one store (the `/api/…` routes, and `/api/stores/<id>/…` as for several).
    public convenience init(store: any BrowserStore, options: Options = .init()) {
        var served = ServedStore(name: "Store", kind: .other, store: store)
        served.nameIsStandIn = true
        self.init(stores: [served], options: options)
    }

    /// Serves several stores: `GET /api/stores` lists them, `/api/stores/:store/…` addresses one, and the routes
    /// without it mean the first (so one-store clients keep working); the UI shows a store switcher. Each store
    /// is opened on its first use. `rescan`, when given, is asked again for the list on `GET /api/stores?refresh=1`
    /// (stores with the same ID and file keep their open state).
    public init(stores: [ServedStore], options: Options = .init(),
                rescan: (@Sendable () async -> [ServedStore])? = nil) {
        self.options = options
        let readOnly = options.readOnly
        let facetTimeBudget = options.facetTimeBudget
        let pollInterval = options.changePollInterval
        let heartbeatInterval = options.eventHeartbeatInterval
        self.servedStores = ServedStores(stores: stores, rescan: rescan) { store in
            BrowserRoutes.router(
                service: BrowserService(store: store, readOnly: readOnly, facetTimeBudget: facetTimeBudget),
                changes: ChangeFeed(store: store, pollInterval: pollInterval, heartbeatInterval: heartbeatInterval))
        }
    }

    /// Binds and starts the server; returns once it is accepting connections.
    ///
    /// On a running server it binds the listening socket again on the same port (open connections stay) and
    /// returns the same info: iOS defuncts the listening sockets of a suspended app, after which nothing can
    /// connect. The server does this by itself when the app posts `UIApplication.willEnterForegroundNotification`
    /// and whenever it notices a dead listener; calling `start()` again is always safe. If the port was taken
    /// meanwhile this throws `.noFreePort` and the server keeps trying to bind it every second.
    @discardableResult
    public func start() throws -> RunningInfo {
        try state.withLock { running in
            if let running {
                try reopenListener(of: running)
                return running.info
            }
            let assets: WebAssets
            if let webRoot = options.webRoot {
                do { assets = try WebAssets.directory(webRoot) } catch {
                    throw StartError.webRootUnreadable(path: webRoot.path, reason: error.localizedDescription)
                }
            } else {
                assets = .embedded
            }
            let (token, tokenExpires) = try pairingToken()
            let addresses = options.bindAddress == .loopback ? [] : NetworkInterfaces.ipv4Addresses()
            // Only a server reachable beyond loopback can gain addresses while it runs (new Wi-Fi, DHCP).
            let wide = options.bindAddress != .loopback
            let currentAddresses: @Sendable () -> [String] = { wide ? NetworkInterfaces.ipv4Addresses() : [] }
            let credentials = PairingCredentials(token: token, expires: tokenExpires)
            let codes = makePairingCodes(addresses: addresses)
            let policy = AccessPolicy(
                next: StoreRouting(servedStores: servedStores, assets: BrowserRoutes.assetRouter(assets: assets)),
                hosts: ServerHostNames.allowList(addresses: addresses, additional: options.allowedHostNames),
                credentials: credentials,
                codes: codes,
                currentAddresses: currentAddresses)
            var configuration = HTTPServer.Configuration()
            configuration.host = options.bindAddress == .loopback ? "127.0.0.1" : "0.0.0.0"
            configuration.limits = options.limits
            // The policy's checks run first on each head, before a body is read (see `AccessPolicy`).
            configuration.admission = policy
            // Errors the HTTP layer answers itself (400, 408, 413, 414, 431, 503…) never reach `policy`; they get
            // the same protective headers as every other response.
            configuration.errorRenderer = { status, message in
                var response = JSONResponses.error(status, message)
                AccessPolicy.addProtectiveHeaders(&response, isAPI: true)
                return response
            }
            let server = HTTPServer(
                configuration: configuration, responder: TimeBudgetResponder(next: policy, seconds: options.requestTimeBudget))

            let first = options.port
            let last = first == 0 ? 0 : UInt16(min(Int(first) + Int(Self.portRetryCount), Int(UInt16.max)))
            let port: UInt16
            do {
                port = try server.start(portCandidates: first...last)
            } catch {
                throw StartError.noFreePort(first: first, last: last, reason: String(describing: error))
            }
            codes.port = port
            let info = RunningInfo(port: port, addresses: addresses, pairingCode: token.map { _ in codes.issue() }, token: token)
            running = RunningServer(server: server, info: info, credentials: credentials, codes: codes,
                                    foregroundObserver: observeReturnsToForeground(),
                                    stopAdvertising: startAdvertising(info))
            printURLs(of: info)
            return info
        }
    }

    private func printURLs(of info: RunningInfo) {
        guard options.printsURLs else { return }
        // The one-time code in each link stays out of the device log's public part (BrowserLog.url).
        for url in info.urls { BrowserLog.url(url, secret: Self.pairingCode(in: url)) }
        BrowserLog.notice(info.pairingToken == nil
            ? "no pairing token required (\(options.bindAddress == .loopback ? "listening on 127.0.0.1 only" : "disabled in Options"))"
            : "pairing required; open a link above in a browser (each pairs one browser, once, within "
                + "\(Int(PairingCodes.lifetime / 60)) minutes; opening a used one prints a new one)")
    }

    /// The one-time pairing code a printed link carries (`?pair=`), nil for a link without one.
    private static func pairingCode(in url: URL) -> String? {
        URLComponents(url: url, resolvingAgainstBaseURL: false)?.queryItems?
            .first { $0.name == PairingExchange.queryParameter }?.value
    }

    /// The one-time codes of the printed links, printing each new one's links (the LAN addresses, then 127.0.0.1).
    private func makePairingCodes(addresses: [String]) -> PairingCodes {
        let printsURLs = options.printsURLs
        return PairingCodes { code, port in
            guard printsURLs else { return false }
            BrowserLog.notice("new pairing link (one browser, once):")
            for url in RunningInfo.urls(port: port, addresses: addresses, pairingCode: code) {
                BrowserLog.url(url, secret: code)
            }
            // Now, not when the buffer fills: stdout to a pipe (a terminal multiplexer, a log collector, a test)
            // is block-buffered, and the person is looking for this line right now.
            fflush(nil)
            return true
        }
    }

    /// New one-time pairing links to the running server, one per address (see `RunningInfo.urls`), for another
    /// browser: an app may show them on demand (a debug menu) instead of relying on the ones printed at start.
    ///
    /// Throws `RenewalError.notRunning`, or `.noTokenRequired` when the server needs no pairing.
    public func newPairingLinks() throws -> [URL] {
        try state.withLock { running -> [URL] in
            guard let current = running else { throw RenewalError.notRunning }
            guard current.info.tokenRequired else { throw RenewalError.noTokenRequired }
            return RunningInfo.urls(port: current.info.port, addresses: current.info.addresses,
                                    pairingCode: current.codes.issue())
        }
    }

    public enum RenewalError: Error, CustomStringConvertible, Sendable {
        /// The server is not running.
        case notRunning
        /// No token is required, so there is none to replace.
        case noTokenRequired
        /// The token is the host's own (`PairingTokenPolicy.token`): start the server again with another one.
        case hostSuppliedToken

        public var description: String {
            switch self {
            case .notRunning: "The server is not running"
            case .noTokenRequired: "This server requires no pairing token, so there is none to replace"
            case .hostSuppliedToken: "The pairing token is the app's own (PairingTokenPolicy.token): stop the server and start it with another"
            }
        }
    }

    /// Replaces the generated pairing token of the running server with a new one, at once: every browser paired
    /// with the old token (every session cookie it signed) and every printed URL that carries it stop working with
    /// their next request. The new token is remembered in `pairingTokenFile` (when set) for the next 7 days, and
    /// the returned info, with the new URLs, is also logged when `printsURLs` is set. Use it when a URL was shown to
    /// someone it should not have been; connections stay open.
    ///
    /// Throws `RenewalError` when the server is not running, requires no token, or uses the host's own token.
    @discardableResult
    public func renewPairingToken() throws -> RunningInfo {
        let info = try state.withLock { running -> RunningInfo in
            guard let current = running else { throw RenewalError.notRunning }
            switch options.pairingToken {
            case .disabledAnyoneOnTheNetworkCanReadTheStore: throw RenewalError.noTokenRequired
            case .token: throw RenewalError.hostSuppliedToken
            case .automatic:
                guard options.bindAddress == .allInterfaces else { throw RenewalError.noTokenRequired }
            }
            let fresh = PairingToken.generate()
            sessionToken.withLock { $0 = fresh }
            let expires = options.pairingTokenFile.flatMap { PairingTokenFile.replace(at: $0, with: fresh) }
            current.credentials.replace(token: fresh, expires: expires)
            // Links printed for the old token die with it.
            current.codes.revokeAll()
            let info = RunningInfo(port: current.info.port, addresses: current.info.addresses,
                                   pairingCode: current.codes.issue(), token: fresh)
            running?.info = info
            return info
        }
        printURLs(of: info)
        return info
    }

    /// The token requests must carry and when it expires, or (nil, nil) when none is required.
    private func pairingToken() throws -> (PairingToken?, Date?) {
        switch options.pairingToken {
        case .disabledAnyoneOnTheNetworkCanReadTheStore:
            return (nil, nil)
        case .token(let text):
            guard let token = PairingToken(validating: text) else { throw StartError.invalidPairingToken }
            return (token, nil)
        case .automatic:
            guard options.bindAddress == .allInterfaces else { return (nil, nil) }
            guard let file = options.pairingTokenFile else { return (sessionToken.withLock { $0 }, nil) }
            // Not remembered (no usable file): the session token, so stop() then start() keeps the cookie valid.
            let remembered = PairingTokenFile.load(from: file, generate: { sessionToken.withLock { $0 } })
            return (remembered.token, remembered.expires)
        }
    }

    /// Stops listening and closes every open connection. `start()` may be called again afterwards.
    public func stop() {
        let stopped = state.withLock { running -> RunningServer? in
            defer { running = nil }
            return running
        }
        guard let stopped else { return }
        NotificationCenter.default.removeObserver(stopped.foregroundObserver)
        stopped.stopAdvertising?()
        stopped.server.stop()
    }

    /// UIKit's `willEnterForegroundNotification`, by name: observing it needs no UIKit import (this module also
    /// builds where there is none), and it is never posted where there is no UIKit.
    static let willEnterForeground = Notification.Name("UIApplicationWillEnterForegroundNotification")

    /// Tests: the running HTTP server, whose listener they break and whose rebinds they count.
    var runningHTTPServer: HTTPServer? { state.withLock { $0?.server } }

    private func observeReturnsToForeground() -> any NSObjectProtocol {
        NotificationCenter.default.addObserver(forName: Self.willEnterForeground, object: nil, queue: nil) {
            [weak self] notification in
            guard let self else { return }
            // UIKit posts it from the application; a notification from another server is that server's alone (the
            // tests post one per server, so servers of other tests running at once never rebind under them).
            if let sender = notification.object as? CoreDataBrowserServer, sender !== self { return }
            guard let running = state.withLock({ $0 }) else { return }
            // The failure is not lost: the server keeps retrying, and `start()` reports it.
            try? reopenListener(of: running)
        }
    }

    private func reopenListener(of running: RunningServer) throws {
        do {
            try running.server.reopenListener()
        } catch {
            throw StartError.noFreePort(first: running.info.port, last: running.info.port, reason: String(describing: error))
        }
    }

    public var isRunning: Bool { state.withLock { $0 != nil } }

    public var runningInfo: RunningInfo? { state.withLock { $0?.info } }
}

private struct RunningServer: @unchecked Sendable {
    let server: HTTPServer
    var info: CoreDataBrowserServer.RunningInfo
    /// What the server's `AccessPolicy` checks; `renewPairingToken()` replaces it.
    let credentials: PairingCredentials
    /// The pairing links' one-time codes.
    let codes: PairingCodes
    /// The token of the foreground observer, removed by `stop()`. `@unchecked`: NotificationCenter's tokens are
    /// not declared Sendable, and this one is only handed back to `removeObserver`.
    let foregroundObserver: any NSObjectProtocol
    /// Withdraws the Bonjour advertisement (`Options.advertise`).
    let stopAdvertising: (@Sendable () -> Void)?
}

extension CoreDataBrowserServer.RunningInfo {
    /// The URLs of a server on `port`: each LAN address, then 127.0.0.1, with `/?pair=<code>` when a token is
    /// required.
    init(port: UInt16, addresses: [String], pairingCode: String?, token: PairingToken?) {
        self.init(port: port, urls: Self.urls(port: port, addresses: addresses, pairingCode: pairingCode),
                  pairingToken: token?.value)
    }

    static func urls(port: UInt16, addresses: [String], pairingCode: String?) -> [URL] {
        let suffix = pairingCode.map { "/?\(PairingExchange.queryParameter)=\($0)" } ?? ""
        return (addresses + ["127.0.0.1"]).compactMap { URL(string: "http://\($0):\(port)\(suffix)") }
    }

    /// The LAN addresses of `urls` (every URL but the last, 127.0.0.1).
    var addresses: [String] { urls.dropLast().compactMap(\.host) }
}

