/// Writes CSV fields and rows as RFC 4180 describes them (https://www.rfc-editor.org/rfc/rfc4180): fields
/// separated by commas, rows ended by CRLF, a field holding a comma, a quote, CR or LF enclosed in quotes with
/// its quotes doubled.
///
/// **Formula neutralisation.** Spreadsheet apps run a cell that starts with `=`, `+`, `-` or `@` (and, in some,
/// a tab or CR) as a formula, so a string from a user's store could run in the reader's spreadsheet
/// (OWASP "CSV injection"). Text cells that start with one of those characters get a leading `'`, which the
/// apps show as text and hide; numbers, dates and IDs are written as they are, so `-3` stays a number.
/// Spreadsheets also trim what comes before a formula and read the full-width forms (`＝ ＋ － ＠`, which an
/// IME types) as the ASCII ones, so a formula character after leading whitespace or control characters
/// (` =1`, `\n=1`, `\u{3000}=1`), and a full-width one, neutralise the cell too.
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

    /// A formula character: the ASCII `= + - @` and their full-width forms (U+FF1D, U+FF0B, U+FF0D, U+FF20).
    static func isFormulaCharacter(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x3D, 0x2B, 0x2D, 0x40, 0xFF1D, 0xFF0B, 0xFF0D, 0xFF20: true
        default: false
        }
    }

    /// What a spreadsheet skips before it looks for a formula: ASCII whitespace and control characters, the
    /// C1 controls, Unicode's spaces (no-break, the U+2000 block, ideographic) and zero-width characters.
    /// Written out rather than asked of `Unicode.Scalar.Properties` so the rule is the same on every OS.
    static func isSkippedBeforeFormula(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x00...0x20, 0x7F...0xA0, 0x1680, 0x2000...0x200F, 0x2028...0x202F, 0x205F...0x2064, 0x3000, 0xFEFF: true
        default: false
        }
    }

    /// Whether a text cell must be neutralised: it starts with a formula character, a tab or a CR (the
    /// original rule), or a formula character follows only characters a spreadsheet skips.
    static func needsNeutralising(_ text: String) -> Bool {
        if let first = text.utf8.first, startsFormula(first) { return true }
        for scalar in text.unicodeScalars {
            if isFormulaCharacter(scalar) { return true }
            if !isSkippedBeforeFormula(scalar) { return false }
        }
        return false
    }

    /// Appends a text cell (a string value, a name): neutralised, then quoted when needed.
    static func appendText(_ text: String, to buffer: inout [UInt8]) {
        let neutralise = needsNeutralising(text)
        var text = text
        text.withUTF8 { bytes in
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
