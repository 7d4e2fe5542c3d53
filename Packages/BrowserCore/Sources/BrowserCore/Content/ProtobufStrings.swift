/// The readable strings of one protobuf message tree, longest first: a schema-less message shows its text as
/// field numbers nested messages deep (Apple Notes keeps a note's body at 2.3.2), so the report lists them
/// up front, each labelled with its field path so it can be found in the tree.
///
/// Bounded: at most `maximumListed` strings, each the field's preview (`ContentLimits.maxStringPreview`). The
/// list's nodes come from the tree's budget as strings are found (its own node with the first, one per
/// string until it is full), so the tree stays within `maxTreeNodes`. Strings are collected as the fields
/// are decoded, so fields past the node or depth limit are not searched.
final class ProtobufStrings {
    /// Strings listed in the "strings" node.
    static let maximumListed = 8
    /// Characters of the quote in the report's headline.
    static let quoteLength = 40

    private struct Found {
        var path: String
        var byteCount: Int
        var preview: String
    }

    private let budget: ContentNodeBudget
    /// Whether the budget gave the "strings" node itself.
    private var hasListNode = false
    /// Strings the budget gave nodes for (at most `maximumListed`).
    private var capacity = 0
    /// The longest strings so far, longest first (the earlier one first among equals).
    private var longest: [Found] = []
    private(set) var total = 0

    init(budget: ContentNodeBudget) {
        self.budget = budget
    }

    func add(path: String, byteCount: Int, preview: String) {
        total += 1
        if capacity < Self.maximumListed {
            if !hasListNode { hasListNode = budget.take() }
            if hasListNode, budget.take() { capacity += 1 }
        }
        let position = longest.firstIndex { $0.byteCount < byteCount } ?? longest.count
        guard position < capacity else { return }
        longest.insert(Found(path: path, byteCount: byteCount, preview: preview), at: position)
        if longest.count > capacity { longest.removeLast() }
    }

    /// The "strings" node, nil when the message holds no string (or the tree was full before the first).
    func node() -> ContentNode? {
        guard hasListNode, !longest.isEmpty else { return nil }
        let children = longest.map { ContentNode(label: $0.path, type: "string", value: $0.preview) }
        return ContentNode(
            label: "strings", type: "strings", children: children, childCount: total > children.count ? total : nil)
    }

    /// The longest string, on one line and short, for the report's headline.
    var quote: String? {
        guard let first = longest.first else { return nil }
        let line = first.preview.split(whereSeparator: \.isWhitespace).joined(separator: " ")
        return line.isEmpty ? nil : ContentFormatting.preview(line, limit: Self.quoteLength)
    }
}
