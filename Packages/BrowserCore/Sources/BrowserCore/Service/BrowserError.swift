/// An error an API request ends with, carrying the HTTP status it is answered with.
///
/// This is the one place that decides statuses: validation and the service throw these, stores throw them for
/// conditions a client caused, and any other error a store throws becomes a 500 (`BrowserError.wrapping`).
public struct BrowserError: Error, Sendable, Hashable, CustomStringConvertible {
    public enum Kind: Sendable, Hashable {
        /// 400: a malformed request or parameter.
        case badRequest
        /// 403: a write to a server or store that does not write (the message says why).
        case forbidden
        /// 404: no such entity, record or path.
        case notFound
        /// 413: a request body larger than the endpoint takes (`RecordFilter.maximumRequestBytes`).
        case payloadTooLarge
        /// 409: a write that would overwrite a change made since the record was read, or that a Deny delete rule
        /// blocks; `details` says which versions or relationships.
        case conflict
        /// 415: a request body that is not of the type the endpoint reads (JSON).
        case unsupportedMediaType
        /// 422: a well-formed write whose values the model does not allow; `details` lists one problem per field.
        case unprocessable
        /// 500: the store failed.
        case storeFailure
        /// 503: the store stopped the request's work at its time budget (`RequestBudget`).
        case unavailable
    }

    public var kind: Kind
    public var message: String
    /// What a client needs beyond the message to show the error where it belongs (fields, versions, what blocks).
    public var details: BrowserErrorDetails?

    public init(_ kind: Kind, _ message: String, details: BrowserErrorDetails? = nil) {
        self.kind = kind
        self.message = message
        self.details = details
    }

    public static func badRequest(_ message: String) -> BrowserError { .init(.badRequest, message) }
    public static func notFound(_ message: String) -> BrowserError { .init(.notFound, message) }
    public static func forbidden(_ message: String) -> BrowserError { .init(.forbidden, message) }
    public static func payloadTooLarge(_ message: String) -> BrowserError { .init(.payloadTooLarge, message) }
    public static func unsupportedMediaType(_ message: String) -> BrowserError { .init(.unsupportedMediaType, message) }
    public static func conflict(_ message: String, _ details: BrowserErrorDetails? = nil) -> BrowserError {
        .init(.conflict, message, details: details)
    }
    /// 422 with one problem per field; the message lists them all.
    public static func invalidFields(_ problems: [FieldProblem]) -> BrowserError {
        .init(.unprocessable, problems.map { "\($0.field): \($0.message)" }.joined(separator: "; "), details: .fields(problems))
    }
    public static func storeFailure(_ message: String) -> BrowserError { .init(.storeFailure, message) }
    public static func unavailable(_ message: String) -> BrowserError { .init(.unavailable, message) }

    /// The HTTP status a request that ends with this error is answered with.
    public var statusCode: Int {
        switch kind {
        case .badRequest: 400
        case .forbidden: 403
        case .notFound: 404
        case .payloadTooLarge: 413
        case .conflict: 409
        case .unsupportedMediaType: 415
        case .unprocessable: 422
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
