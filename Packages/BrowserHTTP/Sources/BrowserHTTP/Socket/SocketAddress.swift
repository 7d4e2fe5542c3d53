#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// An IPv4 or IPv6 address + port to bind, built from the configuration's host string.
struct SocketAddress {
    private var storage = sockaddr_storage()
    let family: Int32
    let length: socklen_t

    /// Accepts numeric addresses ("127.0.0.1", "0.0.0.0", "::1", "::") and "localhost".
    /// No DNS lookup: a debug server binds to a loopback or wildcard address, and
    /// resolving names would make `start()` block on the network.
    init?(host: String, port: UInt16) {
        let host = host == "localhost" ? "127.0.0.1" : host
        var v4 = in_addr()
        var v6 = in6_addr()
        if inet_pton(AF_INET, host, &v4) == 1 {
            var address = sockaddr_in()
            #if canImport(Darwin)
            address.sin_len = UInt8(MemoryLayout<sockaddr_in>.size)
            #endif
            address.sin_family = sa_family_t(AF_INET)
            address.sin_port = port.bigEndian
            address.sin_addr = v4
            family = AF_INET
            length = socklen_t(MemoryLayout<sockaddr_in>.size)
            withUnsafeMutableBytes(of: &storage) { raw in
                raw.storeBytes(of: address, as: sockaddr_in.self)
            }
        } else if inet_pton(AF_INET6, host, &v6) == 1 {
            var address = sockaddr_in6()
            #if canImport(Darwin)
            address.sin6_len = UInt8(MemoryLayout<sockaddr_in6>.size)
            #endif
            address.sin6_family = sa_family_t(AF_INET6)
            address.sin6_port = port.bigEndian
            address.sin6_addr = v6
            family = AF_INET6
            length = socklen_t(MemoryLayout<sockaddr_in6>.size)
            withUnsafeMutableBytes(of: &storage) { raw in
                raw.storeBytes(of: address, as: sockaddr_in6.self)
            }
        } else {
            return nil
        }
    }

    /// The address `address` points at (IPv4 or IPv6, as `getifaddrs(3)` lists them, an IPv6 link-local one with its
    /// scope) with `port`; nil for any other family.
    init?(_ address: UnsafePointer<sockaddr>, port: UInt16) {
        switch Int32(address.pointee.sa_family) {
        case AF_INET:
            var copy = UnsafeRawPointer(address).loadUnaligned(as: sockaddr_in.self)
            copy.sin_port = port.bigEndian
            family = AF_INET
            length = socklen_t(MemoryLayout<sockaddr_in>.size)
            withUnsafeMutableBytes(of: &storage) { $0.storeBytes(of: copy, as: sockaddr_in.self) }
        case AF_INET6:
            var copy = UnsafeRawPointer(address).loadUnaligned(as: sockaddr_in6.self)
            copy.sin6_port = port.bigEndian
            family = AF_INET6
            length = socklen_t(MemoryLayout<sockaddr_in6>.size)
            withUnsafeMutableBytes(of: &storage) { $0.storeBytes(of: copy, as: sockaddr_in6.self) }
        default:
            return nil
        }
    }

    /// Every address of `family` on an interface that is up (loopback included), with `port`, in interface order.
    static func localAddresses(family: Int32, port: UInt16) -> [SocketAddress] {
        var head: UnsafeMutablePointer<ifaddrs>?
        guard getifaddrs(&head) == 0 else { return [] }
        defer { freeifaddrs(head) }
        var addresses: [SocketAddress] = []
        var cursor = head
        while let entry = cursor {
            defer { cursor = entry.pointee.ifa_next }
            guard let address = entry.pointee.ifa_addr, Int32(address.pointee.sa_family) == family,
                  Int32(entry.pointee.ifa_flags) & Int32(IFF_UP) != 0,
                  let local = SocketAddress(address, port: port)
            else { continue }
            addresses.append(local)
        }
        return addresses
    }

    /// The numeric form of the address, for messages ("192.168.1.42", "fe80::1%en0").
    var numericHost: String {
        var host = [CChar](repeating: 0, count: Int(NI_MAXHOST))
        let found = withSockaddr { getnameinfo($0, $1, &host, socklen_t(host.count), nil, 0, NI_NUMERICHOST) }
        guard found == 0 else { return "?" }
        return String(decoding: host.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    /// "0.0.0.0" or "::": every interface.
    var isWildcard: Bool {
        withUnsafeBytes(of: storage) { raw in
            switch family {
            case AF_INET: raw.load(as: sockaddr_in.self).sin_addr.s_addr == 0
            case AF_INET6:
                withUnsafeBytes(of: raw.load(as: sockaddr_in6.self).sin6_addr) { $0.allSatisfy { $0 == 0 } }
            default: false
            }
        }
    }

    func withSockaddr<R>(_ body: (UnsafePointer<sockaddr>, socklen_t) -> R) -> R {
        withUnsafeBytes(of: storage) { raw in
            body(raw.baseAddress!.assumingMemoryBound(to: sockaddr.self), length)
        }
    }

    /// The port a socket is actually bound to (needed when port 0 was requested).
    static func boundPort(of fd: Int32) -> UInt16? {
        var storage = sockaddr_storage()
        var length = socklen_t(MemoryLayout<sockaddr_storage>.size)
        let result = withUnsafeMutableBytes(of: &storage) { raw in
            getsockname(fd, raw.baseAddress!.assumingMemoryBound(to: sockaddr.self), &length)
        }
        guard result == 0 else { return nil }
        return withUnsafeBytes(of: storage) { raw -> UInt16? in
            switch Int32(raw.load(as: sockaddr.self).sa_family) {
            case AF_INET: UInt16(bigEndian: raw.load(as: sockaddr_in.self).sin_port)
            case AF_INET6: UInt16(bigEndian: raw.load(as: sockaddr_in6.self).sin6_port)
            default: nil
            }
        }
    }
}
