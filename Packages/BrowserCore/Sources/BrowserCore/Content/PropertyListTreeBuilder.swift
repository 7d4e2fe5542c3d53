internal import BrowserFormats
internal import Foundation

/// Turns a property-list object graph into `ContentNode`s within the node budget and depth limit. A container
/// that is one of its own ancestors is shown once more as a leaf marked "cycle"; a reference that points
/// outside the object table becomes an "invalid" node and a problem. A data object whose bytes are a property
/// list gets that list's tree as its child (`PropertyListTree.nested`).
final class PropertyListTreeBuilder<Graph: PropertyListGraph> {
    let graph: Graph
    let budget: ContentNodeBudget
    /// Data values this list is inside (0: the value itself).
    let nesting: Int
    private(set) var problems: [String] = []
    /// References of the containers being built, outermost first.
    private var ancestors: Set<Int> = []

    init(graph: Graph, budget: ContentNodeBudget, nesting: Int = 0) {
        self.graph = graph
        self.budget = budget
        self.nesting = nesting
    }

    func note(_ problem: String) {
        if problems.count < 10, !problems.contains(problem) { problems.append(problem) }
    }

    /// The node of object `reference`, or nil when the tree is full.
    func node(_ reference: Int, label: String?, depth: Int) -> ContentNode? {
        guard budget.take() else { return nil }
        guard let object = graph.object(reference) else {
            note("property list refers to a missing or malformed object (#\(reference))")
            return ContentNode(label: label, type: "invalid", value: "object #\(reference) could not be read")
        }
        if let scalar = scalarNode(object, label: label) {
            guard case .data = object else { return scalar }
            return withNestedPropertyList(scalar, reference: reference, depth: depth)
        }
        return containerNode(object, reference: reference, label: label, depth: depth) { child, childLabel, childDepth in
            self.node(child, label: childLabel, depth: childDepth)
        }
    }

    /// `node` (data object `reference`'s) with the tree of the property list its bytes hold as its child, when
    /// they hold one.
    private func withNestedPropertyList(_ node: ContentNode, reference: Int, depth: Int) -> ContentNode {
        var node = node
        graph.withData(reference) { bytes in
            guard PropertyListTree.looksLikePropertyList(bytes) else { return }
            guard budget.allows(nesting: nesting + 1) else {
                node.note = "nesting limit"
                return
            }
            guard budget.allows(depth: depth + 1) else {
                node.note = "depth limit"
                return
            }
            guard let nested = PropertyListTree.nested(bytes, budget: budget, nesting: nesting + 1, depth: depth + 1) else { return }
            for problem in nested.problems { note("inside a data value: " + problem) }
            if let root = nested.root { node.children = [root] }
        }
        return node
    }

    /// Scalars of any graph, nil for containers and UIDs' targets (a UID stays a "uid" node here).
    func scalarNode(_ object: PropertyListObject, label: String?) -> ContentNode? {
        switch object {
        case .null: ContentNode(label: label, type: "null")
        case .bool(let value): ContentNode(label: label, type: "bool", value: value ? "true" : "false")
        case .integer(let text): ContentNode(label: label, type: "int", value: text)
        case .real(let value): ContentNode(label: label, type: "real", value: "\(value)")
        case .date(let seconds):
            ContentNode(label: label, type: "date", value: ISO8601Timestamp.string(from: Date(timeIntervalSinceReferenceDate: seconds)))
        case .data(let count, let head):
            ContentNode(label: label, type: "data", value: "\(ContentFormatting.counted(count, "byte")): \(hexPreview(head, count: count))")
        case .string(let text, _): ContentNode(label: label, type: "string", value: text)
        case .uid(let value): ContentNode(label: label, type: "uid", value: "#\(value)")
        case .array, .set, .dictionary: nil
        }
    }

    /// Hex of the first bytes of a data value of `count` bytes, from the `head` its graph read.
    private func hexPreview(_ head: [UInt8], count: Int) -> String {
        let shown = head.withUnsafeBytes { ContentFormatting.hexPreview($0, range: 0..<$0.count, limit: budget.limits.maxStringPreview) }
        return head.count < count && !shown.hasSuffix("…") ? shown + " …" : shown
    }

    /// An array, set or dictionary whose children `child` builds (plain values here, resolved archive
    /// objects in `KeyedArchiveTreeBuilder`). The budget's node for the container is already taken.
    func containerNode(
        _ object: PropertyListObject, reference: Int, label: String?, depth: Int,
        child: (Int, String?, Int) -> ContentNode?
    ) -> ContentNode {
        let type: String
        let list: PropertyListObject.References
        var keys: PropertyListObject.References?
        switch object {
        case .array(let references): (type, list) = ("array", references)
        case .set(let references): (type, list) = ("set", references)
        case .dictionary(let keyReferences, let values): (type, list, keys) = ("dict", values, keyReferences)
        default: return ContentNode(label: label, type: "invalid")
        }
        var node = ContentNode(label: label, type: type, childCount: list.count)
        if ancestors.contains(reference) {
            node.note = "cycle"
            node.value = "contains itself (object #\(reference))"
            note("property list contains a cycle (object #\(reference) contains itself)")
            return node
        }
        guard budget.allows(depth: depth + 1) || list.count == 0 else {
            node.note = "depth limit"
            return node
        }
        ancestors.insert(reference)
        defer { ancestors.remove(reference) }
        for position in 0..<list.count {
            guard let childReference = graph.reference(in: list, at: position) else {
                note("property list container holds a reference outside the object table")
                continue
            }
            var childLabel = String(position)
            if let keys {
                let keyObject = graph.reference(in: keys, at: position).flatMap(graph.object)
                childLabel = graph.string(keyObject) ?? "?"
            }
            guard let built = child(childReference, childLabel, depth + 1) else { break }
            node.children.append(built)
        }
        if node.children.count == list.count { node.childCount = nil }
        return node
    }
}
