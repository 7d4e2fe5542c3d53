import BrowserCore
import CSQLite
import Foundation

/// Turns a stored SQLite value into BrowserCore's `AttributeValue` by the attribute's Core Data type (format doc
/// §7). A value whose storage class does not fit the type becomes `.undecodable` with the reason; the rest of the
/// record still renders. NULL is nil for every type.
struct ValueDecoder: Sendable {
    /// Where external binary values live (`.<store>_SUPPORT/_EXTERNAL_DATA`).
    var externalDataDirectory: String

    /// The value of a column of the statement's current row. Text and binary values are read from SQLite's own
    /// buffer: a string is decoded once (no intermediate array), and a binary value is only measured and its
    /// marker read (a list shows its size; its bytes are served by `BlobReading`).
    func decode(_ statement: SQLiteStatement, column: Int32, as attribute: AttributeMapping) -> AttributeValue {
        decode(statement, column: column, kind: attribute.kind, allowsExternalStorage: attribute.allowsExternalStorage)
    }

    /// `decode(_:column:as:)` by what it looks at of the attribute: an export's row loop passes these plain values
    /// rather than copying an `AttributeMapping` (and retaining its strings) per value.
    func decode(_ statement: SQLiteStatement, column: Int32, kind: AttributeKind, allowsExternalStorage: Bool) -> AttributeValue {
        switch (kind, statement.storageClass(at: column)) {
        case (.string, SQLITE_TEXT):
            return statement.withBytes(at: column) { bytes in
                decodeUTF8(lent: bytes).map(AttributeValue.string) ?? .undecodable("invalid UTF-8 in text of \(bytes.count) bytes")
            }
        case (.uuid, SQLITE_BLOB):
            // Read in place: a UUID column of a million rows would otherwise copy each value into an array first.
            return statement.withBytes(at: column) { bytes in
                guard bytes.count == 16 else { return Self.wrongUUIDSize(bytes.count) }
                return .uuid(UUID(uuid: bytes.loadUnaligned(as: uuid_t.self)))
            }
        case (.binary, SQLITE_BLOB), (.transformable, SQLITE_BLOB):
            return statement.withBytes(at: column) { bytes in
                allowsExternalStorage
                    ? externallyStorable(head: bytes.prefix(ExternalStorageMarker.headLength), count: bytes.count)
                    : .binary(byteCount: bytes.count)
            }
        default:
            return decode(statement.value(at: column), kind: kind, allowsExternalStorage: allowsExternalStorage)
        }
    }

    func decode(_ value: SQLiteValue, as attribute: AttributeMapping) -> AttributeValue {
        decode(value, kind: attribute.kind, allowsExternalStorage: attribute.allowsExternalStorage)
    }

    private func decode(_ value: SQLiteValue, kind: AttributeKind, allowsExternalStorage: Bool) -> AttributeValue {
        if case .null = value { return .null }
        switch kind {
        case .integer16, .integer32, .integer64:
            guard case .integer(let number) = value else { return mismatch(value, "an integer") }
            return .integer(number)
        case .boolean:
            guard case .integer(let number) = value else { return mismatch(value, "a Boolean (0 or 1)") }
            return .boolean(number != 0)
        case .double:
            switch value {
            case .real(let number): return .double(number)
            case .integer(let number): return .double(Double(number))
            default: return mismatch(value, "a Double")
            }
        case .float:
            switch value {
            case .real(let number): return .float(Float(number))
            case .integer(let number): return .float(Float(number))
            default: return mismatch(value, "a Float")
            }
        case .decimal:
            return decimal(value)
        case .date:
            return Self.referenceDate(value).map(AttributeValue.date) ?? mismatch(value, "a date (seconds since 2001)")
        case .string:
            guard case .text(let bytes) = value else { return mismatch(value, "text") }
            guard let text = decodeUTF8(bytes) else {
                return .undecodable("invalid UTF-8 in text of \(bytes.count) bytes")
            }
            return .string(text)
        case .uri:
            guard case .text(let bytes) = value else { return mismatch(value, "a URI string") }
            guard let text = decodeUTF8(bytes) else { return .undecodable("invalid UTF-8 in URI of \(bytes.count) bytes") }
            return .uri(text)
        case .uuid:
            guard case .blob(let bytes) = value else { return mismatch(value, "a 16-byte UUID") }
            guard bytes.count == 16 else { return Self.wrongUUIDSize(bytes.count) }
            return .uuid(UUID(uuid: (bytes[0], bytes[1], bytes[2], bytes[3], bytes[4], bytes[5], bytes[6], bytes[7],
                                     bytes[8], bytes[9], bytes[10], bytes[11], bytes[12], bytes[13], bytes[14], bytes[15])))
        case .binary, .transformable:
            guard case .blob(let bytes) = value else { return mismatch(value, "binary data") }
            return allowsExternalStorage
                ? externallyStorable(head: bytes.prefix(ExternalStorageMarker.headLength), count: bytes.count)
                : .binary(byteCount: bytes.count)
        default:
            // Undefined or unknown types: shown as stored.
            return Self.asStored(value)
        }
    }

