public import BrowserCore
public import Foundation

/// One Binary or Transformable value of a store file, read piece by piece: inline values through the store's
/// queue with SQLite's incremental blob I/O, external ones from their file. Each read is its own short read
/// transaction, so a slow download never holds the store.
public struct SQLiteBlob: BlobReader {
    let store: SQLiteStore
    let location: BlobLocation

    public var size: Int { location.size }

    public var storage: BlobStorage {
        if case .file(_, let name) = location.place { return .external(fileName: name) }
        return .inline
    }

    public func read(_ range: Range<Int>) async throws -> Data {
        let range = range.clamped(to: 0..<size)
        guard !range.isEmpty else { return Data() }
        switch location.place {
        case .column:
            return Data(try await store.readBytes(of: location.place, offset: range.lowerBound, count: range.count))
        case .file(let path, let name):
            // Only a regular file: a FIFO put in its place would block the open, and the request with it.
            do {
                return Data(try RegularFile(opening: path).read(at: range.lowerBound, count: range.count))
            } catch {
                throw BrowserError.notFound("The external data file \(name) can no longer be read: \(error)")
            }
        }
    }
}
