/// An `NSKeyedArchiver` archive read from a property list: `$objects` holds every object, and objects refer to
/// each other through UIDs (indexes into `$objects`); `$top` names the root. Each object is a dictionary with a
/// `$class` UID pointing at `{ $classname, $classes }`. Collections keep their members under `NS.objects`
/// (and `NS.keys` for dictionaries); the string `"$null"` stands for nil.
///
/// Reading it directly (rather than through `NSKeyedUnarchiver`) works the same on every platform and never
/// instantiates classes named by the file.
public struct KeyedArchive: Sendable {
    public let objects: [PropertyListValue]
    public let top: [String: PropertyListValue]

    public init(_ plist: PropertyListValue) throws(PropertyListError) {
        guard let archiver = plist["$archiver"]?.string, archiver == "NSKeyedArchiver",
              let objects = plist["$objects"]?.array, let top = plist["$top"]?.dictionary
        else {
            throw PropertyListError("not an NSKeyedArchiver archive")
        }
        self.objects = objects
        self.top = top
    }

    /// The root object (`$top.root`).
    public var root: PropertyListValue? {
        top["root"].flatMap(resolve)
    }

    /// Follows a UID to its object; other values are returned as they are; `"$null"` and dangling UIDs are nil.
    public func resolve(_ value: PropertyListValue) -> PropertyListValue? {
        var current = value
        var hops = 0
        while case .uid(let index) = current {
            guard index >= 0, index < objects.count, hops < 16 else { return nil }
            current = objects[index]
            hops += 1
        }
        if case .string("$null") = current { return nil }
        return current
    }

    /// The value for `key` of an archived object, resolved.
    public func value(_ object: PropertyListValue?, _ key: String) -> PropertyListValue? {
        object?[key].flatMap(resolve)
    }

    public func string(_ object: PropertyListValue?, _ key: String) -> String? {
        guard let value = value(object, key) else { return nil }
        if let text = value.string { return text }
        // NSMutableString and friends archive as { NS.string: … }.
        return value["NS.string"].flatMap(resolve)?.string
    }

    public func integer(_ object: PropertyListValue?, _ key: String) -> Int64? {
        value(object, key)?.integer
    }

    public func boolean(_ object: PropertyListValue?, _ key: String) -> Bool? {
        value(object, key)?.boolean
    }

    /// The class name of an archived object (`$class` → `$classname`).
    public func className(of object: PropertyListValue?) -> String? {
        value(object, "$class")?["$classname"]?.string
    }

    /// The members of an archived array or set (`NS.objects`), resolved; nil members are dropped.
    public func members(of collection: PropertyListValue?) -> [PropertyListValue] {
        guard let items = collection?["NS.objects"]?.array else { return [] }
        return items.compactMap(resolve)
    }

    /// The entries of an archived dictionary (`NS.keys` / `NS.objects`) whose keys are strings, in archive order.
    public func entries(of dictionary: PropertyListValue?) -> [(key: String, value: PropertyListValue)] {
        guard let keys = dictionary?["NS.keys"]?.array, let values = dictionary?["NS.objects"]?.array else { return [] }
        var result: [(key: String, value: PropertyListValue)] = []
        for (key, value) in zip(keys, values) {
            guard let name = resolve(key).flatMap({ $0.string ?? $0["NS.string"].flatMap(resolve)?.string }),
                  let resolved = resolve(value)
            else { continue }
            result.append((name, resolved))
        }
        return result
    }
}
