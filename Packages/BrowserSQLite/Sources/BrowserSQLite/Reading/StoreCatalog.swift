import BrowserFormats

/// What a Core Data store says about itself, read once when it is opened: its entities (`Z_PRIMARYKEY`),
/// identity and model hashes (`Z_METADATA`), its tables and their columns, and the cached model.
struct StoreCatalog: Sendable {
    struct EntityRow: Sendable, Hashable {
        var number: Int64
        /// `Z_NAME`, which may be stale after a renaming migration (format doc §2).
        var name: String
        /// `Z_SUPER`: the parent's number, 0 for a root.
        var parent: Int64
    }

    struct Column: Sendable, Hashable {
        var name: String
        /// The declared type (`INTEGER`, `VARCHAR`, `TIMESTAMP`…), upper-cased.
        var declaredType: String
    }

    struct Table: Sendable, Hashable {
        var name: String
        var columns: [Column]
        /// The upper-cased columns an index of the table starts with, in BINARY order, over every row (not a
        /// partial index): SQLite reads the table in such a column's order, then the rowid's (`Z_PK`), in either
        /// direction, so a page sorted by it is a walk of the index and never a sort (`PagePlanner`).
        var orderedColumns: Set<String>
        private var byUppercasedName: [String: Int] = [:]

        init(name: String, columns: [Column], orderedColumns: Set<String> = []) {
            self.name = name
            self.columns = columns
            self.orderedColumns = orderedColumns
            for (index, column) in columns.enumerated() { byUppercasedName[column.name.uppercased()] = index }
        }

        /// The column, matched case-insensitively as SQLite matches identifiers.
        func column(_ name: String) -> Column? {
            byUppercasedName[name.uppercased()].map { columns[$0] }
        }
    }

    /// Entities of the model, persistent-history pseudo-entities (numbers ≥ 16000) left out.
    var entities: [EntityRow]
    /// `Z_METADATA.Z_UUID`: the store's identifier in object IDs.
    var uuid: String
    /// `NSStoreModelVersionHashes`: entity name → version hash (the current names, never stale).
    var versionHashes: [String: [UInt8]]
    var versionIdentifiers: [String]
    var tables: [String: Table]
    /// The compressed `Z_MODELCACHE.Z_CONTENT`, when the store has one.
    var modelCache: [UInt8]?

    /// Core Data numbers the persistent-history tables' pseudo-entities from here on (format doc §2, §11).
    static let firstAncillaryEntityNumber: Int64 = 16000

    func table(_ name: String) -> Table? {
        tables[name.uppercased()]
    }

    func entity(number: Int64) -> EntityRow? {
        entities.first { $0.number == number }
    }

    /// Reads the catalog. The caller has checked that `Z_PRIMARYKEY` and `Z_METADATA` exist.
    static func read(from connection: SQLiteConnection) throws(StoreReadError) -> StoreCatalog {
        do {
            var entities: [EntityRow] = []
            for row in try connection.rows("SELECT Z_ENT, Z_NAME, Z_SUPER FROM Z_PRIMARYKEY ORDER BY Z_ENT") {
                guard let number = row[0].int64, number > 0, number < firstAncillaryEntityNumber else { continue }
                guard let name = row[1].string, !name.isEmpty else {
                    throw StoreReadError.malformed("Z_PRIMARYKEY row \(number) has no entity name")
                }
                entities.append(EntityRow(number: number, name: name, parent: row[2].int64 ?? 0))
            }

            guard let metadata = try connection.rows("SELECT Z_UUID, Z_PLIST FROM Z_METADATA ORDER BY Z_VERSION LIMIT 1").first,
                  let uuid = metadata[0].string, !uuid.isEmpty
            else {
                throw StoreReadError.malformed("Z_METADATA has no store UUID")
            }
            var hashes: [String: [UInt8]] = [:]
            var identifiers: [String] = []
            if case .blob(let bytes) = metadata[1], !bytes.isEmpty {
                do {
                    let plist = try PropertyList.read(bytes)
                    for (name, value) in plist["NSStoreModelVersionHashes"]?.dictionary ?? [:] {
                        if let hash = value.data { hashes[name] = hash }
                    }
                    identifiers = (plist["NSStoreModelVersionIdentifiers"]?.array ?? []).compactMap(\.string)
                } catch {
                    throw StoreReadError.malformed("Z_METADATA.Z_PLIST is not a readable property list: \(error)")
                }
            }

            var tables: [String: Table] = [:]
            for row in try connection.rows("SELECT name FROM sqlite_master WHERE type = 'table'") {
                guard let name = row[0].string else { continue }
                let columns = try connection.rows("SELECT name, type FROM pragma_table_info(?)", [.text(name)])
                    .compactMap { column -> Column? in
                        guard let columnName = column[0].string else { return nil }
                        return Column(name: columnName, declaredType: (column[1].string ?? "").uppercased())
                    }
                tables[name.uppercased()] = Table(name: name, columns: columns,
                                                  orderedColumns: try orderedColumns(of: name, in: connection))
            }

            var cache: [UInt8]?
            if tables["Z_MODELCACHE"] != nil,
               case .blob(let bytes)? = try connection.scalar("SELECT Z_CONTENT FROM Z_MODELCACHE LIMIT 1") {
                cache = bytes
            }
            return StoreCatalog(entities: entities, uuid: uuid, versionHashes: hashes, versionIdentifiers: identifiers,
                                tables: tables, modelCache: cache)
        } catch let error as StoreReadError {
            throw error
        } catch let error as SQLiteError {
            throw StoreReadError.sqlite(error)
        } catch {
            throw StoreReadError.malformed(String(describing: error))
        }
    }
}

extension StoreCatalog {
    /// The first column of each index of `table` that orders every row by that column's BINARY value
    /// (https://www.sqlite.org/pragma.html#pragma_index_list, #pragma_index_xinfo): not a partial index, not an
    /// expression, not another collation (Core Data's fetch indexes are `COLLATE BINARY`).
    static func orderedColumns(of table: String, in connection: SQLiteConnection) throws -> Set<String> {
        var columns: Set<String> = []
        for index in try connection.rows("SELECT name, partial FROM pragma_index_list(?)", [.text(table)]) {
            guard let name = index[0].string, index[1].int64 == 0,
                  let first = try connection.rows(
                      "SELECT name, coll FROM pragma_index_xinfo(?) WHERE key = 1 ORDER BY seqno LIMIT 1", [.text(name)]).first,
                  let column = first[0].string, (first[1].string ?? "BINARY").uppercased() == "BINARY"
            else { continue }
            columns.insert(column.uppercased())
        }
        return columns
    }
}

/// A failure while reading a store's catalog, before it becomes a public `SQLiteStoreError`.
enum StoreReadError: Error, Sendable {
    case sqlite(SQLiteError)
    case malformed(String)
}
