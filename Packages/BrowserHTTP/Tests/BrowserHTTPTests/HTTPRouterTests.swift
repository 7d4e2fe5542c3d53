import Foundation
import Testing

@testable import BrowserHTTP

struct HTTPRouterTests {
    private func makeRouter() -> HTTPRouter {
        var router = HTTPRouter()
        router.add(.GET, "/") { _, _ in .text("root") }
        router.add(.GET, "/api/entities/:name") { _, parameters in .text("entity \(parameters["name"] ?? "-")") }
        router.add(.GET, "/api/entities/:name/objects/:id") { _, parameters in
            .text("\(parameters["name"] ?? "-")#\(parameters["id"] ?? "-")")
        }
        router.add(.DELETE, "/items/:id") { _, parameters in .text("deleted \(parameters["id"] ?? "-")") }
        router.add(.GET, "/items/:id") { _, parameters in .text("item \(parameters["id"] ?? "-")") }
        router.add(.HEAD, "/explicit-head") { _, _ in HTTPResponse(status: .noContent) }
        router.add(.GET, "/explicit-head") { _, _ in .text("get body") }
        router.add(.GET, "/assets/*path") { _, parameters in .text("asset \(parameters["path"] ?? "-")") }
        router.add(.GET, "/Café Bar") { _, _ in .text("literal") }
        return router
    }

    private func respond(_ method: HTTPMethod, _ target: String) async throws -> HTTPResponse {
        try await makeRouter().respond(to: HTTPRequest(method: method, target: target))
    }

    private func expectText(
        _ method: HTTPMethod, _ target: String, _ expected: String, sourceLocation: SourceLocation = #_sourceLocation
    ) async throws {
        let response = try await respond(method, target)
        #expect(text(response) == expected, sourceLocation: sourceLocation)
    }

    private func expectStatus(
        _ method: HTTPMethod, _ target: String, _ expected: HTTPStatus, sourceLocation: SourceLocation = #_sourceLocation
    ) async throws {
        let response = try await respond(method, target)
        #expect(response.status == expected, sourceLocation: sourceLocation)
    }

    private func text(_ response: HTTPResponse) -> String {
        String(decoding: response.body, as: UTF8.self)
    }

    @Test func capturesAreDecodedPerSegment() async throws {
        try await expectText(.GET, "/", "root")
        try await expectText(.GET, "/api/entities/Book", "entity Book")
        try await expectText(.GET, "/api/entities/Caf%C3%A9%20Bar?x=1", "entity Café Bar")
        // An encoded slash stays inside the capture instead of adding a segment.
        try await expectText(.GET, "/api/entities/a%2Fb", "entity a/b")
        try await expectText(.GET, "/api/entities/Book/objects/p1", "Book#p1")
        try await expectText(.GET, "/Caf%C3%A9%20Bar", "literal")
        try await expectText(.GET, "/assets/css/site.css", "asset css/site.css")
    }

    @Test func notFound() async throws {
        let response = try await respond(.GET, "/nope/x")
        #expect(response.status == .notFound)
        #expect(text(response) == "404 Not Found\nNo route for /nope/x\n")
        #expect(response.headers["Content-Type"] == "text/plain; charset=utf-8")
        try await expectStatus(.GET, "/api/entities", .notFound)
        try await expectStatus(.GET, "/api/entities/Book/", .notFound)
        try await expectStatus(.GET, "/assets", .notFound)
    }

    @Test func methodNotAllowedListsAllowedMethods() async throws {
        let response = try await respond(.POST, "/items/7")
        #expect(response.status == .methodNotAllowed)
        #expect(response.headers["Allow"] == "GET, HEAD, DELETE")
        #expect(text(response) == "405 Method Not Allowed\nMethod POST not allowed for /items/7\n")
        let allow = try await respond(.PUT, "/explicit-head").headers["Allow"]
        #expect(allow == "GET, HEAD")
    }

    @Test func headFallsBackToGetUnlessExplicit() async throws {
        let head = try await respond(.HEAD, "/items/3")
        #expect(head.status == .ok)
        #expect(text(head) == "item 3")  // the server strips the body
        try await expectStatus(.HEAD, "/explicit-head", .noContent)
        try await expectText(.DELETE, "/items/3", "deleted 3")
    }

    @Test func customErrorRenderer() async throws {
        var router = HTTPRouter { status, message in
            .data(Data("{\"error\":\"\(message)\"}".utf8), contentType: "application/json", status: status)
        }
        router.add(.GET, "/a") { _, _ in .text("a") }
        let response = await router.respond(to: try HTTPRequest(method: .GET, target: "/b"))
        #expect(response.status.code == 404)
        #expect(text(response) == "{\"error\":\"No route for /b\"}")
        #expect(response.headers["content-type"] == "application/json")
    }
}
