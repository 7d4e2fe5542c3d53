import BrowserCore
import Foundation
import Testing

/// The predicate syntax: what each documented form reads as, and where and why bad text is refused.
struct PredicateParserTests {
    static func comparison(_ path: String, _ op: FilterOperator, options: FilterOptions = [], _ operand: FilterOperand) -> RecordFilter {
        .comparison(FilterComparison(FilterKeyPath(path.split(separator: ".").map(String.init)), op, options: options, operand))
    }

    static let parsed: [(String, RecordFilter)] = [
        ("pageCount > 300", comparison("pageCount", .greaterThan, .value(.integer(300)))),
        ("title BEGINSWITH[c] \"k\"", comparison("title", .beginsWith, options: .caseInsensitive, .value(.string("k")))),
        ("title contains[cd] 'café'", comparison("title", .contains, options: .caseAndDiacriticInsensitive, .value(.string("café")))),
        ("title ENDSWITH[d] \"e\"", comparison("title", .endsWith, options: .diacriticInsensitive, .value(.string("e")))),
        ("title LIKE \"K*n?\"", comparison("title", .like, .value(.string("K*n?")))),
        ("author.name BEGINSWITH[c] \"k\"", comparison("author.name", .beginsWith, options: .caseInsensitive, .value(.string("k")))),
        ("summary == nil", comparison("summary", .equals, .value(.null))),
        ("summary != NULL", comparison("summary", .notEquals, .value(.null))),
        ("inPrint == TRUE", comparison("inPrint", .equals, .value(.boolean(true)))),
        ("inPrint == no", comparison("inPrint", .equals, .value(.boolean(false)))),
        ("price == 10.11", comparison("price", .equals, .value(.decimal(Decimal(string: "10.11")!)))),
        ("rating >= -1.5e3", comparison("rating", .greaterThanOrEqual, .value(.double(-1500)))),
        ("pageCount BETWEEN {100, 200}", comparison("pageCount", .between, .range(.integer(100), .integer(200)))),
        ("title IN {\"a\", \"b\"}", comparison("title", .in, .list([.string("a"), .string("b")]))),
        ("title IN {}", comparison("title", .in, .list([]))),
        ("publishedAt > CAST(0, \"NSDate\")",
         comparison("publishedAt", .greaterThan, .value(.date(Date(timeIntervalSinceReferenceDate: 0))))),
        ("publishedAt > CAST(\"2020-03-01T12:00:00Z\", \"NSDate\")",
         comparison("publishedAt", .greaterThan, .value(.date(Date(timeIntervalSince1970: 1_583_064_000))))),
        ("ANY tags.name == \"x\"", .quantified(.any, relationship: "tags",
                                                FilterComparison(FilterKeyPath("name"), .equals, .value(.string("x"))))),
        ("SOME tags.name == \"x\"", .quantified(.any, relationship: "tags",
                                                 FilterComparison(FilterKeyPath("name"), .equals, .value(.string("x"))))),
        ("NONE tags.name ==[c] \"x\"", .quantified(.none, relationship: "tags",
                                                    FilterComparison(FilterKeyPath("name"), .equals, options: .caseInsensitive, .value(.string("x"))))),
        ("tags.@count == 0", .count(relationship: "tags", .equals, 0)),
        ("a == 1 AND b == 2 AND c == 3", .all([comparison("a", .equals, .value(.integer(1))),
                                               comparison("b", .equals, .value(.integer(2))),
                                               comparison("c", .equals, .value(.integer(3)))])),
        ("a == 1 && b == 2 || c == 3", .any([.all([comparison("a", .equals, .value(.integer(1))),
                                                    comparison("b", .equals, .value(.integer(2)))]),
                                             comparison("c", .equals, .value(.integer(3)))])),
        ("(a == 1 AND b == 2) AND c == 3", .all([.all([comparison("a", .equals, .value(.integer(1))),
                                                       comparison("b", .equals, .value(.integer(2)))]),
                                                 comparison("c", .equals, .value(.integer(3)))])),
        ("NOT a == 1 AND !(b = 2 OR c <> 3)", .all([.not(comparison("a", .equals, .value(.integer(1)))),
                                                    .not(.any([comparison("b", .equals, .value(.integer(2))),
                                                               comparison("c", .notEquals, .value(.integer(3)))]))])),
        ("a =< 1 OR a => 2", .any([comparison("a", .lessThanOrEqual, .value(.integer(1))),
                                   comparison("a", .greaterThanOrEqual, .value(.integer(2)))])),
        ("TRUEPREDICATE", .all([])),
        ("FALSEPREDICATE", .any([])),
        ("#in == \"x\"", comparison("in", .equals, .value(.string("x")))),
        ("title == \"say \\\"hi\\\"\\n\\u{1F600}\\u00e9\"", comparison("title", .equals, .value(.string("say \"hi\"\n😀é")))),
        ("wordCount == 9007199254740993", comparison("wordCount", .equals, .value(.integer(9_007_199_254_740_993)))),
    ]

