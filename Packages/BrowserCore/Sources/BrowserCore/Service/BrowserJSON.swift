public import Foundation

/// The one JSON encoding every response uses: sorted keys (stable output, diffable exports), slashes unescaped
/// (IDs stay readable). Values are already reduced to JSON-safe forms by `AttributeValue`.
public enum BrowserJSON {
    public static func encode(_ value: some Encodable) throws -> Data {
        // A new encoder per call: JSONEncoder is a class and not Sendable.
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return try encoder.encode(value)
    }
}
