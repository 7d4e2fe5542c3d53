/// The one-line label of a record in lists and links: the value of its entity's display attribute
/// (`DisplayAttributeChoice`), or `<Entity> p<primary key>` when that is empty or the entity has none.
public enum RecordSummary {
    public static func make(for record: StoredRecord, attribute: String?) -> String {
        if let attribute, case .string(let text)? = record.values[attribute],
           text.contains(where: { !$0.isWhitespace }) {
            return text
        }
        return "\(record.entity) \(record.id.shortForm)"
    }
}
