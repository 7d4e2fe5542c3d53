// libFuzzer target for predicate text, compiled by scripts/fuzz/run.sh together with every source of
// Packages/BrowserCore into one module: the input is `where=` text as a client sends it (UTF-8, invalid bytes
// replaced). It is parsed; what parses is checked against a small library model; what validates is printed,
// read back and checked again, and sent through its JSON form.
//
// Properties checked for every input: parsing and validation end (no crash, no stack exhaustion, no hang);
// a syntax error's span lies inside the text; a validation error that names a condition names one that exists;
// a validated tree's canonical text reads back as the same tree and prints identically; its JSON form decodes
// (as a query body) and validates to the same tree; the Swift code for it is produced without trapping.

import Foundation

@_cdecl("LLVMFuzzerTestOneInput")
public func predicateFuzzTarget(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let bytes = data.map { Array(UnsafeBufferPointer(start: $0, count: size)) } ?? []
    PredicateFuzzing.run(String(decoding: bytes, as: UTF8.self))
    return 0
}

enum PredicateFuzzing {
    static let schema = StoreSchema(entities: [
        EntitySchema(name: "Author", attributes: [AttributeSchema(name: "name", type: .string), AttributeSchema(name: "born", type: .date)],
                     relationships: [RelationshipSchema(name: "books", destination: "Book", isToMany: true, inverse: "author")]),
        EntitySchema(name: "Book", attributes: [
            AttributeSchema(name: "title", type: .string), AttributeSchema(name: "pageCount", type: .integer32),
            AttributeSchema(name: "rating", type: .double), AttributeSchema(name: "price", type: .decimal),
            AttributeSchema(name: "publishedAt", type: .date), AttributeSchema(name: "inPrint", type: .boolean),
            AttributeSchema(name: "identifier", type: .uuid), AttributeSchema(name: "link", type: .uri),
            AttributeSchema(name: "cover", type: .binary), AttributeSchema(name: "place.city", type: .string),
        ], relationships: [
            RelationshipSchema(name: "author", destination: "Author", isToMany: false, inverse: "books"),
            RelationshipSchema(name: "tags", destination: "Tag", isToMany: true, inverse: "books"),
        ]),
        EntitySchema(name: "Tag", attributes: [AttributeSchema(name: "name", type: .string)],
                     relationships: [RelationshipSchema(name: "books", destination: "Book", isToMany: true, inverse: "tags")]),
    ])
    static let book = schema.entity(named: "Book")!

    static func run(_ text: String) {
        let parsed: ParsedPredicate
        do {
            parsed = try PredicateParser.parse(text)
        } catch {
            precondition(error.offset >= 0 && error.length >= 0 && error.offset + error.length <= text.utf16.count,
                         "syntax error span outside the text: \(error)")
            return
        }
        precondition(parsed.conditionSpans.count == parsed.filter.conditions.count, "one span per condition")
        let tree: RecordFilter
        switch RecordFilter.checked(parsed.filter, for: book, in: schema) {
        case .failure(let problem):
            if let index = problem.conditionIndex { precondition(parsed.conditionSpans.indices.contains(index), "no such condition") }
            return
        case .success(let checked):
            tree = checked
        }
        let printed = PredicateText.format(tree)
        guard let reread = try? RecordFilter.validated(PredicateParser.parse(printed).filter, for: book, in: schema) else {
            preconditionFailure("canonical text does not read back: \(printed)")
        }
        precondition(reread == tree, "canonical text reads back as another tree: \(printed)")
        precondition(PredicateText.format(reread) == printed, "printing is not stable: \(printed)")

        guard let json = try? BrowserJSON.encode(["where": tree]),
              let decoded = try? RecordFilter.decodeQueryBody(json) else {
            // A tree too deep for the body's nesting bound is fine to refuse; anything else is a bug.
            precondition(tree.conditions.count <= RecordFilter.maximumConditions, "JSON form refused")
            return
        }
        if let revalidated = try? RecordFilter.validated(decoded, for: book, in: schema) {
            precondition(revalidated == tree, "JSON form reads back as another tree: \(printed)")
        } else {
            preconditionFailure("JSON form does not validate: \(printed)")
        }
        _ = FetchRequestCode(query: RecordQuery(entity: "Book", filter: tree), schema: schema)
    }
}
