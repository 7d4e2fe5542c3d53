import CSQLite
import Foundation

/// A raw read-write SQLite connection for building stores in Core Data's layout, and for playing the writing
/// app in concurrency tests. Test-only: the package itself never writes.
final class RawDatabase: @unchecked Sendable {
    enum Value {
        case null
        case integer(Int64)
        case real(Double)
        case text(String)
        /// TEXT made of arbitrary bytes (SQLite stores them unchecked): invalid UTF-8.
        case textBytes([UInt8])
        case blob([UInt8])
    }

    struct Failure: Error, CustomStringConvertible {
        var description: String
    }

    let handle: OpaquePointer

    init(path: String) throws {
        var handle: OpaquePointer?
        guard sqlite3_open_v2(path, &handle, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_FULLMUTEX, nil) == SQLITE_OK,
              let handle
        else { throw Failure(description: "cannot open \(path)") }
        self.handle = handle
        sqlite3_busy_timeout(handle, 100)
    }

    deinit {
        sqlite3_close_v2(handle)
    }

    func execute(_ sql: String) throws {
        guard sqlite3_exec(handle, sql, nil, nil, nil) == SQLITE_OK else {
            throw Failure(description: "\(String(cString: sqlite3_errmsg(handle))) in \(sql)")
        }
    }

    /// Every row of a query, each value as Int64, Double, String, [UInt8] or nil: a reading of the tables that
    /// shares no code with the reader under test.
    func rows(_ sql: String) throws -> [[Any?]] {
        var statement: OpaquePointer?
        guard sqlite3_prepare_v2(handle, sql, -1, &statement, nil) == SQLITE_OK, let statement else {
            throw Failure(description: "\(String(cString: sqlite3_errmsg(handle))) in \(sql)")
        }
        defer { sqlite3_finalize(statement) }
        var rows: [[Any?]] = []
        while sqlite3_step(statement) == SQLITE_ROW {
            rows.append((0..<sqlite3_column_count(statement)).map { column -> Any? in
                switch sqlite3_column_type(statement, column) {
                case SQLITE_INTEGER: return sqlite3_column_int64(statement, column)
                case SQLITE_FLOAT: return sqlite3_column_double(statement, column)
                case SQLITE_TEXT: return String(cString: sqlite3_column_text(statement, column))
                case SQLITE_BLOB:
                    let count = Int(sqlite3_column_bytes(statement, column))
                    guard count > 0, let bytes = sqlite3_column_blob(statement, column) else { return [UInt8]() }
                    return Array(UnsafeRawBufferPointer(start: bytes, count: count))
                default: return nil
                }
            })
        }
        return rows
    }

    func run(_ sql: String, _ values: [Value]) throws {
        var statement: OpaquePointer?
        guard sqlite3_prepare_v2(handle, sql, -1, &statement, nil) == SQLITE_OK, let statement else {
            throw Failure(description: "\(String(cString: sqlite3_errmsg(handle))) in \(sql)")
        }
        defer { sqlite3_finalize(statement) }
        let transient = cdb_sqlite_transient()
        for (offset, value) in values.enumerated() {
            let index = Int32(offset + 1)
            switch value {
            case .null: sqlite3_bind_null(statement, index)
            case .integer(let number): sqlite3_bind_int64(statement, index, number)
            case .real(let number): sqlite3_bind_double(statement, index, number)
            case .text(let text): sqlite3_bind_text(statement, index, text, Int32(text.utf8.count), transient)
            case .textBytes(let bytes):
                bytes.withUnsafeBytes {
                    _ = sqlite3_bind_text(statement, index, $0.baseAddress!.assumingMemoryBound(to: CChar.self), Int32(bytes.count), transient)
                }
            case .blob(let bytes):
                bytes.withUnsafeBytes { _ = sqlite3_bind_blob(statement, index, $0.baseAddress, Int32(bytes.count), transient) }
            }
        }
        guard sqlite3_step(statement) == SQLITE_DONE else {
            throw Failure(description: "\(String(cString: sqlite3_errmsg(handle))) in \(sql)")
        }
    }
}

/// Builds a store in Core Data's layout (format doc §2–§8): `Z_PRIMARYKEY`, `Z_METADATA` with a binary plist,
/// entity tables, plus an Xcode `.xcdatamodel` with the `contents` XML describing it.
struct SyntheticStore {
    struct Entity {
        var number: Int64
        var name: String
        var parent: Int64 = 0
    }

    let directory: TemporaryDirectory
    let storeURL: URL
    let modelURL: URL
    let uuid: String

    init(name: String = "Synthetic.sqlite", entities: [Entity], tables: [String], modelXML: String,
         walMode: Bool = false, uuid: String = "0A1B2C3D-4E5F-4A6B-8C7D-9E0F1A2B3C4D",
         rows: (RawDatabase) throws -> Void = { _ in }) throws {
        directory = TemporaryDirectory()
        storeURL = directory.path(name)
        self.uuid = uuid
        let database = try RawDatabase(path: storeURL.path)
        if walMode { try database.execute("PRAGMA journal_mode = WAL") }
        try database.execute("CREATE TABLE Z_PRIMARYKEY (Z_ENT INTEGER PRIMARY KEY, Z_NAME VARCHAR, Z_SUPER INTEGER, Z_MAX INTEGER)")
        try database.execute("CREATE TABLE Z_METADATA (Z_VERSION INTEGER PRIMARY KEY, Z_UUID VARCHAR(255), Z_PLIST BLOB)")
        for entity in entities {
            try database.run("INSERT INTO Z_PRIMARYKEY VALUES (?, ?, ?, 0)", [.integer(entity.number), .text(entity.name), .integer(entity.parent)])
        }
        var hashes: [String: Data] = [:]
        for entity in entities { hashes[entity.name] = Data(repeating: UInt8(entity.number), count: 32) }
        let metadata: [String: Any] = [
            "NSStoreType": "SQLite",
            "NSStoreModelVersionHashes": hashes,
            "NSStoreModelVersionHashesVersion": 3,
            "NSStoreModelVersionIdentifiers": [""],
            "NSPersistenceFrameworkVersion": 1523,
        ]
        let plist = try PropertyListSerialization.data(fromPropertyList: metadata, format: .binary, options: 0)
        try database.run("INSERT INTO Z_METADATA VALUES (1, ?, ?)", [.text(uuid), .blob(Array(plist))])
        for table in tables { try database.execute(table) }
        try rows(database)

        let model = directory.path("Model.xcdatamodel")
        try FileManager.default.createDirectory(at: model, withIntermediateDirectories: true)
        try Data(modelXML.utf8).write(to: model.appendingPathComponent("contents"))
        modelURL = model
    }

    /// The contents XML around some `<entity>` elements, as Xcode writes it.
    static func modelXML(_ body: String) -> String {
        """
        <?xml version="1.0" encoding="UTF-8" standalone="yes"?>
        <model type="com.apple.IDECoreDataModeler.DataModel" documentVersion="1.0" lastSavedToolsVersion="22758" systemVersion="23E224" minimumToolsVersion="Automatic" sourceLanguage="Swift" userDefinedModelVersionIdentifier="">
        \(body)
        </model>
        """
    }
}
