import BrowserCore

/// Reads records through a `StoreMapping`: the SQL of counts, pages, single records and relationships, and the
/// decoding of their rows. Every method runs inside the caller's read transaction; none loads more rows than it
/// returns.
struct RecordReader: Sendable {
    let mapping: StoreMapping
    let decoder: ValueDecoder
    let storeIdentifier: String

    /// The columns selected for records of an entity and its sub-entities (each row decodes the attributes of
    /// its own concrete entity from them).
    struct Projection {
        var columns: [String] = []
        var position: [String: Int32] = [:]
        /// Per concrete entity number: each attribute and the position of its column (nil when the store lacks
        /// it), worked out once per request instead of once per value.
        var readers: [Int64: [(attribute: AttributeMapping, position: Int32?)]] = [:]
        /// The entities a row's `Z_ENT` may name, by number.
        var entities: [Int64: EntityMapping] = [:]
        /// A list's preview length (`ValuePreview`), nil for whole values: text values are then read cut by the
        /// statement's `prefixReader` from `table`, and whether each previewed column holds text is at the end of
        /// the select list (`TextPreviewSQL`).
        var previewBytes: Int?
        /// The previewed columns, by upper-cased name, and the position of each one's "is text" item.
        var isTextPosition: [String: Int32] = [:]
        var previewedColumns: [String] = []
        /// The table the rows come from (Core Data keeps an entity and its sub-entities in one table).
        var table = ""

        /// Each attribute of `entity` and the position of its column among these (nil when not selected).
        func attributeReaders(of entity: EntityMapping) -> [(attribute: AttributeMapping, position: Int32?)] {
            entity.attributes.map { attribute in (attribute, attribute.column.flatMap { position[$0.uppercased()] }) }
        }

        /// `"Z_PK", "Z_ENT", <columns>`, qualified with `alias` when given; with a preview, the previewed columns'
        /// values unless text, and whether each is text after the columns.
        func selectList(alias: String? = nil) -> String {
            let prefix = alias.map { $0 + "." } ?? ""
            var items = ["Z_PK", "Z_ENT"].map { prefix + quoteIdentifier($0) }
            for column in columns {
                let expression = prefix + quoteIdentifier(column)
                if previewBytes != nil, isTextPosition[column.uppercased()] != nil {
                    items.append(TextPreviewSQL.storedUnlessTextItem(expression))
                } else {
                    items.append(expression)
                }
            }
            items += previewedColumns.map { TextPreviewSQL.isTextItem(prefix + quoteIdentifier($0)) }
            return items.joined(separator: ", ")
        }
    }

    /// The columns of the entity's records; with `previewBytes`, text values are read cut to that many bytes
    /// (`TextPreviewSQL`): a list's rows and related items, never a record's detail or an export.
    func projection(for entity: EntityMapping, previewBytes: Int? = nil) -> Projection {
        var projection = Projection()
        projection.previewBytes = previewBytes
        let subtree = Set(entity.subtreeNumbers)
        let members = mapping.entities.values.filter { subtree.contains($0.number) }
        for member in members {
            for attribute in member.attributes {
                guard let column = attribute.column, projection.position[column.uppercased()] == nil else { continue }
                projection.position[column.uppercased()] = Int32(projection.columns.count + 2)
                projection.columns.append(column)
            }
        }
        if previewBytes != nil {
            var previewed: Set<String> = []
            for member in members {
                for attribute in member.attributes where TextPreviewSQL.applies(to: attribute.kind) {
                    if let column = attribute.column?.uppercased() { previewed.insert(column) }
                }
            }
            projection.previewedColumns = projection.columns.filter { previewed.contains($0.uppercased()) }
            for (index, column) in projection.previewedColumns.enumerated() {
                projection.isTextPosition[column.uppercased()] = Int32(projection.columns.count + 2 + index)
            }
            projection.table = entity.table
        }
        for member in members + [entity] {
            projection.entities[member.number] = member
            projection.readers[member.number] = projection.attributeReaders(of: member)
        }
        return projection
    }

