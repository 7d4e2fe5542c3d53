/// `GET /api/history`.
extension BrowserService {
    /// At most this many changes of one answer are named (each name is one record read); the rest carry only
    /// their entity and ID. The History view asks for 10 changes of 50 transactions, so it names all it shows.
    public static let maximumNamedHistoryChanges = 1_000

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
            var transactions = page.transactions.map { HistoryTransactionDTO($0, changeOffset: query.changeOffset) }
            try await name(&transactions, changes: page.transactions.map(\.changes), schema: schema)
            var dto = HistoryPageDTO(
                available: true, transactions: transactions,
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

    /// Each change's record by its display name (`RecordSummary`, as lists and the Inspector name it): the first
    /// `maximumNamedHistoryChanges` changes whose record is still in the store; a deleted object has no record.
    private func name(_ transactions: inout [HistoryTransactionDTO], changes: [[HistoryChange]],
                      schema: StoreSchema) async throws(BrowserError) {
        var named = 0
        for (index, list) in changes.enumerated() {
            for (position, change) in list.enumerated() where change.kind != .delete {
                guard named < Self.maximumNamedHistoryChanges else { return }
                named += 1
                guard let record = try await call({ try await store.record(change.id) }) else { continue }
                transactions[index].changes[position].summary = try await summary(of: record, schema: schema)
            }
        }
    }
}
