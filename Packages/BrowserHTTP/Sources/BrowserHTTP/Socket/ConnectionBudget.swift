#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// How many sockets the server may hold, decided once at `start()` from the limits and the process's
/// descriptor limit.
///
/// Why derive it: under macOS's default soft limit of 256 descriptors, 300 idle connections exhausted the
/// process before a fixed cap of 512 applied, so no 503 was ever sent and the host app could no longer open
/// a file. The server now stays within `limit − reservedDescriptors`.
struct ConnectionBudget: Equatable {
    /// Connections served; the one after these gets a 503.
    let admitted: Int
    /// Admitted plus rejected connections still being sent their 503: beyond this a new connection is closed
    /// without a word, because answering it would need a descriptor the host process may need more.
    let total: Int
    let perAddress: Int
    /// Admitted connections that have not shown credentials may hold this many slots together; the others stay for
    /// connections that have (`reservedAuthenticatedConnections`, at most half): clients without the token, however
    /// many, cannot take a slot an owner's connection holds or needs once its request is admitted.
    let unauthenticated: Int

    /// Rejections in flight are capped at 64, and at an eighth of the descriptors the server may use.
    init(limits: HTTPServerLimits, descriptorLimit: Int?) {
        let wanted = max(1, limits.maxConnections)
        var total = wanted + 64
        if let descriptorLimit {
            // Two descriptors stay with the loop itself (its wake pipe) and one with the listener.
            total = max(2, min(total, descriptorLimit - limits.reservedDescriptors - 3))
        }
        let rejectionSlots = max(1, min(64, total / 8))
        admitted = max(1, min(wanted, total - rejectionSlots))
        self.total = total
        perAddress = max(1, min(limits.maxConnectionsPerAddress, admitted))
        unauthenticated = max(1, admitted - min(max(0, limits.reservedAuthenticatedConnections), admitted / 2))
    }

    /// The soft `RLIMIT_NOFILE`, or nil when unlimited or unknown.
    static var processDescriptorLimit: Int? {
        var limit = rlimit()
        #if canImport(Glibc)
        let resource = __rlimit_resource_t(RLIMIT_NOFILE.rawValue)
        #else
        let resource = RLIMIT_NOFILE
        #endif
        // RLIM_INFINITY differs between platforms (and does not import on Glibc); any limit beyond 2^31
        // is unlimited for a server capped at a few hundred connections.
        guard getrlimit(resource, &limit) == 0, limit.rlim_cur < 1 << 31 else { return nil }
        return Int(limit.rlim_cur)
    }
}