    /// The record in the statement's current row. The concrete entity comes from `Z_ENT`; a row whose `Z_ENT` the
    /// model does not know is shown as a record of `fallback`.
    func record(in statement: SQLiteStatement, projection: Projection, fallback: EntityMapping) -> StoredRecord {
        let primaryKey = statement.value(at: 0).int64 ?? 0
        let number = statement.value(at: 1).int64
        let entity = number.flatMap { projection.entities[$0] }
            ?? number.flatMap { mapping.entityNamesByNumber[$0] }.flatMap { mapping.entities[$0] } ?? fallback
        var values: [String: AttributeValue] = [:]
        let readers = projection.readers[entity.number] ?? projection.attributeReaders(of: entity)
        values.reserveCapacity(readers.count)
        for (attribute, position) in readers {
            switch attribute.storage {
            case .column(let column):
                guard let position else { continue }
                if let limit = projection.previewBytes, TextPreviewSQL.applies(to: attribute.kind),
                   let isTextPosition = projection.isTextPosition[column.uppercased()] {
                    values[attribute.name] = statement.value(at: isTextPosition).int64 == 1
                        ? textPreview(in: statement, table: projection.table, column: column, rowid: primaryKey,
                                      kind: attribute.kind, limit: limit)
                        : decoder.decode(statement, column: position, as: attribute)
                } else {
                    values[attribute.name] = decoder.decode(statement, column: position, as: attribute)
                }
            case .missing(let reason):
                values[attribute.name] = .undecodable(reason)
            }
        }
        return StoredRecord(
            id: ObjectID(storeIdentifier: storeIdentifier, entity: entity.name, primaryKey: primaryKey),
            values: values
        )
    }

    /// A previewed text value of the statement's current row, read by its first `limit + 1` bytes; one value that
    /// cannot be read shows SQLite's reason and the rest of the page still renders.
    private func textPreview(in statement: SQLiteStatement, table: String, column: String, rowid: Int64,
                             kind: AttributeKind, limit: Int) -> AttributeValue {
        do {
            return try statement.prefixReader.withPrefix(table: table, column: column, rowid: rowid, count: limit + 1) {
                decoder.decodeText(start: $0, byteCount: $1, kind: kind, limit: limit)
            }
        } catch {
            return .undecodable("its text could not be read: \(error.message)")
        }
    }

    // MARK: Requests

    /// The number of records of the entity (sub-entities included), remembered until the data changes.
    func count(of entity: EntityMapping, in connection: SQLiteConnection, cache: ReadCache) throws -> Int {
        var counted = false
        defer {
            connection.trace?.note(counted ? "Total: \(entity.name)'s records counted with one query."
                                   : "Total: \(entity.name)'s count, kept since the data last changed.")
        }
        return try cache.count(entity.name) {
            counted = true
            return try countRows(of: entity, in: connection)
        }
    }

    private func countRows(of entity: EntityMapping, in connection: SQLiteConnection) throws -> Int {
        var arguments: [SQLiteValue] = []
        let condition = rowCondition(of: entity, arguments: &arguments)
        let sql = "SELECT COUNT(*) FROM \(quoteIdentifier(entity.table))" + (condition.map { " WHERE " + $0 } ?? "")
        return Int(try connection.scalar(sql, arguments)?.int64 ?? 0)
    }

