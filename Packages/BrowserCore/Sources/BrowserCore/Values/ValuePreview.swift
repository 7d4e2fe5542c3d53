/// How much of a text value a list shows: the memory budget of every response that lists values.
///
/// A store may hold strings of any size (a 10 MB note, a JSON dump kept as text). A list page, a facet's values
/// and a record's related items carry only a *preview* of each text value — its first bytes, cut at a Unicode
/// scalar boundary — with its full length (`AttributeValue.truncatedText`); the whole value comes from the
/// record's detail (`/api/object`), which sends it once. A page of 100 rows whose values are 10 MB each then
/// answers with ~400 KB instead of 1 GB.
///
/// The cut is made as early as the store can: the SQLite reader asks SQLite for `substr` and the length (the
/// value never reaches Swift whole), the in-memory store cuts while it builds rows, and `BrowserService` cuts
/// whatever an adapter handed over whole (the live context's values are already in memory).
public enum ValuePreview {
    /// The most bytes of one text value a list shows: enough to read a paragraph in a table cell.
    public static let maximumBytes = 4 * 1024
    /// The least a value shrinks to when a page's budget is shared among many rows and text attributes.
    public static let minimumBytes = 256
    /// The text a page may carry in all, shared among its rows' text attributes (`bytes(rows:textAttributes:)`):
    /// a page of 500 rows of a dozen text attributes stays near 1 MiB however long the stored values are.
    public static let pageBudgetBytes = 1024 * 1024
    /// The text of related items and of the display-attribute sample: they only feed a record's summary.
    public static let summaryBytes = 512

    /// The preview length of a page: the page budget shared among `rows × textAttributes` values, between
    /// `minimumBytes` and `maximumBytes`. Worked out before anything is read, so the store can cut in its query
    /// and the client is told the figure (`RecordsPageDTO.valuePreviewBytes`). The floor keeps a page readable;
    /// what it lets through is bounded by the model (its text attributes × the page limit), not by the data.
    public static func bytes(rows: Int, textAttributes: Int) -> Int {
        let shares = max(1, rows) * max(1, textAttributes)
        return min(maximumBytes, max(minimumBytes, pageBudgetBytes / shares))
    }

    /// The value as a list shows it: text longer than `limit` bytes of UTF-8 becomes `.truncatedText` with its
    /// first bytes; every other value (and an already cut one) is returned as it is.
    public static func cut(_ value: AttributeValue, toBytes limit: Int) -> AttributeValue {
        switch value {
        case .string(let text), .uri(let text):
            let count = text.utf8.count
            return count > limit ? .truncatedText(prefix: prefix(of: text, bytes: limit), byteCount: count) : value
        case .truncatedText(let text, let count) where text.utf8.count > limit:
            return .truncatedText(prefix: prefix(of: text, bytes: limit), byteCount: count)
        default:
            return value
        }
    }

    /// Every value of a record cut to `limit` (see `cut(_:toBytes:)`).
    public static func cut(_ values: [String: AttributeValue], toBytes limit: Int) -> [String: AttributeValue] {
        values.mapValues { cut($0, toBytes: limit) }
    }

    /// The longest start of `text` that is at most `bytes` bytes of UTF-8 and ends on a Unicode scalar.
    public static func prefix(of text: String, bytes: Int) -> String {
        let utf8 = text.utf8
        guard utf8.count > bytes else { return text }
        var end = utf8.index(utf8.startIndex, offsetBy: max(0, bytes))
        // Step back over continuation bytes (10xxxxxx) to the start of the scalar the limit falls in.
        while end > utf8.startIndex, utf8[end] & 0xC0 == 0x80 { end = utf8.index(before: end) }
        return String(text[..<end])
    }

    /// The longest start of these UTF-8 bytes that is at most `limit` bytes and ends on a scalar boundary (a
    /// store that read a value's first bytes: the cut may fall inside a character).
    public static func prefixLength(ofUTF8 bytes: UnsafeRawBufferPointer, limit: Int) -> Int {
        guard bytes.count > limit else { return bytes.count }
        var end = max(0, limit)
        while end > 0, bytes[end] & 0xC0 == 0x80 { end -= 1 }
        return end
    }
}
