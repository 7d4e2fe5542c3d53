@testable import BrowserHTTP
import BrowserHTTPTesting
import Foundation
import Testing

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// What keeps a client on the network from holding every connection slot, and the listener alive when the
/// system takes it away. Real sockets on loopback; several client machines are played by binding the
/// clients to different 127.x addresses (Linux routes all of 127/8 to loopback).
// A time limit so that a wait that never ends fails the run instead of hanging it.
@Suite(.serialized, .timeLimit(.minutes(2)))
struct ConnectionProtectionTests {
    static func makeRouter() -> HTTPRouter {
        var router = HTTPRouter()
        router.add(.GET, "/hello") { _, _ in .text("Hello") }
        for code in [400, 401, 403, 421] {
            router.add(.GET, "/status/\(code)") { _, _ in
                .text("no", status: HTTPStatus(code: code))
            }
        }
        return router
    }

    private func withServer(
        host: String = "127.0.0.1", limits: HTTPServerLimits = HTTPServerLimits(),
        _ body: (HTTPServer, UInt16) async throws -> Void
    ) async throws {
        let server = HTTPServer(configuration: .init(host: host, port: 0, limits: limits), responder: Self.makeRouter())
        let port = try server.start()
        defer { server.stop() }
        try await body(server, port)
    }

    // MARK: - Answers that end the connection

    @Test func malformedUnauthorizedAndMisdirectedAnswersCloseAKeepAliveConnection() async throws {
        try await withServer { _, port in
            for code in [400, 401, 421] {
                let client = try RawHTTPClient(port: port)
                client.send("GET /status/\(code) HTTP/1.1\r\nHost: x\r\n\r\n")
                let response = await client.readResponse()
                #expect(response?.status == code)
                #expect(response?.header("Connection") == "close", "\(code)")
                #expect(await client.waitForClose() == .closed, "\(code)")
            }
            // Other answers keep the connection: the same client asks twice.
            let client = try RawHTTPClient(port: port)
            for _ in 0..<2 {
                client.send("GET /status/403 HTTP/1.1\r\nHost: x\r\n\r\n")
                #expect(await client.readResponse()?.status == 403)
            }
        }
    }

    // MARK: - Clients that leave

    @Test func aClientLeavingCancelsItsRequest() async throws {
        // The handler runs until it is cancelled (or 10 s pass) and reports which.
        let (outcomes, reporter) = AsyncStream<Bool>.makeStream()
        var router = HTTPRouter()
        router.add(.GET, "/wait") { _, _ in
            let giveUp = Date().addingTimeInterval(10)
            while !Task.isCancelled && Date() < giveUp { try? await Task.sleep(nanoseconds: 5_000_000) }
            reporter.yield(Task.isCancelled)
            return .text("late")
        }
        router.add(.GET, "/hello") { _, _ in .text("Hello") }
        let server = HTTPServer(configuration: .init(), responder: router)
        let port = try server.start()
        defer { server.stop() }
        do {
            let client = try RawHTTPClient(port: port)
            client.send("GET /wait HTTP/1.1\r\nHost: x\r\n\r\n")
        }  // closed here, while the handler runs
        var iterator = outcomes.makeAsyncIterator()
        #expect(await iterator.next() == true)
        // The server goes on serving.
        let next = try RawHTTPClient(port: port)
        next.send("GET /hello HTTP/1.1\r\nHost: x\r\n\r\n")
        #expect(await next.readResponse()?.status == 200)
    }

    // MARK: - Per-address cap

    @Test func oneAddressCannotTakeEverySlot() async throws {
        var limits = HTTPServerLimits()
        limits.maxConnectionsPerAddress = 3
        try await withServer(limits: limits) { _, port in
            // Three held from 127.0.0.2, each proven admitted by an answer.
            let held = try (0..<3).map { _ in try RawHTTPClient(port: port, from: "127.0.0.2") }
            for client in held {
                client.send("GET /hello HTTP/1.1\r\nHost: x\r\n\r\n")
                #expect(await client.readResponse()?.status == 200)
            }
            // A fourth from the same address is refused with a reason …
            let fourth = try RawHTTPClient(port: port, from: "127.0.0.2")
            let refused = await fourth.readResponse()
            #expect(refused?.status == 503)
            #expect(refused?.text.contains("Too many connections from this address") == true)
            // … while another machine is served.
            let other = try RawHTTPClient(port: port, from: "127.0.0.3")
            other.send("GET /hello HTTP/1.1\r\nHost: x\r\n\r\n")
            #expect(await other.readResponse()?.status == 200)
            // A slot freed by its own address is usable again once the server has seen the close.
            held[0].shutdownBoth()
            var served = false
            for _ in 0..<100 where !served {
                let again = try RawHTTPClient(port: port, from: "127.0.0.2")
                again.send("GET /hello HTTP/1.1\r\nHost: x\r\n\r\n")
                served = await again.readResponse()?.status == 200
                if !served { try await Task.sleep(nanoseconds: 20_000_000) }
            }
            #expect(served)
        }
    }

