/// How the readers here, and the content reports built on them, cut a long text for display.
public enum TextPreview {
    /// `text` cut to `limit` characters, with "…" when something was cut.
    public static func cut(_ text: some StringProtocol, limit: Int) -> String {
        var end = text.startIndex
        var taken = 0
        while end < text.endIndex, taken < limit {
            end = text.index(after: end)
            taken += 1
        }
        return end == text.endIndex ? String(text) : String(text[..<end]) + "…"
    }
}
