public import BrowserCore
import BrowserFormats
public import Foundation
import CSQLite

/// A Core Data or SwiftData SQLite store file as a `BrowserStore`: read-only, or read-write when the host asks for
/// writes (`open(storeAt:model:writes:)`) and the store allows them (`writeRefusal`).
///
/// ```swift
/// let store = try SQLiteStore.open(storeAt: URL(fileURLWithPath: "Model.sqlite"))
/// let books = try await store.page(RecordQuery(entity: "Book"))
/// ```
///
/// Thread safety: reads run on a small pool of read connections (`ReadPool`), each used only on a serial queue of
/// its own, so a slow request never holds up the others' reads; writes run on the one read-write connection, on a
/// serial queue of its own (they are serialised among themselves). Callers suspend while their request runs, so no
/// cooperative thread blocks on SQLite, and each request runs whole on one connection in one read transaction (a
/// consistent snapshot for its count and page). SQLite waits at most 5 seconds for a lock
/// (`sqlite3_busy_timeout`), so no request waits forever.
public final class SQLiteStore: BrowserStore, @unchecked Sendable {
    // @unchecked: each connection is mutable state confined to its lane's queue or `writeQueue`; `madeBackup` is
    // confined to `writeQueue`; everything else is immutable and Sendable.

    /// The store file, as given to `open`.
    public let url: URL
    /// Where the model came from.
    public let modelOrigin: ModelOrigin
    /// How the file is read: in place (read-only) or from a private snapshot (see `open(storeAt:model:)`).
    public var accessDescription: String { accessMode.rawValue }

    let mapping: StoreMapping
    /// The model as its source declares it (`/api/model`).
    let modelDescription: ModelDescription
    /// The readable versions of a named versioned model (empty otherwise).
    let modelVersionList: [ModelVersion]
    let reader: RecordReader
    /// Nil when the store has no persistent-history tables.
    let historyReader: HistoryReader?
    /// `.<store>_SUPPORT/_EXTERNAL_DATA` beside the original store (never the snapshot's folder).
    let externalDataDirectory: String
    private let accessMode: StoreConnection.Mode
    /// What the host asked for writes (nil: read-only); `writer` is set only when the store allows them.
    let writeOptions: StoreWriteOptions?
    let writer: StoreWriter?
    /// Why writes asked for are refused (nil when they are allowed or were not asked for).
    public let writeRefusal: String?
    /// The copy made before this run's first write; confined to `writeQueue`.
    var madeBackup: String?
    /// The store's journal mode when it was opened: an export reads a WAL store in place, others from a copy.
    private let isWAL: Bool
    private let files: StoreFiles
    /// The read connections.
    let pool: ReadPool
    /// The read-write connection (writes on) and the serial queue writes run on. In a rollback-journal store it is
    /// the pool's one lane: there a reader's shared lock would hold the writer's commit up (and fail it after the
    /// busy timeout), so reads and writes take turns on one connection, as before the pool.
    let writeConnection: StoreConnection?
    private let writeQueue: DispatchQueue
    /// The change token's own connection.
    private let changeTokens: ChangeTokenSource
    /// The private copies an export of a store not read in place reads from, one per data version.
    private let exportCopies: SnapshotCopies
    /// Builds the kept orders `PagePlanner` asks for on lane 0, off the request path.
    var keptOrders: KeptOrderBuilder { pool.lanes[0].keptOrders! }
    /// Lane 0's scan partner, which reads half of a whole-table scan on the other core; nil for a private snapshot
    /// (or when it could not open). Each lane has its own.
    var scanPartner: ScanPartner? { pool.lanes[0].openedPartner() }

