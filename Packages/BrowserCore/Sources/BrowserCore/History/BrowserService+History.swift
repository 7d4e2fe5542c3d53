/// `GET /api/history`.
extension BrowserService {
    public func history(parameters: HistoryQueryParameters) async throws(BrowserError) -> HistoryPageDTO {
        let schema = try await call { try await store.schema() }
        let query = try HistoryQuery.validated(parameters, in: schema)
        switch try await call({ try await store.history(query) }) {
        case .unavailable(let reason):
            return HistoryPageDTO(available: false, reason: reason)
        case .page(let page):
            if case .transaction(let number) = query.window, page.transactions.isEmpty {
                throw .notFound("No transaction \(number) in the store's history" + (query.entities == nil ? "" : " with changes to \(parameters.entity ?? "")"))
            }
            let numbers = page.transactions.map(\.number)
            var dto = HistoryPageDTO(
                available: true, transactions: page.transactions.map { HistoryTransactionDTO($0, changeOffset: query.changeOffset) },
                authors: page.authors, contexts: page.contextNames, notes: page.notes)
            switch query.window {
            case .newestFirst(let before):
                dto.older = page.hasMore ? numbers.last : nil
                // The newest page also says where to follow from; an empty history follows from the start.
                dto.newer = before == nil ? (numbers.first ?? 0) : numbers.first
            case .oldestFirst(let after):
                dto.newer = numbers.last ?? after
            case .transaction:
                break
            }
            return dto
        }
    }
}
