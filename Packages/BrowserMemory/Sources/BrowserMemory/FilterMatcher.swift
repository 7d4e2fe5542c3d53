import BrowserCore

/// Evaluates a `RecordFilter` against a record's values, with search needles folded once per query.
struct FilterMatcher {
    private indirect enum Node {
        case all([Node])
        case any([Node])
        case not(Node)
        case contains(attribute: String, foldedNeedle: String)
        case equals(attribute: String, AttributeValue)
    }

    private let root: Node?

    init(_ filter: RecordFilter?) throws {
        root = try filter.map(Self.compile)
    }

    func matches(_ values: [String: AttributeValue]) -> Bool {
        guard let root else { return true }
        return Self.evaluate(root, values)
    }

    private static func compile(_ filter: RecordFilter) throws -> Node {
        switch filter {
        case .all(let parts): return .all(try parts.map(compile))
        case .any(let parts): return .any(try parts.map(compile))
        case .not(let part): return .not(try compile(part))
        case .comparison(let comparison) where comparison.op == .contains
                && comparison.options == .caseAndDiacriticInsensitive && comparison.keyPath.components.count == 1:
            let attribute = comparison.keyPath.last
            guard case .value(let value) = comparison.operand, let needle = value.searchableText else {
                throw BrowserError.badRequest("contains needs a text value for \(attribute)")
            }
            return .contains(attribute: attribute, foldedNeedle: TextFolding.fold(needle))
        case .comparison(let comparison) where comparison.op == .equals && comparison.options.isEmpty
                && comparison.keyPath.components.count == 1:
            guard case .value(let value) = comparison.operand else {
                throw BrowserError.badRequest("Cannot compare \(comparison.keyPath) with that operand yet")
            }
            return .equals(attribute: comparison.keyPath.last, value)
        case .comparison, .quantified, .count:
            throw BrowserError.badRequest("The in-memory store cannot evaluate this condition yet")
        }
    }

    private static func evaluate(_ node: Node, _ values: [String: AttributeValue]) -> Bool {
        switch node {
        case .all(let parts): return parts.allSatisfy { evaluate($0, values) }
        case .any(let parts): return parts.contains { evaluate($0, values) }
        case .not(let part): return !evaluate(part, values)
        case .contains(let attribute, let needle):
            guard let text = values[attribute]?.searchableText else { return false }
            return TextFolding.containsFolded(text, foldedNeedle: needle)
        case .equals(let attribute, let value):
            return (values[attribute] ?? .null) == value
        }
    }
}
