internal import BrowserFormats

/// Resolves an `NSKeyedArchiver` archive into a tree of its objects with their class names.
///
/// An archive is a property list: `$archiver` = "NSKeyedArchiver", `$top` naming the root object by UID, and
/// `$objects`, the table the UIDs index. Each archived object is a dictionary whose `$class` UID leads to a
/// class description (`$classname`, `$classes`); "$null" is nil. Collections are shown as what they hold
/// (`NS.objects`, and `NS.keys` for dictionaries), strings as their text. An object that is its own ancestor
/// is shown as a leaf marked "cycle"; shared objects appear wherever they are referenced, within the budget.
final class KeyedArchiveTreeBuilder<Graph: PropertyListGraph> {
    private let plist: PropertyListTreeBuilder<Graph>
    private let objects: PropertyListObject.References
    private let top: PropertyListObject
    private var classNames: [Int: String] = [:]
    private var ancestors: Set<Int> = []

    var problems: [String] { plist.problems }

    /// nil when the graph's top object is not a keyed archive.
    init?(plist: PropertyListTreeBuilder<Graph>) {
        let graph = plist.graph
        let root = graph.object(graph.topReference)
        guard graph.string(graph.entry("$archiver", in: root)) == "NSKeyedArchiver",
              case .array(let objects)? = graph.entry("$objects", in: root),
              let top = graph.entry("$top", in: root), case .dictionary = top
        else { return nil }
        self.plist = plist
        self.objects = objects
        self.top = top
    }

    /// The tree of the root object (or of every `$top` entry when there is no "root"), its root at `depth`, and
    /// the root's class.
    func build(label: String? = nil, depth: Int = 0) -> (tree: ContentNode?, rootClass: String?) {
        let graph = plist.graph
        if case .uid(let root)? = graph.entry("root", in: top) {
            return (archived(root, label: label, depth: depth), className(ofObject: root))
        }
        guard plist.budget.take() else { return (nil, nil) }
        let tree = plist.containerNode(top, reference: -1, label: label, depth: depth) { reference, label, depth in
            self.value(reference, label: label, depth: depth)
        }
        return (tree, nil)
    }

    /// A value inside an archived object: a UID is followed, an array of UIDs resolved element by element,
    /// anything else shown as it is.
    private func value(_ reference: Int, label: String?, depth: Int) -> ContentNode? {
        let graph = plist.graph
        switch graph.object(reference) {
        case .uid(let uid)?: return archived(uid, label: label, depth: depth)
        case let container? where plist.scalarNode(container, label: label) == nil:
            guard plist.budget.take() else { return nil }
            return plist.containerNode(container, reference: reference, label: label, depth: depth) { child, childLabel, childDepth in
                self.value(child, label: childLabel, depth: childDepth)
            }
        default: return plist.node(reference, label: label, depth: depth)
        }
    }

    /// Archived object number `uid` of `$objects`.
    private func archived(_ uid: Int, label: String?, depth: Int) -> ContentNode? {
        let graph = plist.graph
        guard let reference = graph.reference(in: objects, at: uid), let object = graph.object(reference) else {
            guard plist.budget.take() else { return nil }
            plist.note("keyed archive refers to object #\(uid), which is not in $objects")
            return ContentNode(label: label, type: "invalid", value: "UID #\(uid) is not in $objects")
        }
        if case .string("$null", _) = object {
            guard plist.budget.take() else { return nil }
            return ContentNode(label: label, type: "null")
        }
        guard case .uid(let classUID)? = graph.entry("$class", in: object) else {
            // A plain value stored in $objects; a UID there is shown, not followed (it could lead to itself).
            if case .uid = object { return plist.node(reference, label: label, depth: depth) }
            return value(reference, label: label, depth: depth)
        }
        guard plist.budget.take() else { return nil }
        let name = className(classUID)
        var node = ContentNode(label: label, type: "object(\(name))")
        if ancestors.contains(uid) {
            node.note = "cycle"
            node.value = "refers back to object #\(uid)"
            plist.note("keyed archive contains a cycle (object #\(uid) refers to itself)")
            return node
        }
        guard plist.budget.allows(depth: depth + 1) else {
            node.note = "depth limit"
            return node
        }
        ancestors.insert(uid)
        defer { ancestors.remove(uid) }
        if let text = graph.string(graph.entry("NS.string", in: object)) {
            node.value = text
            return node
        }
        if case .real(let seconds)? = graph.entry("NS.time", in: object),
           let date = plist.scalarNode(.date(seconds), label: nil) {
            node.value = date.value
            return node
        }
        guard case .dictionary(let keys, let values) = object else { return node }
        let keyReferences = graph.entry("NS.keys", in: object)
        let valueReferences = graph.entry("NS.objects", in: object)
        if case .array(let elements)? = valueReferences {
            // NSArray, NSSet, NSDictionary and their mutable kin: show the elements (keyed by the keys).
            var keyList: PropertyListObject.References?
            if case .array(let list)? = keyReferences { keyList = list }
            node.childCount = elements.count
            for position in 0..<elements.count {
                guard let element = graph.reference(in: elements, at: position) else { continue }
                var childLabel = String(position)
                if let keyList, let keyReference = graph.reference(in: keyList, at: position) {
                    childLabel = keyLabel(keyReference)
                }
                guard let child = value(element, label: childLabel, depth: depth + 1) else { break }
                node.children.append(child)
            }
        } else {
            for position in 0..<keys.count {
                guard let keyReference = graph.reference(in: keys, at: position),
                      let key = graph.string(graph.object(keyReference)), key != "$class",
                      let valueReference = graph.reference(in: values, at: position)
                else { continue }
                guard let child = value(valueReference, label: key, depth: depth + 1) else { break }
                node.children.append(child)
            }
            node.childCount = nil
        }
        if node.childCount == node.children.count { node.childCount = nil }
        return node
    }

    /// A dictionary key's label: the key's text when it is a string (directly or as an archived NSString).
    private func keyLabel(_ reference: Int) -> String {
        let graph = plist.graph
        var object = graph.object(reference)
        if case .uid(let uid)? = object, let target = graph.reference(in: objects, at: uid) { object = graph.object(target) }
        if let text = graph.string(object) { return text }
        if let text = graph.string(graph.entry("NS.string", in: object)) { return text }
        if case .integer(let text)? = object { return text }
        return "?"
    }

    /// The class name of archived object `uid` (nil when it is not an object).
    private func className(ofObject uid: Int) -> String? {
        let graph = plist.graph
        guard let reference = graph.reference(in: objects, at: uid),
              case .uid(let classUID)? = graph.entry("$class", in: graph.object(reference))
        else { return nil }
        return className(classUID)
    }

    /// `$classname` of the class description `classUID` names ("?" when unreadable).
    private func className(_ classUID: Int) -> String {
        if let known = classNames[classUID] { return known }
        let graph = plist.graph
        let description = graph.reference(in: objects, at: classUID).flatMap(graph.object)
        let name = graph.string(graph.entry("$classname", in: description)) ?? "?"
        if name == "?" { plist.note("keyed archive class #\(classUID) has no $classname") }
        classNames[classUID] = name
        return name
    }
}