    /// The page the query asks for, read the way `PagePlanner` decides. `partner` reads half of a whole-table
    /// scan on the other core (a store read in place), nil for none.
    func page(_ query: RecordQuery, of entity: EntityMapping, in connection: SQLiteConnection,
              cache: ReadCache, partner: ScanPartner? = nil) throws -> RecordPage {
        let trace = connection.trace
        let rowCount = query.isWholeEntity ? try count(of: entity, in: connection, cache: cache) : nil
        let list = try listSQL(query, of: entity)
        let totalKept = rowCount == nil && cache.keptFilteredCount(entity.name, condition: list.whereClause, arguments: list.arguments) != nil
        let plan = PagePlanner.plan(query, of: entity, rowCount: rowCount, cache: cache, partnerMinimumRows: partner?.minimumRows,
                                    totalKept: totalKept)
        trace?.note(plan.reason)
        if let (kind, key) = plan.toBuild, let rowCount {
            cache.requestBuild(buildRequest(kind, key, of: entity, rowCount: rowCount))
        }
        let sortsKeysFirst: Bool
        switch plan.route {
        case .checkpoints:
            return try deepPage(query, of: entity, total: rowCount ?? 0, in: connection, cache: cache)
        case .indexCheckpoints(let checkpoints):
            return RecordPage(total: rowCount ?? 0, records: try indexedDeepPage(query, from: checkpoints, of: entity, in: connection))
        case .keptOrder(let sorted):
            let keys = sorted.page(offset: query.offset, limit: query.limit, descending: query.tieBreak == .descending)
            return RecordPage(total: sorted.keys.count, records: try records(keys, of: entity, in: connection, previewBytes: query.valuePreviewBytes))
        case .sql(let keysFirst):
            sortsKeysFirst = keysFirst
        case .sortedInHalves:
            if let partner, let keys = try keysSortedInHalves(query, list: list, partner: partner, in: connection) {
                return RecordPage(total: rowCount ?? 0, records: try records(keys, of: entity, in: connection, previewBytes: query.valuePreviewBytes))
            }
            sortsKeysFirst = true
        case .searchScan(let counting):
            var arguments: [SQLiteValue] = []
            let found = try counting.matches(table: list.table, condition: rowCondition(of: entity, arguments: &arguments),
                                             arguments: arguments, keysWanted: query.offset + query.limit,
                                             descending: query.tieBreak == .descending, in: connection, partner: partner)
            let total = cache.filteredCount(entity.name, condition: list.whereClause, arguments: list.arguments) { found.count }
            return RecordPage(total: total, records: try records(Array(found.keys.dropFirst(query.offset)), of: entity, in: connection,
                                                                             previewBytes: query.valuePreviewBytes))
        }
        let projection = projection(for: entity, previewBytes: query.valuePreviewBytes)
        let select = sortsKeysFirst ? "\(list.table).\"Z_PK\"" : projection.selectList()
        let sql = "SELECT \(select) FROM \(list.table)\(list.whereClause) ORDER BY \(list.orderClause) LIMIT ? OFFSET ?"
        let arguments = list.arguments + list.orderArguments + [.integer(Int64(query.limit)), .integer(Int64(query.offset))]
        let records: [StoredRecord]
        if sortsKeysFirst {
            records = try self.records(try connection.rows(sql, arguments).map { $0[0].int64 ?? 0 }, of: entity, in: connection,
                                       previewBytes: query.valuePreviewBytes)
        } else {
            records = try fetch(sql, arguments, projection: projection, fallback: entity, connection)
        }
        guard case .filtered(_, let counting) = plan.total else { return RecordPage(total: rowCount ?? 0, records: records) }

        // A filtered or scoped list's total (`PagePlan.Total`): kept by its SQL, else the short page's, else counted.
        var counted = false
        let total = try cache.filteredCount(entity.name, condition: list.whereClause, arguments: list.arguments) {
            counted = true
            if records.count < query.limit, !records.isEmpty || query.offset == 0 {
                trace?.note("Total: the page holds the last matching row, so it is the total; no count query.")
                return query.offset + records.count
            }
            if case .searchScan(let counting) = counting {
                trace?.note("Total: counted in one read of \(counting.column), folded and matched as it is read.")
                var arguments: [SQLiteValue] = []
                return try counting.count(table: list.table, condition: rowCondition(of: entity, arguments: &arguments),
                                          arguments: arguments, in: connection, partner: partner)
            }
            trace?.note("Total: counted with one query.")
            return Int(try connection.scalar("SELECT COUNT(*) FROM \(list.table)\(list.whereClause)", list.arguments)?.int64 ?? 0)
        }
        if !counted { trace?.note("Total: kept from an earlier page of the same list (until the data changes).") }
        return RecordPage(total: total, records: records)
    }

    /// The keys of the page of a sort SQLite has to do, sorted in two halves of the table at once (`PagePlan.Route
    /// .sortedInHalves`): the first `offset + limit` keys of each half hold the first `offset + limit` of the
    /// whole, whose page is then sorted out of those in SQL (the same order, collation and tie-break). Nil when
    /// the table is too small to split (a plain sort is read instead).
    private func keysSortedInHalves(_ query: RecordQuery, list: ListSQL, partner: ScanPartner,
                                    in connection: SQLiteConnection) throws -> [Int64]? {
        let top = Int64(query.offset + query.limit)
        guard let halves = try partner.halves(of: list.table, in: connection, minimumSpan: 2, { connection, range in
            try connection.rows("SELECT \(list.table).\"Z_PK\" FROM \(list.table)\(range.adding(to: list.whereClause)) "
                                + "ORDER BY \(list.orderClause) LIMIT ?",
                                list.arguments + range.arguments + list.orderArguments + [.integer(top)]).map { $0[0].int64 ?? 0 }
        }) else { return nil }
        let candidates = halves.lower + halves.upper
        guard !candidates.isEmpty else { return [] }
        let placeholders = Array(repeating: "?", count: candidates.count).joined(separator: ", ")
        return try connection.rows(
            "SELECT \(list.table).\"Z_PK\" FROM \(list.table) WHERE \(list.table).\"Z_PK\" IN (\(placeholders)) ORDER BY \(list.orderClause) LIMIT ? OFFSET ?",
            candidates.map(SQLiteValue.integer) + list.orderArguments + [.integer(Int64(query.limit)), .integer(Int64(query.offset))]
        ).map { $0[0].int64 ?? 0 }
    }

