#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The client's IP address without its port: the key of the per-address connection cap.
///
/// An IPv4-mapped IPv6 address (what a dual-stack listener on "::" sees for an IPv4 client) is kept as its
/// IPv4 address, so a client cannot double its share by connecting over both families.
struct PeerAddress: Hashable {
    /// 4 or 16 bytes.
    let bytes: [UInt8]

    /// Reads the address `accept()` filled in; nil for families other than IPv4 and IPv6.
    init?(_ storage: sockaddr_storage) {
        var storage = storage
        let family = Int32(storage.ss_family)
        let bytes: [UInt8]? = withUnsafeBytes(of: &storage) { raw in
            switch family {
            case AF_INET:
                var address = raw.load(as: sockaddr_in.self).sin_addr
                return withUnsafeBytes(of: &address) { Array($0) }
            case AF_INET6:
                var address = raw.load(as: sockaddr_in6.self).sin6_addr
                let all = withUnsafeBytes(of: &address) { Array($0) }
                let mappedPrefix: [UInt8] = [0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xFF, 0xFF]
                return all.starts(with: mappedPrefix) ? Array(all[12...]) : all
            default:
                return nil
            }
        }
        guard let bytes else { return nil }
        self.bytes = bytes
    }
}
