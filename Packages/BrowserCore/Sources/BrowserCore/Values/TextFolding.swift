import Foundation

/// Core Data's `CONTAINS[cd]`: a substring match that ignores case and diacritics, for all of Unicode.
///
/// Every adapter that cannot hand the predicate to Core Data (the in-memory store, the SQLite reader through a
/// SQL function) matches through this one definition, so a search finds the same records everywhere:
/// "cafe" finds "Café", "CAFÉ" and "café"; "strasse" finds "Straße".
public enum TextFolding {
    /// The folded form compared by `contains`: case folded, diacritics removed, locale-independent.
    public static func fold(_ text: String) -> String {
        // Fast path: ASCII letters only need lower-casing, and most stored text is ASCII.
        if text.utf8.allSatisfy({ $0 < 0x80 }) {
            return text.lowercased()
        }
        return text.folding(options: [.caseInsensitive, .diacriticInsensitive], locale: nil)
    }

    /// The form a predicate's `[c]`, `[d]` or `[cd]` compares (no options: the text itself). Every adapter that
    /// evaluates a `RecordFilter` itself folds both sides through this, so `==[c]`, `BEGINSWITH[d]`, `LIKE[cd]`…
    /// answer the same everywhere.
    public static func fold(_ text: String, options: FilterOptions) -> String {
        switch (options.contains(.caseInsensitive), options.contains(.diacriticInsensitive)) {
        case (true, true):
            return fold(text)
        case (true, false):
            if text.utf8.allSatisfy({ $0 < 0x80 }) { return text.lowercased() }
            return text.folding(options: [.caseInsensitive], locale: nil)
        case (false, true):
            // ASCII has no diacritics to remove.
            if text.utf8.allSatisfy({ $0 < 0x80 }) { return text }
            return text.folding(options: [.diacriticInsensitive], locale: nil)
        case (false, false):
            return text
        }
    }

    /// Whether `text` contains `needle`, ignoring case and diacritics. An empty needle matches everything.
    public static func contains(_ text: String, _ needle: String) -> Bool {
        containsFolded(text, foldedNeedle: fold(needle))
    }

    /// `contains` with the needle folded once by the caller (a search folds its needle once per query).
    public static func containsFolded(_ text: String, foldedNeedle: String) -> Bool {
        if foldedNeedle.isEmpty { return true }
        return fold(text).contains(foldedNeedle)
    }
}