    /// The offset of record `id` among the query's records in the query's order, or nil when it is not one of
    /// them: the number of matching rows that sort before it (`(value, Z_PK) < (its value, its Z_PK)` with the
    /// query's null and direction rules), so it costs one count, never a walk through the pages.
    func position(of id: ObjectID, in query: RecordQuery, of entity: EntityMapping,
                  in connection: SQLiteConnection) throws -> Int? {
        guard id.storeIdentifier == storeIdentifier, let concrete = mapping.entities[id.entity],
              entity.subtreeNumbers.contains(concrete.number) else { return nil }
        let list = try listSQL(query, of: entity)
        let conditions = list.whereClause.isEmpty ? " WHERE " : list.whereClause + " AND "
        let terms = list.order.map(\.sql).joined(separator: ", ")
        guard let values = try connection.rows(
            "SELECT \(terms) FROM \(list.table)\(conditions)\(list.table).\"Z_PK\" = ? AND \(list.table).\"Z_ENT\" = ?",
            list.orderArguments + list.arguments + [.integer(id.primaryKey), .integer(concrete.number)]
        ).first else { return nil }

        // before = t1 < v1 OR (t1 = v1 AND (t2 < v2 OR (t2 = v2 AND …))), "<" meaning "comes first".
        var before = "0"
        var arguments: [SQLiteValue] = []
        for (term, value) in zip(list.order, values).reversed() {
            var comesFirst: String
            var comesFirstArguments = term.arguments
            var equal: String
            var equalArguments = term.arguments
            switch (value, term.descending) {
            case (.null, false):
                comesFirst = "0"; comesFirstArguments = []
                equal = "\(term.sql) IS NULL"
            case (.null, true):
                // Descending puts nulls last: every value comes before a null.
                comesFirst = "\(term.sql) IS NOT NULL"
                equal = "\(term.sql) IS NULL"
            case (_, false):
                comesFirst = "(\(term.sql) IS NULL OR \(term.sql) < ?)"
                comesFirstArguments = term.arguments + term.arguments + [value]
                equal = "\(term.sql) = ?"; equalArguments.append(value)
            case (_, true):
                comesFirst = "\(term.sql) > ?"; comesFirstArguments.append(value)
                equal = "\(term.sql) = ?"; equalArguments.append(value)
            }
            before = "(\(comesFirst) OR (\(equal) AND \(before)))"
            arguments = comesFirstArguments + equalArguments + arguments
        }
        let count = try connection.scalar("SELECT COUNT(*) FROM \(list.table)\(conditions)\(before)", list.arguments + arguments)
        return Int(count?.int64 ?? 0)
    }

