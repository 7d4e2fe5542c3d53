// libFuzzer target for the API's query handling, compiled by scripts/fuzz/run.sh together with every source of
// Packages/BrowserHTTP and Packages/BrowserCore into one module (without editing either): the input is a raw
// query string, as it follows "?" in a request-target; it goes through HTTPQuery (percent and form decoding),
// then RecordQuery.validated (every rule of /api/entities/:name, `where=` included: parsed and checked against the
// entity alone) and ObjectID(uri:) (the id of /api/object). scripts/fuzz/PredicateFuzzer.swift goes deeper into
// predicate text.
//
// Properties checked for every input: a validated query is within the API's bounds; search text always
// matches itself through TextFolding; an ID that parses prints back to a URI that parses to the same ID.

import Foundation

@_cdecl("LLVMFuzzerTestOneInput")
public func queryFuzzTarget(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let bytes = data.map { Array(UnsafeBufferPointer(start: $0, count: size)) } ?? []
    QueryFuzzing.run(bytes)
    return 0
}

enum QueryFuzzing {
    static let book = EntitySchema(
        name: "Book",
        attributes: [
            AttributeSchema(name: "title", type: .string),
            AttributeSchema(name: "summary", type: .string),
            AttributeSchema(name: "pageCount", type: .integer32),
            AttributeSchema(name: "price", type: .decimal),
            AttributeSchema(name: "publishedAt", type: .date),
        ])

    static func run(_ bytes: [UInt8]) {
        guard let query = try? HTTPQuery(decodingBytes: bytes) else { return }
        let parameters = RecordQueryParameters { query[$0] }
        if let validated = try? RecordQuery.validated(parameters, for: book) {
            precondition((1...RecordQuery.maximumLimit).contains(validated.limit), "limit out of bounds")
            precondition(validated.offset >= 0, "negative offset")
            precondition(validated.sortKeys.allSatisfy { book.attribute(named: $0.attribute) != nil }, "unknown sort")
            if let text = parameters.search, !text.isEmpty {
                precondition(TextFolding.contains(text, text), "search text does not match itself")
                _ = TextFolding.contains(String(decoding: bytes, as: UTF8.self), text)
            }
        }
        for value in query.values("id") {
            guard let id = try? ObjectID(uri: value) else { continue }
            precondition((try? ObjectID(uri: id.uri)) == id, "ID does not round-trip: \(value)")
        }
    }
}
