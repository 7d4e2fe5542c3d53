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