    /// The FROM, WHERE and ORDER BY of a list of records: the entity's rows, the filter, the scope; sorted by the
    /// attributes and relationship counts (`FilterTranslation.relatedCount`), else by an ordered relationship's order, then always by the primary key (in the query's
    /// direction) so that pages never overlap. Nulls first ascending and BINARY string order are SQLite's
    /// defaults, as `BrowserStore` asks.
    func listSQL(_ query: RecordQuery, of entity: EntityMapping) throws -> ListSQL {
        let table = quoteIdentifier(entity.table)
        var arguments: [SQLiteValue] = []
        var conditions: [String] = []
        if let condition = rowCondition(of: entity, arguments: &arguments) {
            conditions.append(condition)
        }
        if let filter = query.matchFilter {
            let condition = try FilterTranslation.condition(for: filter, entity: entity, row: table, mapping: mapping,
                                                            storeIdentifier: storeIdentifier)
            conditions.append(condition.sql)
            arguments += condition.arguments
        }
        let descending = query.tieBreak == .descending
        var order: [ListSQL.Term] = []
        if let scope = query.scope {
            let translation = try ScopeTranslation(scope, mapping: mapping, table: table)
            conditions.append(translation.condition)
            arguments += translation.arguments
            if query.sortKeys.isEmpty, let relationshipOrder = translation.order {
                order.append(.init(sql: relationshipOrder.sql, arguments: relationshipOrder.arguments, descending: descending))
            }
        }
        for sort in query.sortKeys {
            if sort.countsRelationship {
                let count = try FilterTranslation.relatedCount(sort.attribute, of: entity, row: table, mapping: mapping,
                                                               storeIdentifier: storeIdentifier)
                order.append(.init(sql: count.sql, arguments: count.arguments, descending: sort.order == .descending))
            } else if let column = entity.attribute(named: sort.attribute)?.column {
                order.append(.init(sql: "\(table).\(quoteIdentifier(column))", arguments: [], descending: sort.order == .descending))
            }
        }
        order.append(.init(sql: "\(table).\"Z_PK\"", arguments: [], descending: descending))
        return ListSQL(table: table, whereClause: conditions.isEmpty ? "" : " WHERE " + conditions.joined(separator: " AND "),
                       arguments: arguments, order: order)
    }

    /// A page in primary-key order far from the start: the same rows as `ORDER BY Z_PK LIMIT ? OFFSET ?`, found
    /// from the nearest `KeyCheckpoints` key (`Z_PK >= key`, then an offset below the stride) instead of stepping
    /// over every earlier row. Descending pages count from the end: the total is known (cached count).
    private func deepPage(_ query: RecordQuery, of entity: EntityMapping, total: Int, in connection: SQLiteConnection,
                          cache: ReadCache) throws -> RecordPage {
        var arguments: [SQLiteValue] = []
        let condition = rowCondition(of: entity, arguments: &arguments)
        let table = quoteIdentifier(entity.table)
        let restriction = condition.map { " AND " + $0 } ?? ""
        let projection = projection(for: entity, previewBytes: query.valuePreviewBytes)
        let limit = SQLiteValue.integer(Int64(query.limit))

        // The row at ascending position `position`: the nearest checkpoint at or before it, and how far past it.
        func anchor(_ position: Int) throws -> (key: Int64, skip: Int)? {
            let checkpoints = try self.checkpoints(upTo: position, of: entity, condition: condition,
                                                   arguments: arguments, in: connection, cache: cache)
            guard let last = checkpoints.keys.indices.last else { return nil }
            let index = min(position / KeyCheckpoints.stride, last)
            return (checkpoints.keys[index], position - index * KeyCheckpoints.stride)
        }

        if query.tieBreak == .descending {
            // Descending offset N starts at ascending position total - 1 - N and goes down.
            let position = total - 1 - query.offset
            guard position >= 0, let (key, skip) = try anchor(position),
                  let start = try connection.scalar(
                      "SELECT \"Z_PK\" FROM \(table) WHERE \"Z_PK\" >= ?\(restriction) ORDER BY \"Z_PK\" ASC LIMIT 1 OFFSET ?",
                      [.integer(key)] + arguments + [.integer(Int64(skip))])?.int64
            else { return RecordPage(total: total, records: []) }
            let sql = "SELECT \(projection.selectList()) FROM \(table) WHERE \"Z_PK\" <= ?\(restriction) ORDER BY \"Z_PK\" DESC LIMIT ?"
            return RecordPage(total: total, records: try fetch(sql, [.integer(start)] + arguments + [limit],
                                                               projection: projection, fallback: entity, connection))
        }
        guard let (key, skip) = try anchor(query.offset) else { return RecordPage(total: total, records: []) }
        let sql = "SELECT \(projection.selectList()) FROM \(table) WHERE \"Z_PK\" >= ?\(restriction) ORDER BY \"Z_PK\" ASC LIMIT ? OFFSET ?"
        return RecordPage(total: total, records: try fetch(sql, [.integer(key)] + arguments + [limit, .integer(Int64(skip))],
                                                           projection: projection, fallback: entity, connection))
    }