    /// A value read by its storage class alone, for a column whose type says nothing (an unknown attribute type,
    /// a history tombstone): integers, reals, text as they are, a blob as its size.
    static func asStored(_ value: SQLiteValue) -> AttributeValue {
        switch value {
        case .integer(let number): return .integer(number)
        case .real(let number): return .double(number)
        case .text(let bytes): return decodeUTF8(bytes).map(AttributeValue.string) ?? .undecodable("invalid UTF-8 in text of \(bytes.count) bytes")
        case .blob(let bytes): return .binary(byteCount: bytes.count)
        case .null: return .null
        }
    }

    /// Core Data's dates: seconds since 2001-01-01 00:00:00 UTC, REAL or (whole seconds) INTEGER; nil for anything
    /// else, a non-finite REAL included.
    static func referenceDate(_ value: SQLiteValue) -> Date? {
        switch value {
        case .real(let seconds) where seconds.isFinite: return Date(timeIntervalSinceReferenceDate: seconds)
        case .integer(let seconds): return Date(timeIntervalSinceReferenceDate: TimeInterval(seconds))
        default: return nil
        }
    }

    private static func wrongUUIDSize(_ count: Int) -> AttributeValue {
        .undecodable("a UUID is 16 bytes, found a BLOB of \(count) bytes")
    }

    private func mismatch(_ value: SQLiteValue, _ expected: String) -> AttributeValue {
        .undecodable("expected \(expected), found \(value.storageClassName) \(Self.preview(value))")
    }

    /// A short rendering of the stored value for messages.
    private static func preview(_ value: SQLiteValue) -> String {
        switch value {
        case .null: return ""
        case .integer(let number): return String(number)
        case .real(let number): return String(number)
        case .text(let bytes):
            guard let text = decodeUTF8(bytes) else { return "(\(bytes.count) bytes, invalid UTF-8)" }
            return "\"" + (text.count > 40 ? String(text.prefix(40)) + "…" : text) + "\""
        case .blob(let bytes): return "(\(bytes.count) bytes)"
        }
    }

    /// Decimal columns have NUMERIC affinity: INTEGER, REAL or TEXT as stored. A REAL is read through its text
    /// with 15 significant digits, trailing zeros dropped (SQLite's own REAL → TEXT rule, what `sqlite3` shows):
    /// every decimal of up to 15 digits survives the trip through a double, so 10.11 reads "10.11" and a price
    /// written as 3.3333333333 reads "3.3333333333" even where the stored double is one unit off
    /// (3.3333333332999993, seen in CoreDataPlus). Core Data reads decimals back through a string too.
    private func decimal(_ value: SQLiteValue) -> AttributeValue {
        switch value {
        case .integer(let number):
            return .decimal(Decimal(number))
        case .real(let number):
            guard number.isFinite else { return .undecodable("a Decimal cannot be \(number)") }
            return Self.decimal(from: Self.decimalNumeral(number)).map(AttributeValue.decimal)
                ?? .undecodable("\(number) does not fit a Decimal")
        case .text(let bytes):
            guard let text = decodeUTF8(bytes), let decimal = Self.decimal(from: text) else {
                return mismatch(value, "a decimal number")
            }
            return .decimal(decimal)
        default:
            return mismatch(value, "a decimal number")
        }
    }

    /// A numeral with the value of `%.15g` of a finite double: Swift's shortest round-trip text when it has at
    /// most 15 significant digits (the same value: two 15-digit decimals are further apart than a double's
    /// rounding, so the one that reads back to the double is the nearest), else C's `%.15g`. Most stored
    /// decimals (prices, amounts) take the fast path.
    static func decimalNumeral(_ number: Double) -> String {
        let shortest = number.description
        var significant = 0
        var leading = true
        for byte in shortest.utf8 {
            if byte == UInt8(ascii: "e") || byte == UInt8(ascii: "E") { break }
            guard byte >= UInt8(ascii: "0"), byte <= UInt8(ascii: "9") else { continue }
            if leading, byte == UInt8(ascii: "0") { continue }
            leading = false
            significant += 1
        }
        // Trailing zeros of "100000.0" count above; they cost a fallback only for values with 16+ digits.
        return significant <= 15 ? shortest : fifteenSignificantDigits(number)
    }

