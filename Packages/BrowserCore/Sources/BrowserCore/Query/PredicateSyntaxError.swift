/// Why predicate text could not be read, and where: what a text mode underlines.
///
/// `offset` and `length` count UTF-16 code units from the start of the text (a browser's `selectionStart` and
/// `String.length` count them too, so the UI marks the span without converting).
public struct PredicateSyntaxError: Error, Sendable, Hashable, CustomStringConvertible {
    public var offset: Int
    public var length: Int
    /// What would have been accepted here ("a value after BEGINSWITH").
    public var expected: String
    /// What was there (a quoted token, or "the end of the text").
    public var found: String

    public init(offset: Int, length: Int, expected: String, found: String) {
        self.offset = offset
        self.length = length
        self.expected = expected
        self.found = found
    }

    /// `at 14: expected a value after BEGINSWITH, found the end of the text`.
    public var description: String { "at \(offset): expected \(expected), found \(found)" }
}
