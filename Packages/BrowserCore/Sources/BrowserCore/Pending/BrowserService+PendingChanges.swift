extension BrowserService {
    /// `GET /api/pending`: the live context's unsaved edits, or why there are none to show.
    public func pendingChanges() async throws(BrowserError) -> PendingChangesDTO {
        switch try await call({ try await store.pendingChanges() }) {
        case .unavailable(let reason):
            return PendingChangesDTO(available: false, reason: reason, inserted: [], updated: [], deleted: [], notes: [])
        case .changes(let changes):
            return PendingChangesDTO(
                available: true, contextName: changes.contextName, inserted: changes.inserted.map(PendingObjectDTO.init),
                updated: changes.updated.map(PendingObjectDTO.init), deleted: changes.deleted.map(PendingObjectDTO.init),
                notes: changes.notes)
        }
    }
}