    /// The entity's checkpoints, extended (one scan of primary keys from the last one known) until they reach
    /// `position` or the last row.
    private func checkpoints(upTo position: Int, of entity: EntityMapping, condition: String?, arguments: [SQLiteValue],
                             in connection: SQLiteConnection, cache: ReadCache) throws -> KeyCheckpoints {
        let key = entity.name
        var checkpoints = cache.checkpoints(key)
        let stride = KeyCheckpoints.stride
        guard !checkpoints.isComplete, checkpoints.keys.count * stride <= position else { return checkpoints }
        let restriction = condition.map { " AND " + $0 } ?? ""
        let statement = try connection.prepare(
            "SELECT \"Z_PK\" FROM \(quoteIdentifier(entity.table)) WHERE \"Z_PK\" >= ?\(restriction) ORDER BY \"Z_PK\" ASC")
        // Resume at the last checkpoint (its row is step 0 and is already recorded).
        let resume = checkpoints.keys.last
        try statement.bind([.integer(resume ?? Int64.min)] + arguments)
        var step = 0
        var reachedEnd = true
        while try statement.step() {
            if step % stride == 0, !(resume != nil && step == 0) {
                checkpoints.keys.append(statement.value(at: 0).int64 ?? 0)
                if checkpoints.keys.count * stride > position {
                    reachedEnd = false
                    break
                }
            }
            step += 1
        }
        checkpoints.isComplete = reachedEnd
        cache.store(checkpoints, for: key)
        return checkpoints
    }

    func record(_ id: ObjectID, in connection: SQLiteConnection) throws -> StoredRecord? {
        guard id.storeIdentifier == storeIdentifier, let entity = mapping.entities[id.entity] else { return nil }
        let projection = projection(for: entity)
        let sql = "SELECT \(projection.selectList()) FROM \(quoteIdentifier(entity.table)) WHERE \"Z_PK\" = ? AND \"Z_ENT\" = ?"
        let statement = try connection.prepare(sql)
        try statement.bind([.integer(id.primaryKey), .integer(entity.number)])
        return try statement.step() ? record(in: statement, projection: projection, fallback: entity) : nil
    }

