import Foundation
import Testing

@testable import BrowserHTTP

struct HTTPHeadersTests {
    @Test func caseInsensitiveOrderedOperations() {
        var headers: HTTPHeaders = ["Content-Type": "text/plain", "X-A": "1"]
        headers.add("x-a", "2")
        #expect(headers["content-type"] == "text/plain")
        #expect(headers.values(for: "X-A") == ["1", "2"])
        headers.set("X-a", "3")
        #expect(headers.values(for: "x-a") == ["3"])
        #expect(headers.map(\.name) == ["Content-Type", "X-A"])
        headers.remove("CONTENT-TYPE")
        #expect(headers["Content-Type"] == nil)
        headers["New"] = "n"
        #expect(headers.map(\.value) == ["3", "n"])
        headers["new"] = nil
        #expect(headers.count == 1)
    }

    @Test func queryStandalone() throws {
        let query = try HTTPQuery(decoding: "a=1+2&b=%E2%9C%93&a=3")
        #expect(query["a"] == "1 2")
        #expect(query["b"] == "✓")
        #expect(query.values("a") == ["1 2", "3"])
        #expect(throws: HTTPParseError.invalidPercentEncoding) { try HTTPQuery(decoding: "a=%G1") }
    }
}
