import Foundation

/// One token of predicate text, with where it is (Unicode scalar offsets into the text).
struct PredicateToken: Equatable {
    enum Kind: Equatable {
        /// A name or a keyword (`title`, `AND`, `ANY`, `TRUE`…); keywords are told apart by the parser.
        case word(String)
        /// `#name`: a key path component that may be a reserved word.
        case escapedWord(String)
        case string(String)
        /// A numeral as written (`300`, `-1.5`, `1e3`), read into a value by the parser.
        case number(String)
        /// `(`, `)`, `{`, `}`, `,`, `.`, `[`, `]`, `@`, and the operators `==`, `!=`, `<`, `<=`, `>`, `>=`,
        /// `&&`, `||`, `!` (their aliases `=`, `<>`, `=<`, `=>` are read as the canonical form).
        case symbol(String)
        case end
    }

    var kind: Kind
    var start: Int
    var end: Int
}

/// Splits predicate text into tokens. Every error names where it happened and what was expected.
struct PredicateLexer {
    let scalars: [Unicode.Scalar]
    /// UTF-16 offset of each scalar (and of the end): positions are given in the units a browser's text field uses.
    let utf16Offsets: [Int]

    init(_ text: String) {
        scalars = Array(text.unicodeScalars)
        var offsets: [Int] = []
        offsets.reserveCapacity(scalars.count + 1)
        var offset = 0
        for scalar in scalars {
            offsets.append(offset)
            offset += scalar.utf16.count
        }
        offsets.append(offset)
        utf16Offsets = offsets
    }

    /// Core Data's reserved words (Predicate Format String Syntax, "Reserved Words"), which a key path component
    /// can only be written as with `#`.
    static let reservedWords: Set<String> = [
        "AND", "OR", "IN", "NOT", "ALL", "ANY", "SOME", "NONE", "LIKE", "CASEINSENSITIVE", "CI", "MATCHES",
        "CONTAINS", "BEGINSWITH", "ENDSWITH", "BETWEEN", "NULL", "NIL", "SELF", "TRUE", "YES", "FALSE", "NO",
        "FIRST", "LAST", "SIZE", "ANYKEY", "SUBQUERY", "FETCH", "CAST", "TRUEPREDICATE", "FALSEPREDICATE", "UTI-CONFORMS-TO",
        "UTI-EQUALS",
    ]

    static func isReserved(_ word: String) -> Bool { reservedWords.contains(word.uppercased()) }

    static func isIdentifierStart(_ scalar: Unicode.Scalar) -> Bool {
        scalar == "_" || scalar == "$" || scalar.properties.isAlphabetic
    }

    static func isIdentifierPart(_ scalar: Unicode.Scalar) -> Bool {
        isIdentifierStart(scalar) || scalar.properties.numericType != nil
    }

    /// Whether `name` reads back as one plain word: a name starting with `$` is written `#$name`, since a bare
    /// `$name` is read as a substitution variable.
    static func isIdentifier(_ name: String) -> Bool {
        guard let first = name.unicodeScalars.first, isIdentifierStart(first), first != "$" else { return false }
        return name.unicodeScalars.allSatisfy(isIdentifierPart)
    }

