public import BrowserCore
public import Foundation
import BrowserHTTP
import BrowserWebAssets

/// Serves a store's contents to a desktop browser: the web UI and its JSON API.
///
/// ```swift
/// let server = CoreDataBrowserServer(store: try await DemoLibrary.makeStore())
/// let info = try server.start()   // prints "CoreDataBrowser: http://192.168.1.42:8080" …
/// ```
///
/// Thread-safe: `start()`, `stop()` and the properties may be called from any thread. Several servers, each
/// on its own port, may run in one process.
public final class CoreDataBrowserServer: Sendable {
    public struct Options: Sendable {
        /// Preferred port. If it is taken the server tries `port + 1` up to `port + 10`; 0 picks any free port.
        public var port: UInt16 = 8080
        /// `.loopback` (127.0.0.1 only) or `.allInterfaces` (0.0.0.0).
        public var bindAddress: BindAddress = .allInterfaces
        /// Reserved for writes (CRUD). Writes also need a store with the `write` capability; none has it yet.
        public var readOnly: Bool = true
        /// Serve the UI from this directory instead of the compiled-in copy (for working on `web/`).
        public var webRoot: URL?
        /// Print one `CoreDataBrowser: <url>` line per URL when the server starts.
        public var printsURLs: Bool = true

        public init() {}
    }

    public enum BindAddress: Sendable {
        case loopback
        case allInterfaces
    }

    public struct RunningInfo: Sendable {
        public let port: UInt16
        /// Every URL the server can be reached at, LAN addresses first, e.g.
        /// `http://192.168.1.42:8080`, `http://127.0.0.1:8080`.
        public let urls: [URL]
    }

    public enum StartError: Error, CustomStringConvertible, Sendable {
        /// No port of `port…port+10` could be bound.
        case noFreePort(first: UInt16, last: UInt16, reason: String)
        /// `webRoot` was set but its files could not be read.
        case webRootUnreadable(path: String, reason: String)

        public var description: String {
            switch self {
            case .noFreePort(let first, let last, let reason):
                first == last ? "Could not listen on port \(first): \(reason)"
                    : "Could not listen on any port from \(first) to \(last): \(reason)"
            case .webRootUnreadable(let path, let reason):
                "Cannot serve the web UI from \(path): \(reason)"
            }
        }
    }

    /// How many ports after the preferred one `start()` tries.
    public static let portRetryCount: UInt16 = 10

    private let service: BrowserService
    private let options: Options
    private let state = ServerState()

    public init(store: any BrowserStore, options: Options = .init()) {
        self.service = BrowserService(store: store, readOnly: options.readOnly)
        self.options = options
    }

    /// Binds and starts the server; returns once it is accepting connections.
    @discardableResult
    public func start() throws -> RunningInfo {
        try state.withLock { running in
            if let running { return running.info }
            let assets: WebAssets
            if let webRoot = options.webRoot {
                do { assets = try WebAssets.directory(webRoot) } catch {
                    throw StartError.webRootUnreadable(path: webRoot.path, reason: error.localizedDescription)
                }
            } else {
                assets = .embedded
            }
            var configuration = HTTPServer.Configuration()
            configuration.host = options.bindAddress == .loopback ? "127.0.0.1" : "0.0.0.0"
            configuration.errorRenderer = JSONResponses.error
            let server = HTTPServer(configuration: configuration, responder: BrowserRoutes.router(service: service, assets: assets))

            let first = options.port
            let last = first == 0 ? 0 : UInt16(min(Int(first) + Int(Self.portRetryCount), Int(UInt16.max)))
            let port: UInt16
            do {
                port = try server.start(portCandidates: first...last)
            } catch {
                throw StartError.noFreePort(first: first, last: last, reason: String(describing: error))
            }
            let hosts = options.bindAddress == .loopback ? ["127.0.0.1"] : NetworkInterfaces.ipv4Addresses() + ["127.0.0.1"]
            let info = RunningInfo(port: port, urls: hosts.compactMap { URL(string: "http://\($0):\(port)") })
            running = RunningServer(server: server, info: info)
            if options.printsURLs {
                for url in info.urls { print("CoreDataBrowser: \(url.absoluteString)") }
            }
            return info
        }
    }

    /// Stops listening and closes every open connection. `start()` may be called again afterwards.
    public func stop() {
        let server = state.withLock { running -> HTTPServer? in
            defer { running = nil }
            return running?.server
        }
        server?.stop()
    }

    public var isRunning: Bool { state.withLock { $0 != nil } }

    public var runningInfo: RunningInfo? { state.withLock { $0?.info } }
}

private struct RunningServer {
    let server: HTTPServer
    let info: CoreDataBrowserServer.RunningInfo
}

/// The running server, guarded by a lock: `start()` and `stop()` may race from different threads.
private final class ServerState: @unchecked Sendable {
    private let lock = NSLock()
    private var running: RunningServer?

    func withLock<T>(_ body: (inout RunningServer?) throws -> T) rethrows -> T {
        lock.lock()
        defer { lock.unlock() }
        return try body(&running)
    }
}
