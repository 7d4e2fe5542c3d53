import BrowserHTTPTesting
import Testing

/// One request on a fresh connection to 127.0.0.1:`port`, its `headers` as raw lines, and the answer's head: what the
/// header and token tests send when they need exact bytes rather than `HTTPTestClient`'s defaults.
func rawHead(_ method: String, _ target: String, headers: [String], port: UInt16) async throws -> RawHTTPClient.Response {
    let connection = try RawHTTPClient(port: port)
    let lines = ["\(method) \(target) HTTP/1.1", "Host: 127.0.0.1", "Connection: close"] + headers
    connection.send(lines.joined(separator: "\r\n") + "\r\n\r\n")
    return try #require(await connection.readHead(), "no answer to \(method) \(target)")
}