    /// Many addresses connecting and saying nothing can fill every slot; when full, the oldest silent connection
    /// gives its slot to the newcomer, while connections that have spoken keep theirs (SlotReclaiming, rule 2).
    @Test func whenFullASilentConnectionGivesItsSlotToTheNewcomer() async throws {
        var limits = HTTPServerLimits()
        limits.maxConnections = 4
        limits.firstRequestTimeout = 60  // the silent ones would otherwise stay this long
        limits.silentConnectionGrace = 0  // silent from the start: the order, not the clock, decides
        try await withServer(limits: limits) { _, port in
            // Every slot taken by a different address that never sends a whole request (accepted in this order:
            // the listener's queue is first in, first out); two send the start of one, which does not save them.
            let silent = try (2...5).map { try RawHTTPClient(port: port, from: "127.0.0.\($0)", readTimeout: 10) }
            silent[0].send("G")
            silent[2].send("GET / HTTP/1.1\r\n")
            // The owner is served instead of being refused with 503 …
            let owner = try RawHTTPClient(port: port)
            owner.send("GET /hello HTTP/1.1\r\nHost: x\r\n\r\n")
            #expect(await owner.readResponse()?.status == 200)
            // … and the slot was the oldest silent connection's.
            #expect(await silent[0].waitForClose() == .closed)
            // The other silent ones give theirs to three more clients; then all four have spoken, and keep them.
            let served = [owner] + (try (3...5).map { try RawHTTPClient(port: port, from: "127.0.1.\($0)") })
            for client in served.dropFirst() {
                client.send("GET /hello HTTP/1.1\r\nHost: x\r\n\r\n")
                #expect(await client.readResponse()?.status == 200)
            }
            let fifth = try RawHTTPClient(port: port, from: "127.0.2.1")
            #expect(await fifth.readResponse()?.status == 503)
        }
    }

    /// A connection reclaimed for a newcomer from its own address leaves that address's count as it was: the
    /// address can still open as many as its cap allows.
    @Test func aSlotReclaimedFromTheNewcomersOwnAddressKeepsItsCountRight() async throws {
        var limits = HTTPServerLimits()
        limits.maxConnections = 2
        limits.maxConnectionsPerAddress = 2
        limits.firstRequestTimeout = 60
        limits.silentConnectionGrace = 0
        try await withServer(limits: limits) { _, port in
            let ownSilent = try RawHTTPClient(port: port, readTimeout: 10)
            let otherSilent = try RawHTTPClient(port: port, from: "127.0.0.2", readTimeout: 10)
            // Full; a newcomer from 127.0.0.1 takes its own address's silent slot …
            let first = try RawHTTPClient(port: port)
            first.send("GET /hello HTTP/1.1\r\nHost: x\r\n\r\n")
            #expect(await first.readResponse()?.status == 200)
            #expect(await ownSilent.waitForClose() == .closed)
            // … and 127.0.0.1 holds one connection, so a second (its cap is two) takes the other silent slot.
            let second = try RawHTTPClient(port: port)
            second.send("GET /hello HTTP/1.1\r\nHost: x\r\n\r\n")
            #expect(await second.readResponse()?.status == 200)
            #expect(await otherSilent.waitForClose() == .closed)
        }
    }