    /// Opens a Core Data / SwiftData SQLite store for reading.
    ///
    /// The model comes, in this order, from `modelURL` (an `.xcdatamodeld`, `.xcdatamodel`, `.momd` or `.mom`;
    /// the version matching the store is picked, see `NamedModel`), from the model Core Data cached in the store
    /// (`Z_MODELCACHE`), or is inferred from the tables (`InferredModel`).
    ///
    /// **The store is never modified.** It is opened through SQLite with its `-wal`, so rows that live only in
    /// the WAL are visible (never `immutable=1`, which skips the WAL). A WAL-mode reader needs the `-shm` index,
    /// which SQLite writes even for read-only connections (it holds no data). So when the store's folder and its
    /// existing `-wal`/`-shm` are writable (by this process and by their permission bits), the store is opened in
    /// place with `SQLITE_OPEN_READONLY` (`mode=ro`): SQLite may create the `-shm` (and an empty `-wal`), never
    /// writes the database or the `-wal`, never checkpoints, never blocks a writing app, and every request sees
    /// the latest commit. Otherwise (read-only files or folder, a hot rollback journal), the store and its `-wal`
    /// are copied into a private temporary folder and read there; the copy is refreshed whenever the original's
    /// size or modification time changes, so new rows still appear. A rollback-journal store is read in place:
    /// a read-only reader writes nothing there.
    ///
    /// - Throws: `SQLiteStoreError` with a one-line description: a missing file, a file that is not SQLite, an
    ///   SQLite file without Core Data's tables, a corrupt or truncated file, an unreadable model, a model that
    ///   does not match the store.
    ///
    /// With `writes`, and only then, the store is opened read-write in place when its files allow it, and written
    /// when every invariant Core Data keeps for it is one this package keeps (`WriteRefusal`; docs/decisions/
    /// store-file-writing.md); otherwise it is opened as above and `writeRefusal` says why it is not written.
    public static func open(storeAt url: URL, model modelURL: URL? = nil,
                            writes: StoreWriteOptions? = nil) throws(SQLiteStoreError) -> SQLiteStore {
        let path = url.standardizedFileURL.path
        let files = StoreFiles(path: path)
        let header = try files.inspect()
        let connection = try StoreConnection(files: files, header: header, writable: writes != nil, prepare: prepareConnection)
        let catalog = try readCatalog(connection.connection, path: path)

        let mapping: StoreMapping
        let origin: ModelOrigin
        let description: ModelDescription
        var versions: [ModelVersion] = []
        /// The model the mapping was built from, for decoding history bitmaps; nil for an inferred one.
        var historyModel: ModelDefinition?
        let storeHashes = catalog.versionHashes
        if let modelURL {
            let resolution = try NamedModel.resolve(at: modelURL, for: catalog)
            mapping = resolution.mapping
            origin = resolution.origin
            description = NamedModel.description(of: resolution.model, hashes: resolution.hashes, path: origin.path ?? "",
                                                 storeHashes: storeHashes)
            versions = resolution.versions
            historyModel = resolution.model
        } else if let (cached, cachedMapping) = cachedModel(catalog) {
            mapping = cachedMapping
            historyModel = cached
            origin = ModelOrigin(source: .storeCache, name: cached.versionIdentifiers.filter { !$0.isEmpty }.first, path: nil)
            description = cached.modelDescription(hashes: nil, storeHashes: storeHashes,
                                                  unknown: ["entity.versionHash": ModelDefinition.Knowledge.cacheHashes])
        } else {
            let inferred = InferredModel.build(from: catalog)
            mapping = StoreMapping.build(model: inferred, catalog: catalog)
            origin = ModelOrigin(source: .inferred, name: InferredModel.note, path: nil)
            description = inferred.modelDescription(hashes: nil, storeHashes: storeHashes, unknown: ModelDefinition.Knowledge.inferred)
        }
        let decoder = ValueDecoder(externalDataDirectory: files.externalDataDirectory)
        var refusal: String?
        if writes != nil {
            do {
                let triggers = try connection.connection.rows("SELECT sql FROM sqlite_master WHERE type = 'trigger'").map { $0[0].string ?? "" }
                refusal = WriteRefusal.reason(mode: connection.mode, origin: origin, mapping: mapping, model: description,
                                              catalog: catalog, triggers: triggers)
            } catch {
                refusal = "its triggers could not be read (\(error.message)), so whether a write would fire Core Data's is unknown"
            }
        }
        return SQLiteStore(url: url, origin: origin, mapping: mapping, model: description, versions: versions, externalDataDirectory: files.externalDataDirectory,
                           reader: RecordReader(mapping: mapping, decoder: decoder, storeIdentifier: catalog.uuid),
                           history: HistoryReader(catalog: catalog, mapping: mapping, model: historyModel),
                           connection: connection, isWAL: header.isWAL, writes: writes, writeRefusal: refusal)
    }

