public import Foundation

/// Where a Binary or Transformable value's bytes are kept.
public enum BlobStorage: Sendable, Equatable {
    /// In the store's row.
    case inline
    /// In a file beside the store (Core Data's "Allows External Storage": `.<store>_SUPPORT/_EXTERNAL_DATA/`).
    case external(fileName: String)
}

/// The raw bytes of one Binary or Transformable value, read piece by piece, so a large value is never held in
/// memory whole on its way to a client.
public protocol BlobReader: Sendable {
    var size: Int { get }
    var storage: BlobStorage { get }
    /// The bytes in `range`, which lies within `0..<size`.
    func read(_ range: Range<Int>) async throws -> Data
}

/// What a store has for one attribute of one record.
public enum BlobLookup: Sendable {
    /// The store has no such record.
    case noRecord
    /// The record's value is nil.
    case noValue
    case value(any BlobReader)
}

/// A value already in memory: the in-memory store's, and the live adapter's (Core Data hands over `Data`).
public struct InMemoryBlob: BlobReader {
    public let data: Data
    public let storage: BlobStorage

    public init(_ data: Data, storage: BlobStorage = .inline) {
        self.data = data
        self.storage = storage
    }

    public var size: Int { data.count }

    public func read(_ range: Range<Int>) async throws -> Data {
        let clamped = range.clamped(to: 0..<data.count)
        return data.subdata(in: (data.startIndex + clamped.lowerBound)..<(data.startIndex + clamped.upperBound))
    }
}
