import Foundation

/// A response type that writes its JSON itself, byte for byte as its `Encodable` conformance encodes through
/// `BrowserJSON` (which then skips `JSONEncoder`): the types of the hot responses, a records page above all.
///
/// A conformance writes an object's members in sorted-key order and omits a nil optional, as `JSONEncoder` with
/// `encodeIfPresent` does; `JSONBytesTests` holds each conforming type to its `Encodable` output.
protocol JSONWritable {
    func writeJSON(into json: inout JSONBytes)
}

extension JSONWritable {
    /// The value's JSON document.
    var jsonData: Data {
        var json = JSONBytes()
        writeJSON(into: &json)
        return Data(json.bytes)
    }
}

/// A list of writable values (the pages of an object export's related items are `[ObjectReferenceDTO]`).
extension Array: JSONWritable where Element: JSONWritable {
    func writeJSON(into json: inout JSONBytes) {
        json.appendArray(self)
    }
}