    private init(url: URL, origin: ModelOrigin, mapping: StoreMapping, model: ModelDescription, versions: [ModelVersion], externalDataDirectory: String,
                 reader: RecordReader, history: HistoryReader?, connection: StoreConnection, isWAL: Bool,
                 writes: StoreWriteOptions?, writeRefusal: String?) {
        self.writeOptions = writes
        self.writeRefusal = writeRefusal
        self.writer = writes != nil && writeRefusal == nil ? StoreWriter(mapping: mapping, storeIdentifier: reader.storeIdentifier) : nil
        self.isWAL = isWAL
        self.historyReader = history
        self.url = url
        self.externalDataDirectory = externalDataDirectory
        self.modelOrigin = origin
        self.mapping = mapping
        self.modelDescription = model
        self.modelVersionList = versions
        self.reader = reader
        let mode = connection.mode
        accessMode = mode
        files = connection.files
        // A partner is opened with its lane, before any request's transaction begins there (its first reading of
        // the data version must precede them). One that cannot open only costs speed: the lane reads every scan.
        let openPartner = { mode == .snapshot ? nil : try? ScanPartner(path: connection.files.path, prepare: Self.prepareConnection) }
        // Lane 0: the connection opened with the store when it reads, a reader beside it when it writes (WAL).
        let firstReader = mode == .readWrite && isWAL ? try? StoreConnection(readerBeside: connection) : connection
        let readsBesideWriter = firstReader !== connection
        let firstQueue = DispatchQueue(label: "BrowserSQLite.ReadPool.lane0")
        let first = firstReader ?? connection
        var lanes = [ReadPool.Lane(index: 0, connection: first, partner: openPartner(),
                                   keptOrders: KeptOrderBuilder(path: mode == .inPlace ? connection.files.path : nil,
                                                                cache: first.cache, storeQueue: firstQueue),
                                   queue: firstQueue)]
        if mode != .readWrite || readsBesideWriter {
            for index in 1..<ReadPool.size() {
                lanes.append(ReadPool.Lane(index: index) { () throws(SQLiteStoreError) in
                    (try StoreConnection(readerBeside: first), openPartner())
                })
            }
        }
        pool = ReadPool(lanes: lanes)
        writeConnection = mode == .readWrite ? connection : nil
        writeQueue = readsBesideWriter ? DispatchQueue(label: "BrowserSQLite.SQLiteStore.writes") : firstQueue
        changeTokens = ChangeTokenSource(files: connection.files, snapshots: connection.snapshots)
        exportCopies = connection.snapshots ?? SnapshotCopies(files: connection.files)
    }

    /// The store's UUID (`Z_METADATA.Z_UUID`), the `storeIdentifier` of its object IDs.
    public var storeIdentifier: String { reader.storeIdentifier }

    // MARK: BrowserStore

    public func describe() async throws -> StoreDescription {
        StoreDescription(summary: url.standardizedFileURL.path, model: modelOrigin,
                         capabilities: writer == nil ? .readOnly : [.read, .write],
                         storeIdentifier: storeIdentifier, writeRefusal: writeRefusal, files: [url])
    }

    public func schema() async throws -> StoreSchema {
        mapping.schema
    }

    public func model() async throws -> ModelDescription {
        modelDescription
    }

    public func modelVersions() async throws -> ModelVersions {
        guard modelVersionList.count > 1 else {
            return .unavailable(modelOrigin.source == .file
                ? "The model file named has one version: there is nothing to compare."
                : "The model does not come from a versioned model file: open the store with --model and its .xcdatamodeld or .momd to compare versions.")
        }
        return .versions(modelVersionList)
    }

    public func count(of entity: String) async throws -> Int {
        let mapping = try entityMapping(entity)
        return try await read { [reader] connection, cache in try reader.count(of: mapping, in: connection, cache: cache) }
    }

    public func page(_ query: RecordQuery) async throws -> RecordPage {
        let mapping = try entityMapping(query.entity)
        return try await readWithPartner { [reader] connection, cache, partner in
            try reader.page(query, of: mapping, in: connection, cache: cache, partner: partner)
        }
    }

    public func position(of id: ObjectID, in query: RecordQuery) async throws -> Int? {
        let mapping = try entityMapping(query.entity)
        return try await read { [reader] connection, _ in
            try reader.position(of: id, in: query, of: mapping, in: connection)
        }
    }

