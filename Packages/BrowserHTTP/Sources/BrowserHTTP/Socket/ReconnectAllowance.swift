/// How many new connections each client address may still open: a token bucket per address, holding at most
/// `burst` (the per-address connection cap), refilled at `HTTPServerLimits.newConnectionsPerAddressPerSecond`.
///
/// Why: when the unauthenticated slots are full, a newcomer takes the slot of the crowded address's oldest
/// unauthenticated connection (`SlotReclaiming`). A client that reconnects as fast as it can would then keep
/// displacing others, and the owner's fresh connection too before it has shown its token. Each accepted connection
/// takes one allowance and gives it back when it shows credentials (`HTTPAdmissionVerdict.authenticated`), so a
/// browser opening its six connections at once loses nothing, while connections that never authenticate are
/// limited to the sustained rate.
///
/// Memory is bounded: addresses whose bucket is full again are forgotten when the table grows past
/// `prunedAbove`, and beyond `maxTracked` addresses (many addresses at once, e.g. an IPv6 prefix) new ones are not
/// limited here; the unauthenticated pool and fair share still bound what they hold.
struct ReconnectAllowance {
    private struct Bucket {
        var tokens: Double
        var updated: UInt64
    }

    let burst: Double
    let perSecond: Double
    private var buckets: [PeerAddress: Bucket] = [:]
    static let prunedAbove = 1_024
    static let maxTracked = 4_096

    init(burst: Int, perSecond: Double) {
        self.burst = Double(max(1, burst))
        self.perSecond = max(0, perSecond)
    }

    /// Takes one allowance for a new connection from `address`; false when it has none left.
    mutating func take(for address: PeerAddress, now: UInt64) -> Bool {
        var bucket = refilled(buckets[address], now: now)
        guard bucket.tokens >= 1 else {
            buckets[address] = bucket
            return false
        }
        bucket.tokens -= 1
        if buckets[address] == nil, buckets.count >= Self.prunedAbove {
            prune(now: now)
            guard buckets.count < Self.maxTracked else { return true }
        }
        buckets[address] = bucket
        return true
    }

    /// A connection from `address` showed credentials: its allowance is given back.
    mutating func giveBack(for address: PeerAddress) {
        guard var bucket = buckets[address] else { return }
        bucket.tokens = min(burst, bucket.tokens + 1)
        buckets[address] = bucket
    }

    private func refilled(_ bucket: Bucket?, now: UInt64) -> Bucket {
        guard var bucket else { return Bucket(tokens: burst, updated: now) }
        let elapsed = Double(now &- bucket.updated) / 1_000_000_000
        bucket.tokens = min(burst, bucket.tokens + elapsed * perSecond)
        bucket.updated = now
        return bucket
    }

    private mutating func prune(now: UInt64) {
        buckets = buckets.filter { refilled($0.value, now: now).tokens < burst }
    }
}
