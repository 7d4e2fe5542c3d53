import BrowserHTTP

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