    /// With writes on, the record carries its version (`Z_OPT`), read in the same transaction.
    public func record(_ id: ObjectID) async throws -> StoredRecord? {
        let versioned = writer != nil
        return try await read { [reader] connection, _ in
            try Self.record(id, reader: reader, versioned: versioned, in: connection)
        }
    }

    /// The record, with its version (`Z_OPT`) when the store writes: a write must name it.
    private static func record(_ id: ObjectID, reader: RecordReader, versioned: Bool, in connection: SQLiteConnection) throws -> StoredRecord? {
        guard var record = try reader.record(id, in: connection) else { return nil }
        if versioned, let table = reader.mapping.entities[id.entity]?.table {
            record.version = try connection.scalar("SELECT Z_OPT FROM \(quoteIdentifier(table)) WHERE Z_PK = ?",
                                                   [.integer(id.primaryKey)])?.int64
        }
        return record
    }

    public func related(from id: ObjectID, through relationship: String, limit: Int) async throws -> RelatedRecords {
        try await read { [reader] connection, _ in
            try reader.related(from: id, through: relationship, limit: limit, in: connection)
        }
    }

    /// The record and its relationships' first records and counts in one read transaction: one snapshot.
    public func detail(of id: ObjectID, relationships: [String], limit: Int) async throws -> RecordDetail? {
        let versioned = writer != nil
        return try await read { [reader] connection, cache in
            guard let record = try Self.record(id, reader: reader, versioned: versioned, in: connection) else { return nil }
            var related: [String: RelatedRecords] = [:]
            for name in relationships {
                related[name] = try reader.related(from: id, through: name, limit: limit, in: connection, cache: cache)
            }
            return RecordDetail(record: record, related: related)
        }
    }

    /// Inline values are read piece by piece with SQLite's incremental blob I/O, external ones from their file, so
    /// a value is never held whole in memory (`SQLiteBlob`).
    public func blob(of id: ObjectID, attribute: String) async throws -> BlobLookup {
        let directory = externalDataDirectory
        let location = try await read { [reader] connection, _ in
            try reader.blobLocation(id, attribute: attribute, externalDataDirectory: directory, in: connection)
        }
        guard let location else { return .noRecord }
        guard let location else { return .noValue }
        return .value(SQLiteBlob(store: self, location: location))
    }

    /// Counted in SQL in one read transaction (`FacetReading`), until the facet's deadline.
    public func facets(_ request: FacetRequest) async throws -> FacetCounts {
        try await facets(request, stop: nil)
    }

    /// `stop`: what ends the facet's statements instead of its deadline (tests cut it after a number of checks).
    func facets(_ request: FacetRequest, stop: QueryInterruption?) async throws -> FacetCounts {
        let mapping = try entityMapping(request.query.entity)
        return try await read { [reader] connection, cache in
            try reader.facets(request, of: mapping, in: connection, cache: cache, stop: stop)
        }
    }

    /// Runs the page with its statements recorded (`StatementTrace`), then asks SQLite for each one's plan, in the
    /// same read transaction.
    public func explain(_ query: RecordQuery) async throws -> QueryExplanationDTO {
        let mapping = try entityMapping(query.entity)
        return try await readWithPartner { [reader] connection, cache, partner in
            let trace = StatementTrace()
            connection.trace = trace
            let started = DispatchTime.now().uptimeNanoseconds
            let page: RecordPage
            do {
                defer { connection.trace = nil }
                page = try reader.page(query, of: mapping, in: connection, cache: cache, partner: partner)
            }
            let milliseconds = Double(DispatchTime.now().uptimeNanoseconds - started) / 1e6
            let statements = try trace.entries.map { try QueryPlanReading.statement($0, in: connection) }
            let rowCount = try reader.count(of: mapping, in: connection, cache: cache)
            let hints = try QueryPlanReading.hints(for: query, entity: mapping, rowCount: rowCount,
                                                   statements: statements, in: connection)
            return QueryExplanationDTO(engine: "SQLite \(String(cString: sqlite3_libversion()))", steps: trace.notes,
                                       statements: statements, hints: hints, total: page.total,
                                       milliseconds: milliseconds)
        }
    }

    /// Where an export's connection is opened.
    private static let fileWork = DispatchQueue(label: "BrowserSQLite.SQLiteStore.fileWork")

