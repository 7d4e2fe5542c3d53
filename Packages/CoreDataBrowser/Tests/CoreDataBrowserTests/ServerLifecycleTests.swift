@testable import BrowserHTTP
import BrowserHTTPTesting
import BrowserMemory
@testable import CoreDataBrowser
import Foundation
import Testing

/// Ports, restarts and several servers in one process, over real sockets.
@Suite(.serialized)
struct ServerLifecycleTests {
    func makeServer(port: UInt16, bind: CoreDataBrowserServer.BindAddress = .loopback) async throws -> CoreDataBrowserServer {
        CoreDataBrowserServer(store: try await DemoLibrary.makeStore(), options: .forTests(port: port, bind: bind))
    }

    @Test func aTakenPortMovesToTheNextAndTwoServersRunSideBySide() async throws {
        let first = try await makeServer(port: 0)
        let taken = try first.start().port
        defer { first.stop() }
        let second = try await makeServer(port: taken)
        let info = try second.start()
        defer { second.stop() }
        #expect(info.port != taken)
        #expect(info.port > taken && info.port <= taken &+ 10)
        for port in [taken, info.port] {
            let reply = try await TestClient(base: URL(string: "http://127.0.0.1:\(port)")!).get("/api/health")
            #expect(reply.status == 200)
        }
    }

    @Test func stopThenStartServesAgain() async throws {
        let server = try await makeServer(port: 0)
        let info = try server.start()
        #expect(server.isRunning)
        #expect(server.runningInfo?.port == info.port)
        server.stop()
        #expect(!server.isRunning)
        #expect(server.runningInfo == nil)
        let again = try server.start()
        defer { server.stop() }
        let reply = try await TestClient(base: try #require(again.urls.last)).get("/api/health")
        #expect(reply.status == 200)
    }

    /// iOS defuncts a suspended app's listening socket, and it may say nothing about it: here the loop stops watching
    /// its listener (`muteListenerForTesting`), so a new connection waits unanswered, as on a device. Returning to
    /// the foreground (UIKit's notification, posted by name) and a second `start()` each bind a new listening socket
    /// on the same port, keeping the token, the info and the connections already open.
    @Test func returningToTheForegroundOrStartingAgainRebindsADeadListener() async throws {
        let server = try await makeServer(port: 0)
        let info = try server.start()
        defer { server.stop() }
        let http = try #require(server.runningHTTPServer)
        #expect(http.listenerBindings == 1)
        let kept = try RawHTTPClient(port: info.port)
        kept.send("GET /api/health HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
        #expect(await kept.read().status == 200)

        /// Whether a new connection gets an answer within a second.
        func answered() async throws -> Bool {
            let client = try RawHTTPClient(port: info.port, readTimeout: 1)
            client.send("GET /api/health HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n")
            return await client.read().status == 200
        }

        http.muteListenerForTesting()
        #expect(try await !answered())
        NotificationCenter.default.post(name: CoreDataBrowserServer.willEnterForeground, object: server)
        #expect(http.listenerBindings == 2)  // the observer runs on the posting thread and waits for the rebind
        #expect(try await answered())

        http.muteListenerForTesting()
        #expect(try await !answered())
        let again = try server.start()
        #expect(http.listenerBindings == 3)
        #expect(again.port == info.port && again.urls == info.urls && again.pairingToken == info.pairingToken)
        #expect(try await answered())
        kept.send("GET /api/health HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
        #expect(await kept.read().status == 200)

        // Once stopped, the notification is no longer observed.
        server.stop()
        NotificationCenter.default.post(name: CoreDataBrowserServer.willEnterForeground, object: server)
        #expect(!server.isRunning && http.listenerBindings == 0)
    }

    @Test func urlsListLoopbackLastAndOnlyLoopbackWhenBoundThere() async throws {
        let loopback = try await makeServer(port: 0)
        let info = try loopback.start()
        defer { loopback.stop() }
        #expect(info.urls.map(\.absoluteString) == ["http://127.0.0.1:\(info.port)"])

        let everywhere = try await makeServer(port: 0, bind: .allInterfaces)
        let wide = try everywhere.start()
        defer { everywhere.stop() }
        // Beyond loopback every URL carries the same one-time pairing code, never the token.
        let code = try PairingTesting.code(wide)
        #expect(code != wide.pairingToken)
        #expect(wide.urls.last?.absoluteString == "http://127.0.0.1:\(wide.port)/?pair=\(code)")
        #expect(wide.urls.dropLast().allSatisfy { $0.host != "127.0.0.1" && $0.port == Int(wide.port) && $0.query == "pair=\(code)" })
    }
}