    /// `%.15g` of a finite double, with C's formatter (a Decimal column of a million rows would spend most of an
    /// export in `String(format:)`).
    static func fifteenSignificantDigits(_ number: Double) -> String {
        withUnsafeTemporaryAllocation(of: CChar.self, capacity: 32) { buffer in
            let length = cdb_format_fifteen_significant_digits(number, buffer.baseAddress, 32)
            return String(decoding: UnsafeRawBufferPointer(start: buffer.baseAddress, count: Int(max(0, min(length, 31))))
                .bindMemory(to: UInt8.self), as: UTF8.self)
        }
    }

    /// Parses a plain or exponent decimal numeral (`[+-]digits[.digits][e[+-]digits]`, at least one digit before
    /// the exponent); nil for anything else (Decimal(string:) would accept a numeral's prefix, "12abc").
    /// Numerals of up to 19 digits with a small exponent (every `%.15g`) are built directly; longer ones go
    /// through Decimal(string:).
    static func decimal(from text: String) -> Decimal? {
        var digits: UInt64 = 0
        var digitCount = 0
        var fractionDigits = 0
        var negative = false
        var exponent = 0
        var index = text.utf8.startIndex
        let bytes = text.utf8
        if index < bytes.endIndex, bytes[index] == UInt8(ascii: "+") || bytes[index] == UInt8(ascii: "-") {
            negative = bytes[index] == UInt8(ascii: "-")
            index = bytes.index(after: index)
        }
        var seenPoint = false
        var fitsDirectly = true
        while index < bytes.endIndex {
            let byte = bytes[index]
            if byte >= UInt8(ascii: "0"), byte <= UInt8(ascii: "9") {
                digitCount += 1
                if seenPoint { fractionDigits += 1 }
                let (times10, overflow1) = digits.multipliedReportingOverflow(by: 10)
                let (sum, overflow2) = times10.addingReportingOverflow(UInt64(byte - UInt8(ascii: "0")))
                if overflow1 || overflow2 { fitsDirectly = false } else { digits = sum }
            } else if byte == UInt8(ascii: "."), !seenPoint {
                seenPoint = true
            } else {
                break
            }
            index = bytes.index(after: index)
        }
        guard digitCount > 0 else { return nil }
        if index < bytes.endIndex {
            guard bytes[index] == UInt8(ascii: "e") || bytes[index] == UInt8(ascii: "E") else { return nil }
            index = bytes.index(after: index)
            var exponentNegative = false
            if index < bytes.endIndex, bytes[index] == UInt8(ascii: "+") || bytes[index] == UInt8(ascii: "-") {
                exponentNegative = bytes[index] == UInt8(ascii: "-")
                index = bytes.index(after: index)
            }
            var exponentDigits = 0
            while index < bytes.endIndex, bytes[index] >= UInt8(ascii: "0"), bytes[index] <= UInt8(ascii: "9") {
                if exponent < 100_000 { exponent = exponent * 10 + Int(bytes[index] - UInt8(ascii: "0")) }
                exponentDigits += 1
                index = bytes.index(after: index)
            }
            guard exponentDigits > 0, index == bytes.endIndex else { return nil }
            if exponentNegative { exponent = -exponent }
        }
        let scale = exponent - fractionDigits
        if fitsDirectly, (-100...100).contains(scale) {
            return Decimal(sign: negative ? .minus : .plus, exponent: scale, significand: Decimal(digits))
        }
        guard let decimal = Decimal(string: text, locale: Self.posix), !decimal.isNaN else { return nil }
        return decimal
    }

    private static let posix = Locale(identifier: "en_US_POSIX")

    /// A value of an attribute that allows external storage starts with a marker (`ExternalStorageMarker`). The
    /// size reported is the payload's, never the marker's.
    /// The size of a value of an attribute that allows external storage, from its first bytes and its length.
    private func externallyStorable(head: some Collection<UInt8>, count: Int) -> AttributeValue {
        switch ExternalStorageMarker(head: head) {
        case .inline(let offset):
            return .binary(byteCount: max(0, count - offset))
        case .external(let name):
            let file = (externalDataDirectory as NSString).appendingPathComponent(name)
            guard let attributes = try? FileManager.default.attributesOfItem(atPath: file),
                  let size = (attributes[.size] as? NSNumber)?.intValue
            else {
                return .undecodable("external data file \(name) is missing from \(externalDataDirectory)")
            }
            return .binary(byteCount: size)
        case .unreadable(let reason):
            return .undecodable(reason)
        }
    }
}
