/// The one-line label of a record in lists and links: the value of its entity's display attribute
/// (`DisplayAttributeChoice`), or `<Entity> p<primary key>` when that is empty or the entity has none.
///
/// A label is at most `maximumBytes` of its value (then ended by `…`): a record whose name is a 10 MB string is
/// labelled by its start, so its detail holds the value once, not twice, and a list's links stay small.
public enum RecordSummary {
    /// The most bytes of UTF-8 a label takes from its value.
    public static let maximumBytes = ValuePreview.summaryBytes

    public static func make(for record: StoredRecord, attribute: String?) -> String {
        switch attribute.flatMap({ record.values[$0] }) {
        case .string(let text)? where hasVisibleText(text):
            return text.utf8.count > maximumBytes ? ValuePreview.prefix(of: text, bytes: maximumBytes) + "…" : text
        case .truncatedText(let prefix, _)? where hasVisibleText(prefix):
            return ValuePreview.prefix(of: prefix, bytes: maximumBytes) + "…"
        default:
            return fallback(entity: record.entity, primaryKey: record.id.primaryKey)
        }
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
