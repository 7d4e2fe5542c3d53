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

    /// Clients without the token, from several addresses, fill the unauthenticated slots with silent connections
    /// and half-sent heads. The owner's newcomer takes the slot of the crowded address's oldest; once it has shown
    /// its token it is never the one to go; newcomers from other addresses then displace each other, the oldest of
    /// the most crowded first, and a newcomer from an address holding as many as any other is refused
    /// (SlotReclaiming, rule 1).
    @Test func unauthenticatedConnectionsGiveWayOldestOfTheCrowdedAddressFirst() async throws {
        var limits = HTTPServerLimits()
        limits.maxConnections = 6
        limits.reservedAuthenticatedConnections = 2  // four slots for unauthenticated connections
        limits.firstRequestTimeout = 60  // the silent ones would otherwise stay this long
        let server = HTTPServer(
            configuration: .init(port: 0, limits: limits, admission: AdmissionTests.BearerAdmission()),
            responder: Self.makeRouter())
        let port = try server.start()
        defer { server.stop() }
        // Accepted in this order (the listener's queue is first in, first out).
        let silent = try RawHTTPClient(port: port, from: "127.0.0.2", readTimeout: 10)
        let halfSent = try RawHTTPClient(port: port, from: "127.0.0.2", readTimeout: 10)
        let others = try (3...4).map { try RawHTTPClient(port: port, from: "127.0.0.\($0)", readTimeout: 10) }
        for client in [halfSent] + others { client.send("GET /hello HTTP/1.1\r\nHost: x\r\n") }
        let owner = try RawHTTPClient(port: port)
        owner.send("GET /hello HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer good\r\n\r\n")
        #expect(await owner.readResponse()?.status == 200)
        #expect(await silent.waitForClose() == .closed, "127.0.0.2 held two: its oldest went")
        // Three unauthenticated now, one each: a fourth address fits; a fifth takes the oldest of them all.
        let fifth = try RawHTTPClient(port: port, from: "127.0.0.5", readTimeout: 10)
        fifth.send("G")
        let sixth = try RawHTTPClient(port: port, from: "127.0.0.6", readTimeout: 10)
        sixth.send("G")
        #expect(await halfSent.waitForClose() == .closed)
        // The owner's connection, authenticated, was never a candidate: it answers again.
        owner.send("GET /hello HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer good\r\n\r\n")
        #expect(await owner.readResponse()?.status == 200)
        // 127.0.0.6 holds one, as many as any address: its newcomer is refused rather than trading with another.
        let again = try RawHTTPClient(port: port, from: "127.0.0.6")
        let refused = await again.readResponse()
        #expect(refused?.status == 503)
        #expect(refused?.text.contains("Too many connections") == true)
    }

    /// An address whose connections never show credentials gets `maxConnectionsPerAddress` new connections, then
    /// only `newConnectionsPerAddressPerSecond`; connections that authenticate give theirs back.
    @Test func anAddressReconnectingWithoutCredentialsRunsOutOfNewConnections() async throws {
        var limits = HTTPServerLimits()
        limits.maxConnectionsPerAddress = 3
        limits.newConnectionsPerAddressPerSecond = 0  // no refill: the order, not the clock, decides
        let server = HTTPServer(
            configuration: .init(port: 0, limits: limits, admission: AdmissionTests.BearerAdmission()),
            responder: Self.makeRouter())
        let port = try server.start()
        defer { server.stop() }
        for _ in 0..<3 {
            let stranger = try RawHTTPClient(port: port, from: "127.0.0.2")
            stranger.send("GET /hello HTTP/1.1\r\nHost: x\r\n\r\n")
            #expect(await stranger.readResponse()?.status == 401)
            #expect(await stranger.waitForClose() == .closed)
        }
        let fourth = try RawHTTPClient(port: port, from: "127.0.0.2")
        let refused = await fourth.readResponse()
        #expect(refused?.status == 503)
        #expect(refused?.text.contains("Too many new connections from this address") == true)
        // The owner's address opens more connections than its allowance, one after another, each authenticated.
        for _ in 0..<6 {
            let owner = try RawHTTPClient(port: port, from: "127.0.0.3")
            owner.send("GET /hello HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer good\r\n\r\n")
            #expect(await owner.readResponse()?.status == 200)
        }
    }

    /// Connections that have shown credentials hold every slot (under their own cap): the crowded address's oldest
    /// idle one makes room for another address, and only for another address (SlotReclaiming, rule 2).
    @Test func whenFullTheCrowdedAddressGivesASlotToAnotherAddress() async throws {
        var limits = HTTPServerLimits()
        limits.maxConnections = 4
        try await withServer(limits: limits) { _, port in
            // Without an admission every connection that sends a request is authenticated.
            var crowd: [RawHTTPClient] = []
            for _ in 0..<4 {
                let client = try RawHTTPClient(port: port, from: "127.0.0.2")
                client.send("GET /hello HTTP/1.1\r\nHost: x\r\n\r\n")
                #expect(await client.readResponse()?.status == 200)
                crowd.append(client)
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
        #expect(generous.unauthenticated == 512 - defaults.reservedAuthenticatedConnections)
        // A Mac app's default soft limit of 256: 96 descriptors stay with the app, 3 with the loop.
        let mac = ConnectionBudget(limits: defaults, descriptorLimit: 256)
        #expect(mac.total == 157)
        #expect(mac.admitted == 157 - 157 / 8)
        #expect(mac.admitted + (mac.total - mac.admitted) + defaults.reservedDescriptors + 3 <= 256)
        #expect(mac.unauthenticated == mac.admitted - 32)
        // Absurdly low limits still leave one connection rather than none.
        let tiny = ConnectionBudget(limits: defaults, descriptorLimit: 50)
        #expect(tiny.admitted == 1 && tiny.perAddress == 1 && tiny.unauthenticated == 1)
        // The reserve is at most half the slots.
        var few = defaults
        few.maxConnections = 10
        #expect(ConnectionBudget(limits: few, descriptorLimit: nil).unauthenticated == 5)
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
