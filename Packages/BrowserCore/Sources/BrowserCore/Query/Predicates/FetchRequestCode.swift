import Foundation

/// "Copy as Swift": a records view (entity, predicate, sort, limit) as code a developer pastes into the app.
///
/// - Core Data: an `NSFetchRequest` whose `NSPredicate` is built with `format:argumentArray:`. Key paths go in as
///   `%K` arguments and values as `%@` arguments, never spliced into the format text, so no stored text can
///   change what the predicate means; only operators, options and `nil` are written into the format.
/// - SwiftData: a `FetchDescriptor` with `#Predicate` when every condition has a `#Predicate` form; otherwise
///   nil, with the reasons (LIKE, ENDSWITH, BEGINSWITH and comparisons with `[c]`/`[d]`, record IDs, composite
///   elements). `CONTAINS[c]` and `CONTAINS[d]` get the closest form, `localizedStandardContains` (which ignores
///   both case and diacritics), with a comment above the code saying so. It assumes the `@Model` class and its properties are named as the entity and its attributes
///   (Core Data's model names), optional attributes and to-one relationships are optionals, and to-many
///   relationships are non-optional arrays.
public struct FetchRequestCode: Sendable, Hashable {
    public var coreData: String
    public var swiftData: String?
    /// Why there is no SwiftData form (empty when there is one).
    public var swiftDataUnavailable: [String]

    public init(query: RecordQuery, schema: StoreSchema) {
        var coreDataWriter = CoreDataFetchRequestWriter(query: query)
        coreData = coreDataWriter.code()
        var writer = SwiftDataFetchDescriptorWriter(query: query, schema: schema)
        let code = writer.code()
        swiftDataUnavailable = writer.problems
        swiftData = writer.problems.isEmpty ? code : nil
    }
}

/// Swift literals for the values a predicate holds.
enum SwiftLiteral {
    /// Swift reads the escapes of predicate text's strings (`\"`, `\\`, `\n`, `\r`, `\t`, `\u{…}`) alike.
    static func string(_ text: String) -> String { PredicateText.quoted(text) }

    static func double(_ number: Double) -> String {
        // A subnormal literal does not compile ("underflows"); its text still converts exactly.
        number.isSubnormal ? "Double(\"\(number.description)\")!" : number.description
    }

    /// The value as a Swift expression of the type Core Data and SwiftData compare it with.
    static func value(_ value: AttributeValue) -> String {
        switch value {
        case .null: "nil"
        case .string(let text), .truncatedText(let text, _): string(text)
        case .uri(let text): "URL(string: \(string(text)))!"
        case .integer(let number): String(number)
        case .double(let number): double(number)
        case .float(let number): double(Double(number))
        case .decimal(let number): "Decimal(string: \(string(number.description)))!"
        case .boolean(let flag): flag ? "true" : "false"
        case .date(let date):
            "Date(timeIntervalSinceReferenceDate: \(date.timeIntervalSinceReferenceDate.description)) /* \(ISO8601Timestamp.string(from: date)) */"
        case .uuid(let uuid): "UUID(uuidString: \(string(uuid.uuidString)))!"
        case .binary, .undecodable: "nil"
        }
    }
}