    /// The first `limit` records `id` reaches through relationship `name`, and their count (kept in `cache` until
    /// the data changes, when given: a record's detail asked for again does not count its relationships again).
    func related(from id: ObjectID, through name: String, limit: Int, in connection: SQLiteConnection,
                 cache: ReadCache? = nil) throws -> RelatedRecords {
        let none = RelatedRecords(total: 0, records: [])
        guard id.storeIdentifier == storeIdentifier, let source = mapping.entities[id.entity] else { return none }
        guard let relationship = source.relationships[name] else {
            throw BrowserError.notFound("\(source.name) has no relationship \"\(name)\"")
        }
        guard let destination = mapping.entities[relationship.destination] else { return none }
        let sourceTable = quoteIdentifier(source.table)
        guard try connection.scalar("SELECT 1 FROM \(sourceTable) WHERE \"Z_PK\" = ? AND \"Z_ENT\" = ?",
                                    [.integer(id.primaryKey), .integer(source.number)]) != nil
        else { return none }

        // Related items only name their records (a summary): their text is read cut.
        let projection = projection(for: destination, previewBytes: ValuePreview.summaryBytes)
        let target = quoteIdentifier(destination.table)
        var entityArguments: [SQLiteValue] = []
        // A destination that is its table's root needs no `Z_ENT` test (as its pages and counts): the count then
        // runs on the foreign-key index alone instead of visiting every related row.
        let inSubtree = destination.coversWholeTable && relationship.destinationSubtree == destination.subtreeNumbers
            ? "1"
            : entityCondition(relationship.destinationSubtree, alias: "d", arguments: &entityArguments)!
        let limitArguments: [SQLiteValue] = [.integer(Int64(max(limit, 0)))]
        func fetchRelated(_ body: String, _ arguments: [SQLiteValue], order: String, limit: [SQLiteValue],
                          projection: Projection, fallback: EntityMapping, _ connection: SQLiteConnection) throws -> RelatedRecords {
            try self.fetchRelated(body, arguments, order: order, limit: limit, projection: projection, fallback: fallback,
                                  countKey: ReadCache.RelatedCountKey(entity: source.name, key: id.primaryKey, relationship: name),
                                  cache: cache, connection)
        }

        switch relationship.storage {
        case .foreignKey(let column, let entityColumn):
            let columns = [column] + (entityColumn.map { [$0] } ?? [])
            guard let row = try connection.rows(
                "SELECT \(columns.map(quoteIdentifier).joined(separator: ", ")) FROM \(sourceTable) WHERE \"Z_PK\" = ?",
                [.integer(id.primaryKey)]
            ).first, let key = row[0].int64 else { return none }
            // The entity column names the target's concrete entity when the destination has sub-entities.
            var condition = inSubtree
            var arguments = entityArguments
            if row.count > 1, let number = row[1].int64 {
                guard relationship.destinationSubtree.contains(number) else { return none }
                condition = "d.\"Z_ENT\" = ?"
                arguments = [.integer(number)]
            }
            return try fetchRelated(
                "FROM \(target) AS d WHERE d.\"Z_PK\" = ? AND \(condition)", [.integer(key)] + arguments,
                order: "d.\"Z_PK\"", limit: limitArguments, projection: projection, fallback: destination, connection)

        case .inverseForeignKey(let column):
            return try fetchRelated(
                "FROM \(target) AS d WHERE d.\(quoteIdentifier(column)) = ? AND \(inSubtree)",
                [.integer(id.primaryKey)] + entityArguments,
                order: "d.\"Z_PK\"", limit: limitArguments, projection: projection, fallback: destination, connection)

        case .targetsReferToSource(let column, let orderColumn):
            let order = (orderColumn.map { "d.\(quoteIdentifier($0)), " } ?? "") + "d.\"Z_PK\""
            return try fetchRelated(
                "FROM \(target) AS d WHERE d.\(quoteIdentifier(column)) = ? AND \(inSubtree)",
                [.integer(id.primaryKey)] + entityArguments,
                order: order, limit: limitArguments, projection: projection, fallback: destination, connection)

        case .joinTable(let table, let sourceColumn, let targetColumn, let orderColumn, let reflexive):
            let join = quoteIdentifier(table)
            let sourceKey = quoteIdentifier(sourceColumn), targetKey = quoteIdentifier(targetColumn)
            if reflexive {
                // A relationship that is its own inverse may hold a pair in either column.
                return try fetchRelated(
                    "FROM \(target) AS d WHERE d.\"Z_PK\" IN (SELECT \(targetKey) FROM \(join) WHERE \(sourceKey) = ? UNION SELECT \(sourceKey) FROM \(join) WHERE \(targetKey) = ?) AND \(inSubtree)",
                    [.integer(id.primaryKey), .integer(id.primaryKey)] + entityArguments,
                    order: "d.\"Z_PK\"", limit: limitArguments, projection: projection, fallback: destination, connection)
            }
            let order = (orderColumn.map { "j.\(quoteIdentifier($0)), " } ?? "") + "d.\"Z_PK\""
            return try fetchRelated(
                "FROM \(join) AS j JOIN \(target) AS d ON d.\"Z_PK\" = j.\(targetKey) WHERE j.\(sourceKey) = ? AND \(inSubtree)",
                [.integer(id.primaryKey)] + entityArguments,
                order: order, limit: limitArguments, projection: projection, fallback: destination, connection)

        case .missing(let reason):
            throw SQLiteStoreError.relationshipUnreadable(entity: source.name, relationship: name, reason: reason)
        }
    }

    // MARK: Helpers

    /// A list's SQL parts (see `listSQL`).
    struct ListSQL {
        struct Term {
            var sql: String
            var arguments: [SQLiteValue]
            var descending: Bool
        }
        var table: String
        var whereClause: String
        var arguments: [SQLiteValue]
        var order: [Term]

        /// The terms as an ORDER BY list (without the keywords), and the arguments they bind.
        var orderClause: String { order.map { "\($0.sql) \($0.descending ? "DESC" : "ASC")" }.joined(separator: ", ") }
        var orderArguments: [SQLiteValue] { order.flatMap(\.arguments) }
    }

    /// The condition that picks the entity's rows (its subtree's `Z_ENT`s) out of its table, nil when every row
    /// of the table is one (the entity is the table's root).
    func rowCondition(of entity: EntityMapping, arguments: inout [SQLiteValue]) -> String? {
        entityCondition(entity.coversWholeTable ? nil : entity.subtreeNumbers, arguments: &arguments)
    }

