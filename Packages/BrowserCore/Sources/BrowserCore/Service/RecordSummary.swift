/// The one-line label of a record in lists and links: the value of its entity's display attribute
/// (`DisplayAttributeChoice`), or `<Entity> p<primary key>` when that is empty or the entity has none.
public enum RecordSummary {
    public static func make(for record: StoredRecord, attribute: String?) -> String {
        if let attribute, case .string(let text)? = record.values[attribute], hasVisibleText(text) {
            return text
        }
        return fallback(entity: record.entity, primaryKey: record.id.primaryKey)
    }

    /// The label of a record whose display attribute has no visible text: `<Entity> p<primary key>`.
    public static func fallback(entity: String, primaryKey: Int64) -> String {
        "\(entity) \(ObjectID.shortForm(primaryKey: primaryKey))"
    }

    /// Whether the text holds anything but whitespace. A printable ASCII first byte settles it without walking
    /// characters (a list of a million names asks a million times).
    static func hasVisibleText(_ text: String) -> Bool {
        if let first = text.utf8.first, first > 0x20, first < 0x7F { return true }
        return text.contains { !$0.isWhitespace }
    }
}
