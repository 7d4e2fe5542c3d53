import BrowserCore
import BrowserHTTP
import Foundation

/// Turns service results and errors into HTTP responses. The one place where a `BrowserError` becomes a status.
enum JSONResponses {
    static let contentType = "application/json; charset=utf-8"

    static func ok(_ value: some Encodable) -> HTTPResponse {
        do {
            return noStore(.data(try BrowserJSON.encode(value), contentType: contentType))
        } catch {
            return self.error(.internalServerError, "Could not encode the response: \(error)")
        }
    }

    /// Store data never lands in a browser's disk cache (or a proxy's): every JSON answer is `no-store`.
    private static func noStore(_ response: HTTPResponse) -> HTTPResponse {
        var response = response
        response.headers.set("Cache-Control", "no-store")
        return response
    }

    static func failure(_ error: BrowserError) -> HTTPResponse {
        self.error(status(for: error), error.message)
    }

    /// `{"error": "<message>"}`; also renders the HTTP layer's own errors (400, 404, 405, 413, …), so every
    /// error the server sends has the same shape.
    @Sendable static func error(_ status: HTTPStatus, _ message: String) -> HTTPResponse {
        let body = (try? BrowserJSON.encode(["error": message])) ?? Data(#"{"error":"internal error"}"#.utf8)
        return noStore(.data(body, contentType: contentType, status: status))
    }

    static func status(for error: BrowserError) -> HTTPStatus {
        switch error.kind {
        case .badRequest: .badRequest
        case .notFound: .notFound
        case .methodNotAllowed: .methodNotAllowed
        case .storeFailure: .internalServerError
        case .unavailable: .serviceUnavailable
        }
    }
}
