/// An error an API request ends with, carrying the HTTP status it is answered with.
///
/// This is the one place that decides statuses: validation and the service throw these, stores throw them for
/// conditions a client caused, and any other error a store throws becomes a 500 (`BrowserError.wrapping`).
public struct BrowserError: Error, Sendable, Hashable, CustomStringConvertible {
    public enum Kind: Sendable, Hashable {
        /// 400: a malformed request or parameter.
        case badRequest
        /// 404: no such entity, record or path.
        case notFound
        /// 413: a request body larger than the endpoint takes (`RecordFilter.maximumRequestBytes`).
        case payloadTooLarge
        /// 415: a request body that is not of the type the endpoint reads (JSON).
        case unsupportedMediaType
        /// 500: the store failed.
        case storeFailure
        /// 503: the store stopped the request's work at its time budget (`RequestBudget`).
        case unavailable
    }

    public var kind: Kind
    public var message: String

    public init(_ kind: Kind, _ message: String) {
        self.kind = kind
        self.message = message
    }

    public static func badRequest(_ message: String) -> BrowserError { .init(.badRequest, message) }
    public static func notFound(_ message: String) -> BrowserError { .init(.notFound, message) }
    public static func payloadTooLarge(_ message: String) -> BrowserError { .init(.payloadTooLarge, message) }
    public static func unsupportedMediaType(_ message: String) -> BrowserError { .init(.unsupportedMediaType, message) }
    public static func storeFailure(_ message: String) -> BrowserError { .init(.storeFailure, message) }
    public static func unavailable(_ message: String) -> BrowserError { .init(.unavailable, message) }

    /// The HTTP status a request that ends with this error is answered with.
    public var statusCode: Int {
        switch kind {
        case .badRequest: 400
        case .notFound: 404
        case .payloadTooLarge: 413
        case .unsupportedMediaType: 415
        case .storeFailure: 500
        case .unavailable: 503
        }
    }

    public var description: String { message }

    /// A `BrowserError` as it is, anything else as a store failure with its description.
    public static func wrapping(_ error: any Error) -> BrowserError {
        if let error = error as? BrowserError { return error }
        return .storeFailure(String(describing: error))
    }
}
