import BrowserHTTPTesting
import BrowserCore
import BrowserHTTP
import BrowserMemory
@testable import CoreDataBrowser
import Foundation
import Testing

/// A pairing token's life on a running server: an expiring token stops working while the server runs; a
/// generated token can be replaced, which ends every session and URL of the old one at once.
@Suite(.serialized)
final class PairingTokenLifetimeTests {
    static let token = "lifetime-token-0123456789_abcde"
    /// A server whose token its host supplied (not the server's to renew).
    let server: CoreDataBrowserServer

    init() async throws {
        var options = CoreDataBrowserServer.Options.forTests()
        options.pairingToken = .token(Self.token)
        server = CoreDataBrowserServer(store: try await DemoLibrary.makeStore(), options: options)
        try server.start()
    }

    deinit { server.stop() }

    /// The head of the answer to one request on a fresh connection to `port`.
    // MARK: - A token that expires while the server runs

    @Test func theTokensExpiryIsCheckedOnEveryRequest() async throws {
        let token = try #require(PairingToken(validating: Self.token))
        var router = HTTPRouter()
        router.add(.GET, "/api/health") { _, _ in .text("ok") }
        let credentials = PairingCredentials(token: token, expires: Date().addingTimeInterval(3600))
        let policy = AccessPolicy(next: router, hosts: HTTPHostAllowList(["localhost"]), credentials: credentials,
                                  currentAddresses: { [] })
        let session = BrowserSession.issue(token: token, expires: Date().addingTimeInterval(3600))
        func status(_ headers: HTTPHeaders) async throws -> Int {
            var fields = headers
            fields.set("Host", "localhost")
            return await policy.respond(to: try HTTPRequest(method: .GET, target: "/api/health", headers: fields)).status.code
        }
        let sent: [HTTPHeaders] = [["Authorization": "Bearer \(Self.token)"], ["Cookie": "cdb_session=\(session)"]]
        for fields in sent { #expect(try await status(fields) == 200) }
        // The same token's expiry passes (set in the past rather than waited for, so no clock race): the same
        // policy and credentials, a later request, refused, the session with its token.
        credentials.replace(token: token, expires: Date().addingTimeInterval(-1))
        for fields in sent { #expect(try await status(fields) == 401) }
    }

    // MARK: - Replacing the token (revoking every session)

    func makeWideServer(tokenFile: URL?) async throws -> CoreDataBrowserServer {
        var options = CoreDataBrowserServer.Options.forTests(bind: .allInterfaces)
        options.pairingTokenFile = tokenFile
        return CoreDataBrowserServer(store: try await DemoLibrary.makeStore(), options: options)
    }


    @Test(arguments: [true, false])
    func renewingTheTokenRevokesEverySessionAndURLAtOnce(remembered: Bool) async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("renew-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        let file = remembered ? directory.appendingPathComponent("app.pairing-token") : nil
        let server = try await makeWideServer(tokenFile: file)
        let info = try server.start()
        defer { server.stop() }
        let old = try #require(info.pairingToken)
        let oldLink = try PairingTesting.code(info)
        let oldCookie = try PairingTesting.cookie(try await PairingTesting.exchange(oldLink, port: info.port, host: "127.0.0.1"))
        #expect(try await rawHead("GET", "/api/health", headers: [oldCookie], port: info.port).status == 200)

        let unused = try PairingTesting.code(of: try #require(try server.newPairingLinks().last))
        let renewed = try server.renewPairingToken()
        let new = try #require(renewed.pairingToken)
        #expect(new != old && new.utf8.count == 22)
        #expect(renewed.port == info.port)
        let newLink = try PairingTesting.code(renewed)
        #expect(renewed.urls.map(\.absoluteString) == info.urls.map { $0.absoluteString.replacingOccurrences(of: oldLink, with: newLink) })
        #expect(server.runningInfo?.pairingToken == new)
        // Everything the old token gave is refused with the next request: its sessions, itself, its printed URL.
        #expect(try await rawHead("GET", "/api/health", headers: [oldCookie], port: info.port).status == 401)
        #expect(try await rawHead("GET", "/api/health", headers: ["Authorization: Bearer \(old)"], port: info.port).status == 401)
        // A link printed for the old token and not used yet dies with it.
        #expect(try await PairingTesting.exchange(unused, port: info.port).status == 401)
        let newCookie = try await PairingTesting.pair(try #require(server.runningInfo), host: "127.0.0.1")
        #expect(try await rawHead("GET", "/api/health", headers: [newCookie], port: info.port).status == 200)
        if let file {
            #expect(try String(contentsOf: file, encoding: .utf8) == new)
        }
        // A restart keeps the new token (from the file, or the server's own), never the revoked one.
        server.stop()
        let restarted = try server.start()
        #expect(restarted.pairingToken == new)
        #expect(try await rawHead("GET", "/api/health", headers: [oldCookie], port: restarted.port).status == 401)
    }

    @Test func onlyAGeneratedTokenOfARunningServerCanBeRenewed() async throws {
        let stopped = try await makeWideServer(tokenFile: nil)
        #expect { try stopped.renewPairingToken() } throws: { "\($0)" == "\(CoreDataBrowserServer.RenewalError.notRunning)" }
        // The host's own token (this suite's server) is the host's to change.
        #expect { try self.server.renewPairingToken() } throws: { "\($0)" == "\(CoreDataBrowserServer.RenewalError.hostSuppliedToken)" }
        // On loopback no token is required by default.
        let loopback = CoreDataBrowserServer(store: try await DemoLibrary.makeStore(), options: .forTests())
        try loopback.start()
        defer { loopback.stop() }
        #expect { try loopback.renewPairingToken() } throws: { "\($0)" == "\(CoreDataBrowserServer.RenewalError.noTokenRequired)" }
    }
}
