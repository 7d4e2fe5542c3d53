#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Raises this test process's soft descriptor limit (`RLIMIT_NOFILE`) as far as its hard limit allows, up to 4,096,
/// once, before the first test server or client opens a socket.
///
/// Why: every test target runs in one process, suites in parallel, each test holding a server and up to a couple of
/// hundred client sockets; under a Mac's default soft limit of 256 they ran out of descriptors and failed for a reason
/// that has nothing to do with what they test. The server's own behaviour under a small limit is
/// tested where it belongs: `ConnectionBudget` (unit tests) and the load check's lock-out phase (a server under 256).
public enum DescriptorLimit {
    public static let raised: Void = {
        var limit = rlimit()
        #if canImport(Glibc)
        let resource = __rlimit_resource_t(RLIMIT_NOFILE.rawValue)
        #else
        let resource = RLIMIT_NOFILE
        #endif
        guard getrlimit(resource, &limit) == 0, limit.rlim_cur < 4_096 else { return }
        limit.rlim_cur = min(limit.rlim_max, 4_096)
        _ = setrlimit(resource, &limit)
    }()
}