    func tokens() throws(PredicateSyntaxError) -> [PredicateToken] {
        var result: [PredicateToken] = []
        var index = 0
        while true {
            while index < scalars.count, scalars[index].properties.isWhitespace { index += 1 }
            guard index < scalars.count else {
                result.append(PredicateToken(kind: .end, start: index, end: index))
                return result
            }
            let start = index
            let scalar = scalars[index]
            if scalar == "%" || scalar == "$" {
                throw placeholderError(at: start)
            }
            if Self.isIdentifierStart(scalar) {
                while index < scalars.count, Self.isIdentifierPart(scalars[index]) { index += 1 }
                result.append(PredicateToken(kind: .word(text(start, index)), start: start, end: index))
            } else if scalar == "#" {
                index += 1
                guard index < scalars.count, Self.isIdentifierStart(scalars[index]) else {
                    throw error(at: start, index, expected: "a name after #")
                }
                while index < scalars.count, Self.isIdentifierPart(scalars[index]) { index += 1 }
                result.append(PredicateToken(kind: .escapedWord(text(start + 1, index)), start: start, end: index))
            } else if scalar == "\"" || scalar == "'" {
                let (value, next) = try string(from: index)
                index = next
                result.append(PredicateToken(kind: .string(value), start: start, end: index))
            } else if isDigit(scalar) || (scalar == "-" && index + 1 < scalars.count
                        && (isDigit(scalars[index + 1]) || scalars[index + 1] == ".")) || (scalar == "." && index + 1 < scalars.count && isDigit(scalars[index + 1])) {
                index = try number(from: index)
                result.append(PredicateToken(kind: .number(text(start, index)), start: start, end: index))
            } else {
                let two = index + 1 < scalars.count ? text(index, index + 2) : ""
                let aliases = ["==": "==", "!=": "!=", "<>": "!=", "<=": "<=", "=<": "<=", ">=": ">=", "=>": ">=",
                               "&&": "&&", "||": "||"]
                if let symbol = aliases[two] {
                    index += 2
                    result.append(PredicateToken(kind: .symbol(symbol), start: start, end: index))
                } else if "(){},.[]@<>!=".unicodeScalars.contains(scalar) {
                    index += 1
                    let symbol = scalar == "=" ? "==" : String(scalar)
                    result.append(PredicateToken(kind: .symbol(symbol), start: start, end: index))
                } else {
                    throw error(at: start, start + 1, expected: "a key path, an operator or a value",
                                found: "\"\(String(scalar))\"")
                }
            }
        }
    }

    /// What a format placeholder (`%@`, `%K`, `%d`…) or a substitution variable (`$VAR`) pasted from code is, and
    /// what to write instead: the text is the predicate itself, with no arguments to fill it in.
    private func placeholderError(at start: Int) -> PredicateSyntaxError {
        var end = start + 1
        if scalars[start] == "$" {
            while end < scalars.count, Self.isIdentifierPart(scalars[end]) { end += 1 }
            let name = text(start, end)
            return error(at: start, end, expected: "a value: \(name) is a substitution variable, which is not supported; "
                + "write the value in (a string in quotes, a number, CAST(…, \"NSDate\") for a date)")
        }
        // A printf length modifier (`%ld`, `%lld`, `%lu`, `%hd`, `%zd`, `%qd`) and its conversion.
        while end < scalars.count, end - start < 4, "lhqz".unicodeScalars.contains(scalars[end]) { end += 1 }
        if end < scalars.count, scalars[end].properties.isAlphabetic || scalars[end] == "@" { end += 1 }
        let placeholder = text(start, end)
        let conversion = end > start + 1 ? scalars[end - 1] : "%"
        switch conversion {
        case "K":
            return error(at: start, end, expected: "a key path: %K is a format placeholder for one; write the key path in (author.name)")
        case "@", "%":
            return error(at: start, end, expected: "a value: \(placeholder) is a format placeholder; write the value in "
                + "(a string in quotes, a number, CAST(…, \"NSDate\") for a date)")
        default:
            return error(at: start, end, expected: "a value: \(placeholder) is a format placeholder for a number; write the number in")
        }
    }

    private func isDigit(_ scalar: Unicode.Scalar) -> Bool { scalar >= "0" && scalar <= "9" }

    private func text(_ start: Int, _ end: Int) -> String {
        var result = ""
        result.unicodeScalars.append(contentsOf: scalars[start..<end])
        return result
    }

