import BrowserCore
@testable import BrowserSQLite
import Foundation
import Testing

/// The byte-level search path (`FoldedContainsMatcher`) gives exactly `TextFolding`'s answers, and takes the
/// texts a search meets most (ASCII, accented Latin letters) without falling back.
struct FoldedContainsMatcherTests {
    /// Every scalar the table handles, between letters, folds as `TextFolding.fold` folds the whole text.
    @Test func tableFoldsLikeTextFoldingInContext() {
        var handled = 0
        for value in FoldedContainsMatcher.ranges.joined() {
            guard let scalar = Unicode.Scalar(UInt32(value)), FoldedContainsMatcher.folded(value) != nil else { continue }
            handled += 1
            for text in ["x\(scalar)Y", "\(scalar)\(scalar)", "A-\(scalar)", "\(scalar)é Z", "Café \(scalar)ß"] {
                let exact = Array(TextFolding.fold(text).utf8)
                #expect(FoldedContainsMatcher.fold(Array(text.utf8)) == exact, "U+\(String(value, radix: 16)) in \(text)")
            }
        }
        // Latin-1 and Latin Extended-A letters are the point of the table.
        #expect(handled > 1_000)
        for text in ["Café", "CAFÉ", "Ångström", "Jalapeño", "Kraków", "Émile Zola", "ÜBER ALLES", "Straße", "Œuvre",
                     "Part — II", "“Quoted”", "Phở Việt", "€ 5", "™", "東京の夜", "北京烤鸭", "カタカナ"] {
            #expect(FoldedContainsMatcher.fold(Array(text.utf8)) != nil, "\(text) should take the byte path")
        }
    }

    /// Every printable ASCII character beside an accented letter folds as the exact path folds it.
    @Test func asciiBesideAccentsFoldsLikeTextFolding() {
        for value in 0x01..<0x80 {
            let character = String(UnicodeScalar(UInt8(value)))
            // Long runs go through the eight-bytes-at-a-time loop, short ones byte by byte.
            let run = String(repeating: character, count: 17)
            for text in ["é\(character)É", "\(character)ñ", "Ô\(character)\(character)", run, "\(run)é\(run)"] {
                #expect(FoldedContainsMatcher.fold(Array(text.utf8)) == Array(TextFolding.fold(text).utf8),
                        "0x\(String(value, radix: 16)) in \(text.debugDescription)")
            }
        }
    }

    /// The SQL function's answer equals `TextFolding.containsFolded` for every text and needle here, including
    /// texts the byte path hands back (marks, CJK, emoji, CR LF, invalid UTF-8).
    @Test func answersEqualTextFolding() {
        let texts: [[UInt8]] = [
            "Café Noir", "CAFÉ", "cafe", "Cafetière", "The Café Catalogue", "ÇA CAFE", "Straße", "STRASSE", "Œuvre",
            "Sœur", "Zoë", "Ångström", "e\u{301}cole", "Cafe\u{301}", "東京 café", "café 🎉", "a\r\nb", "a\rb",
            "İstanbul", "ΣΊΣΥΦΟΣ", "ﬁn", "", " ", "ǅemal", "Ŀlibre", "ŉ", "Ⅻ", "ﬀ", "Мир", "ТЁМНЫЙ",
            "THE QUICK BROWN FOX @[`{ JUMPS Over THE CAFE", "Ab@Z[a`z{ CAFÉ Noir, Vol. 12 — The Long Road Home",
            "Part — II", "“Café”", "PHỞ VIỆT", "ἈΘῆναι", "東京の夜", "ガイドブック", "カイト", "北京\u{FE0E}", "か\u{3099}", "a\u{200D}b", "❤\u{FE0F}", "x\u{20DD}", "ℌilbert", "№ 5", "Å",
        ].map { Array($0.utf8) } + [[0x43, 0x61, 0x66, 0xC3], [0xFF, 0x63, 0x61, 0x66, 0x65], [0x63, 0xC3, 0x28]]
        let needles = ["cafe", "café", "CAFE", "e", "", "ss", "straße", "strasse", "œ", "oe", "zoe", "angstrom",
                       "ecole", "東京", "🎉", "\r", "a\r", "\n", "b", "istanbul", "σισυφοσ", "fin", "mir", "темный",
                       "ё", "dž", "l·", "ǆ", "Ŀ", "xii", "ff", " ", "—", "part — ii", "pho", "viet", "“", "ab", "h", "no", "å", "京の", "カイ", "ガイ", "か"]
        var fast = 0
        for text in texts {
            for needle in needles {
                let folded = Array(TextFolding.fold(needle).utf8)
                let expected = decodeUTF8(text).map { TextFolding.containsFolded($0, foldedNeedle: TextFolding.fold(needle)) } ?? false
                let answer = text.withUnsafeBytes { textBytes in
                    folded.withUnsafeBytes { FoldedContainsFunction.contains(textBytes, $0) }
                }
                #expect(answer == expected, "\(String(decoding: text, as: UTF8.self).debugDescription) ∋ \(needle.debugDescription)")
                let byteAnswer = text.withUnsafeBytes { textBytes in
                    folded.withUnsafeBytes { FoldedContainsMatcher.contains(textBytes, foldedNeedle: $0) }
                }
                if let byteAnswer {
                    fast += 1
                    #expect(byteAnswer == expected)
                }
            }
        }
        #expect(fast > texts.count * needles.count / 2)
    }

    /// Needles the byte path must refuse: CR or LF (CR LF is one Character), marks, anything from U+0500 on.
    @Test func refusesNeedlesItCannotMatchByBytes() {
        for needle in ["\r", "x\n", "e\u{301}", "한", "🎉", "\u{0591}", "a\u{200D}", "\u{20DD}", "\u{3099}"] {
            let answer = Array("text".utf8).withUnsafeBytes { text in
                Array(needle.utf8).withUnsafeBytes { FoldedContainsMatcher.contains(text, foldedNeedle: $0) }
            }
            #expect(answer == nil, "\(needle.debugDescription)")
        }
    }
}
