import BrowserCore
import Foundation

/// The equivalence harness's cases as `Tests/PredicateOracle/oracle.py` writes them: an entity, a predicate tree
/// in the harness's JSON form (see `predicates.py`) and the object IDs the Python oracle found it matches.
struct PredicateCases: Decodable {
    struct Case: Decodable {
        var entity: String
        var filter: Tree
        var expected: [String]
    }

    var cases: [Case]

    /// The oracle run on a store: `python3 oracle.py --store … --description … --out …`.
    static func fromOracle(store: URL, description: String, in directory: TemporaryDirectory) async throws -> PredicateCases {
        let out = directory.path("cases.json")
        try await runPython(["oracle.py", "--store", store.path, "--description", "stores/\(description)", "--out", out.path])
        return try JSONDecoder().decode(PredicateCases.self, from: Data(contentsOf: out))
    }

    /// `Tests/PredicateOracle` beside this target: the brick's tests carry their oracle.
    static let oracleDirectory = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("PredicateOracle")

    struct PythonFailure: Error, CustomStringConvertible {
        var description: String
    }

    /// Runs python3 and waits for it on a thread of its own: blocking a thread of Swift's cooperative pool (two on a
    /// 2-core machine) for the seconds the oracle takes stalled every other suite of the test process, and socket
    /// tests timed out waiting for servers whose handlers could not run.
    static func runPython(_ arguments: [String]) async throws {
        try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
            Thread.detachNewThread {
                do {
                    try runPythonBlocking(arguments)
                    continuation.resume()
                } catch {
                    continuation.resume(throwing: error)
                }
            }
        }
    }

    private static func runPythonBlocking(_ arguments: [String]) throws {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3"] + arguments
        process.currentDirectoryURL = oracleDirectory
        let errors = Pipe()
        process.standardError = errors
        process.standardOutput = FileHandle.nullDevice
        try ProcessLaunch.run(process)
        let log = errors.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            throw PythonFailure(description: "python3 \(arguments.joined(separator: " ")) failed: \(String(decoding: log, as: UTF8.self))")
        }
    }
}

/// One node of a harness tree, decoded into a `RecordFilter`.
struct Tree: Decodable {
    var filter: RecordFilter

    private struct Key: CodingKey {
        var stringValue: String
        var intValue: Int? { nil }
        init(_ string: String) { stringValue = string }
        init?(stringValue: String) { self.stringValue = stringValue }
        init?(intValue: Int) { nil }
    }

    struct Comparison: Decodable {
        var path: [String]
        var op: String
        var options: String?
        /// A value, or (`keyPath`) another attribute of the same record.
        var value: Operand?
        var keyPath: [String]?

        var filterComparison: FilterComparison {
            get throws {
                guard let op = FilterOperator(rawValue: op) else { throw DecodingError.dataCorrupted(.init(codingPath: [], debugDescription: "operator \(self.op)")) }
                var folding = FilterOptions()
                if options?.contains("c") == true { folding.insert(.caseInsensitive) }
                if options?.contains("d") == true { folding.insert(.diacriticInsensitive) }
                guard let operand = value?.operand ?? keyPath.map({ .keyPath(FilterKeyPath($0)) }) else {
                    throw DecodingError.dataCorrupted(.init(codingPath: [], debugDescription: "a comparison without an operand"))
                }
                return FilterComparison(FilterKeyPath(path), op, options: folding, operand)
            }
        }
    }

    struct Quantified: Decodable {
        var quantifier: String
        var relationship: String
        var cmp: Comparison
    }

    struct Count: Decodable {
        var relationship: String
        var op: String
        var value: Int
    }

    init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: Key.self)
        guard let key = container.allKeys.first else {
            throw DecodingError.dataCorrupted(.init(codingPath: decoder.codingPath, debugDescription: "empty node"))
        }
        switch key.stringValue {
        case "all": filter = .all(try container.decode([Tree].self, forKey: key).map(\.filter))
        case "any": filter = .any(try container.decode([Tree].self, forKey: key).map(\.filter))
        case "not": filter = .not(try container.decode(Tree.self, forKey: key).filter)
        case "cmp": filter = .comparison(try container.decode(Comparison.self, forKey: key).filterComparison)
        case "quantified":
            let body = try container.decode(Quantified.self, forKey: key)
            guard let quantifier = FilterQuantifier(rawValue: body.quantifier) else {
                throw DecodingError.dataCorruptedError(forKey: key, in: container, debugDescription: body.quantifier)
            }
            filter = .quantified(quantifier, relationship: body.relationship, try body.cmp.filterComparison)
        case "count":
            let body = try container.decode(Count.self, forKey: key)
            guard let op = FilterOperator(rawValue: body.op) else {
                throw DecodingError.dataCorruptedError(forKey: key, in: container, debugDescription: body.op)
            }
            filter = .count(relationship: body.relationship, op, body.value)
        default:
            throw DecodingError.dataCorruptedError(forKey: key, in: container, debugDescription: "unknown node")
        }
    }
}

/// A harness operand: `{"string": …}`, `{"list": […]}`, `{"object": uri}`….
struct Operand: Decodable {
    var operand: FilterOperand

    private struct Key: CodingKey {
        var stringValue: String
        var intValue: Int? { nil }
        init?(stringValue: String) { self.stringValue = stringValue }
        init?(intValue: Int) { nil }
    }

    /// One value of an operand.
    struct Value: Decodable {
        var value: AttributeValue

        init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: Key.self)
            guard let key = container.allKeys.first else { throw DecodingError.dataCorrupted(.init(codingPath: [], debugDescription: "empty value")) }
            switch key.stringValue {
            case "null": value = .null
            case "string": value = .string(try container.decode(String.self, forKey: key))
            case "integer": value = .integer(try container.decode(Int64.self, forKey: key))
            case "double": value = .double(try container.decode(Double.self, forKey: key))
            case "date": value = .date(Date(timeIntervalSinceReferenceDate: try container.decode(Double.self, forKey: key)))
            case "boolean": value = .boolean(try container.decode(Bool.self, forKey: key))
            case "uri": value = .uri(try container.decode(String.self, forKey: key))
            case "decimal":
                let text = try container.decode(String.self, forKey: key)
                guard let decimal = Decimal(string: text, locale: Locale(identifier: "en_US_POSIX")) else {
                    throw DecodingError.dataCorruptedError(forKey: key, in: container, debugDescription: text)
                }
                value = .decimal(decimal)
            case "uuid":
                let text = try container.decode(String.self, forKey: key)
                guard let uuid = UUID(uuidString: text) else {
                    throw DecodingError.dataCorruptedError(forKey: key, in: container, debugDescription: text)
                }
                value = .uuid(uuid)
            default:
                throw DecodingError.dataCorruptedError(forKey: key, in: container, debugDescription: "unknown value")
            }
        }
    }

    init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: Key.self)
        guard let key = container.allKeys.first else { throw DecodingError.dataCorrupted(.init(codingPath: [], debugDescription: "empty operand")) }
        switch key.stringValue {
        case "list": operand = .list(try container.decode([Value].self, forKey: key).map(\.value))
        case "range":
            let bounds = try container.decode([Value].self, forKey: key)
            guard bounds.count == 2 else { throw DecodingError.dataCorruptedError(forKey: key, in: container, debugDescription: "range") }
            operand = .range(bounds[0].value, bounds[1].value)
        case "object": operand = .object(try container.decode(String.self, forKey: key))
        case "objects": operand = .objects(try container.decode([String].self, forKey: key))
        default: operand = .value(try Value(from: decoder).value)
        }
    }
}
