import BrowserCore

/// Small builders for test inputs.
enum Make {
    static let storeID = "11111111-2222-3333-4444-555555555555"

    static func bookEntity() -> EntitySchema {
        EntitySchema(
            name: "Book",
            attributes: [
                AttributeSchema(name: "title", type: .string, isOptional: false),
                AttributeSchema(name: "summary", type: .string),
                AttributeSchema(name: "pageCount", type: .integer32),
                AttributeSchema(name: "publishedAt", type: .date),
            ],
            relationships: [RelationshipSchema(name: "author", destination: "Author", isToMany: false)]
        )
    }

    static func record(_ entity: String, _ key: Int64, _ values: [String: AttributeValue]) -> StoredRecord {
        StoredRecord(id: ObjectID(storeIdentifier: storeID, entity: entity, primaryKey: key), values: values)
    }

    static func parameters(_ pairs: [String: String]) -> RecordQueryParameters {
        RecordQueryParameters { pairs[$0] }
    }
}
