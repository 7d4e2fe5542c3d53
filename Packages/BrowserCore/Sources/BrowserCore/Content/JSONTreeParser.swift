internal import BrowserFormats

/// A strict JSON parser (RFC 8259) that validates the whole document and builds a tree of only as much as the
/// limits allow.
///
/// Iterative, with an explicit stack, so JSON nested a million deep costs one byte of stack per level rather
/// than a crash; levels past `maxDepth` and nodes past `maxTreeNodes` are validated but not built, and
/// strings are decoded only when shown. A value is JSON only when it is an object or array: a bare number or
/// string reads better as text. The caller has checked the bytes are valid UTF-8.
struct JSONTreeParser {
    enum Outcome {
        /// A complete document: its tree, whether it is an object, and its top-level count.
        case document(ContentNode, isObject: Bool, count: Int)
        /// The bytes stopped inside a document that was valid so far (only meaningful for a head of a value).
        case endedEarly(ContentNode?, isObject: Bool)
        case invalid
    }

    private struct Frame {
        var isObject: Bool
        /// Mirrors `node != nil`, read on every value without touching (and copying) the node.
        var isRecording: Bool
        var node: ContentNode?
        var pendingKey: String?
        var count = 0
    }

    private enum Step {
        case value
        case key
        case completed(ContentNode)
        /// A value completed that is not shown: the common case past the node limit, with no node to move.
        case skipped
    }

    private enum Stop: Error {
        case ended
        case invalid
    }

    private let bytes: UnsafeRawBufferPointer
    private let budget: ContentNodeBudget
    private var index = 0
    /// One entry per open container, however deep: true for an object.
    private var open: [Bool] = []
    /// Frames of the open containers up to `maxDepth`; deeper ones are only in `open`.
    private var frames: [Frame] = []
    private var root: ContentNode?
    private var rootCount = 0
    /// Checks the containers that are not shown.
    private var validator: JSONValidator

    static func parse(_ bytes: UnsafeRawBufferPointer, start: Int, budget: ContentNodeBudget) -> Outcome {
        var parser = JSONTreeParser(bytes: bytes, budget: budget, index: start)
        guard let first = parser.peekNonSpace(), first == UInt8(ascii: "{") || first == UInt8(ascii: "[") else {
            return .invalid
        }
        do {
            try parser.run()
            guard let root = parser.root else { return .invalid }
            return .document(root, isObject: first == UInt8(ascii: "{"), count: parser.rootCount)
        } catch .ended {
            return .endedEarly(parser.partialRoot(), isObject: first == UInt8(ascii: "{"))
        } catch {
            return .invalid
        }
    }

    private init(bytes: UnsafeRawBufferPointer, budget: ContentNodeBudget, index: Int) {
        self.bytes = bytes
        self.budget = budget
        self.index = index
        validator = JSONValidator(bytes)
    }

    private mutating func peekNonSpace() -> UInt8? {
        while index < bytes.count {
            switch bytes[index] {
            case 0x20, 0x09, 0x0A, 0x0D: index += 1
            default: return bytes[index]
            }
        }
        return nil
    }

    private mutating func next() throws(Stop) -> UInt8 {
        guard let byte = peekNonSpace() else { throw .ended }
        return byte
    }

    /// Whether the value about to be parsed will be shown: its container is shown and the tree has room.
    private var recordsNextValue: Bool {
        open.count == 0 || (open.count == frames.count && frames[frames.count - 1].isRecording)
    }

    private mutating func run() throws(Stop) {
        var step = Step.value
        while true {
            switch step {
            case .value:
                step = try parseValue()
            case .key:
                guard try next() == UInt8(ascii: "\"") else { throw .invalid }
                let recording = open.count == frames.count && frames[frames.count - 1].isRecording
                let key = try parseString(decode: recording)
                guard try next() == UInt8(ascii: ":") else { throw .invalid }
                index += 1
                if recording { frames[frames.count - 1].pendingKey = key }
                step = .value
            case .completed, .skipped:
                if case .completed(let node) = step { attach(node) } else { countSkipped() }
                guard let isObject = open.last else {
                    // The top-level value is complete: only whitespace may follow.
                    guard peekNonSpace() == nil else { throw .invalid }
                    return
                }
                let separator = try next()
                index += 1
                switch separator {
                case UInt8(ascii: ","): step = isObject ? .key : .value
                case UInt8(ascii: "}") where isObject, UInt8(ascii: "]") where !isObject: step = completed(close())
                default: throw .invalid
                }
            }
        }
    }

