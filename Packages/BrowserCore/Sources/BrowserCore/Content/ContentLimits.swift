/// Every bound `ContentInspector` works within, so a hostile value (a decompression bomb, a property list that
/// contains itself, JSON nested a million deep) costs bounded time and memory. Each limit hit is reported in
/// `ContentReport.truncated` as a sentence.
public struct ContentLimits: Sendable, Equatable {
    /// Bytes a gzip or zlib stream may inflate to; inflating stops there (decompression bombs). Also the bytes
    /// of XML property lists inside data values parsed for one tree (`PropertyListTree`).
    public var maxInflatedBytes: Int
    /// Nodes of one `ContentReport.tree` (each nested inspection has its own tree and count).
    public var maxTreeNodes: Int
    /// Levels of `ContentReport.tree`; deeper containers are still parsed (and validated) but not shown.
    public var maxDepth: Int
    /// Characters of a string or data preview in a tree node.
    public var maxStringPreview: Int
    /// Characters of `ContentReport.text` for the text kinds.
    public var maxTextPreview: Int
    /// Compressed layers looked into, one inside the other (gzip inside gzip…); likewise property lists decoded
    /// inside data values, one inside the other.
    public var maxNestedInspections: Int

    public init(
        maxInflatedBytes: Int = 64 << 20,
        maxTreeNodes: Int = 10_000,
        maxDepth: Int = 64,
        maxStringPreview: Int = 256,
        maxTextPreview: Int = 65_536,
        maxNestedInspections: Int = 4
    ) {
        self.maxInflatedBytes = max(0, maxInflatedBytes)
        self.maxTreeNodes = max(1, maxTreeNodes)
        self.maxDepth = max(1, maxDepth)
        self.maxStringPreview = max(1, maxStringPreview)
        self.maxTextPreview = max(1, maxTextPreview)
        self.maxNestedInspections = max(0, maxNestedInspections)
    }
}
