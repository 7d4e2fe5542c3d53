@testable import BrowserHTTP
import BrowserHTTPTesting
import Foundation
import Testing

/// The server's admission hook (`HTTPAdmission`): what a client without credentials can make the server do before
/// it is refused. Real sockets on loopback.
@Suite(.timeLimit(.minutes(2)))
struct AdmissionTests {
    /// Lets in `Authorization: Bearer good` (authenticated) and `Authorization: Bearer guest` (anonymous), refuses
    /// everything else with 401, and records every head it is shown.
    struct BearerAdmission: HTTPAdmission {
        let heads = Locked<[HTTPRequest]>([])

        func admit(_ head: HTTPRequest) -> HTTPAdmissionVerdict {
            heads.withLock { $0.append(head) }
            switch head.bearerToken {
            case "good": return .authenticated
            case "guest": return .anonymous
            default: return .refused(.text("token required", status: .unauthorized))
            }
        }
    }

    static func makeRouter(answered: Locked<Int>) -> HTTPRouter {
        var router = HTTPRouter()
        router.add(.POST, "/echo") { request, _ in
            answered.withLock { $0 += 1 }
            return .text("\(request.body.count) \(request.isAuthenticated)")
        }
        router.add(.GET, "/hello") { request, _ in
            answered.withLock { $0 += 1 }
            return .text("hello \(request.isAuthenticated)")
        }
        return router
    }

    private func withServer(
        admission: BearerAdmission? = BearerAdmission(), limits: HTTPServerLimits = HTTPServerLimits(),
        _ body: (UInt16, Locked<Int>) async throws -> Void
    ) async throws {
        let answered = Locked(0)
        let server = HTTPServer(
            configuration: .init(port: 0, limits: limits, admission: admission), responder: Self.makeRouter(answered: answered))
        let port = try server.start()
        defer { server.stop() }
        try await body(port, answered)
    }

    @Test func aRefusedHeadIsAnsweredBeforeItsBodyWithoutContinue() async throws {
        let admission = BearerAdmission()
        try await withServer(admission: admission) { port, answered in
            // A client waiting for `100 Continue` before its megabyte gets the refusal instead, and the close.
            let waiting = try RawHTTPClient(port: port)
            waiting.send("POST /echo HTTP/1.1\r\nHost: x\r\nExpect: 100-continue\r\nContent-Length: 1048576\r\n\r\n")
            let refused = await waiting.readResponse()
            #expect(refused?.status == 401)
            #expect(refused?.rawText.hasPrefix("HTTP/1.1 401") == true, "no interim 100 Continue first")
            #expect(refused?.header("Connection") == "close")
            #expect(await waiting.waitForClose() == .closed)
            // Without Expect the answer still comes before any body byte is sent: the server never waits for it.
            let eager = try RawHTTPClient(port: port)
            eager.send("POST /echo HTTP/1.1\r\nHost: x\r\nContent-Length: 1048576\r\n\r\n")
            #expect(await eager.readResponse()?.status == 401)
            #expect(await eager.waitForClose() == .closed)
            // The admission saw heads only; no responder ran.
            #expect(admission.heads.withLock { $0.map(\.body.count) } == [0, 0])
            #expect(answered.withLock { $0 } == 0)
        }
    }

    @Test func anAdmittedHeadGetsContinueAndItsBodyIsRead() async throws {
        let admission = BearerAdmission()
        try await withServer(admission: admission) { port, _ in
            let client = try RawHTTPClient(port: port)
            client.send("POST /echo HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer good\r\nExpect: 100-continue\r\nContent-Length: 4\r\n\r\n")
            #expect(await client.readResponse()?.rawText == "HTTP/1.1 100 Continue\r\n\r\n")
            client.send("abcd")
            #expect(await client.readResponse()?.text == "4 true")
            // A body sent with its head: admitted once, on the head, and answered.
            client.send("POST /echo HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer good\r\nContent-Length: 2\r\n\r\nxy")
            #expect(await client.readResponse()?.text == "2 true")
            // A bodiless request is admitted once it is complete; an anonymous one is answered, not authenticated.
            client.send("GET /hello HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer guest\r\n\r\n")
            #expect(await client.readResponse()?.text == "hello false")
            #expect(admission.heads.withLock { $0.count } == 3)
        }
        // Without an admission every request is read, answered and authenticated.
        try await withServer(admission: nil) { port, _ in
            let client = try RawHTTPClient(port: port)
            client.send("GET /hello HTTP/1.1\r\nHost: x\r\n\r\n")
            #expect(await client.readResponse()?.text == "hello true")
        }
    }

    /// The 30 KB `Connection: x,x,…` list and a flood of cookies are refused by the decoder (431), before the
    /// admission sees them; the server goes on serving.
    @Test func plantedListsAndCookieFloodsAreRefusedBeforeAdmission() async throws {
        let admission = BearerAdmission()
        try await withServer(admission: admission) { port, _ in
            let list = Array(repeating: "x", count: 15_000).joined(separator: ",")
            let cookies = (0..<380).map { "cdb_session_1=\($0).AAAAAAAAAAAAAAAAAAAAAA.AAAAAAAAAAAAAAAAAAAAAA" }
                .joined(separator: "; ")
            for header in ["Connection: \(list)", "Cookie: \(cookies)"] {
                let client = try RawHTTPClient(port: port)
                client.send("GET /hello HTTP/1.1\r\nHost: x\r\n\(header)\r\n\r\n")
                let response = await client.readResponse()
                #expect(response?.status == 431)
                #expect(await client.waitForClose() == .closed)
            }
            #expect(admission.heads.withLock { $0.isEmpty })
            let owner = try RawHTTPClient(port: port)
            owner.send("GET /hello HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer good\r\n\r\n")
            #expect(await owner.readResponse()?.text == "hello true")
        }
    }

    /// `POST http://127.0.0.1:…/…` with `Host: evil.example`: the allow-list would read one host, the same-origin
    /// check the other; the server refuses the request before either runs.
    @Test func anAbsoluteFormTargetNamingAnotherHostIsABadRequest() async throws {
        let admission = BearerAdmission()
        try await withServer(admission: admission) { port, _ in
            let client = try RawHTTPClient(port: port)
            client.send("POST http://127.0.0.1:\(port)/echo HTTP/1.1\r\nHost: evil.example\r\nOrigin: http://evil.example\r\n"
                        + "Authorization: Bearer good\r\nContent-Length: 2\r\n\r\nxy")
            let response = await client.readResponse()
            #expect(response?.status == 400)
            #expect(response?.text.contains("Host header differ") == true)
            #expect(admission.heads.withLock { $0.isEmpty })
            let same = try RawHTTPClient(port: port)
            same.send("GET http://127.0.0.1:\(port)/hello HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\nAuthorization: Bearer good\r\n\r\n")
            #expect(await same.readResponse()?.text == "hello true")
        }
    }
}
