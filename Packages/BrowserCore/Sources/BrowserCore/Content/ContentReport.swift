/// What `ContentInspector` found in a value: its kind, a one-line summary for a grid cell and, depending on the
/// kind, dimensions, a page count, a decoded tree, decoded text or the report of what a compressed stream holds.
public struct ContentReport: Codable, Sendable, Equatable {
    public var kind: ContentKind
    /// Bytes of the value: `totalSize` when the caller passed only the head of a larger value.
    public var size: Int
    /// Bytes actually inspected (less than `size` when only a head was passed).
    public var inspectedSize: Int
    /// One line, e.g. "PNG 640×480 · 48 KB", "gzip → protobuf · 2.1 KB", "JSON object (12 keys) · 3.4 KB".
    public var summary: String
    /// Set only for raster images whose header really parsed (see `ContentKind.rasterMIMEType`): the server
    /// may serve such a value with its own Content-Type; everything else goes out as an attachment.
    public var mimeType: String?
    public var image: ImageInfo?
    /// PDF: pages counted (`/Type /Page` objects), nil when none could be counted.
    public var pageCount: Int?
    /// JSON, property lists, keyed archives (objects resolved, class names shown), protobuf fields.
    public var tree: ContentNode?
    /// Text kinds (and XML, HTML, RTF, URL): the decoded text, at most `ContentLimits.maxTextPreview` characters.
    public var text: String?
    /// gzip and zlib: what the inflated bytes are.
    public var inner: ContentReportBox?
    /// gzip and zlib: bytes inflated (up to `ContentLimits.maxInflatedBytes`).
    public var inflatedSize: Int?
    /// Keyed archives: the root object's class, e.g. "UIColor", "NSAttributedString".
    public var archivedClass: String?
    /// Every limit hit, as a sentence: "tree truncated at 10,000 nodes", "inflated output stopped at 64 MB".
    public var truncated: [String]
    /// What is wrong with the value: "PNG header parsed but the file is truncated", "gzip CRC mismatch".
    public var problems: [String]

    public init(
        kind: ContentKind, size: Int, inspectedSize: Int? = nil, summary: String = "", mimeType: String? = nil,
        image: ImageInfo? = nil, pageCount: Int? = nil, tree: ContentNode? = nil, text: String? = nil,
        inner: ContentReport? = nil, inflatedSize: Int? = nil, archivedClass: String? = nil,
        truncated: [String] = [], problems: [String] = []
    ) {
        self.kind = kind
        self.size = size
        self.inspectedSize = inspectedSize ?? size
        self.summary = summary
        self.mimeType = mimeType
        self.image = image
        self.pageCount = pageCount
        self.tree = tree
        self.text = text
        self.inner = inner.map(ContentReportBox.init)
        self.inflatedSize = inflatedSize
        self.archivedClass = archivedClass
        self.truncated = truncated
        self.problems = problems
    }
}