    /// An export's records from a connection and read transaction of their own (`SQLiteRecordCursor`).
    public func cursor(_ query: RecordQuery, relationships: [RelationshipSchema], batchSize: Int) async throws -> any RecordCursor {
        let mapping = try entityMapping(query.entity)
        let plan = try reader.exportPlan(query, of: mapping, relationships: relationships)
        let files = files
        // A read-write store is in place too: the export's own read-only connection reads it beside the writer.
        // Any other store is exported from the private copy of its current data version, shared by the exports
        // (and the pool, in snapshot mode) that read that version.
        let copies = accessMode != .snapshot && isWAL ? nil : exportCopies
        return try await withCheckedThrowingContinuation { continuation in
            // Opening a connection (or copying a snapshot) is file work: off the cooperative threads, on a serial
            // queue of its own (such a queue gets a thread of its own when it needs one; `DispatchQueue.global()`
            // is, on Linux, the very pool Swift concurrency runs on).
            Self.fileWork.async { [reader] in
                continuation.resume(with: Result {
                    try SQLiteRecordCursor(files: files, copies: copies, reader: reader, plan: plan,
                                           batchSize: batchSize, prepare: Self.prepareConnection)
                })
            }
        }
    }

    /// Core Data's persistent history, read from the store's history tables (`HistoryReader`).
    public func history(_ query: HistoryQuery) async throws -> StoreHistory {
        guard let historyReader else {
            return .unavailable("This store keeps no history: it has no persistent-history tables (ATRANSACTION, ACHANGE). "
                + "Core Data writes them when the app sets NSPersistentHistoryTrackingKey; SwiftData always does.")
        }
        return .page(try await read { connection, _ in try historyReader.read(query, in: connection) })
    }

    /// Reads `count` bytes from `offset` of an inline value, on the store's queue in a read transaction.
    func readBytes(of place: BlobLocation.Place, offset: Int, count: Int) async throws -> [UInt8] {
        try await read { connection, _ in try place.read(offset: offset, count: count, in: connection) }
    }

    /// Changes when the store's data may have changed: `PRAGMA data_version` with the size and modification
    /// time of the store and its `-wal` (in place), or the snapshot's generation (snapshot mode).
    public func changeToken() async throws -> ChangeToken? {
        let value = try await run(on: changeTokens.queue) { [changeTokens] _ in try changeTokens.token() }
        return ChangeToken(value)
    }

    // MARK: Plumbing

    private func entityMapping(_ name: String) throws(BrowserError) -> EntityMapping {
        guard let mapping = mapping.entities[name] else { throw .notFound("No entity named \"\(name)\"") }
        return mapping
    }

    /// Runs `body` on a read connection inside one read transaction, with the connection's `ReadCache`; then, on
    /// lane 0, hands `KeptOrderBuilder` what the read asked for (and lets it cancel a build the data has moved past).
    private func read<T: Sendable>(_ body: @escaping @Sendable (SQLiteConnection, ReadCache) throws -> T) async throws -> T {
        try await perform { connection, _ in try connection.read(body) }
    }

    /// `read`, with the lane's scan partner for the request's whole-table scans.
    private func readWithPartner<T: Sendable>(
        _ body: @escaping @Sendable (SQLiteConnection, ReadCache, ScanPartner?) throws -> T
    ) async throws -> T {
        try await perform { connection, partner in try connection.read { try body($0, $1, partner) } }
    }

    /// Returns once the background work asked for so far (kept orders) has ended and been handed to the cache:
    /// what tests wait on.
    func backgroundWorkFinished() async {
        await keptOrders.finished()
    }

