import BrowserCore
import BrowserHTTP
import Foundation

/// How the bytes of a Binary or Transformable value are served (`GET /api/object/blob`): whole or one `Range`,
/// streamed from the store in pieces, and never in a way that lets a browser run them on our origin.
///
/// Safe by construction: only a raster image whose header really parsed (`ContentReport.mimeType`) gets its
/// own `Content-Type` and is shown inline; everything else is `application/octet-stream` with
/// `Content-Disposition: attachment`. Every answer carries `Content-Security-Policy: sandbox` (a document
/// opened from it runs no script and has an opaque origin) and, like every answer, `nosniff`.
enum BlobResponses {
    /// The bytes read from the store per piece sent.
    static let pieceSize = 64 * 1024

    static func response(
        _ reader: any BlobReader, request: HTTPRequest, mimeType: String?, filename: String
    ) -> HTTPResponse {
        let size = reader.size
        let range = HTTPByteRange(header: request.headers[HTTPHeaderName.range], length: size)
        var response: HTTPResponse
        switch range {
        case .unsatisfiable:
            response = JSONResponses.error(
                .rangeNotSatisfiable, "The range \(request.headers[HTTPHeaderName.range] ?? "") is outside the value's \(size) bytes")
        case .whole, .partial:
            let bytes: Range<Int> = if case .partial(let part) = range { part } else { 0..<size }
            response = .stream(
                BlobBodyProducer(reader: reader, range: bytes), length: bytes.count,
                contentType: mimeType ?? "application/octet-stream",
                status: range == .whole ? .ok : .partialContent)
            // The value's file name goes with its bytes only: a 416's JSON error is no such file.
            let disposition = BrowserRoutes.attachment(filename: filename)
            response.headers.set(
                HTTPHeaderName.contentDisposition,
                mimeType == nil ? disposition : "inline" + disposition.dropFirst("attachment".count))
        }
        if let contentRange = range.contentRange(length: size) {
            response.headers.set(HTTPHeaderName.contentRange, contentRange)
        }
        response.headers.set(HTTPHeaderName.acceptRanges, "bytes")
        response.headers.set(HTTPHeaderName.contentSecurityPolicy, "sandbox")
        return response
    }
}

/// Reads one range of a value from the store, a piece at a time, as the HTTP layer asks for them.
actor BlobBodyProducer: HTTPBodyProducer {
    private let reader: any BlobReader
    private var next: Int
    private let end: Int

    init(reader: any BlobReader, range: Range<Int>) {
        self.reader = reader
        self.next = range.lowerBound
        self.end = range.upperBound
    }

    func nextChunk() async throws -> Data? {
        guard next < end else { return nil }
        let piece = next..<min(end, next + BlobResponses.pieceSize)
        let data = try await reader.read(piece)
        // A value that shrank while it was sent (the app saved meanwhile): stop rather than loop.
        guard !data.isEmpty else { throw BrowserError.notFound("The value changed while it was being read") }
        next += data.count
        return data
    }
}
