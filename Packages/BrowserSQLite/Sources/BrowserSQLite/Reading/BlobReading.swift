import BrowserCore
import Foundation

/// Where one record's Binary or Transformable value is, found in one query: how `SQLiteStore.blob(of:attribute:)`
/// serves a value without reading it whole.
struct BlobLocation: Sendable {
    enum Place: Sendable {
        /// In the row: the column's bytes from `payloadOffset` (past Core Data's external-storage marker).
        /// `incremental`: a BLOB or TEXT value, readable piece by piece (`SQLiteConnection.readBlob`); numbers,
        /// which a lenient writer may have put there, are read as their text.
        case column(table: String, column: String, rowid: Int64, payloadOffset: Int, incremental: Bool)
        /// In a file of the store's external-data folder.
        case file(path: String, name: String)
    }

    var place: Place
    var size: Int
}

extension RecordReader {
    /// Finds the value of `attribute` of the record `id`: nil when there is no such record; `.noValue` when the
    /// value is NULL. Reads the value's size and at most `ExternalStorageMarker.headLength` bytes.
    func blobLocation(_ id: ObjectID, attribute name: String, externalDataDirectory: String,
                      in connection: SQLiteConnection) throws -> BlobLocation?? {
        guard id.storeIdentifier == storeIdentifier, let entity = mapping.entities[id.entity] else { return nil }
        guard let attribute = entity.attribute(named: name) else {
            throw BrowserError.notFound("\(entity.name) has no attribute \"\(name)\"")
        }
        guard let column = attribute.column else {
            throw BrowserError.notFound("\(entity.name).\(name) has no column in this store")
        }
        let quoted = quoteIdentifier(column)
        // `typeof` and a BLOB's `length` are answered from the record header, without reading the value (SQLite's
        // length optimisation); other storage classes (text, numbers a lenient writer put there) are small and
        // measured as the bytes they are served as.
        let sql = "SELECT typeof(\(quoted)), CASE typeof(\(quoted)) WHEN 'blob' THEN length(\(quoted)) "
            + "ELSE length(CAST(\(quoted) AS BLOB)) END FROM \(quoteIdentifier(entity.table)) WHERE \"Z_PK\" = ? AND \"Z_ENT\" = ?"
        let statement = try connection.prepare(sql)
        try statement.bind([.integer(id.primaryKey), .integer(entity.number)])
        guard try statement.step() else { return nil }
        let type = statement.value(at: 0).string ?? "null"
        guard type != "null" else { return .some(nil) }
        let length = Int(statement.value(at: 1).int64 ?? 0)
        let incremental = type == "blob" || type == "text"
        // The marker and a file name are in the first bytes: read only those.
        let whole = BlobLocation.Place.column(table: entity.table, column: column, rowid: id.primaryKey, payloadOffset: 0,
                                              incremental: incremental)
        let head = attribute.allowsExternalStorage
            ? try whole.read(offset: 0, count: min(length, ExternalStorageMarker.headLength), in: connection) : []
        let marker = attribute.allowsExternalStorage ? ExternalStorageMarker(head: head) : .inline(payloadOffset: 0)
        switch marker {
        case .inline(let offset):
            let place: BlobLocation.Place = .column(
                table: entity.table, column: column, rowid: id.primaryKey, payloadOffset: offset, incremental: incremental)
            return BlobLocation(place: place, size: max(0, length - offset))
        case .external(let fileName):
            let path = (externalDataDirectory as NSString).appendingPathComponent(fileName)
            guard let attributes = try? FileManager.default.attributesOfItem(atPath: path),
                  attributes[.type] as? FileAttributeType == .typeRegular,
                  let size = (attributes[.size] as? NSNumber)?.intValue else {
                throw BrowserError.notFound("\(entity.name) \(id.shortForm) keeps \(name) in the external file \(fileName), "
                    + "which is missing from \(externalDataDirectory)")
            }
            return BlobLocation(place: .file(path: path, name: fileName), size: size)
        case .unreadable(let reason):
            throw BrowserError.notFound("\(entity.name) \(id.shortForm).\(name) cannot be read: \(reason)")
        }
    }
}

extension BlobLocation.Place {
    /// `count` bytes of the value from `offset` (past any marker), read on the store's queue.
    func read(offset: Int, count: Int, in connection: SQLiteConnection) throws -> [UInt8] {
        guard case .column(let table, let column, let rowid, let payloadOffset, let incremental) = self else { return [] }
        if incremental {
            return try connection.readBlob(table: table, column: column, rowid: rowid,
                                           offset: payloadOffset + offset, count: count)
        }
        let quoted = quoteIdentifier(column)
        let value = try connection.scalar(
            "SELECT substr(CAST(\(quoted) AS BLOB), ?, ?) FROM \(quoteIdentifier(table)) WHERE \"Z_PK\" = ?",
            [.integer(Int64(payloadOffset + offset + 1)), .integer(Int64(count)), .integer(rowid)])
        if case .blob(let bytes) = value { return bytes }
        return []
    }
}