    /// Runs `body` on a read connection of the pool (the first free one), with that lane's scan partner.
    /// - Parameter interruption: what stops its statements (tests give their own; the request's budget otherwise).
    func perform<T: Sendable>(stoppingWith interruption: QueryInterruption = QueryInterruption(),
                              _ body: @escaping @Sendable (StoreConnection, ScanPartner?) throws -> T) async throws -> T {
        let path = url.standardizedFileURL.path
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<T, any Error>) in
                pool.run { lane in
                    let result = Self.interruptible(interruption, path: path) { () throws -> T in
                        let (connection, partner) = try lane.connection()
                        connection.interruption = interruption
                        defer {
                            connection.interruption = nil
                            if let keptOrders = lane.keptOrders {
                                keptOrders.follow()
                            } else {
                                // Only lane 0 builds orders: what this lane's read asked for is dropped.
                                _ = connection.cache.takeRequestedBuild()
                            }
                        }
                        return try body(connection, partner)
                    }
                    return { continuation.resume(with: result) }
                }
            }
        } onCancel: {
            interruption.cancel()
        }
    }

    /// Runs `body` on the read-write connection, on the write queue: writes are serialised among themselves.
    func performWrite<T: Sendable>(_ body: @escaping @Sendable (StoreConnection) throws -> T) async throws -> T {
        guard writeConnection != nil else { throw BrowserError.forbidden("This store is not written: it was opened read-only") }
        return try await run(on: writeQueue) { [self] interruption in
            let connection = writeConnection!
            connection.interruption = interruption
            defer { connection.interruption = nil }
            return try body(connection)
        }
    }

    /// Runs `body` on `queue` with the request's stop conditions.
    private func run<T: Sendable>(on queue: DispatchQueue,
                                  _ body: @escaping @Sendable (QueryInterruption) throws -> T) async throws -> T {
        let interruption = QueryInterruption()
        let path = url.standardizedFileURL.path
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { continuation in
                queue.async {
                    continuation.resume(with: Self.interruptible(interruption, path: path) { try body(interruption) })
                }
            }
        } onCancel: {
            interruption.cancel()
        }
    }

    /// `body`'s result, unless the request was stopped before it started; its SQLite failures as the request's
    /// errors (`StoreConnection.requestError`).
    private static func interruptible<T>(_ interruption: QueryInterruption, path: String,
                                         _ body: () throws -> T) -> Result<T, any Error> {
        // A request stopped while it waited for its connection never starts.
        if let reason = interruption.reason { return .failure(QueryInterruption.error(for: reason)) }
        do {
            return .success(try body())
        } catch {
            return .failure(StoreConnection.requestError(error, interruption: interruption, path: path))
        }
    }

    /// Readies every connection to the store: the SQL functions its queries use.
    private static func prepareConnection(_ connection: SQLiteConnection) throws(SQLiteError) {
        try FoldedContainsFunction.register(on: connection)
        try FoldedTextFunction.register(on: connection)
        try PreviewKeyFunction.register(on: connection)
    }

    private static func readCatalog(_ connection: SQLiteConnection, path: String) throws(SQLiteStoreError) -> StoreCatalog {
        let tables: Set<String>
        do {
            tables = Set(try connection.rows("SELECT upper(name) FROM sqlite_master WHERE type = 'table'").compactMap { $0[0].string })
        } catch {
            throw StoreConnection.fileError(error, path: path) ?? .unreadable(path: path, message: error.message)
        }
        for required in ["Z_PRIMARYKEY", "Z_METADATA"] where !tables.contains(required) {
            throw .notCoreDataStore(path: path, missingTable: required)
        }
        do {
            return try StoreCatalog.read(from: connection)
        } catch {
            switch error {
            case .sqlite(let failure):
                throw StoreConnection.fileError(failure, path: path) ?? .unreadable(path: path, message: failure.description)
            case .malformed(let message):
                throw .corrupt(path: path, message: message)
            }
        }
    }

    /// Model caches inflate to at most a few hundred KB; one inflating past this is refused as damaged (or hostile).
    static let maximumModelCacheBytes = 64 << 20

    /// The model Core Data cached in the store, when it inflates (raw DEFLATE with no zlib header, format doc §4),
    /// decodes and lines up with the store's entities and tables. Missing columns do not disqualify it (those attributes show why they have no value).
    private static func cachedModel(_ catalog: StoreCatalog) -> (ModelDefinition, StoreMapping)? {
        guard let compressed = catalog.modelCache,
              case let inflated = compressed.withUnsafeBytes({ Inflater.inflate($0, from: 0, maxOutput: maximumModelCacheBytes) }),
              inflated.isComplete,
              let plist = try? PropertyList.read(inflated.output),
              let model = try? CompiledModelReader.read(plist)
        else { return nil }
        let mapping = StoreMapping.build(model: model, catalog: catalog)
        guard !mapping.report.hasEntityProblems else { return nil }
        return (model, mapping)
    }
}
