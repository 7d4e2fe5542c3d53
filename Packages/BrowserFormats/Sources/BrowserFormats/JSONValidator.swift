/// Checks one JSON container (RFC 8259) without building anything: how `JSONTreeParser` gets past the containers
/// its tree does not show, which in a large document are nearly all of it (a 10 MB array shows its first 2,000
/// nodes; the other 130,000 objects must still be valid for the value to be JSON).
///
/// One loop over the bytes with a stack of the open containers, no value or node made, so it costs a few
/// nanoseconds a byte. Its verdicts are the parser's: the same grammar, and input that ends inside a container
/// valid so far is `.ended`, not `.invalid` (what a head of a larger value looks like). The caller has checked the
/// bytes are valid UTF-8.
public struct JSONValidator {
    public enum Stop: Error {
        case ended
        case invalid
    }

    private let bytes: UnsafeRawBufferPointer
    private var index = 0
    /// The open containers, true for an object: kept from one container to the next, so checking the 130,000
    /// objects of a large array allocates nothing.
    private var open: [Bool] = []

    public init(_ bytes: UnsafeRawBufferPointer) {
        self.bytes = bytes
    }

    /// Validates the container whose `{` or `[` is at `start`, and returns the index just past its closing bracket.
    /// `enclosingDepth` is how many containers hold it; `exceededDepth` is set when a container (itself included)
    /// lies deeper than `maxDepth`, also when the input ends or turns invalid after that.
    public mutating func skipContainer(
        at start: Int, enclosingDepth: Int, maxDepth: Int, exceededDepth: inout Bool
    ) throws(Stop) -> Int {
        index = start
        open.removeAll(keepingCapacity: true)
        try run(deepest: maxDepth - enclosingDepth, exceededDepth: &exceededDepth)
        return index
    }

    /// `deepest`: the open containers allowed before the depth limit is passed.
    private mutating func run(deepest: Int, exceededDepth: inout Bool) throws(Stop) {
        var byte = bytes[index]
        value: while true {
            // A value starts at `index` (`byte`, not a space).
            switch byte {
            case UInt8(ascii: "{"), UInt8(ascii: "["):
                index += 1
                let isObject = byte == UInt8(ascii: "{")
                open.append(isObject)
                if open.count > deepest { exceededDepth = true }
                let first = try nonSpace()
                if first == (isObject ? UInt8(ascii: "}") : UInt8(ascii: "]")) {
                    index += 1
                    open.removeLast()
                } else {
                    if isObject { try key(first) }
                    byte = try nonSpace()
                    continue value
                }
            case UInt8(ascii: "\""): try string()
            case UInt8(ascii: "t"): try literal("true")
            case UInt8(ascii: "f"): try literal("false")
            case UInt8(ascii: "n"): try literal("null")
            default: try number()
            }
            // A value ended: a separator or the close of its container follows.
            while let isObject = open.last {
                let separator = try nonSpace()
                index += 1
                if separator == UInt8(ascii: ",") {
                    if isObject { try key(try nonSpace()) }
                    byte = try nonSpace()
                    continue value
                }
                guard separator == (isObject ? UInt8(ascii: "}") : UInt8(ascii: "]")) else { throw .invalid }
                open.removeLast()
            }
            return
        }
    }

    @inline(__always)
    private mutating func nonSpace() throws(Stop) -> UInt8 {
        while index < bytes.count {
            let byte = bytes[index]
            guard byte == 0x20 || byte == 0x0A || byte == 0x0D || byte == 0x09 else { return byte }
            index += 1
        }
        throw .ended
    }

    /// An object's key (`first` is the byte at `index`) and its colon.
    private mutating func key(_ first: UInt8) throws(Stop) {
        guard first == UInt8(ascii: "\"") else { throw .invalid }
        try string()
        guard try nonSpace() == UInt8(ascii: ":") else { throw .invalid }
        index += 1
    }

    /// A string from its opening quote (RFC 8259 §7): no control characters, only the defined escapes.
    private mutating func string() throws(Stop) {
        index += 1
        while index < bytes.count {
            let byte = bytes[index]
            index += 1
            if byte == 0x22 { return }
            if byte < 0x20 { throw .invalid }
            guard byte == 0x5C else { continue }
            guard index < bytes.count else { throw .ended }
            switch bytes[index] {
            case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"), UInt8(ascii: "b"), UInt8(ascii: "f"),
                 UInt8(ascii: "n"), UInt8(ascii: "r"), UInt8(ascii: "t"):
                index += 1
            case UInt8(ascii: "u"):
                index += 1
                for _ in 0..<4 {
                    guard index < bytes.count else { throw .ended }
                    guard bytes[index].isHexDigit else { throw .invalid }
                    index += 1
                }
            default: throw .invalid
            }
        }
        throw .ended
    }

    private mutating func literal(_ word: StaticString) throws(Stop) {
        let length = word.utf8CodeUnitCount
        guard bytes.count - index >= length else {
            throw bytes.matchesPrefix(of: word, at: index) ? .ended : .invalid
        }
        guard bytes.matches(word, at: index) else { throw .invalid }
        index += length
    }

    /// RFC 8259 §6: -? (0 | [1-9][0-9]*) (. [0-9]+)? ([eE] [+-]? [0-9]+)?
    private mutating func number() throws(Stop) {
        if bytes[index] == UInt8(ascii: "-") { index += 1 }
        guard index < bytes.count else { throw .ended }
        if bytes[index] == UInt8(ascii: "0") {
            index += 1
        } else {
            try digits()
        }
        if index < bytes.count, bytes[index] == UInt8(ascii: ".") {
            index += 1
            try digits()
        }
        if index < bytes.count, bytes[index] | 0x20 == UInt8(ascii: "e") {
            index += 1
            if index < bytes.count, bytes[index] == UInt8(ascii: "+") || bytes[index] == UInt8(ascii: "-") { index += 1 }
            try digits()
        }
    }

    /// One or more digits.
    private mutating func digits() throws(Stop) {
        guard index < bytes.count else { throw .ended }
        guard bytes[index].isDigit else { throw .invalid }
        index += 1
        while index < bytes.count, bytes[index].isDigit { index += 1 }
    }
}

private extension UInt8 {
    var isDigit: Bool { self &- UInt8(ascii: "0") < 10 }
    var isHexDigit: Bool { isDigit || (self | 0x20) &- UInt8(ascii: "a") < 6 }
}