    /// One address holding every slot (under its own cap) makes room for another address, and only for another
    /// address: a newcomer from the crowded address is refused (SlotReclaiming, rule 1).
    @Test func whenFullTheCrowdedAddressGivesASlotToAnotherAddress() async throws {
        var limits = HTTPServerLimits()
        limits.maxConnections = 4
        limits.silentConnectionGrace = 60  // rule 2 stays out of it
        try await withServer(limits: limits) { _, port in
            let crowd = try (0..<4).map { _ in try RawHTTPClient(port: port, from: "127.0.0.2") }
            for client in crowd {
                client.send("GET /hello HTTP/1.1\r\nHost: x\r\n\r\n")
                #expect(await client.readResponse()?.status == 200)
            }
            let owner = try RawHTTPClient(port: port)
            owner.send("GET /hello HTTP/1.1\r\nHost: x\r\n\r\n")
            #expect(await owner.readResponse()?.status == 200)
            #expect(await crowd[0].waitForClose() == .closed, "the crowded address's oldest idle connection")
            let more = try RawHTTPClient(port: port, from: "127.0.0.2")
            #expect(await more.readResponse()?.status == 503)
        }
    }

    @Test func aSilentFreshConnectionGetsTheShortFirstRequestTimeout() async throws {
        var limits = HTTPServerLimits()
        limits.firstRequestTimeout = 0.3
        limits.keepAliveIdleTimeout = 60
        try await withServer(limits: limits) { _, port in
            let silent = try RawHTTPClient(port: port, readTimeout: 10)
            // Closed long before the keep-alive idle time would have applied (the read times out at 10 s).
            #expect(await silent.waitForClose() == .closed)
        }
    }

    // MARK: - Descriptor budget

    @Test func theConnectionCapFitsTheProcessDescriptorLimit() {
        let defaults = HTTPServerLimits()
        // Unlimited or generous: the configured caps.
        #expect(ConnectionBudget(limits: defaults, descriptorLimit: nil) == .init(limits: defaults, descriptorLimit: 100_000))
        let generous = ConnectionBudget(limits: defaults, descriptorLimit: 100_000)
        #expect(generous.admitted == 512 && generous.total == 576 && generous.perAddress == 32)
        // A Mac app's default soft limit of 256: 96 descriptors stay with the app, 3 with the loop.
        let mac = ConnectionBudget(limits: defaults, descriptorLimit: 256)
        #expect(mac.total == 157)
        #expect(mac.admitted == 157 - 157 / 8)
        #expect(mac.admitted + (mac.total - mac.admitted) + defaults.reservedDescriptors + 3 <= 256)
        // Absurdly low limits still leave one connection rather than none.
        let tiny = ConnectionBudget(limits: defaults, descriptorLimit: 50)
        #expect(tiny.admitted == 1 && tiny.perAddress == 1)
    }

    // MARK: - The listener

    @Test func aDeadListenerIsBoundAgainOnTheSamePort() async throws {
        try await withServer { server, port in
            // A keep-alive connection opened before survives the listener's replacement.
            let before = try RawHTTPClient(port: port)
            before.send("GET /hello HTTP/1.1\r\nHost: x\r\n\r\n")
            #expect(await before.readResponse()?.status == 200)

            server.breakListenerForTesting()
            // Wait for the state (a new connection answered), not for a time: connecting is refused while
            // the listener is down.
            var served = false
            for _ in 0..<250 where !served {
                if let client = try? RawHTTPClient(port: port, readTimeout: 2) {
                    client.send("GET /hello HTTP/1.1\r\nHost: x\r\n\r\n")
                    served = await client.readResponse()?.status == 200
                }
                if !served { try await Task.sleep(nanoseconds: 20_000_000) }
            }
            #expect(served)
            #expect(server.port == port)
            #expect(server.listenerBindings == 2)  // a new socket, not the old one answering after all
            before.send("GET /hello HTTP/1.1\r\nHost: x\r\n\r\n")
            #expect(await before.readResponse()?.status == 200)
        }
    }

    /// iOS's defunct listener may stay "readable" while every accept() fails with ECONNABORTED: the loop must not
    /// spin on it but bind a new one (after 32 aborts in a row).
    @Test func aListenerWhoseAcceptsKeepAbortingIsBoundAgain() async throws {
        try await withServer { server, port in
            let before = try RawHTTPClient(port: port)
            before.send("GET /hello HTTP/1.1\r\nHost: x\r\n\r\n")
            #expect(await before.readResponse()?.status == 200)
            #expect(server.listenerBindings == 1)

            server.abortAcceptsForTesting()
            for _ in 0..<250 where server.listenerBindings < 2 {
                try await Task.sleep(nanoseconds: 20_000_000)
            }
            #expect(server.listenerBindings == 2)
            #expect(server.port == port)
            let after = try RawHTTPClient(port: port)
            after.send("GET /hello HTTP/1.1\r\nHost: x\r\n\r\n")
            #expect(await after.readResponse()?.status == 200)
            before.send("GET /hello HTTP/1.1\r\nHost: x\r\n\r\n")
            #expect(await before.readResponse()?.status == 200)
        }
    }

