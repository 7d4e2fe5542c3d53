import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// A real HTTP client (URLSession) against a server on 127.0.0.1, with helpers that decode JSON.
struct TestClient {
    let base: URL

    struct Reply {
        let status: Int
        let headers: [String: String]
        let body: Data

        func json() throws -> Any { try JSONSerialization.jsonObject(with: body, options: [.fragmentsAllowed]) }
        func object() throws -> [String: Any] { try #require(try json() as? [String: Any]) }
        func array() throws -> [[String: Any]] { try #require(try json() as? [[String: Any]]) }
        func header(_ name: String) -> String? {
            headers.first { $0.key.caseInsensitiveCompare(name) == .orderedSame }?.value
        }
    }

    func request(_ pathAndQuery: String, method: String = "GET", headers extra: [String: String] = [:],
                 body: Data? = nil) async throws -> Reply {
        var request = URLRequest(url: try #require(URL(string: base.absoluteString + pathAndQuery)))
        request.httpMethod = method
        request.httpBody = body
        for (name, value) in extra { request.setValue(value, forHTTPHeaderField: name) }
        request.cachePolicy = .reloadIgnoringLocalAndRemoteCacheData
        let (data, response) = try await URLSession.shared.data(for: request)
        let http = try #require(response as? HTTPURLResponse)
        var headers: [String: String] = [:]
        for (key, value) in http.allHeaderFields {
            if let key = key as? String, let value = value as? String { headers[key] = value }
        }
        return Reply(status: http.statusCode, headers: headers, body: data)
    }

    func get(_ pathAndQuery: String) async throws -> Reply { try await request(pathAndQuery) }

    /// Percent-encodes a query value (everything but unreserved characters).
    static func encode(_ value: String) -> String {
        value.addingPercentEncoding(withAllowedCharacters: .alphanumerics.union(CharacterSet(charactersIn: "-._~"))) ?? value
    }
}

import Testing
