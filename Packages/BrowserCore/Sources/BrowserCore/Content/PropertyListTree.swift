internal import BrowserFormats

/// The tree of one property list, a keyed archive's objects when it is one: what a property-list value's
/// report shows, and what a `data` node inside one shows when its bytes are a property list themselves (a
/// keyed archive keeps an archived `Data` so, and apps store plists inside plists).
///
/// A nested list is decoded into the same tree: the same node budget and depth limit, one level deeper than
/// its data node, and at most `ContentLimits.maxNestedInspections` lists inside one another (each level costs
/// at least a node and a level, so a list that holds itself many times over stops at those limits too). An
/// XML list is parsed whole each time it is shown, and a binary list may refer to the same data object from
/// many places, so the bytes of nested XML lists parsed in one report count against `maxInflatedBytes`.
struct PropertyListTree {
    var root: ContentNode?
    /// Keyed archives: the root object's class.
    var archivedClass: String?
    var isKeyedArchive = false
    var problems: [String] = []

    /// `graph`'s tree with its root at `depth`; `nesting` counts the data values it is inside.
    static func build<Graph: PropertyListGraph>(
        _ graph: Graph, budget: ContentNodeBudget, nesting: Int, label: String? = nil, depth: Int = 0
    ) -> PropertyListTree {
        let builder = PropertyListTreeBuilder(graph: graph, budget: budget, nesting: nesting)
        if let archive = KeyedArchiveTreeBuilder(plist: builder) {
            let (tree, rootClass) = archive.build(label: label, depth: depth)
            return PropertyListTree(root: tree, archivedClass: rootClass, isKeyedArchive: true, problems: archive.problems)
        }
        let tree = builder.node(graph.topReference, label: label, depth: depth)
        return PropertyListTree(root: tree, problems: builder.problems)
    }

    /// A binary list (`bplist0`), or text that `MarkupSniffer` calls an XML property list.
    static func looksLikePropertyList(_ bytes: UnsafeRawBufferPointer) -> Bool {
        if bytes.matches("bplist0") { return true }
        var start = bytes.matches("\u{FEFF}") ? 3 : 0
        while let byte = bytes.byte(at: start), [0x20, 0x09, 0x0A, 0x0D].contains(byte) { start += 1 }
        return MarkupSniffer.classify(bytes, start: start) == .xmlPlist
    }

    /// The tree of the property list `bytes` hold (which `looksLikePropertyList` accepted), its root labelled
    /// with its format, at `depth`; nil when it does not parse (the data node then stays a preview) or when
    /// the nested XML bytes are spent.
    static func nested(_ bytes: UnsafeRawBufferPointer, budget: ContentNodeBudget, nesting: Int, depth: Int) -> PropertyListTree? {
        let limits = budget.limits
        if bytes.matches("bplist0") {
            guard case .success(let graph) = BinaryPropertyList.open(bytes, previewLimit: limits.maxStringPreview) else { return nil }
            return labelled(build(graph, budget: budget, nesting: nesting, depth: depth), format: "binary plist")
        }
        guard budget.takeNestedXMLBytes(bytes.count),
              case .success(let graph) = XMLPropertyList.parse(
                  bytes, maximumObjects: limits.maxTreeNodes * 4, previewLimit: limits.maxStringPreview, keepData: looksLikePropertyList)
        else { return nil }
        return labelled(build(graph, budget: budget, nesting: nesting, depth: depth), format: "XML plist")
    }

    private static func labelled(_ tree: PropertyListTree, format: String) -> PropertyListTree {
        var tree = tree
        tree.root?.label = tree.isKeyedArchive ? "keyed archive" : format
        return tree
    }
}
