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

    /// iOS defuncts a suspended app's listening socket; returning to the foreground (UIKit's notification) and
    /// a second `start()` both bind it again on the same port, keeping the token and the info.
    @Test func returningToTheForegroundOrStartingAgainRebindsTheSamePort() async throws {
        let server = try await makeServer(port: 0)
        let info = try server.start()
        defer { server.stop() }
        let client = TestClient(base: URL(string: "http://127.0.0.1:\(info.port)")!)
        NotificationCenter.default.post(name: CoreDataBrowserServer.willEnterForeground, object: server)
        #expect(server.listenerReopenings == 1)
        #expect(try await client.get("/api/health").status == 200)
        let again = try server.start()
        #expect(server.listenerReopenings == 2)
        #expect(again.port == info.port && again.urls == info.urls)
        #expect(try await client.get("/api/health").status == 200)
        // Once stopped, the notification is no longer observed.
        server.stop()
        NotificationCenter.default.post(name: CoreDataBrowserServer.willEnterForeground, object: server)
        #expect(server.listenerReopenings == 0)
        #expect(!server.isRunning)
    }

    @Test func urlsListLoopbackLastAndOnlyLoopbackWhenBoundThere() async throws {
        let loopback = try await makeServer(port: 0)
        let info = try loopback.start()
        defer { loopback.stop() }
        #expect(info.urls.map(\.absoluteString) == ["http://127.0.0.1:\(info.port)"])

        let everywhere = try await makeServer(port: 0, bind: .allInterfaces)
        let wide = try everywhere.start()
        defer { everywhere.stop() }
        // Beyond loopback every URL carries the pairing token.
        let token = try #require(wide.pairingToken)
        #expect(wide.urls.last?.absoluteString == "http://127.0.0.1:\(wide.port)/?token=\(token)")
        #expect(wide.urls.dropLast().allSatisfy { $0.host != "127.0.0.1" && $0.port == Int(wide.port) && $0.query == "token=\(token)" })
    }
}
