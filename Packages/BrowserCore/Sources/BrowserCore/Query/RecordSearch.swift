import Foundation

/// The search box: a text and the attributes it looks in, as the client asked (`search`, `searchAttr`), checked
/// against the entity. `RecordQuery` keeps it beside its predicate rather than only as the filter it stands for,
/// so whoever reads a query sees the search itself instead of recognising it by the filter's shape.
public struct RecordSearch: Sendable, Hashable {
    /// The text as sent (never empty).
    public var text: String
    /// The String attributes searched (`CONTAINS[cd]`): the one `searchAttr` names, or every searchable attribute.
    public var attributes: [String]
    /// The UUID attributes that must equal the text when it is a UUID and no attribute is named: a pasted UUID
    /// also finds the records whose UUID attributes hold it (stored as 16 bytes, so text search cannot see them).
    public var uuidAttributes: [String]

    public init(text: String, attributes: [String], uuidAttributes: [String] = []) {
        self.text = text
        self.attributes = attributes
        self.uuidAttributes = uuidAttributes
    }

    /// The condition the search stands for: any searched attribute contains the text (or a UUID attribute holds it).
    public var filter: RecordFilter {
        var conditions = attributes.map { RecordFilter.contains($0, text) }
        if !uuidAttributes.isEmpty, let uuid = UUID(uuidString: text.trimmingCharacters(in: .whitespaces)) {
            conditions += uuidAttributes.map { RecordFilter.equals($0, .uuid(uuid)) }
        }
        return conditions.count == 1 ? conditions[0] : .any(conditions)
    }

    /// The one attribute searched for the text alone, or nil when the search looks in several (or also in UUIDs).
    public var singleAttribute: String? {
        uuidAttributes.isEmpty && attributes.count == 1 ? attributes[0] : nil
    }

    /// The `search` and `searchAttr` parameters checked against the entity: `searchAttr` must be a String
    /// attribute (without it the search looks in every one); an empty search is none; a longer one than
    /// `RecordQuery.maximumSearchLength` is refused.
    static func validated(text: String?, attribute name: String?, for entity: EntitySchema) throws(BrowserError) -> RecordSearch? {
        var attributes = entity.searchableAttributes
        let named = name.map { !$0.isEmpty } ?? false
        if let name, named {
            guard let attribute = entity.attribute(named: name) else {
                throw .badRequest("Cannot search \(entity.name) by \"\(name)\": it is not an attribute of \(entity.name)")
            }
            guard attribute.type.isSearchable else {
                throw .badRequest("Cannot search \(entity.name).\(name): it is a \(attribute.type.rawValue) attribute, not a String")
            }
            attributes = [attribute]
        }
        if let text, text.count > RecordQuery.maximumSearchLength {
            throw .badRequest("search is \(text.count) characters long; at most \(RecordQuery.maximumSearchLength) are allowed")
        }
        guard let text, !text.isEmpty else { return nil }
        let isUUID = !named && UUID(uuidString: text.trimmingCharacters(in: .whitespaces)) != nil
        return RecordSearch(
            text: text, attributes: attributes.map(\.name),
            uuidAttributes: isUUID ? entity.attributes.filter { $0.type == .uuid }.map(\.name).sorted() : [])
    }
}
