import BrowserCore
import Testing

/// `TextFolding.fold(_:options:)`: the forms `[c]`, `[d]` and `[cd]` compare.
struct TextFoldingOptionsTests {
    @Test("each option folds only what it names", arguments: [
        ("Café", FilterOptions(), "Café"),
        ("Café", FilterOptions.caseInsensitive, "café"),
        ("Café", FilterOptions.diacriticInsensitive, "Cafe"),
        ("Café", FilterOptions.caseAndDiacriticInsensitive, "cafe"),
        ("ABC", FilterOptions.diacriticInsensitive, "ABC"),
        ("ABC", FilterOptions.caseInsensitive, "abc"),
        ("ÉCOLE", FilterOptions.caseInsensitive, "école"),
    ])
    func folds(text: String, options: FilterOptions, expected: String) {
        #expect(TextFolding.fold(text, options: options) == expected)
    }

    @Test func bothOptionsAreTheSearchFold() {
        for text in ["Straße", "CAFÉ", "Ünïcödé", "plain"] {
            #expect(TextFolding.fold(text, options: .caseAndDiacriticInsensitive) == TextFolding.fold(text))
        }
    }
}
