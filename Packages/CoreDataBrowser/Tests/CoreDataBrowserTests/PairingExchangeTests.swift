import BrowserHTTPTesting
import BrowserMemory
@testable import CoreDataBrowser
import Foundation
import Testing

/// The one-time pairing links over real sockets: a link pairs one browser, once; its second use is a 401 that says
/// what to do (and prints a new link when none is left unused); a browser already paired goes on; expired codes
/// and codes of a replaced token open nothing.
@Suite(.serialized)
final class PairingExchangeTests {
    static let token = "pairing-exchange-token-0123456789"
    let server: CoreDataBrowserServer
    let info: CoreDataBrowserServer.RunningInfo

    init() async throws {
        var options = CoreDataBrowserServer.Options.forTests()
        options.pairingToken = .token(Self.token)
        server = CoreDataBrowserServer(store: try await DemoLibrary.makeStore(), options: options)
        info = try server.start()
    }

    deinit { server.stop() }

    @Test func aLinkPairsOneBrowserOnceAndASecondUseSaysWhatToDo() async throws {
        let code = try PairingTesting.code(info)
        let cookie = try PairingTesting.cookie(try await PairingTesting.exchange(code, port: info.port))
        // What stays in the first browser's history opens nothing for anyone else.
        let again = try await PairingTesting.exchange(code, port: info.port)
        #expect(again.status == 401)
        #expect(again.header("Set-Cookie") == nil)
        #expect(try again.json()["error"] as? String == AccessDenial.spentPairingLink(newLinkPrinted: false).message)
        #expect(AccessDenial.spentPairingLink(newLinkPrinted: false).message.hasPrefix("This pairing link was already used"))
        // The paired browser reopening the old link (a reload, its history) goes on, spending nothing.
        let paired = try await PairingTesting.exchange(code, port: info.port, headers: [cookie])
        #expect(paired.status == 200 && paired.header("Set-Cookie") == nil)
        #expect(try paired.json()["paired"] as? Bool == true)
    }

    @Test func newLinksOnDemandPairOneBrowserEach() async throws {
        let links = try server.newPairingLinks()
        #expect(links.map(\.host) == ["127.0.0.1"])
        let first = try PairingTesting.code(of: try #require(links.last))
        let second = try PairingTesting.code(of: try #require(try server.newPairingLinks().last))
        #expect(first != second)
        for code in [first, second] {
            _ = try PairingTesting.cookie(try await PairingTesting.exchange(code, port: info.port))
            #expect(try await PairingTesting.exchange(code, port: info.port).status == 401)
        }
    }

    @Test("what is not an outstanding code is refused", arguments: ["", "not-a-code", String(repeating: "a", count: 66), PairingExchangeTests.token])
    func anythingElseIsRefused(body: String) async throws {
        let reply = try await PairingTesting.exchange(body, port: info.port)
        #expect(reply.status == 401)
        #expect(reply.header("Set-Cookie") == nil)
    }

    /// Longer than one code: refused before its body is read (anyone may post here), with 413.
    @Test func aBodyLongerThanACodeIsRefusedUnread() async throws {
        let reply = try await PairingTesting.exchange(String(repeating: "a", count: 200), port: info.port)
        #expect(reply.status == 413)
        #expect(reply.header("Set-Cookie") == nil)
    }

    @Test func aCodeExpiresAndASpentLinkPrintsOneNewLinkWhenNoneIsLeft() throws {
        let announced = Announcements()
        let codes = PairingCodes { code, port in
            announced.append(code, port)
            return true
        }
        codes.port = 8080
        let now = Date()
        let old = codes.issue(now: now)
        // Past its lifetime: refused, and since no code is left, a new one is announced (once).
        #expect(codes.redeem(old, now: now.addingTimeInterval(PairingCodes.lifetime + 1)) == .refused(announced: true))
        let fresh = try #require(announced.codes.last)
        #expect(announced.codes.count == 1 && announced.ports == [8080])
        // While that one is unused, refusals print nothing more.
        #expect(codes.redeem(old, now: now.addingTimeInterval(PairingCodes.lifetime + 2)) == .refused(announced: false))
        #expect(announced.codes.count == 1)
        #expect(codes.redeem(fresh, now: now.addingTimeInterval(PairingCodes.lifetime + 3)) == .paired)
        #expect(codes.redeem(fresh, now: now.addingTimeInterval(PairingCodes.lifetime + 4)) == .refused(announced: true))
        #expect(announced.codes.count == 2)
        // Revoked codes (a replaced token) open nothing.
        let pending = codes.issue(now: now)
        codes.revokeAll()
        #expect(codes.redeem(pending, now: now) != .paired)
        // At most `maximumOutstanding` wait at once: the oldest goes first.
        let many = (0...PairingCodes.maximumOutstanding).map { _ in codes.issue(now: now) }
        #expect(codes.redeem(many[0], now: now) != .paired)
        #expect(codes.redeem(many[1], now: now) == .paired)
    }

    final class Announcements: @unchecked Sendable {
        // @unchecked: only touched under `lock`.
        private let lock = NSLock()
        private var values: [(String, UInt16)] = []
        func append(_ code: String, _ port: UInt16) { lock.lock(); values.append((code, port)); lock.unlock() }
        var codes: [String] { lock.lock(); defer { lock.unlock() }; return values.map(\.0) }
        var ports: [UInt16] { lock.lock(); defer { lock.unlock() }; return values.map(\.1) }
    }
}
