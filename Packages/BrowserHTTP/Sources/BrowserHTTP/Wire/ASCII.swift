/// Byte classes from the HTTP grammar (RFC 9110 §5.6.2, RFC 5234 appendix B).
/// Parsing works on bytes, not Characters, because the wire format is defined in
/// octets and grapheme clustering would, e.g., merge "\r\n" into one Character.
enum ASCII {
    static let cr: UInt8 = 0x0D
    static let lf: UInt8 = 0x0A
    static let space: UInt8 = 0x20
    static let tab: UInt8 = 0x09
    static let colon: UInt8 = 0x3A
    static let percent: UInt8 = 0x25
    static let plus: UInt8 = 0x2B
    static let slash: UInt8 = 0x2F
    static let questionMark: UInt8 = 0x3F
    static let ampersand: UInt8 = 0x26
    static let comma: UInt8 = 0x2C
    static let semicolon: UInt8 = 0x3B
    static let equals: UInt8 = 0x3D
    static let hash: UInt8 = 0x23

    static func lowercased(_ byte: UInt8) -> UInt8 {
        (0x41...0x5A).contains(byte) ? byte + 0x20 : byte
    }

    static func isDigit(_ byte: UInt8) -> Bool { (0x30...0x39).contains(byte) }

    /// tchar = "!" / "#" / "$" / "%" / "&" / "'" / "*" / "+" / "-" / "." /
    ///         "^" / "_" / "`" / "|" / "~" / DIGIT / ALPHA   (RFC 9110 §5.6.2)
    /// The first index of `byte` in `bytes`: a plain loop, fast even in an unoptimized build, where the generic
    /// `firstIndex(of:)` costs far more per byte (the decoder scans header bytes before anyone has shown the token).
    static func firstIndex(of byte: UInt8, in bytes: UnsafeBufferPointer<UInt8>) -> Int? {
        var index = 0
        while index < bytes.count {
            if bytes[index] == byte { return index }
            index += 1
        }
        return nil
    }

    static func isTokenChar(_ byte: UInt8) -> Bool {
        switch byte {
        case 0x30...0x39, 0x41...0x5A, 0x61...0x7A: return true
        case UInt8(ascii: "!"), UInt8(ascii: "#"), UInt8(ascii: "$"), UInt8(ascii: "%"),
            UInt8(ascii: "&"), UInt8(ascii: "'"), UInt8(ascii: "*"), UInt8(ascii: "+"),
            UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "^"), UInt8(ascii: "_"),
            UInt8(ascii: "`"), UInt8(ascii: "|"), UInt8(ascii: "~"):
            return true
        default: return false
        }
    }

    static func isToken<C: Collection<UInt8>>(_ bytes: C) -> Bool {
        !bytes.isEmpty && bytes.allSatisfy(isTokenChar)
    }

    /// Control characters (including NUL and DEL) — forbidden in the request line and,
    /// except HTAB, in field values, because they enable request smuggling and
    /// response splitting (RFC 9110 §5.5).
    static func isControl(_ byte: UInt8) -> Bool { byte < 0x20 || byte == 0x7F }

    static func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case 0x30...0x39: return byte - 0x30
        case 0x41...0x46: return byte - 0x41 + 10
        case 0x61...0x66: return byte - 0x61 + 10
        default: return nil
        }
    }

    /// Decodes bytes as UTF-8, returning nil instead of inserting U+FFFD when invalid.
    /// `String(validating:)` would do this but needs macOS 15; re-encoding and comparing
    /// works on every deployment target.
    static func strictUTF8<C: Collection<UInt8>>(_ bytes: C) -> String? {
        let string = String(decoding: bytes, as: UTF8.self)
        return string.utf8.elementsEqual(bytes) ? string : nil
    }
}
