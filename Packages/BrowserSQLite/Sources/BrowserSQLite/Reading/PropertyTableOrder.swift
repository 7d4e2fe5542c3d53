/// The enumeration order of the hash table in which Core Data keeps an entity's properties by name, replayed
/// (format doc §11.1): the order in which the to-many relationships take their bits in `ACHANGE.ZCOLUMNS`.
///
/// The table is Foundation's mutable dictionary: open addressing with linear probing, a key going to bucket
/// `hash % buckets` (the next free one on a collision), the hash being CFString's. It grows to the next size when
/// an insertion would pass its capacity, reinserting its keys in bucket order. Nothing of this is documented API,
/// so a future OS may change it; `ChangedPropertySlots` treats every bitmap that does not fit as unknown.
struct PropertyTableOrder: Sendable {
    /// CFBasicHash's sizes: at most `capacity` keys in `buckets` buckets. Past the last row (an entity with more
    /// than 672 keys, which no model seen comes near) the order is not replayed.
    static let sizes: [(capacity: Int, buckets: Int)] = [
        (3, 3), (6, 7), (11, 13), (19, 23), (32, 41), (52, 71), (85, 127), (118, 191), (155, 251), (237, 383),
        (390, 631), (672, 1087),
    ]
    /// CFString hashes strings up to this many UTF-16 units whole; longer ones by parts not replayed here.
    static let longestHashedWhole = 96

    private var buckets: [String?] = []
    private var count = 0

    /// False once a key could not be placed (too many keys, a key too long to hash): the order is then unknown.
    private(set) var isReplayable = true

    /// A table whose order is known to be unknown (an entity whose keys cannot all be named).
    static var unreplayable: PropertyTableOrder {
        var table = PropertyTableOrder()
        table.isReplayable = false
        return table
    }

    /// The keys in enumeration (bucket) order.
    var keys: [String] { buckets.compactMap { $0 } }

    mutating func insert(_ key: String) {
        guard isReplayable else { return }
        guard key.utf16.count <= Self.longestHashedWhole else {
            isReplayable = false
            return
        }
        if count + 1 > (Self.sizes.first { $0.buckets == buckets.count }?.capacity ?? 0) {
            guard let next = Self.sizes.first(where: { $0.capacity >= count + 1 }) else {
                isReplayable = false
                return
            }
            let kept = keys
            buckets = Array(repeating: nil, count: next.buckets)
            for key in kept { place(key) }
        }
        place(key)
        count += 1
    }

    private mutating func place(_ key: String) {
        var bucket = Int(Self.hash(key) % UInt64(buckets.count))
        while buckets[bucket] != nil { bucket = (bucket + 1) % buckets.count }
        buckets[bucket] = key
    }

    /// CFString's hash of a string of at most 96 UTF-16 units (`__CFStrHashCharacters`), modulo 2^64.
    static func hash(_ text: String) -> UInt64 {
        let units = Array(text.utf16)
        let length = UInt64(units.count)
        var result = length
        var index = 0
        while index + 4 <= units.count {
            result = result &* 67_503_105 &+ UInt64(units[index]) &* 16_974_593 &+ UInt64(units[index + 1]) &* 66_049
                &+ UInt64(units[index + 2]) &* 257 &+ UInt64(units[index + 3])
            index += 4
        }
        while index < units.count {
            result = result &* 257 &+ UInt64(units[index])
            index += 1
        }
        return result &+ (result << (length & 31))
    }
}
