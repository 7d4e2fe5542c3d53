/// Percent-decoding (RFC 3986 §2.1) of path segments and query components.
enum PercentDecoding {
    /// Decodes `%XX` escapes and interprets the result as UTF-8.
    ///
    /// - Parameter plusAsSpace: `+` means space in `application/x-www-form-urlencoded`
    ///   query strings (what browsers produce for forms), but is a literal `+` in paths.
    /// - Throws: `.invalidPercentEncoding` for `%` not followed by two hex digits,
    ///   `.invalidUTF8` if the decoded bytes are not UTF-8. Never substitutes U+FFFD:
    ///   silently altering a name would make lookups hit the wrong object.
    static func decode<C: Collection<UInt8>>(_ bytes: C, plusAsSpace: Bool) throws(HTTPParseError)
        -> String
    {
        // Fast path: nothing to decode; still validate UTF-8 (raw bytes may be non-ASCII).
        if !bytes.contains(where: { $0 == ASCII.percent || (plusAsSpace && $0 == ASCII.plus) }) {
            guard let string = ASCII.strictUTF8(bytes) else { throw .invalidUTF8 }
            return string
        }
        var output: [UInt8] = []
        output.reserveCapacity(bytes.count)
        var index = bytes.startIndex
        while index != bytes.endIndex {
            let byte = bytes[index]
            if byte == ASCII.percent {
                let high = bytes.index(after: index)
                guard high != bytes.endIndex, let highValue = ASCII.hexValue(bytes[high]) else {
                    throw .invalidPercentEncoding
                }
                let low = bytes.index(after: high)
                guard low != bytes.endIndex, let lowValue = ASCII.hexValue(bytes[low]) else {
                    throw .invalidPercentEncoding
                }
                output.append(highValue << 4 | lowValue)
                index = bytes.index(after: low)
            } else {
                output.append(plusAsSpace && byte == ASCII.plus ? ASCII.space : byte)
                index = bytes.index(after: index)
            }
        }
        guard let string = ASCII.strictUTF8(output) else { throw .invalidUTF8 }
        return string
    }
}
