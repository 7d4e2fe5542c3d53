import BrowserCore
import BrowserHTTP
import Foundation

/// Turns service results into JSON responses, and renders every error the server sends as `{"error": …}`.
/// Statuses are decided by `BrowserError.statusCode` (BrowserCore); the router renders a thrown error through
/// `errorResponse` below.
enum JSONResponses {
    static let contentType = "application/json; charset=utf-8"

    static func ok(_ value: some Encodable, status: HTTPStatus = .ok) -> HTTPResponse {
        do {
            return .data(try BrowserJSON.encode(value), contentType: contentType, status: status)
        } catch {
            return self.error(.internalServerError, "Could not encode the response: \(error)")
        }
    }

    /// A route's thrown error as the router answers it: a `BrowserError` with the status BrowserCore gave it and
    /// its details beside the message, anything else (which the service never lets out) as a store failure.
    @Sendable static func errorResponse(_ error: any Error) -> HTTPResponse? {
        let error = BrowserError.wrapping(error)
        return body(ErrorBody(error: error.message, details: error.details), status: HTTPStatus(code: error.statusCode))
    }

    /// `{"error": "<message>"}`; also renders the HTTP layer's own errors (400, 404, 405, 413, …), so every
    /// error the server sends has the same shape.
    @Sendable static func error(_ status: HTTPStatus, _ message: String) -> HTTPResponse {
        body(ErrorBody(error: message, details: nil), status: status)
    }

    private static func body(_ body: ErrorBody, status: HTTPStatus) -> HTTPResponse {
        let data = (try? BrowserJSON.encode(body)) ?? Data(#"{"error":"internal error"}"#.utf8)
        return .data(data, contentType: contentType, status: status)
    }

    /// An error's JSON: `error`, and with a write's refusal (docs/API.md "Editing") `fields` (422), `expectedVersion`
    /// and `currentVersion` or `deleted` (409), or `blockedBy` (409, a Deny rule).
    private struct ErrorBody: Encodable {
        let error: String
        let details: BrowserErrorDetails?

        enum Key: String, CodingKey { case error, fields, expectedVersion, currentVersion, deleted, blockedBy }

        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: Key.self)
            try container.encode(error, forKey: .error)
            switch details {
            case nil: break
            case .fields(let problems): try container.encode(problems, forKey: .fields)
            case .versions(let expected, let current):
                try container.encode(expected, forKey: .expectedVersion)
                try container.encode(current, forKey: .currentVersion)
            case .deleted: try container.encode(true, forKey: .deleted)
            case .blockedBy(let relationships): try container.encode(relationships, forKey: .blockedBy)
            }
        }
    }
}

