public import Foundation

/// The file of `GET /api/entities/:name/export`, produced batch by batch from a `RecordCursor` while it is sent,
/// so an export of a million records never holds more than one batch.
///
/// **CSV** (RFC 4180, `CSVCell`): a header row, then one row per record. Columns: `_id` (the object ID URI),
/// `_entity` (the record's concrete entity), `_name` (its display name, as lists show it), the exported
/// entity's attributes in model order, then per relationship by name: a to-one's related object ID (`author`)
/// and its name (`author.name`), a to-many's count (`tags.count`). The `_` columns cannot collide with the
/// model: its property names begin with a letter. Cells: null is empty, dates ISO 8601 UTC, binary values
/// their size (or base64), unreadable values `[unreadable: reason]`.
///
/// **NDJSON**: per line the record as a records page lists it (`RowDTO`: `id`, `entity`, `summary`, `attrs`)
/// plus `relationships`: `{"id","entity","summary"}` or null for a to-one, `{"count"}` for a to-many.
public actor RecordExportStream {
    private enum Phase {
        case head
        case rows
        case done
    }

    private let service: BrowserService
    private let cursor: any RecordCursor
    private let entity: EntitySchema
    private let schema: StoreSchema
    private let options: RecordExportOptions
    private let relationships: [RelationshipSchema]
    private var phase = Phase.head
    /// Display attributes by entity, asked of the service once per entity.
    private var displayAttributes: [String: String?] = [:]
    /// Rows written so far.
    public private(set) var rowCount = 0

    init(service: BrowserService, cursor: any RecordCursor, entity: EntitySchema, schema: StoreSchema,
         options: RecordExportOptions) {
        self.service = service
        self.cursor = cursor
        self.entity = entity
        self.schema = schema
        self.options = options
        self.relationships = Self.exportedRelationships(of: entity)
    }

    /// The relationships an export lists, by name.
    static func exportedRelationships(of entity: EntitySchema) -> [RelationshipSchema] {
        entity.relationships.sorted { $0.name < $1.name }
    }

    /// The CSV header: the fixed columns, the attributes, the relationships' columns.
    var csvHeader: [String] {
        ["_id", "_entity", "_name"] + entity.attributes.map(\.name) + relationships.flatMap { relationship in
            relationship.isToMany ? ["\(relationship.name).count"] : [relationship.name, "\(relationship.name).name"]
        }
    }

    /// The next piece of the file, or nil when it is complete.
    public func nextChunk() async throws -> Data? {
        switch phase {
        case .head:
            phase = .rows
            var bytes: [UInt8] = options.byteOrderMark ? [0xEF, 0xBB, 0xBF] : []
            if options.format == .csv { appendRow(csvHeader.map { .literal($0) }, to: &bytes) }
            return Data(bytes)
        case .rows:
            guard let batch = try await cursor.next() else {
                phase = .done
                return nil
            }
            var bytes: [UInt8] = []
            bytes.reserveCapacity(batch.count * 128)
            for exported in batch {
                switch options.format {
                case .csv: try await appendCSV(exported, to: &bytes)
                case .ndjson: try await appendNDJSON(exported, to: &bytes)
                }
            }
            rowCount += batch.count
            return Data(bytes)
        case .done:
            return nil
        }
    }

    // MARK: CSV

    private enum Cell {
        case text(String)
        case literal(String)
    }

    private func appendRow(_ cells: [Cell], to bytes: inout [UInt8]) {
        for (index, cell) in cells.enumerated() {
            if index > 0 { bytes.append(CSVCell.fieldSeparator) }
            switch cell {
            case .text(let text): CSVCell.appendText(text, to: &bytes)
            case .literal(let text): CSVCell.appendLiteral(text, to: &bytes)
            }
        }
        bytes.append(contentsOf: CSVCell.rowEnd)
    }

    private func appendCSV(_ exported: ExportedRecord, to bytes: inout [UInt8]) async throws {
        let record = exported.record
        // Written straight into the batch: a million rows make per-cell strings and suspensions add up.
        appendURI(record.id, to: &bytes)
        bytes.append(CSVCell.fieldSeparator)
        CSVCell.appendLiteral(record.entity, to: &bytes)
        bytes.append(CSVCell.fieldSeparator)
        CSVCell.appendText(try await name(of: record), to: &bytes)
        for attribute in entity.attributes {
            bytes.append(CSVCell.fieldSeparator)
            let value = record.values[attribute.name] ?? .null
            if case .binary(let byteCount) = value, options.binary == .base64 {
                CSVCell.appendLiteral(try await base64(of: record, attribute: attribute, size: byteCount), to: &bytes)
            } else {
                Self.appendCSVValue(value, to: &bytes)
            }
        }
        for relationship in relationships {
            bytes.append(CSVCell.fieldSeparator)
            switch (relationship.isToMany, exported.relationships[relationship.name]) {
            case (true, .toMany(let count)?):
                DecimalText.appendInteger(Int64(count), to: &bytes)
            case (false, .toOne(let target?)?):
                appendURI(target.id, to: &bytes)
                bytes.append(CSVCell.fieldSeparator)
                CSVCell.appendText(try await name(of: target), to: &bytes)
            case (let toMany, .unreadable(let reason)?):
                CSVCell.appendText("[unreadable: \(reason)]", to: &bytes)
                if !toMany { bytes.append(CSVCell.fieldSeparator) }
            case (true, _):
                break
            case (false, _):
                bytes.append(CSVCell.fieldSeparator)
            }
        }
        bytes.append(contentsOf: CSVCell.rowEnd)
    }

    /// A value's cell; binary values are their size (base64 is read by the caller). Numbers, dates and the like
    /// never hold a comma, quote or line break, so only text goes through quoting.
    private static func appendCSVValue(_ value: AttributeValue, to bytes: inout [UInt8]) {
        switch value {
        case .null: break
        case .string(let text), .uri(let text): CSVCell.appendText(text, to: &bytes)
        case .integer(let number): DecimalText.appendInteger(number, to: &bytes)
        case .double(let number): bytes.append(contentsOf: numberText(number).utf8)
        // A Float's own shortest text (0.1), not its widened Double's (0.10000000149011612), as the API sends it.
        case .float(let number): bytes.append(contentsOf: (number.isFinite ? String(number) : numberText(Double(number))).utf8)
        case .decimal(let number): bytes.append(contentsOf: (number.isNaN ? "NaN" : number.description).utf8)
        case .boolean(let flag): bytes.append(contentsOf: flag ? trueText : falseText)
        case .date(let date): ISO8601Timestamp.append(date, to: &bytes)
        case .uuid(let uuid): bytes.append(contentsOf: uuid.uuidString.utf8)
        case .binary(let byteCount): DecimalText.appendInteger(Int64(byteCount), to: &bytes)
        case .undecodable(let message): CSVCell.appendText("[unreadable: \(message)]", to: &bytes)
        }
    }

    private static let trueText = Array("true".utf8)
    private static let falseText = Array("false".utf8)

    /// `x-coredata://<store>/<Entity>/p` by entity, built once: an ID cell is then a copy and the key's digits.
    /// Nil for a prefix that would need quoting (no store seen has one): such IDs take the general path.
    private var uriPrefixes: [String: [UInt8]?] = [:]

    private func appendURI(_ id: ObjectID, to bytes: inout [UInt8]) {
        let prefix: [UInt8]?
        if let known = uriPrefixes[id.entity] {
            prefix = known
        } else {
            let built = Array(ObjectID.uriPrefix(storeIdentifier: id.storeIdentifier, entity: id.entity).utf8)
            prefix = CSVCell.needsQuotes(built) ? nil : built
            uriPrefixes[id.entity] = .some(prefix)
        }
        guard let prefix else { return CSVCell.appendLiteral(id.uri, to: &bytes) }
        bytes.append(contentsOf: prefix)
        DecimalText.appendInteger(id.primaryKey, to: &bytes)
    }

    /// A double as the shortest text that reads back to it; non-finite values as words.
    private static func numberText(_ number: Double) -> String {
        if number.isNaN { return "NaN" }
        if number.isInfinite { return number > 0 ? "Infinity" : "-Infinity" }
        return String(number)
    }

    // MARK: NDJSON

    private func appendNDJSON(_ exported: ExportedRecord, to bytes: inout [UInt8]) async throws {
        let record = exported.record
        let concrete = schema.entity(named: record.entity)
        var attrs: [String: ExportedAttribute] = [:]
        for (name, value) in BrowserService.attributeValues(of: record, entity: concrete) {
            if case .binary(let byteCount) = value, options.binary == .base64,
               let attribute = concrete?.attribute(named: name) {
                attrs[name] = .base64(bytes: byteCount, text: try await base64(of: record, attribute: attribute, size: byteCount))
            } else {
                attrs[name] = .value(value)
            }
        }
        var related: [String: ExportedRelationship] = [:]
        for relationship in relationships {
            switch exported.relationships[relationship.name] {
            case .toOne(let target?)?:
                related[relationship.name] = .toOne(ObjectReferenceDTO(id: target.id.uri, entity: target.entity,
                                                                       summary: try await name(of: target)))
            case .toMany(let count)?: related[relationship.name] = .toMany(count)
            case .unreadable(let reason)?: related[relationship.name] = .unreadable(reason)
            case .toOne(nil)?, nil: related[relationship.name] = .toOne(nil)
            }
        }
        let line = ExportedLine(id: record.id.uri, entity: record.entity, summary: try await name(of: record),
                                attrs: attrs, relationships: related)
        bytes.append(contentsOf: try BrowserJSON.encode(line))
        bytes.append(0x0A)
    }

    private struct ExportedLine: Encodable {
        let id: String
        let entity: String
        let summary: String
        let attrs: [String: ExportedAttribute]
        let relationships: [String: ExportedRelationship]
    }

    /// A value as the API sends it, or a binary value with its bytes (`{"type":"binary","bytes":N,"base64":"…"}`).
    private enum ExportedAttribute: Encodable {
        case value(AttributeValue)
        case base64(bytes: Int, text: String)

        private struct Binary: Encodable {
            let type = "binary"
            let bytes: Int
            let base64: String
        }

        func encode(to encoder: any Encoder) throws {
            switch self {
            case .value(let value): try value.encode(to: encoder)
            case .base64(let bytes, let text): try Binary(bytes: bytes, base64: text).encode(to: encoder)
            }
        }
    }

    /// `{"id","entity","summary"}` or null for a to-one, `{"count":N}` for a to-many, `{"error":"…"}`.
    private enum ExportedRelationship: Encodable {
        case toOne(ObjectReferenceDTO?)
        case toMany(Int)
        case unreadable(String)

        private struct Count: Encodable { let count: Int }
        private struct Failure: Encodable { let error: String }

        func encode(to encoder: any Encoder) throws {
            var container = encoder.singleValueContainer()
            switch self {
            case .toOne(let reference?): try container.encode(reference)
            case .toOne(nil): try container.encodeNil()
            case .toMany(let count): try container.encode(Count(count: count))
            case .unreadable(let reason): try container.encode(Failure(error: reason))
            }
        }
    }

    // MARK: Shared

    /// The record's name as lists show it (the server's display attribute for its entity). Asks the service
    /// only for an entity not met before, so rows do not suspend.
    private func name(of record: StoredRecord) async throws -> String {
        if let known = displayAttributes[record.entity] { return RecordSummary.make(for: record, attribute: known) }
        let attribute: String?
        if let concrete = schema.entity(named: record.entity) {
            attribute = try await service.displayAttribute(of: concrete)
        } else {
            attribute = nil
        }
        displayAttributes[record.entity] = .some(attribute)
        return RecordSummary.make(for: record, attribute: attribute)
    }

    /// The value's bytes in base64, read from the store (at most `RecordExportOptions.maximumBase64Bytes`).
    private func base64(of record: StoredRecord, attribute: AttributeSchema, size: Int) async throws -> String {
        guard size <= RecordExportOptions.maximumBase64Bytes else {
            throw BrowserError.badRequest("\(record.entity) \(record.id.shortForm).\(attribute.name) holds \(size) bytes, more than "
                + "the \(RecordExportOptions.maximumBase64Bytes) an export writes as base64: export with binary=size")
        }
        switch try await service.store.blob(of: record.id, attribute: attribute.name) {
        case .value(let reader): return try await reader.read(0..<reader.size).base64EncodedString()
        case .noRecord, .noValue: return ""
        }
    }
}