    private mutating func parseValue() throws(Stop) -> Step {
        let byte = try next()
        let recording = recordsNextValue
        switch byte {
        case UInt8(ascii: "{"), UInt8(ascii: "["):
            let isObject = byte == UInt8(ascii: "{")
            let shown = open.count < budget.limits.maxDepth && recording && budget.take()
            if !shown, !open.isEmpty { return try skipContainer() }
            index += 1
            open.append(isObject)
            if open.count <= budget.limits.maxDepth {
                let node = shown ? ContentNode(type: isObject ? "dict" : "array") : nil
                frames.append(Frame(isObject: isObject, isRecording: node != nil, node: node))
            } else {
                budget.noteDepthLimit()
            }
            if try next() == UInt8(ascii: isObject ? "}" : "]") {
                index += 1
                return completed(close())
            }
            return isObject ? .key : .value
        case UInt8(ascii: "\""):
            let text = try parseString(decode: recording)
            return completed(recording && budget.take() ? ContentNode(type: "string", value: text) : nil)
        case UInt8(ascii: "t"): return completed(try literal("true", recording, type: "bool"))
        case UInt8(ascii: "f"): return completed(try literal("false", recording, type: "bool"))
        case UInt8(ascii: "n"): return completed(try literal("null", recording, type: "null"))
        default:
            let start = index
            let isInteger = try parseNumber()
            guard recording, budget.take() else { return .skipped }
            let text = String(decoding: UnsafeRawBufferPointer(rebasing: bytes[start..<index]), as: UTF8.self)
            return .completed(ContentNode(type: isInteger ? "int" : "real", value: ContentFormatting.preview(text, limit: budget.limits.maxStringPreview)))
        }
    }

    /// A container that is not shown, checked in one pass by `JSONValidator` and counted in its container.
    private mutating func skipContainer() throws(Stop) -> Step {
        var tooDeep = false
        defer { if tooDeep { budget.noteDepthLimit() } }
        do {
            index = try validator.skipContainer(
                at: index, enclosingDepth: open.count, maxDepth: budget.limits.maxDepth, exceededDepth: &tooDeep)
        } catch .ended {
            // What `partialRoot` would have counted, had it been open.
            countSkipped()
            throw .ended
        } catch {
            throw .invalid
        }
        return .skipped
    }

    /// Closes the innermost container, giving its node if it was shown.
    private mutating func close() -> ContentNode? {
        let depth = open.count
        open.removeLast()
        guard depth <= frames.count else { return nil }
        let frame = frames.removeLast()
        if depth == 1 { rootCount = frame.count }
        guard var node = frame.node else { return nil }
        if node.children.count < frame.count { node.childCount = frame.count }
        return node
    }

    private func completed(_ node: ContentNode?) -> Step {
        node.map(Step.completed) ?? .skipped
    }

    /// Counts a completed value that is not shown in its container.
    private mutating func countSkipped() {
        if !open.isEmpty, open.count == frames.count { frames[frames.count - 1].count += 1 }
    }

    /// Counts a completed value in its container and adds its node there (or makes it the root).
    private mutating func attach(_ node: ContentNode?) {
        guard !open.isEmpty else {
            root = node
            return
        }
        guard open.count == frames.count else { return }
        let position = frames.count - 1
        let count = frames[position].count
        frames[position].count += 1
        // A nil node was cut by the depth or node limit, which noted itself.
        guard var node, frames[position].isRecording else { return }
        node.label = frames[position].isObject ? frames[position].pendingKey : String(count)
        frames[position].node!.children.append(node)
    }

    /// For a document that stopped early: the open containers closed where they stand.
    private mutating func partialRoot() -> ContentNode? {
        while !open.isEmpty {
            let node = close()
            if open.isEmpty { return node ?? root }
            attach(node)
        }
        return root
    }

    private mutating func literal(_ word: StaticString, _ recording: Bool, type: String) throws(Stop) -> ContentNode? {
        let length = word.utf8CodeUnitCount
        guard bytes.count - index >= length else {
            throw bytes.matchesPrefix(of: word, at: index) ? .ended : .invalid
        }
        guard bytes.matches(word, at: index) else { throw .invalid }
        index += length
        guard recording, budget.take() else { return nil }
        return ContentNode(type: type, value: "\(word)")
    }

