import BrowserHTTP
import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The names a browser may use to reach this server, for the `Host` check against DNS rebinding.
enum ServerHostNames {
    /// Loopback names, the machine's host name and its `.local` (Bonjour/mDNS) name, the interface addresses
    /// the server printed, and the names the host app added.
    static func allowList(addresses: [String], additional: [String]) -> HTTPHostAllowList {
        HTTPHostAllowList(["localhost", "127.0.0.1", "[::1]"] + machineNames() + addresses + additional)
    }

    /// `gethostname()` as is, and with `.local` added or removed: macOS and iOS report `Name.local`, Linux
    /// usually the bare name, and browsers on the LAN reach the machine by its mDNS name `name.local`.
    static func machineNames() -> [String] {
        var buffer = [CChar](repeating: 0, count: 256)
        guard gethostname(&buffer, buffer.count - 1) == 0 else { return [] }
        let name = String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        guard !name.isEmpty else { return [] }
        let lowered = name.lowercased()
        if lowered.hasSuffix(".local") {
            return [name, String(name.dropLast(".local".count))]
        }
        return [name, name + ".local"]
    }
}

/// The machine's addresses, read again at most once a second.
///
/// `AccessPolicy` accepts an address the machine gained after start (a new Wi-Fi, a DHCP renewal) as a host name;
/// it asks for a request naming a host it does not know, on the event-loop thread (`HTTPAdmission`). Listing the
/// interfaces is a system call through every interface; a client sending unknown hosts in a loop must not make
/// the server do it for each request.
final class RecentAddresses: Sendable {
    private let read: @Sendable () -> [String]
    private let cached = Locked<(addresses: [String], readAt: Date)?>(nil)
    static let interval: TimeInterval = 1

    init(reading read: @escaping @Sendable () -> [String]) {
        self.read = read
    }

    var current: @Sendable () -> [String] {
        { [self] in
            cached.withLock { cached in
                let now = Date()
                if let cached, now.timeIntervalSince(cached.readAt) < Self.interval { return cached.addresses }
                let addresses = read()
                cached = (addresses, now)
                return addresses
            }
        }
    }
}
