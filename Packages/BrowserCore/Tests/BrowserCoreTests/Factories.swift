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

    /// Author ⇄ Book ⇄ Tag, with a sub-entity (AudioBook), a composite's element (`place.city`) and every kind
    /// of attribute a predicate meets.
    static func librarySchema() -> StoreSchema {
        let bookAttributes = [
            AttributeSchema(name: "title", type: .string, isOptional: false),
            AttributeSchema(name: "pageCount", type: .integer32),
            AttributeSchema(name: "wordCount", type: .integer64),
            AttributeSchema(name: "rating", type: .double),
            AttributeSchema(name: "weight", type: .float),
            AttributeSchema(name: "price", type: .decimal),
            AttributeSchema(name: "publishedAt", type: .date),
            AttributeSchema(name: "inPrint", type: .boolean),
            AttributeSchema(name: "identifier", type: .uuid),
            AttributeSchema(name: "homepage", type: .uri),
            AttributeSchema(name: "cover", type: .binary),
            AttributeSchema(name: "colors", type: .transformable),
            AttributeSchema(name: "location", type: .undefined),
            AttributeSchema(name: "place.city", type: .string),
        ]
        let bookRelationships = [
            RelationshipSchema(name: "author", destination: "Author", isToMany: false, inverse: "books"),
            RelationshipSchema(name: "tags", destination: "Tag", isToMany: true, inverse: "books"),
        ]
        return StoreSchema(entities: [
            EntitySchema(name: "Author", attributes: [
                AttributeSchema(name: "name", type: .string, isOptional: false),
                AttributeSchema(name: "birthDate", type: .date),
            ], relationships: [
                RelationshipSchema(name: "books", destination: "Book", isToMany: true, inverse: "author"),
                RelationshipSchema(name: "agent", destination: "Agent", isToMany: false),
            ]),
            EntitySchema(name: "Agent", attributes: [AttributeSchema(name: "name", type: .string)],
                         relationships: [RelationshipSchema(name: "bestseller", destination: "Book", isToMany: false)]),
            EntitySchema(name: "Book", attributes: bookAttributes, relationships: bookRelationships),
            EntitySchema(name: "AudioBook", parent: "Book",
                         attributes: bookAttributes + [AttributeSchema(name: "narrator", type: .string)],
                         relationships: bookRelationships),
            EntitySchema(name: "Tag", attributes: [AttributeSchema(name: "name", type: .string, isOptional: false)],
                         relationships: [RelationshipSchema(name: "books", destination: "Book", isToMany: true, inverse: "tags")]),
        ])
    }

    static func record(_ entity: String, _ key: Int64, _ values: [String: AttributeValue]) -> StoredRecord {
        StoredRecord(id: ObjectID(storeIdentifier: storeID, entity: entity, primaryKey: key), values: values)
    }

    static func parameters(_ pairs: [String: String]) -> RecordQueryParameters {
        RecordQueryParameters { pairs[$0] }
    }
}
