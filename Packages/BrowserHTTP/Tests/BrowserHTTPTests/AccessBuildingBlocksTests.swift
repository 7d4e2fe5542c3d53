import BrowserHTTP
import Foundation
import Testing

/// The generic pieces an application builds access control from: constant-time comparison, the Host
/// allow-list, cookies, bearer tokens and the same-origin check. No sockets needed.
struct AccessBuildingBlocksTests {
    func make(_ headers: [(String, String)], target: String = "/", method: HTTPMethod = .GET) throws -> HTTPRequest {
        try HTTPRequest(method: method, target: target, headers: HTTPHeaders(headers.map { (name: $0.0, value: $0.1) }))
    }

    @Test func constantTimeEqualityIsEquality() {
        #expect(ConstantTime.equals("secret-token", "secret-token"))
        #expect(!ConstantTime.equals("secret-token", "secret-tokeN"))
        #expect(!ConstantTime.equals("secret-token", "secret-toke"))
        #expect(!ConstantTime.equals("secret-toke", "secret-token"))
        #expect(!ConstantTime.equals("", "a"))
        #expect(ConstantTime.equals("", ""))
        // A shorter guess padded with NULs must not match.
        #expect(!ConstantTime.equals([1, 2, 0], [1, 2] as [UInt8]))
        #expect(!ConstantTime.equals([1, 2] as [UInt8], [1, 2, 0]))
    }

    @Test func hostAllowListMatchesNamesIgnoringCasePortAndATrailingDot() throws {
        let list = HTTPHostAllowList(["localhost", "127.0.0.1", "[::1]", "My-Mac.local"])
        for host in ["localhost", "LocalHost:8080", "localhost.", "127.0.0.1:1", "[::1]", "[::1]:8080", "my-mac.LOCAL"] {
            #expect(list.allows(try make([("Host", host)])), "\(host)")
        }
        for host in ["", "evil.example", "localhost.evil.example", "127.0.0.1.nip.io", "[::1", "[::1]x", "localhost:80x",
                     "user@localhost", "::1", "127.0.0.2", "localhost..", "my-mac"] {
            #expect(!list.allows(try make([("Host", host)])), "\(host)")
        }
        // HTTP/1.0 without Host names nothing.
        #expect(!list.allows(try make([])))
    }

    /// Requests built in code may still disagree (the decoder refuses that with 400): both checks read
    /// `HTTPRequest.authority`, the target's, so they never read two different hosts.
    @Test func absoluteFormAuthorityWinsOverHost() throws {
        let crossSite = try make([("Host", "evil.example"), ("Origin", "http://evil.example")], target: "http://localhost/api", method: .POST)
        #expect(!HTTPSameOriginCheck.allows(crossSite))
        let sameSite = try make([("Host", "evil.example"), ("Origin", "http://localhost")], target: "http://localhost/api", method: .POST)
        #expect(HTTPSameOriginCheck.allows(sameSite))
        let list = HTTPHostAllowList(["localhost"])
        #expect(list.allows(try make([("Host", "evil.example")], target: "http://localhost:8080/api")))
        #expect(!list.allows(try make([("Host", "localhost")], target: "http://evil.example/api")))
        #expect(!list.allows(try make([("Host", "localhost")], target: "HTTPS://evil.example?x")))
        #expect(HTTPHostAllowList.host(of: try make([], target: "http://LOCALHOST?x")) == "localhost")
    }

    @Test func cookiesAreFoundByExactName() throws {
        let request = try make([("Cookie", "a=1; token=abc;b=2 ; token=\"def\""), ("Cookie", "token=ghi")])
        #expect(request.cookies(named: "token") == ["abc", "def", "ghi"])
        #expect(request.cookies(named: "b") == ["2"])
        #expect(request.cookies(named: "Token") == [])
        #expect(try make([("Cookie", "novalue; =x; token")]).cookies(named: "token") == [])
        #expect(try make([]).cookies(named: "a") == [])
    }

    @Test func bearerTokens() throws {
        #expect(try make([("Authorization", "Bearer abc.def")]).bearerToken == "abc.def")
        #expect(try make([("Authorization", "bearer   abc")]).bearerToken == "abc")
        #expect(try make([("Authorization", "Basic abc")]).bearerToken == nil)
        #expect(try make([("Authorization", "Bearer")]).bearerToken == nil)
        #expect(try make([("Authorization", "Bearer ")]).bearerToken == nil)
        #expect(try make([]).bearerToken == nil)
    }

    @Test func sameOriginCheckGuardsOnlyUnsafeMethods() throws {
        let host = ("Host", "127.0.0.1:8080")
        #expect(HTTPSameOriginCheck.allows(try make([host, ("Origin", "http://evil.example")], method: .GET)))
        #expect(HTTPSameOriginCheck.allows(try make([host], method: .POST)))
        #expect(HTTPSameOriginCheck.allows(try make([host, ("Origin", "http://127.0.0.1:8080")], method: .POST)))
        #expect(HTTPSameOriginCheck.allows(try make([host, ("Sec-Fetch-Site", "same-origin")], method: .PUT)))
        #expect(!HTTPSameOriginCheck.allows(try make([host, ("Origin", "http://127.0.0.1:8081")], method: .POST)))
        #expect(!HTTPSameOriginCheck.allows(try make([host, ("Origin", "http://evil.example")], method: .POST)))
        #expect(!HTTPSameOriginCheck.allows(try make([host, ("Origin", "null")], method: .DELETE)))
        #expect(!HTTPSameOriginCheck.allows(try make([host, ("Sec-Fetch-Site", "cross-site")], method: .PATCH)))
        #expect(!HTTPSameOriginCheck.allows(try make([host, ("Sec-Fetch-Site", "same-site")], method: .POST)))
        #expect(!HTTPSameOriginCheck.allows(try make([("Origin", "http://127.0.0.1:8080")], method: .POST)))
    }

    @Test func misdirectedRequestHasItsReason() {
        #expect(HTTPStatus(code: 421) == .misdirectedRequest)
        #expect(HTTPStatus.misdirectedRequest.reason == "Misdirected Request")
    }
}
