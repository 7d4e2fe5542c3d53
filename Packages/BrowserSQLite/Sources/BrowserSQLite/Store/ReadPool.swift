import Foundation

/// The store's read connections: a small, fixed number of lanes, each one SQLite connection used on a serial queue
/// of its own, so a slow request (a pathological search running into its budget, a long facet) holds one lane
/// while the other requests are read on the others. In WAL mode readers never block each other (nor the writer);
/// in a rollback-journal store they all hold shared locks, which do not conflict either.
///
/// - **One snapshot per request.** A request runs whole on one lane, inside one read transaction
///   (`StoreConnection.read`), as before: its count and its page agree.
/// - **Per connection:** the SQL functions (`prepare`, run on every connection opened), the `ReadCache` (validated
///   against its own connection's `PRAGMA data_version`, the only connection that number is comparable on), the
///   `ScanPartner` (each lane has its own, so one request's half-scan never queues behind another's) and the
///   request's `QueryInterruption`. Lanes past the first open on first use.
/// - **The first free lane is taken**, lowest first, and a lane is handed back before its request's caller
///   resumes: sequential browsing (one person) always reads on lane 0, whose cache is as warm as the single
///   connection's was, and only concurrent requests open and use the others. The kept orders
///   (`KeptOrderBuilder`) are built for lane 0 only (one order's keys in memory, not one per lane); the other
///   lanes answer such pages with SQLite's sort.
/// - **Bounded.** `size` lanes (a request past them waits for the first lane freed, in arrival order); each
///   connection's page cache is bounded by `SQLiteConnection.pageCacheKibibytes`.
final class ReadPool: @unchecked Sendable {
    // @unchecked: `busy` and `waiting` are behind `lock`; the lanes are immutable references.

    /// How many read connections a store opens at most: one more than the cores (a request waiting on a lock or on
    /// its partner leaves its core to another), and no more than three, which is what a handful of clients of a
    /// debug tool needs while one of them runs into its budget (connections cost memory, `pageCacheKibibytes`).
    static func size(cores: Int = ProcessInfo.processInfo.activeProcessorCount) -> Int {
        min(3, max(cores, 1) + 1)
    }

    /// One read connection and the serial queue it is used on. Its state is confined to `queue`.
    final class Lane: @unchecked Sendable {
        // @unchecked: `opened` and `partner` are confined to `queue`; the rest is immutable.
        let index: Int
        let queue: DispatchQueue
        /// Builds kept orders for this lane's cache (lane 0 only).
        let keptOrders: KeptOrderBuilder?
        private var opened: StoreConnection?
        private var partner: ScanPartner?
        /// Opens the lane's connection (and its scan partner) on first use.
        private let open: () throws(SQLiteStoreError) -> (StoreConnection, ScanPartner?)

        /// A lane whose connection is already open (lane 0, opened with the store).
        init(index: Int, connection: StoreConnection, partner: ScanPartner?, keptOrders: KeptOrderBuilder?, queue: DispatchQueue) {
            self.index = index
            self.queue = queue
            self.keptOrders = keptOrders
            opened = connection
            self.partner = partner
            open = { () throws(SQLiteStoreError) in (connection, partner) }
        }

        /// A lane opened on first use by `open`.
        init(index: Int, open: @escaping () throws(SQLiteStoreError) -> (StoreConnection, ScanPartner?)) {
            self.index = index
            queue = DispatchQueue(label: "BrowserSQLite.ReadPool.lane\(index)")
            keptOrders = nil
            self.open = open
        }

        /// On `queue`: the lane's connection and scan partner, opened now if this is the lane's first request.
        func connection() throws(SQLiteStoreError) -> (StoreConnection, ScanPartner?) {
            if let opened { return (opened, partner) }
            let (connection, partner) = try open()
            opened = connection
            self.partner = partner
            return (connection, partner)
        }

        /// Tests: the lane's scan partner when the lane is open.
        func openedPartner() -> ScanPartner? { queue.sync { partner } }
    }

    let lanes: [Lane]
    private let lock = NSLock()
    private var busy: [Bool]
    private var waiting: [@Sendable (Lane) -> @Sendable () -> Void] = []

    init(lanes: [Lane]) {
        precondition(!lanes.isEmpty, "a read pool needs a lane")
        self.lanes = lanes
        busy = Array(repeating: false, count: lanes.count)
    }

    /// Runs `work` on the first free lane's queue (or on the first lane freed, in arrival order). `work` does the
    /// request and returns how to deliver its answer, which runs once the lane is free again.
    func run(_ work: @escaping @Sendable (Lane) -> @Sendable () -> Void) {
        lock.lock()
        guard let free = busy.firstIndex(of: false) else {
            waiting.append(work)
            lock.unlock()
            return
        }
        busy[free] = true
        lock.unlock()
        start(work, on: lanes[free])
    }

    private func start(_ work: @escaping @Sendable (Lane) -> @Sendable () -> Void, on lane: Lane) {
        lane.queue.async {
            let deliver = work(lane)
            self.release(lane)
            deliver()
        }
    }

    /// Hands the lane to the longest-waiting request, or marks it free.
    private func release(_ lane: Lane) {
        lock.lock()
        guard !waiting.isEmpty else {
            busy[lane.index] = false
            lock.unlock()
            return
        }
        let next = waiting.removeFirst()
        lock.unlock()
        start(next, on: lane)
    }
}
