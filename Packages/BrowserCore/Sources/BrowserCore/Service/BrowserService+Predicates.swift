public import Foundation

/// The predicate endpoints: a JSON tree as a records page, and the analysis a text mode needs.
extension BrowserService {
    /// `POST /api/entities/:name/query`: the list the URL's parameters describe, filtered by the body's tree
    /// (`{"where": <tree>}`, `RecordFilter`'s JSON form), as `records(of:parameters:)` answers it.
    public func query(of entityName: String, parameters: RecordQueryParameters, body: Data) async throws(BrowserError) -> RecordsPageDTO {
        var parameters = parameters
        parameters.predicate = try RecordFilter.decodeQueryBody(body)
        return try await records(of: entityName, parameters: parameters)
    }

    /// `GET /api/entities/:name/predicate?where=`: the predicate read, checked, printed canonically and as Swift,
    /// or where it is wrong. The other list parameters (`search`, `sort`, `limit`…) are validated as for the list
    /// and shape the Swift code.
    public func predicate(of entityName: String, parameters: RecordQueryParameters) async throws(BrowserError) -> PredicateDTO {
        let schema = try await call { try await store.schema() }
        let entity = try Self.browsableEntity(entityName, in: schema)
        let text = parameters.predicateText ?? ""
        var answer = PredicateDTO(where: text, canonical: nil, tree: nil, errors: [], swift: nil)
        var listParameters = parameters
        listParameters.predicateText = nil
        // The list's own parameters first: a bad one is the request's error (400), not the predicate's.
        var query = try RecordQuery.validated(listParameters, for: entity, in: schema)

        var checked: RecordFilter?
        if !text.allSatisfy(\.isWhitespace) {
            let parsed: ParsedPredicate
            do {
                parsed = try PredicateParser.parse(text)
            } catch {
                answer.errors = [PredicateErrorDTO(message: error.description, offset: error.offset, length: error.length)]
                return answer
            }
            switch RecordFilter.checked(parsed.filter, for: entity, in: schema) {
            case .failure(let problem):
                let span = problem.conditionIndex.flatMap { parsed.conditionSpans.indices.contains($0) ? parsed.conditionSpans[$0] : nil }
                answer.errors = [PredicateErrorDTO(message: problem.message, offset: span?.lowerBound, length: span?.count)]
                return answer
            case .success(let filter):
                checked = filter
                answer.canonical = PredicateText.format(filter)
                answer.tree = filter
            }
        } else {
            answer.canonical = ""
        }
        if let checked { query.filter = query.filter.map { .all([$0, checked]) } ?? checked }
        answer.swift = FetchRequestCodeDTO(FetchRequestCode(query: query, schema: schema))
        return answer
    }
}
