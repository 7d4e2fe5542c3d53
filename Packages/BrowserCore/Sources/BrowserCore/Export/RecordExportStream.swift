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
            if options.format == .csv {
                for (index, name) in csvHeader.enumerated() {
                    if index > 0 { bytes.append(CSVCell.fieldSeparator) }
                    CSVCell.appendLiteral(name, to: &bytes)
                }
                bytes.append(contentsOf: CSVCell.rowEnd)
            }
            return Data(bytes)
        case .rows:
            guard let batch = try await cursor.next() else {
                phase = .done
                return nil
            }
            // Everything a row needs that asks the service (display attributes, base64 values) is settled first,
            // so the rows are written without a suspension each. A to-one target of an entity not met before
            // stops the writing: its display attribute is asked for, and the batch is written again (once per
            // entity and export).
            let layout = try await layout(of: batch)
            while true {
                do {
                    let bytes = try write(batch, layout: layout)
                    rowCount += batch.count
                    lastChunkSize = bytes.count
                    return Data(bytes)
                } catch let unmet as UnmetTargetEntity {
                    _ = try await displayAttribute(of: unmet.name)
                }
            }
        case .done:
            return nil
        }
    }

    private func write(_ batch: ExportBatch, layout: BatchLayout) throws -> [UInt8] {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(max(batch.count * 128, lastChunkSize + lastChunkSize / 8))
        var json = JSONBytes()
        for row in 0..<batch.count {
            switch options.format {
            case .csv: try appendCSV(row: row, of: batch, layout: layout, to: &bytes)
            case .ndjson: try appendNDJSON(row: row, of: batch, layout: layout, to: &bytes, writer: &json)
            }
        }
        return bytes
    }

    /// A to-one target's entity whose display attribute has not been asked for yet.
    private struct UnmetTargetEntity: Error {
        let name: String
    }

    /// The size of the last chunk: the next one is reserved a little larger, so a batch is written without the
    /// buffer growing.
    private var lastChunkSize = 0

    // MARK: Batch layout

    /// What the rows of one batch are written with, worked out once per batch: where each column's value sits
    /// among the batch's slots, and per entity of the batch its ID prefix, name and display slot.
    private struct BatchLayout {
        struct EntityColumns {
            var name: String
            /// `x-coredata://<store>/<Entity>/p`, or nil when it would need quoting (no store seen has one).
            var uriPrefix: [UInt8]?
            /// The slot of the entity's display attribute.
            var displaySlot: Int?
            /// NDJSON `attrs`: the concrete entity's attributes and their slots; nil for an entity the schema
            /// lacks (its record's values are written as they are).
            var attributes: [(name: String, slot: Int?)]?
        }

        var entities: [EntityColumns]
        /// The exported entity's attributes (the CSV columns) and their slots.
        var attributeSlots: [Int?]
        /// Per exported relationship, its slot.
        var relationshipSlots: [Int?]
        /// Base64 texts of binary values, by position in `ExportBatch.values` (`binary=base64` only).
        var base64: [Int: String]
    }

    /// Slots of the last batch's names: batches of one cursor share them, so they are worked out once.
    private var knownSlots: (attributeNames: [String], relationshipNames: [String], attributes: [Int?], relationships: [Int?])?

    private func layout(of batch: ExportBatch) async throws -> BatchLayout {
        if knownSlots?.attributeNames != batch.attributeNames || knownSlots?.relationshipNames != batch.relationshipNames {
            let attributeSlots = Dictionary(batch.attributeNames.enumerated().map { ($1, $0) }, uniquingKeysWith: { first, _ in first })
            let relationshipSlots = Dictionary(batch.relationshipNames.enumerated().map { ($1, $0) }, uniquingKeysWith: { first, _ in first })
            knownSlots = (batch.attributeNames, batch.relationshipNames, entity.attributes.map { attributeSlots[$0.name] },
                          relationships.map { relationshipSlots[$0.name] })
        }
        let slots = knownSlots!
        var entities: [BatchLayout.EntityColumns] = []
        for described in batch.entities {
            let concrete = schema.entity(named: described.name)
            let display = try await displayAttribute(of: described.name)
            let prefix = Array(ObjectID.uriPrefix(storeIdentifier: described.storeIdentifier, entity: described.name).utf8)
            entities.append(BatchLayout.EntityColumns(
                name: described.name, uriPrefix: CSVCell.needsQuotes(prefix) ? nil : prefix,
                displaySlot: display.flatMap { batch.attributeNames.firstIndex(of: $0) },
                attributes: concrete?.attributes.map { ($0.name, batch.attributeNames.firstIndex(of: $0.name)) }))
        }
        // Only the values the file holds, in the order it holds them (so an oversized value is the one named).
        var base64: [Int: String] = [:]
        if options.binary == .base64 {
            let exported = zip(entity.attributes, slots.attributes).map { (name: $0.name, slot: $1) }
            for row in 0..<batch.count {
                let base = row * batch.attributeNames.count
                let written = options.format == .csv
                    ? exported : entities[batch.entityIndexes[row]].attributes?.map { (name: $0.name, slot: $0.slot) } ?? []
                for (name, slot) in written {
                    guard let slot, case .binary(let size)? = batch.values[base + slot] else { continue }
                    base64[base + slot] = try await self.base64(of: batch.id(at: row), attribute: name, size: size)
                }
            }
        }
        return BatchLayout(entities: entities, attributeSlots: slots.attributes, relationshipSlots: slots.relationships,
                           base64: base64)
    }

    // MARK: CSV

    /// One CSV row, written straight into the chunk: a million rows make per-cell strings add up.
    private func appendCSV(row: Int, of batch: ExportBatch, layout: BatchLayout, to bytes: inout [UInt8]) throws {
        let entity = layout.entities[batch.entityIndexes[row]]
        let primaryKey = batch.primaryKeys[row]
        if let prefix = entity.uriPrefix {
            bytes.append(contentsOf: prefix)
            DecimalText.appendInteger(primaryKey, to: &bytes)
        } else {
            CSVCell.appendLiteral(batch.id(at: row).uri, to: &bytes)
        }
        bytes.append(CSVCell.fieldSeparator)
        CSVCell.appendLiteral(entity.name, to: &bytes)
        bytes.append(CSVCell.fieldSeparator)
        appendName(entity: entity.name, primaryKey: primaryKey,
                   display: entity.displaySlot.flatMap { batch.value(at: row, slot: $0) }, to: &bytes)
        let base = row * batch.attributeNames.count
        for slot in layout.attributeSlots {
            bytes.append(CSVCell.fieldSeparator)
            guard let slot, let value = batch.values[base + slot] else { continue }
            if case .binary = value, let text = layout.base64[base + slot] {
                CSVCell.appendLiteral(text, to: &bytes)
            } else {
                Self.appendCSVValue(value, to: &bytes)
            }
        }
        for (relationship, slot) in zip(relationships, layout.relationshipSlots) {
            bytes.append(CSVCell.fieldSeparator)
            switch (relationship.isToMany, slot.flatMap { batch.relatedValue(at: row, slot: $0) }) {
            case (true, .toMany(let count)?):
                DecimalText.appendInteger(Int64(count), to: &bytes)
            case (false, .toOne(let target?)?):
                appendURI(target.id, to: &bytes)
                bytes.append(CSVCell.fieldSeparator)
                CSVCell.appendText(try name(of: target), to: &bytes)
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

    /// The `_name` cell: the display attribute's text when it has visible text, else `<Entity> p<key>`
    /// (`RecordSummary`), without building the record.
    private func appendName(entity: String, primaryKey: Int64, display: AttributeValue?, to bytes: inout [UInt8]) {
        if case .string(let text)? = display, RecordSummary.hasVisibleText(text) {
            CSVCell.appendText(text, to: &bytes)
        } else {
            CSVCell.appendText(RecordSummary.fallback(entity: entity, primaryKey: primaryKey), to: &bytes)
        }
    }

    /// A value's cell; binary values are their size (base64 is read beforehand). Numbers, dates and the like
    /// never hold a comma, quote or line break, so only text goes through quoting.
    private static func appendCSVValue(_ value: AttributeValue, to bytes: inout [UInt8]) {
        switch value {
        case .null: break
        // An export reads whole values; a cut one (never read for an export) would write its start.
        case .string(let text), .uri(let text), .truncatedText(let text, _): CSVCell.appendText(text, to: &bytes)
        case .integer(let number): DecimalText.appendInteger(number, to: &bytes)
        case .double(let number): bytes.append(contentsOf: numberText(number).utf8)
        // A Float's own shortest text (0.1), not its widened Double's (0.10000000149011612), as the API sends it.
        case .float(let number): bytes.append(contentsOf: (number.isFinite ? String(number) : numberText(Double(number))).utf8)
        case .decimal(let number): DecimalValueText.append(number, to: &bytes)
        case .boolean(let flag): bytes.append(contentsOf: flag ? trueText : falseText)
        case .date(let date): ISO8601Timestamp.append(date, to: &bytes)
        case .uuid(let uuid): UUIDText.append(uuid, to: &bytes)
        case .binary(let byteCount): DecimalText.appendInteger(Int64(byteCount), to: &bytes)
        case .undecodable(let message): CSVCell.appendText("[unreadable: \(message)]", to: &bytes)
        }
    }

    private static let trueText = Array("true".utf8)
    private static let falseText = Array("false".utf8)

    /// The last to-one target's store and entity, and their ID prefix: a million books name authors, one entity,
    /// so an ID cell is then a copy and the key's digits (kept apart rather than as a tuple, which would be
    /// copied, and its strings retained, per row). Nil for a prefix that would need quoting (no store seen has one).
    private var lastTargetStore = ""
    private var lastTargetEntity = ""
    private var lastTargetPrefix: [UInt8]?

    private func appendURI(_ id: ObjectID, to bytes: inout [UInt8]) {
        if id.entity != lastTargetEntity || id.storeIdentifier != lastTargetStore {
            let built = Array(ObjectID.uriPrefix(storeIdentifier: id.storeIdentifier, entity: id.entity).utf8)
            lastTargetStore = id.storeIdentifier
            lastTargetEntity = id.entity
            lastTargetPrefix = CSVCell.needsQuotes(built) ? nil : built
        }
        guard let prefix = lastTargetPrefix else { return CSVCell.appendLiteral(id.uri, to: &bytes) }
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

    private func appendNDJSON(row: Int, of batch: ExportBatch, layout: BatchLayout, to bytes: inout [UInt8],
                              writer json: inout JSONBytes) throws {
        let entity = layout.entities[batch.entityIndexes[row]]
        let base = row * batch.attributeNames.count
        var attrs: [String: ExportedAttribute] = [:]
        func add(_ name: String, _ value: AttributeValue, at index: Int?) {
            if case .binary(let byteCount) = value, let index, let text = layout.base64[index] {
                attrs[name] = .base64(bytes: byteCount, text: text)
            } else {
                attrs[name] = .value(value)
            }
        }
        if let attributes = entity.attributes {
            // Every attribute of the concrete entity, null where the store gave no value (as a records page lists it).
            for (name, slot) in attributes {
                add(name, slot.flatMap { batch.values[base + $0] } ?? .null, at: slot.map { base + $0 })
            }
        } else {
            for (slot, name) in batch.attributeNames.enumerated() {
                if let value = batch.values[base + slot] { add(name, value, at: base + slot) }
            }
        }
        var related: [String: ExportedRelationship] = [:]
        for (relationship, slot) in zip(relationships, layout.relationshipSlots) {
            switch slot.flatMap({ batch.relatedValue(at: row, slot: $0) }) {
            case .toOne(let target?)?:
                related[relationship.name] = .toOne(ObjectReferenceDTO(id: target.id.uri, entity: target.entity,
                                                                       summary: try name(of: target)))
            case .toMany(let count)?: related[relationship.name] = .toMany(count)
            case .unreadable(let reason)?: related[relationship.name] = .unreadable(reason)
            case .toOne(nil)?, nil: related[relationship.name] = .toOne(nil)
            }
        }
        let display = entity.displaySlot.flatMap { batch.value(at: row, slot: $0) }
        let summary: String
        if case .string(let text)? = display, RecordSummary.hasVisibleText(text) {
            summary = text
        } else {
            summary = RecordSummary.fallback(entity: entity.name, primaryKey: batch.primaryKeys[row])
        }
        let line = ExportedLine(id: batch.id(at: row).uri, entity: entity.name, summary: summary,
                                attrs: attrs, relationships: related)
        json.append(line, to: &bytes)
        bytes.append(0x0A)
    }

    // Internal rather than private so `JSONBytesTests` can hold their written bytes to their `Encodable` output.

    /// One NDJSON line: written as `BrowserJSON` encodes it, straight into the export's buffer.
    struct ExportedLine: Encodable, JSONWritable {
        let id: String
        let entity: String
        let summary: String
        let attrs: [String: ExportedAttribute]
        let relationships: [String: ExportedRelationship]

        func writeJSON(into json: inout JSONBytes) {
            json.beginObject()
            json.appendMember("attrs", attrs)
            json.appendMember("entity", entity)
            json.appendMember("id", id)
            json.appendMember("relationships", relationships)
            json.appendMember("summary", summary)
            json.endObject()
        }
    }

    /// A value as the API sends it, or a binary value with its bytes (`{"type":"binary","bytes":N,"base64":"…"}`).
    enum ExportedAttribute: Encodable, JSONWritable {
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

        func writeJSON(into json: inout JSONBytes) {
            switch self {
            case .value(let value):
                value.writeJSON(into: &json)
            case .base64(let bytes, let text):
                json.beginObject()
                json.appendMember("base64", text)
                json.appendMember("bytes", bytes)
                json.appendMember("type", "binary")
                json.endObject()
            }
        }
    }

    /// `{"id","entity","summary"}` or null for a to-one, `{"count":N}` for a to-many, `{"error":"…"}`.
    enum ExportedRelationship: Encodable, JSONWritable {
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

        func writeJSON(into json: inout JSONBytes) {
            switch self {
            case .toOne(let reference?):
                reference.writeJSON(into: &json)
            case .toOne(nil):
                json.appendNull()
            case .toMany(let count):
                json.beginObject()
                json.appendMember("count", count)
                json.endObject()
            case .unreadable(let reason):
                json.beginObject()
                json.appendMember("error", reason)
                json.endObject()
            }
        }
    }

    // MARK: Shared

    /// The display attribute of an entity (the server's choice, as lists show it), asked of the service once per
    /// entity; nil for an entity the schema lacks or one without a display attribute.
    private func displayAttribute(of entityName: String) async throws -> String? {
        if let known = displayAttributes[entityName] { return known }
        var attribute: String?
        if let concrete = schema.entity(named: entityName) {
            attribute = try await service.displayAttribute(of: concrete)
        }
        displayAttributes[entityName] = .some(attribute)
        return attribute
    }

    /// The last to-one target's entity and its display attribute: rows of one export mostly point to one entity.
    private var lastTargetDisplay: (entity: String, attribute: String?) = ("", nil)

    /// A to-one target's name as lists show it; throws `UnmetTargetEntity` for an entity not asked about yet.
    private func name(of target: StoredRecord) throws -> String {
        if target.entity != lastTargetDisplay.entity {
            guard let known = displayAttributes[target.entity] else { throw UnmetTargetEntity(name: target.entity) }
            lastTargetDisplay = (target.entity, known)
        }
        return RecordSummary.make(for: target, attribute: lastTargetDisplay.attribute)
    }

    /// The value's bytes in base64, read from the store (at most `RecordExportOptions.maximumBase64Bytes`).
    private func base64(of id: ObjectID, attribute: String, size: Int) async throws -> String {
        guard size <= RecordExportOptions.maximumBase64Bytes else {
            throw BrowserError.badRequest("\(id.entity) \(id.shortForm).\(attribute) holds \(size) bytes, more than "
                + "the \(RecordExportOptions.maximumBase64Bytes) an export writes as base64: export with binary=size")
        }
        switch try await service.store.blob(of: id, attribute: attribute) {
        case .value(let reader): return try await reader.read(0..<reader.size).base64EncodedString()
        case .noRecord, .noValue: return ""
        }
    }
}
