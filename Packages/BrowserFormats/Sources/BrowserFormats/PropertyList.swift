/// Reads a whole property list into a `PropertyListValue`, through the same readers the object-by-object
/// walks use (`BinaryPropertyList`, `XMLPropertyList`), with every string and data value whole.
public enum PropertyList {
    /// Containers nest at most this deep; deeper data is refused rather than exhausting the stack.
    public static let maximumDepth = 512

    /// The binary (`bplist0`) or XML property list `bytes` hold, whichever it is.
    public static func read(_ bytes: [UInt8]) throws(PropertyListError) -> PropertyListValue {
        let result = bytes.withUnsafeBytes { raw -> Result<PropertyListValue, PropertyListError> in
            if raw.matches("bplist0") {
                return BinaryPropertyList.open(raw, previewLimit: .max).flatMap(tree)
            }
            // Every object takes at least a few bytes of markup, so the byte count bounds the object count.
            return XMLPropertyList.parse(raw, maximumObjects: raw.count, previewLimit: .max).flatMap(tree)
        }
        return try result.get()
    }

    private static func tree(of graph: some PropertyListGraph) -> Result<PropertyListValue, PropertyListError> {
        var builder = ValueBuilder(graph: graph)
        do {
            return .success(try builder.value(graph.topReference, depth: 0))
        } catch {
            return .failure(error)
        }
    }

    /// Builds values object by object; an object referred to from many places is built once (the tree shares it).
    private struct ValueBuilder<Graph: PropertyListGraph> {
        let graph: Graph
        var built: [Int: PropertyListValue] = [:]
        var inProgress: Set<Int> = []

        mutating func value(_ reference: Int, depth: Int) throws(PropertyListError) -> PropertyListValue {
            if let known = built[reference] { return known }
            guard let object = graph.object(reference) else {
                throw PropertyListError("property list refers to a missing or malformed object (#\(reference))")
            }
            guard depth < PropertyList.maximumDepth, !inProgress.contains(reference) else {
                throw PropertyListError("property list nests too deeply or contains itself")
            }
            inProgress.insert(reference)
            defer { inProgress.remove(reference) }
            let value: PropertyListValue
            switch object {
            case .null: value = .null
            case .bool(let flag): value = .boolean(flag)
            case .integer(let text):
                // Binary lists write 128-bit integers for unsigned values above Int64.max: their low 64 bits.
                guard let number = Int64(text) ?? UInt64(text).map(Int64.init(bitPattern:)) else {
                    throw PropertyListError("property list integer \(text) does not fit 64 bits")
                }
                value = .integer(number)
            case .real(let number): value = .real(number)
            case .date(let seconds): value = .date(seconds)
            case .data(_, let bytes): value = .data(bytes)
            case .string(let text, _): value = .string(text)
            case .uid(let index): value = .uid(index)
            case .array(let list), .set(let list):
                var items: [PropertyListValue] = []
                items.reserveCapacity(list.count)
                for position in 0..<list.count {
                    items.append(try self.value(try member(list, position), depth: depth + 1))
                }
                value = .array(items)
            case .dictionary(let keys, let values):
                var entries: [String: PropertyListValue] = [:]
                entries.reserveCapacity(keys.count)
                for position in 0..<keys.count {
                    guard case .string(let name, _)? = graph.object(try member(keys, position)) else {
                        throw PropertyListError("property list dictionary has a key that is not a string")
                    }
                    entries[name] = try self.value(try member(values, position), depth: depth + 1)
                }
                value = .dictionary(entries)
            }
            built[reference] = value
            return value
        }

        private func member(_ list: PropertyListObject.References, _ position: Int) throws(PropertyListError) -> Int {
            guard let reference = graph.reference(in: list, at: position) else {
                throw PropertyListError("property list container holds a reference outside the object table")
            }
            return reference
        }
    }
}