    /// `"Z_ENT" IN (?, …)` for the entity numbers, or nil for no restriction.
    func entityCondition(_ numbers: [Int64]?, alias: String? = nil, arguments: inout [SQLiteValue]) -> String? {
        Self.entityCondition(numbers, alias: alias, arguments: &arguments)
    }

    static func entityCondition(_ numbers: [Int64]?, alias: String? = nil, arguments: inout [SQLiteValue]) -> String? {
        guard let numbers else { return nil }
        guard !numbers.isEmpty else { return "0" }
        arguments += numbers.map { .integer($0) }
        let column = (alias.map { $0 + "." } ?? "") + "\"Z_ENT\""
        if numbers.count == 1 { return "\(column) = ?" }
        return "\(column) IN (\(Array(repeating: "?", count: numbers.count).joined(separator: ", ")))"
    }

    /// How `KeptOrderBuilder` reads the entity's keys (an order) or values and keys (checkpoints) in `key.column`'s
    /// order (see `SortedKeys`, `IndexCheckpoints`).
    private func buildRequest(_ kind: SortedKeys.Request.Kind, _ key: SortedKeys.Key, of entity: EntityMapping,
                              rowCount: Int) -> SortedKeys.Request {
        var arguments: [SQLiteValue] = []
        let condition = rowCondition(of: entity, arguments: &arguments)
        let column = quoteIdentifier(key.column)
        let sql = "SELECT \(kind == .order ? "" : column + ", ")\"Z_PK\" FROM \(quoteIdentifier(entity.table))"
            + (condition.map { " WHERE " + $0 } ?? "") + " ORDER BY \(column) ASC, \"Z_PK\" ASC"
        return SortedKeys.Request(kind: kind, key: key, sql: sql, arguments: arguments, expectedRows: rowCount)
    }

    /// The records with these primary keys (rows of the entity's table), in the order of `keys`; with
    /// `previewBytes`, their text cut (`projection(for:previewBytes:)`).
    func records(_ keys: [Int64], of entity: EntityMapping, in connection: SQLiteConnection,
                 previewBytes: Int? = nil) throws -> [StoredRecord] {
        guard !keys.isEmpty else { return [] }
        let projection = projection(for: entity, previewBytes: previewBytes)
        let placeholders = Array(repeating: "?", count: keys.count).joined(separator: ", ")
        let sql = "SELECT \(projection.selectList()) FROM \(quoteIdentifier(entity.table)) WHERE \"Z_PK\" IN (\(placeholders))"
        let found = try fetch(sql, keys.map(SQLiteValue.integer), projection: projection, fallback: entity, connection)
        let byKey = Dictionary(found.map { ($0.id.primaryKey, $0) }, uniquingKeysWith: { first, _ in first })
        return keys.compactMap { byKey[$0] }
    }

    /// Every row of a records query, decoded.
    func fetch(_ sql: String, _ arguments: [SQLiteValue], projection: Projection, fallback: EntityMapping,
                       _ connection: SQLiteConnection) throws -> [StoredRecord] {
        let statement = try connection.prepare(sql)
        try statement.bind(arguments)
        var records: [StoredRecord] = []
        while try statement.step() {
            records.append(record(in: statement, projection: projection, fallback: fallback))
        }
        return records
    }

    /// Counts the rows of `body` (a FROM … WHERE … clause whose destination alias is `d`) and reads the first
    /// `limit` of them in `order`.
    private func fetchRelated(_ body: String, _ arguments: [SQLiteValue], order: String, limit: [SQLiteValue],
                              projection: Projection, fallback: EntityMapping, countKey: ReadCache.RelatedCountKey,
                              cache: ReadCache?, _ connection: SQLiteConnection) throws -> RelatedRecords {
        let count = { Int(try connection.scalar("SELECT COUNT(*) \(body)", arguments)?.int64 ?? 0) }
        let total = try cache.map { try $0.relatedCount(countKey, compute: count) } ?? count()
        guard total > 0 else { return RelatedRecords(total: 0, records: []) }
        let statement = try connection.prepare("SELECT \(projection.selectList(alias: "d")) \(body) ORDER BY \(order) LIMIT ?")
        try statement.bind(arguments + limit)
        var records: [StoredRecord] = []
        while try statement.step() {
            records.append(record(in: statement, projection: projection, fallback: fallback))
        }
        return RelatedRecords(total: total, records: records)
    }
}
