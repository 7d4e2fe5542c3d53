public import Foundation

/// A decoded attribute value, neutral of where it came from (a live context, a store file, memory).
///
/// Every adapter produces these and BrowserCore alone turns them into JSON (see `encode(to:)`), so the same
/// data gives the same JSON whichever adapter read it.
public enum AttributeValue: Sendable, Hashable {
    case null
    case string(String)
    /// `Integer 16`, `Integer 32`, `Integer 64`.
    case integer(Int64)
    case double(Double)
    /// Kept apart from `double` so `0.1` as a Float is sent as `0.1`, not `0.10000000149011612`.
    case float(Float)
    case decimal(Decimal)
    case boolean(Bool)
    case date(Date)
    case uuid(UUID)
    case uri(String)
    /// `Binary` and `Transformable`: only the payload's size is ever sent.
    case binary(byteCount: Int)
    /// A stored value the adapter could not decode; the message says why. The rest of the record still renders.
    case undecodable(String)
    /// The start of a text value too long for a list (`ValuePreview`): at most the preview's bytes, cut at a
    /// Unicode scalar, and the whole value's length in bytes of UTF-8. The whole value is the record's detail.
    case truncatedText(prefix: String, byteCount: Int)

    /// The text `CONTAINS[cd]` search looks at, or `nil` for values that are not text.
    public var searchableText: String? {
        if case .string(let text) = self { return text }
        return nil
    }
}

extension AttributeValue: Encodable {
    /// The largest integer JavaScript's `Number` holds exactly (2^53 − 1). Integers beyond it are sent as strings.
    public static let maxExactJavaScriptInteger: Int64 = 9_007_199_254_740_991

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        switch self {
        case .null:
            try container.encodeNil()
        case .string(let text), .uri(let text):
            try container.encode(text)
        case .integer(let number):
            if Self.isBeyondJavaScriptPrecision(number) {
                try container.encode(String(number))
            } else {
                try container.encode(number)
            }
        case .double(let number):
            if let word = Self.nonFiniteWord(number) { try container.encode(word) } else { try container.encode(number) }
        case .float(let number):
            if let word = Self.nonFiniteWord(Double(number)) { try container.encode(word) } else { try container.encode(number) }
        case .decimal(let number):
            // A string keeps every digit; a JSON number would go through Double in most clients.
            try container.encode(number.isNaN ? "NaN" : number.description)
        case .boolean(let flag):
            try container.encode(flag)
        case .date(let date):
            try container.encode(ISO8601Timestamp.string(from: date))
        case .uuid(let uuid):
            try container.encode(uuid.uuidString)
        case .binary(let byteCount):
            try container.encode(TaggedValue(type: "binary", bytes: byteCount, message: nil))
        case .undecodable(let message):
            try container.encode(TaggedValue(type: "error", bytes: nil, message: message))
        case .truncatedText(let prefix, let byteCount):
            try container.encode(TruncatedText(bytes: byteCount, preview: prefix))
        }
    }

    private static func isBeyondJavaScriptPrecision(_ number: Int64) -> Bool {
        number > maxExactJavaScriptInteger || number < -maxExactJavaScriptInteger
    }

    /// JSONEncoder refuses non-finite numbers and would fail the whole response; they go out as words.
    private static func nonFiniteWord(_ number: Double) -> String? {
        if number.isNaN { return "NaN" }
        if number == .infinity { return "Infinity" }
        if number == -.infinity { return "-Infinity" }
        return nil
    }

    /// `{"type":"binary","bytes":N}` and `{"type":"error","message":"…"}`.
    private struct TaggedValue: Encodable {
        let type: String
        let bytes: Int?
        let message: String?
    }

    /// `{"bytes":N,"preview":"…","truncated":true,"type":"text"}`.
    private struct TruncatedText: Encodable {
        let bytes: Int
        let preview: String
        let truncated = true
        let type = "text"
    }
}

/// The same rules as `encode(to:)`, written straight as bytes (a records page holds thousands of values).
extension AttributeValue: JSONWritable {
    func writeJSON(into json: inout JSONBytes) {
        switch self {
        case .null:
            json.appendNull()
        case .string(let text), .uri(let text):
            json.appendString(text)
        case .integer(let number):
            if Self.isBeyondJavaScriptPrecision(number) {
                json.appendQuoted { DecimalText.appendInteger(number, to: &$0) }
            } else {
                json.appendInteger(number)
            }
        case .double(let number):
            if let word = Self.nonFiniteWord(number) { json.appendString(word) } else { json.appendNumber(number) }
        case .float(let number):
            if let word = Self.nonFiniteWord(Double(number)) { json.appendString(word) } else { json.appendNumber(number) }
        case .decimal(let number):
            // `DecimalValueText` writes `description` (and `NaN`) without a String: digits, `-`, `.`, no escapes.
            json.appendQuoted { DecimalValueText.append(number, to: &$0) }
        case .boolean(let flag):
            json.appendBool(flag)
        case .date(let date):
            json.appendQuoted { ISO8601Timestamp.append(date, to: &$0) }
        case .uuid(let uuid):
            json.appendQuoted { UUIDText.append(uuid, to: &$0) }
        case .binary(let byteCount):
            json.beginObject()
            json.appendMember("bytes", byteCount)
            json.appendMember("type", "binary")
            json.endObject()
        case .undecodable(let message):
            json.beginObject()
            json.appendMember("message", message)
            json.appendMember("type", "error")
            json.endObject()
        case .truncatedText(let prefix, let byteCount):
            json.beginObject()
            json.appendMember("bytes", byteCount)
            json.appendMember("preview", prefix)
            json.appendMember("truncated", true)
            json.appendMember("type", "text")
            json.endObject()
        }
    }
}
