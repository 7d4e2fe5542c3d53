/// Counts the nodes of one report's tree, shared by the decoders that build it, and records which limits were
/// hit so each is reported once.
final class ContentNodeBudget {
    let limits: ContentLimits
    private(set) var used = 0
    private(set) var hitNodeLimit = false
    private(set) var hitDepthLimit = false

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

    /// For parsers that check the depth themselves (JSON keeps validating past it).
    func noteDepthLimit() { hitDepthLimit = true }

    /// The sentences for `ContentReport.truncated`.
    var sentences: [String] {
        var result: [String] = []
        if hitNodeLimit { result.append("tree truncated at \(ContentFormatting.grouped(limits.maxTreeNodes)) nodes") }
        if hitDepthLimit { result.append("tree cut at depth \(limits.maxDepth)") }
        return result
    }
}
