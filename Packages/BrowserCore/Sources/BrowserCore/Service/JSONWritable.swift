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

// The standard types the DTOs are made of, written as `JSONEncoder` writes them, so that a DTO's writer names each
// member once (`json.appendMember("id", id)`). Float and Double are left out: JSONEncoder refuses their non-finite
// values, which `AttributeValue` sends as words.

extension String: JSONWritable {
    func writeJSON(into json: inout JSONBytes) {
        json.appendString(self)
    }
}

extension Bool: JSONWritable {
    func writeJSON(into json: inout JSONBytes) {
        json.appendBool(self)
    }
}

extension Int: JSONWritable {
    func writeJSON(into json: inout JSONBytes) {
        json.appendInteger(Int64(self))
    }
}

extension Int64: JSONWritable {
    func writeJSON(into json: inout JSONBytes) {
        json.appendInteger(self)
    }
}

extension Array: JSONWritable where Element: JSONWritable {
    func writeJSON(into json: inout JSONBytes) {
        json.appendArray(self)
    }
}

/// An object with its keys sorted, as `JSONEncoder` writes a `String`-keyed dictionary.
extension Dictionary: JSONWritable where Key == String, Value: JSONWritable {
    func writeJSON(into json: inout JSONBytes) {
        json.appendObject(self)
    }
}