    /// RFC 8259 §6: -? (0 | [1-9][0-9]*) (. [0-9]+)? ([eE] [+-]? [0-9]+)?; true when it has no fraction or exponent.
    private mutating func parseNumber() throws(Stop) -> Bool {
        if bytes.byte(at: index) == UInt8(ascii: "-") { index += 1 }
        guard let first = bytes.byte(at: index) else { throw .ended }
        if first == UInt8(ascii: "0") {
            index += 1
        } else if isDigit(first) {
            try digits()
        } else {
            throw .invalid
        }
        var isInteger = true
        if bytes.byte(at: index) == UInt8(ascii: ".") {
            index += 1
            try digits()
            isInteger = false
        }
        if let byte = bytes.byte(at: index), byte | 0x20 == UInt8(ascii: "e") {
            index += 1
            if let sign = bytes.byte(at: index), sign == UInt8(ascii: "+") || sign == UInt8(ascii: "-") { index += 1 }
            try digits()
            isInteger = false
        }
        return isInteger
    }

    private func isDigit(_ byte: UInt8) -> Bool { byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9") }

    /// One or more digits.
    private mutating func digits() throws(Stop) {
        guard let first = bytes.byte(at: index) else { throw .ended }
        guard isDigit(first) else { throw .invalid }
        while index < bytes.count, isDigit(bytes[index]) { index += 1 }
    }

    /// A string from its opening quote; its text (capped) when `decode`.
    private mutating func parseString(decode: Bool) throws(Stop) -> String? {
        index += 1
        let limit = budget.limits.maxStringPreview
        var text = ""
        var shown = 0
        var runStart = index
        while true {
            // The plain run: most of a string, scanned without decoding.
            while index < bytes.count {
                let byte = bytes[index]
                if byte == 0x22 || byte == 0x5C || byte < 0x20 { break }
                index += 1
            }
            guard index < bytes.count else { throw .ended }
            let byte = bytes[index]
            if byte < 0x20 { throw .invalid }
            if decode, shown < limit, index > runStart {
                let run = String(decoding: UnsafeRawBufferPointer(rebasing: bytes[runStart..<min(index, runStart + 4 * limit)]), as: UTF8.self)
                text += run
                shown += run.count
            }
            index += 1
            if byte == 0x22 { break }
            // RFC 8259 §7 escapes.
            guard let escaped = bytes.byte(at: index) else { throw .ended }
            index += 1
            var scalar: Unicode.Scalar?
            switch escaped {
            case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): scalar = Unicode.Scalar(escaped)
            case UInt8(ascii: "b"): scalar = "\u{08}"
            case UInt8(ascii: "f"): scalar = "\u{0C}"
            case UInt8(ascii: "n"): scalar = "\n"
            case UInt8(ascii: "r"): scalar = "\r"
            case UInt8(ascii: "t"): scalar = "\t"
            case UInt8(ascii: "u"):
                let unit = try hexUnit()
                if (0xD800..<0xDC00).contains(unit), bytes.matches("\\u", at: index) {
                    index += 2
                    let low = try hexUnit()
                    scalar = (0xDC00..<0xE000).contains(low)
                        ? Unicode.Scalar(0x10000 + ((unit - 0xD800) << 10) + (low - 0xDC00)) : "\u{FFFD}"
                } else {
                    scalar = Unicode.Scalar(unit) ?? "\u{FFFD}" // a lone surrogate
                }
            default: throw .invalid
            }
            if decode, shown < limit, let scalar {
                text.unicodeScalars.append(scalar)
                shown += 1
            }
            runStart = index
        }
        guard decode else { return nil }
        return ContentFormatting.preview(text, limit: limit)
    }

    private mutating func hexUnit() throws(Stop) -> UInt32 {
        var value: UInt32 = 0
        for _ in 0..<4 {
            guard let byte = bytes.byte(at: index) else { throw .ended }
            guard let digit = hexDigit(byte) else { throw .invalid }
            value = value << 4 | digit
            index += 1
        }
        return value
    }

    private func hexDigit(_ byte: UInt8) -> UInt32? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): UInt32(byte - UInt8(ascii: "0"))
        case UInt8(ascii: "a")...UInt8(ascii: "f"): UInt32(byte - UInt8(ascii: "a") + 10)
        case UInt8(ascii: "A")...UInt8(ascii: "F"): UInt32(byte - UInt8(ascii: "A") + 10)
        default: nil
        }
    }
}
