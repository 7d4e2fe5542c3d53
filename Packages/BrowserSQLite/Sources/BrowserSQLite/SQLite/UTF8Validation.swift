/// Strict UTF-8 decoding: nil for any ill-formed sequence instead of U+FFFD replacement characters.
///
/// Written out because `String(validating:as:)` needs Swift 6's runtime (macOS 15 / iOS 18) and this package
/// supports macOS 12 / iOS 15.
func decodeUTF8<Bytes: Collection>(_ bytes: Bytes) -> String? where Bytes.Element == UInt8 {
    var iterator = bytes.makeIterator()
    var decoder = UTF8()
    while true {
        switch decoder.decode(&iterator) {
        case .scalarValue: continue
        case .emptyInput: return String(decoding: bytes, as: UTF8.self)
        case .error: return nil
        }
    }
}

/// `decodeUTF8` of bytes lent by SQLite, with a fast path for pure ASCII (most names and titles): checked eight
/// bytes at a time, then decoded without the scalar-by-scalar validation.
func decodeUTF8(lent bytes: UnsafeRawBufferPointer) -> String? {
    var index = 0
    var high: UInt64 = 0
    while index + 8 <= bytes.count {
        high |= bytes.loadUnaligned(fromByteOffset: index, as: UInt64.self)
        index += 8
    }
    while index < bytes.count {
        high |= UInt64(bytes[index])
        index += 1
    }
    if high & 0x8080_8080_8080_8080 == 0 { return String(decoding: bytes, as: UTF8.self) }
    return decodeUTF8(bytes)
}
