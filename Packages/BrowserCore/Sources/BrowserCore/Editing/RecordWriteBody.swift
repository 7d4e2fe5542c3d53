import Foundation

/// The JSON body of a write, as sent, before it is checked against the model (docs/API.md "Editing"):
///
/// ```
/// {"attrs": {"title": "Dune", "pageCount": 412, "published": "1965-08-01"},
///  "relationships": {"author": "x-coredata://…/Author/p3", "tags": ["x-coredata://…/Tag/p1"], "series": null},
///  "version": 4}
/// ```
/// `version` is the record's version as `GET /api/object` gave it: required to change or delete, absent to create.
/// Unknown keys are refused, so a typo never turns into a write that silently did less than asked.
struct RecordWriteBody: Decodable {
    /// A write carries one record's values: long text fits, a blob does not (blobs are not written here).
    static let maximumBytes = 1024 * 1024

    var attributes: [String: AttributeValue]
    var relationships: [String: RelationshipValue]
    var version: Int64?

    /// A relationship's value as sent: `null`, one ID, or an array of IDs.
    enum RelationshipValue: Decodable {
        case none
        case one(String)
        case many([String])

        init(from decoder: any Decoder) throws {
            let container = try decoder.singleValueContainer()
            if container.decodeNil() {
                self = .none
            } else if let id = try? container.decode(String.self) {
                self = .one(id)
            } else if let ids = try? container.decode([String].self) {
                self = .many(ids)
            } else {
                throw DecodingError.dataCorruptedError(in: container, debugDescription:
                    "a relationship's value is null, an object ID string, or an array of object ID strings")
            }
        }
    }

    private enum Key: String, CodingKey, CaseIterable { case attrs, relationships, version }

    init(from decoder: any Decoder) throws {
        let keys = try decoder.container(keyedBy: AnyKey.self).allKeys
        if let extra = keys.first(where: { Key(rawValue: $0.stringValue) == nil }) {
            throw DecodingError.dataCorrupted(.init(codingPath: [extra],
                debugDescription: "unknown key (a write's body has \"attrs\", \"relationships\" and \"version\")"))
        }
        let container = try decoder.container(keyedBy: Key.self)
        attributes = try container.decodeIfPresent([String: JSONScalar].self, forKey: .attrs)?.mapValues(\.value) ?? [:]
        relationships = try container.decodeIfPresent([String: RelationshipValue].self, forKey: .relationships) ?? [:]
        version = try container.decodeIfPresent(Int64.self, forKey: .version)
    }

    /// Parses a body; a 413 past `maximumBytes`, a 400 naming where in the body anything is malformed.
    static func decode(_ body: Data) throws(BrowserError) -> RecordWriteBody {
        guard body.count <= maximumBytes else {
            throw .payloadTooLarge("The body is \(body.count) bytes; a write takes at most \(maximumBytes)")
        }
        guard !body.isEmpty else {
            throw .badRequest("Body: empty; a write's body is JSON: {\"attrs\": {…}, \"relationships\": {…}, \"version\": n}")
        }
        do {
            return try JSONDecoder().decode(RecordWriteBody.self, from: body)
        } catch let error as DecodingError {
            throw .badRequest("Body: \(RecordFilter.describe(error))")
        } catch {
            throw .badRequest("Body: \(error)")
        }
    }
}