    @Test func reopenListenerKeepsThePortAndTheOpenConnections() async throws {
        try await withServer { server, port in
            let before = try RawHTTPClient(port: port)
            before.send("GET /hello HTTP/1.1\r\nHost: x\r\n\r\n")
            #expect(await before.readResponse()?.status == 200)
            try server.reopenListener()
            #expect(server.listenerBindings == 2)
            // Synchronous: once it returns, the new listener accepts.
            let after = try RawHTTPClient(port: port)
            after.send("GET /hello HTTP/1.1\r\nHost: x\r\n\r\n")
            #expect(await after.readResponse()?.status == 200)
            before.send("GET /hello HTTP/1.1\r\nHost: x\r\n\r\n")
            #expect(await before.readResponse()?.status == 200)
        }
        let stopped = HTTPServer(configuration: .init(), responder: Self.makeRouter())
        #expect(throws: HTTPServerError.notRunning) { try stopped.reopenListener() }
    }

    @Test func aWildcardBindRefusesAPortAnotherProcessListensOnAtLoopback() throws {
        // Another "process" listening on 127.0.0.1 only. Darwin would let our 0.0.0.0 bind share the port and
        // the printed loopback URL would reach the other server; the probes refuse the port (Linux refuses the
        // bind itself).
        try Self.expectWildcardBindRefused(besideAListenerAt: "127.0.0.1")
        // A wildcard bind on a port nobody uses works, probes included.
        let free = HTTPServer(configuration: .init(host: "0.0.0.0", port: 0), responder: Self.makeRouter())
        defer { free.stop() }
        #expect(try free.start() != 0)
    }

    /// Another process listening on a second loopback address only (127.0.0.2; Linux routes all of 127/8 to `lo`,
    /// a Mac needs an alias for it): a wildcard bind on its port is refused as taken. Here Linux's own bind refuses
    /// it; on Darwin the bind succeeds beside it and only the probes can refuse it, for addresses an interface lists.
    @Test func aWildcardBindRefusesAPortAnotherProcessListensOnAtAnotherLocalAddress() throws {
        #if os(Linux)
        try Self.expectWildcardBindRefused(besideAListenerAt: "127.0.0.2")
        #endif
    }

    /// Starts a server on `host` alone, then expects a wildcard server on its port to fail with `.bindFailed`.
    private static func expectWildcardBindRefused(besideAListenerAt host: String) throws {
        let other = HTTPServer(configuration: .init(host: host, port: 0), responder: makeRouter())
        let port = try other.start()
        defer { other.stop() }
        let wide = HTTPServer(configuration: .init(host: "0.0.0.0", port: port), responder: makeRouter())
        defer { wide.stop() }
        #expect {
            try wide.start()
        } throws: { error in
            guard case .bindFailed(let failedPort, _) = error as? HTTPServerError else { return false }
            return failedPort == port
        }
    }

    /// The probes themselves, which the tests above reach only on Darwin (Linux refuses the wildcard bind before
    /// them): they see a listener on the loopback address, and on every other address of an interface that is up,
    /// of a wildcard bind's port, and nothing once that one is gone.
    @Test func theProbesSeeAListenerOnAnyLocalAddressOfThePort() throws {
        var hosts = ["127.0.0.1"]
        // The machine's other addresses (a container's eth0, a Mac's Wi-Fi), when it has any.
        hosts += SocketAddress.localAddresses(family: AF_INET, port: 0).map(\.numericHost).filter { $0 != "127.0.0.1" }
        for host in hosts {
            let other = HTTPServer(configuration: .init(host: host, port: 0), responder: Self.makeRouter())
            let port = try other.start()
            let wildcard = try #require(SocketAddress(host: "0.0.0.0", port: port))
            #expect(ListeningSocket.takenLocalAddress(besides: wildcard, port: port)?.numericHost == host)
            // Only a wildcard bind is probed: a bind to one address conflicts by itself.
            #expect(ListeningSocket.takenLocalAddress(besides: try #require(SocketAddress(host: host, port: port)), port: port) == nil)
            other.stop()
            #expect(ListeningSocket.takenLocalAddress(besides: wildcard, port: port) == nil)
        }
    }
}
