/// Counts the nodes of one report's tree, shared by the decoders that build it, and records which limits were
/// hit so each is reported once.
final class ContentNodeBudget {
    let limits: ContentLimits
    private(set) var used = 0
    private(set) var hitNodeLimit = false
    private(set) var hitDepthLimit = false
    private(set) var hitNestingLimit = false
    private(set) var nestedXMLBytes = 0
    private(set) var hitNestedXMLLimit = false

    init(limits: ContentLimits) {
        self.limits = limits
    }

    /// Takes one node; false (and the limit noted) when the tree is full.
    func take() -> Bool {
        guard used < limits.maxTreeNodes else {
            hitNodeLimit = true
            return false
        }
        used += 1
        return true
    }

    /// Whether a node at `depth` (the root is 0) may be shown; notes the limit when not.
    func allows(depth: Int) -> Bool {
        guard depth < limits.maxDepth else {
            hitDepthLimit = true
            return false
        }
        return true
    }

    /// Whether a property list inside a data value `nesting` levels deep (1: in the value's own data) may be
    /// decoded: at most `maxNestedInspections` levels, as for compressed layers.
    func allows(nesting: Int) -> Bool {
        guard nesting <= limits.maxNestedInspections else {
            hitNestingLimit = true
            return false
        }
        return true
    }

    /// Counts `count` bytes of an XML property list inside a data value about to be parsed; false (and the
    /// limit noted) once they would pass `maxInflatedBytes` in this tree.
    func takeNestedXMLBytes(_ count: Int) -> Bool {
        guard count <= limits.maxInflatedBytes - nestedXMLBytes else {
            hitNestedXMLLimit = true
            return false
        }
        nestedXMLBytes += count
        return true
    }

    /// For parsers that check the depth themselves (JSON keeps validating past it).
    func noteDepthLimit() { hitDepthLimit = true }

    /// The sentences for `ContentReport.truncated`.
    var sentences: [String] {
        var result: [String] = []
        if hitNodeLimit { result.append("tree truncated at \(ContentFormatting.grouped(limits.maxTreeNodes)) nodes") }
        if hitDepthLimit { result.append("tree cut at depth \(limits.maxDepth)") }
        if hitNestingLimit {
            result.append("property lists inside data values decoded \(limits.maxNestedInspections) levels deep")
        }
        if hitNestedXMLLimit {
            result.append("XML property lists inside data values parsed up to \(ContentFormatting.byteCount(limits.maxInflatedBytes))")
        }
        return result
    }
}
