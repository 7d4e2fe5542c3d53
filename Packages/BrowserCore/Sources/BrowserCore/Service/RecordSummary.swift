/// The one-line label of a record in lists and links.
///
/// Rule: a non-empty String attribute named `name`, else one named `title`, else the first non-empty String
/// attribute by name, else `<Entity> p<primary key>`.
public enum RecordSummary {
    public static func make(for record: StoredRecord, entity: EntitySchema?) -> String {
        let stringAttributes = (entity?.attributes ?? []).filter { $0.type == .string }.map(\.name).sorted()
        let preferred = ["name", "title"].filter { stringAttributes.contains($0) }
        for name in preferred + stringAttributes {
            if case .string(let text)? = record.values[name], !text.isEmpty {
                return text
            }
        }
        return "\(record.entity) \(record.id.shortForm)"
    }
}
