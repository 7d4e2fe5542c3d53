/// Writes CSV fields and rows as RFC 4180 describes them (https://www.rfc-editor.org/rfc/rfc4180): fields
/// separated by commas, rows ended by CRLF, a field holding a comma, a quote, CR or LF enclosed in quotes with
/// its quotes doubled.
///
/// **Formula neutralisation.** Spreadsheet apps run a cell that starts with `=`, `+`, `-` or `@` (and, in some,
/// a tab or CR) as a formula, so a string from a user's store could run in the reader's spreadsheet
/// (OWASP "CSV injection"). Text cells that start with one of those characters get a leading `'`, which the
/// apps show as text and hide; numbers, dates and IDs are written as they are, so `-3` stays a number.
enum CSVCell {
    static let fieldSeparator = UInt8(ascii: ",")
    static let rowEnd: [UInt8] = [0x0D, 0x0A]

    /// The first characters that make a spreadsheet read a cell as a formula.
    static func startsFormula(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "="), UInt8(ascii: "+"), UInt8(ascii: "-"), UInt8(ascii: "@"), 0x09, 0x0D: true
        default: false
        }
    }

    /// Appends a text cell (a string value, a name): neutralised, then quoted when needed.
    static func appendText(_ text: String, to buffer: inout [UInt8]) {
        var text = text
        text.withUTF8 { bytes in
            let neutralise = bytes.first.map(startsFormula) ?? false
            append(bytes, prefix: neutralise ? UInt8(ascii: "'") : nil, to: &buffer)
        }
    }

    /// Appends a cell written as it is (numbers, dates, IDs, base64), quoted only when needed.
    static func appendLiteral(_ text: String, to buffer: inout [UInt8]) {
        var text = text
        text.withUTF8 { append($0, prefix: nil, to: &buffer) }
    }

    /// Whether a field holding these bytes must be quoted: a comma, a quote or a line break.
    static func needsQuotes(_ bytes: some Sequence<UInt8>) -> Bool {
        bytes.contains { $0 == fieldSeparator || $0 == UInt8(ascii: "\"") || $0 == 0x0A || $0 == 0x0D }
    }

    private static func append(_ bytes: UnsafeBufferPointer<UInt8>, prefix: UInt8?, to buffer: inout [UInt8]) {
        let needsQuotes = needsQuotes(bytes)
        if needsQuotes { buffer.append(UInt8(ascii: "\"")) }
        if let prefix { buffer.append(prefix) }
        if needsQuotes {
            for byte in bytes {
                buffer.append(byte)
                if byte == UInt8(ascii: "\"") { buffer.append(byte) }
            }
            buffer.append(UInt8(ascii: "\""))
        } else {
            buffer.append(contentsOf: bytes)
        }
    }
}