    /// `-?digits(.digits)?([eE][+-]?digits)?`, also `.5`.
    private func number(from start: Int) throws(PredicateSyntaxError) -> Int {
        var index = start
        if scalars[index] == "-" { index += 1 }
        while index < scalars.count, isDigit(scalars[index]) { index += 1 }
        if index < scalars.count, scalars[index] == "." {
            index += 1
            guard index < scalars.count, isDigit(scalars[index]) else {
                throw error(at: start, index, expected: "digits after the decimal point")
            }
            while index < scalars.count, isDigit(scalars[index]) { index += 1 }
        }
        if index < scalars.count, scalars[index] == "e" || scalars[index] == "E" {
            index += 1
            if index < scalars.count, scalars[index] == "+" || scalars[index] == "-" { index += 1 }
            guard index < scalars.count, isDigit(scalars[index]) else {
                throw error(at: start, index, expected: "the exponent's digits")
            }
            while index < scalars.count, isDigit(scalars[index]) { index += 1 }
        }
        if index < scalars.count, Self.isIdentifierStart(scalars[index]) {
            throw error(at: index, index + 1, expected: "a space or an operator after the number",
                        found: "\"\(String(scalars[index]))\"")
        }
        return index
    }

    /// A quoted string with C escapes (`\"`, `\'`, `\\`, `\n`, `\r`, `\t`, `\0`) and `\u{…}` / `\uXXXX`.
    private func string(from start: Int) throws(PredicateSyntaxError) -> (String, Int) {
        let quote = scalars[start]
        var index = start + 1
        var value = String.UnicodeScalarView()
        while true {
            guard index < scalars.count else {
                throw error(at: start, index, expected: "a closing \(quote == "\"" ? "\"" : "'") for the string")
            }
            let scalar = scalars[index]
            if scalar == quote { return (String(value), index + 1) }
            if scalar != "\\" {
                value.append(scalar)
                index += 1
                continue
            }
            index += 1
            guard index < scalars.count else {
                throw error(at: index - 1, index, expected: "an escaped character after \\")
            }
            switch scalars[index] {
            case "\"", "'", "\\": value.append(scalars[index])
            case "n": value.append("\n")
            case "r": value.append("\r")
            case "t": value.append("\t")
            case "0": value.append("\0")
            case "u":
                let (unicode, next) = try unicodeEscape(from: index + 1, escapeStart: index - 1)
                value.append(unicode)
                index = next
                continue
            default:
                throw error(at: index - 1, index + 1, expected: "one of \\\" \\' \\\\ \\n \\r \\t \\0 \\u",
                            found: "\"\\\(String(scalars[index]))\"")
            }
            index += 1
        }
    }

    /// After `\u`: `{1–6 hex digits}` or exactly four hex digits.
    private func unicodeEscape(from start: Int, escapeStart: Int) throws(PredicateSyntaxError) -> (Unicode.Scalar, Int) {
        var index = start
        let braced = index < scalars.count && scalars[index] == "{"
        if braced { index += 1 }
        let digitsStart = index
        while index < scalars.count, index - digitsStart < (braced ? 6 : 4), scalars[index].properties.isASCIIHexDigit { index += 1 }
        let digits = text(digitsStart, index)
        if braced {
            guard index < scalars.count, scalars[index] == "}", !digits.isEmpty else {
                throw error(at: escapeStart, index, expected: "1 to 6 hexadecimal digits and } after \\u{")
            }
            index += 1
        } else if digits.count != 4 {
            throw error(at: escapeStart, index, expected: "4 hexadecimal digits after \\u")
        }
        guard let value = UInt32(digits, radix: 16), let scalar = Unicode.Scalar(value) else {
            throw error(at: escapeStart, index, expected: "a Unicode scalar value (not a surrogate, at most 10FFFF)")
        }
        return (scalar, index)
    }

    func error(at start: Int, _ end: Int, expected: String, found: String? = nil) -> PredicateSyntaxError {
        let found = found ?? (start < scalars.count ? "\"\(text(start, min(max(end, start + 1), scalars.count)))\"" : "the end of the text")
        return PredicateSyntaxError(offset: utf16Offsets[min(start, scalars.count)],
                                    length: utf16Offsets[min(max(end, start), scalars.count)] - utf16Offsets[min(start, scalars.count)],
                                    expected: expected, found: found)
    }
}