    @Test("each documented form reads as its tree", arguments: parsed)
    func parses(text: String, expected: RecordFilter) throws {
        #expect(try PredicateParser.parse(text).filter == expected)
    }

    static let refused: [(String, Int, String)] = [
        ("", 0, "expected a key path (an attribute or relationship name), found the end of the text"),
        ("title ==", 8, "expected a value after == (a quoted string, a number, TRUE, FALSE, NIL or CAST(…, \"NSDate\")), found the end of the text"),
        ("title BEGINSWITH[x] \"k\"", 17, "expected c, d or cd inside [ ] (only case and diacritic options are supported), found \"x\""),
        ("title MATCHES \"k.*\"", 6, "expected an operator other than MATCHES (regular expressions are not supported: use LIKE with * and ?), found \"MATCHES\""),
        ("title == \"open", 9, "expected a closing \" for the string, found \"\"open\""),
        ("pageCount > 3 AND", 17, "expected a key path (an attribute or relationship name), found the end of the text"),
        ("(pageCount > 3", 14, "expected AND, OR or a closing ), found the end of the text"),
        ("pageCount > 3)", 13, "expected AND, OR or the end of the predicate, found \")\""),
        ("pageCount IN 3", 13, "expected { after IN, found \"3\""),
        ("pageCount BETWEEN {1}", 18, "expected two values in BETWEEN {low, high}, found 1"),
        ("title == %@", 9, "expected a value: %@ is a format placeholder; write the value in (a string in quotes, a number, CAST(…, \"NSDate\") for a date), found \"%@\""),
        ("%K == \"x\"", 0, "expected a key path: %K is a format placeholder for one; write the key path in (author.name), found \"%K\""),
        ("pageCount > %d", 12, "expected a value: %d is a format placeholder for a number; write the number in, found \"%d\""),
        ("wordCount > %lld", 12, "expected a value: %lld is a format placeholder for a number; write the number in, found \"%lld\""),
        ("title == $TITLE", 9, "expected a value: $TITLE is a substitution variable, which is not supported; write the value in (a string in quotes, a number, CAST(…, \"NSDate\") for a date), found \"$TITLE\""),
        ("\"abc\" CONTAINS title", 6, "expected ==, !=, <, <=, >, >= or IN after a value written first (or the key path first: name CONTAINS \"…\"), found \"CONTAINS\""),
        ("SELF == 1", 0, "expected a key path (SELF is not supported), found \"SELF\""),
        ("in == 1", 0, "expected a key path (write #in for a property named in), found \"in\""),
        ("tags.@sum > 1", 6, "expected count after @ (the only collection operator supported is @count), found \"sum\""),
        ("tags.@count CONTAINS 1", 12, "expected ==, !=, <, <=, > or >= after @count, found \"CONTAINS\""),
        ("publishedAt > CAST(\"soon\", \"NSDate\")", 19, "expected seconds since 2001-01-01 or an ISO 8601 date (\"2020-03-01\", \"2020-03-01T12:00:00Z\") in CAST, found \"\"soon\"\""),
        ("title == \"\\q\"", 10, "expected one of \\\" \\' \\\\ \\n \\r \\t \\0 \\u, found \"\\q\""),
        ("rating > 1e999", 9, "expected a number a Double can hold, found \"1e999\""),
        ("pageCount > 3abc", 13, "expected a space or an operator after the number, found \"a\""),
        // Offsets count UTF-16 code units: the emoji before the error takes two.
        ("title == \"😀\" AND", 17, "expected a key path (an attribute or relationship name), found the end of the text"),
    ]

    @Test("bad text is refused with where and what was expected", arguments: refused)
    func refuses(text: String, offset: Int, message: String) {
        #expect(throws: PredicateSyntaxError.self) { try PredicateParser.parse(text) }
        do {
            _ = try PredicateParser.parse(text)
        } catch {
            #expect(error.offset == offset)
            #expect(error.description == "at \(offset): \(message)")
        }
    }

    @Test func nestingIsBoundedWhileParsing() {
        let allowed = String(repeating: "(", count: 16) + "a == 1" + String(repeating: ")", count: 16)
        #expect(throws: Never.self) { try PredicateParser.parse(allowed) }
        for text in [String(repeating: "(", count: 17) + "a == 1" + String(repeating: ")", count: 17),
                     String(repeating: "NOT ", count: 100_000) + "a == 1",
                     String(repeating: "(", count: 100_000)] {
            #expect(throws: PredicateSyntaxError.self) { try PredicateParser.parse(text) }
        }
    }

    @Test func conditionSpansPointAtEachCondition() throws {
        let text = "pageCount > 3 AND (ANY tags.name == \"é\" OR tags.@count == 0)"
        let parsed = try PredicateParser.parse(text)
        let utf16 = Array(text.utf16)
        let pieces = parsed.conditionSpans.map { String(decoding: utf16[$0], as: UTF16.self) }
        #expect(pieces == ["pageCount > 3", "ANY tags.name == \"é\"", "tags.@count == 0"])
        #expect(parsed.filter.conditions.count == parsed.conditionSpans.count)
    }
}
