public import Foundation

/// The one JSON encoding every response uses: sorted keys (stable output, diffable exports), slashes unescaped
/// (IDs stay readable). Values are already reduced to JSON-safe forms by `AttributeValue`.
///
/// The hot response types (`JSONWritable`) write the same bytes themselves; the rest go through `JSONEncoder`.
public enum BrowserJSON {
    public static func encode(_ value: some Encodable) throws -> Data {
        if let writable = value as? any JSONWritable { return writable.jsonData }
        // A new encoder per call: JSONEncoder is a class and not Sendable.
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return try encoder.encode(value)
    }
}
