import BrowserDNSSD
import CDNSSD
import CoreDataBrowser
import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// `browser-demo discover`: the CoreDataBrowser servers advertised on the network (`_cdbrowser._tcp`), each
/// browsed, resolved to its host and port with its TXT record, and its host's IPv4 address asked for, within a
/// time limit.
///
/// Single-threaded: every operation's socket is polled here and its callbacks run in `processResult()`, so the
/// collected state needs no lock. The C callbacks find this object through their context pointer.
final class ServiceDiscovery {
    /// One server found on the network.
    struct Server: Equatable {
        var name: String
        var host: String
        var port: UInt16
        var advertisement: [BonjourAdvertisement.Entry]
        /// The host's IPv4 addresses, as answered on each interface the service was seen on.
        var addresses: [String] = []

        /// A network address before the loopback one (a service seen on both is reachable from other machines
        /// at the first), the host's name when no address came back in time.
        var url: String {
            let address = addresses.first { !$0.hasPrefix("127.") } ?? addresses.first
            return "http://\(address ?? host.trimmingCharacters(in: CharacterSet(charactersIn: "."))):\(port)\(path)"
        }
        var path: String {
            let path = value(BonjourAdvertisement.Key.path) ?? "/"
            return path.hasPrefix("/") ? path : "/" + path
        }
        func value(_ key: String) -> String? { BonjourAdvertisement.value(for: key, in: advertisement) }
    }

    /// What a C callback's context points to: the discovery and which operation answered. Kept alive by
    /// `contexts` until the discovery ends, so a late callback of a cancelled operation still finds it.
    private final class CallbackContext {
        unowned let discovery: ServiceDiscovery
        let id: Int
        init(_ discovery: ServiceDiscovery, id: Int) {
            self.discovery = discovery
            self.id = id
        }
        static func from(_ pointer: UnsafeMutableRawPointer?) -> CallbackContext? {
            pointer.map { Unmanaged<CallbackContext>.fromOpaque($0).takeUnretainedValue() }
        }
    }

    /// The browse, and the resolves and address queries in flight, by number.
    private var operations: [Int: DNSServiceOperation] = [:]
    private var contexts: [CallbackContext] = []
    /// Found servers by instance name (the same service seen on several interfaces is listed once).
    private var servers: [String: Server] = [:]
    /// Which server an address query answers for.
    private var addressQueries: [Int: String] = [:]
    private var failure: DNSService.Failure?

    /// Browses for `seconds` and answers the servers found, sorted by name.
    static func run(seconds: Double) throws(DNSService.Failure) -> [Server] {
        DNSService.silenceCompatibilityWarning()
        let discovery = ServiceDiscovery()
        defer { discovery.operations.values.forEach { $0.cancel() } }
        try discovery.start { reference, context in
            DNSServiceBrowse(reference, 0, 0, BonjourAdvertisement.serviceType, nil, { _, flags, interface, code, name, type, domain, context in
                guard let context = CallbackContext.from(context) else { return }
                guard code == DNSServiceErrorType(kDNSServiceErr_NoError) else {
                    context.discovery.failure = DNSService.Failure("discover", code: code)
                    return
                }
                guard flags & DNSServiceFlags(kDNSServiceFlagsAdd) != 0, let name, let type, let domain else { return }
                context.discovery.resolve(name: name, type: type, domain: domain, interface: interface)
            }, context)
        }
        return try discovery.collect(seconds: seconds)
    }

    private func collect(seconds: Double) throws(DNSService.Failure) -> [Server] {
        let deadline = Date().addingTimeInterval(seconds)
        while case let remaining = deadline.timeIntervalSinceNow, remaining > 0 {
            let waiting = Array(operations.values)
            var descriptors = waiting.map { pollfd(fd: $0.socket, events: Int16(POLLIN), revents: 0) }
            let ready = poll(&descriptors, nfds_t(descriptors.count), Int32(min(remaining, 1) * 1000) + 1)
            if ready < 0 && errno != EINTR { break }
            for (operation, descriptor) in zip(waiting, descriptors) where descriptor.revents & Int16(POLLIN) != 0 {
                _ = operation.processResult()
            }
            if let failure { throw failure }
        }
        return servers.values.sorted { $0.name.localizedStandardCompare($1.name) == .orderedAscending }
    }

    /// Starts one operation whose callbacks get a context naming it; answers its number.
    @discardableResult
    private func start(_ call: (UnsafeMutablePointer<DNSServiceRef?>, UnsafeMutableRawPointer) -> DNSServiceErrorType) throws(DNSService.Failure) -> Int {
        let context = CallbackContext(self, id: contexts.count)
        contexts.append(context)
        let pointer = Unmanaged.passUnretained(context).toOpaque()
        operations[context.id] = try DNSServiceOperation({ call($0, pointer) }, doing: "discover")
        return context.id
    }

    private func finish(_ id: Int) {
        operations.removeValue(forKey: id)?.cancel()
    }

    private func resolve(name: UnsafePointer<CChar>, type: UnsafePointer<CChar>, domain: UnsafePointer<CChar>, interface: UInt32) {
        // A service that cannot be resolved is left out; the others are still listed.
        _ = try? start { reference, context in
            DNSServiceResolve(reference, 0, interface, name, type, domain, { _, _, interface, code, fullName, host, port, length, txt, context in
                guard let context = CallbackContext.from(context), code == DNSServiceErrorType(kDNSServiceErr_NoError),
                      let fullName, let host else { return }
                let bytes = txt.map { Array(UnsafeBufferPointer(start: $0, count: Int(length))) } ?? []
                context.discovery.resolved(id: context.id, fullName: String(cString: fullName), host: String(cString: host),
                                           port: UInt16(bigEndian: port), txt: bytes, interface: interface)
            }, context)
        }
    }

    private func resolved(id: Int, fullName: String, host: String, port: UInt16, txt: [UInt8], interface: UInt32) {
        finish(id)
        let name = Self.instanceName(fromFullName: fullName)
        if servers[name] == nil {
            servers[name] = Server(name: name, host: host, port: port,
                                   advertisement: BonjourAdvertisement.entries(fromTXT: txt))
        }
        // Ask for the host's IPv4 address on the interface the service was seen on, so the URL works in any
        // browser (not only where .local names resolve) and a loopback-only server gets 127.0.0.1.
        if let queryID = try? start({ reference, context in
            DNSServiceQueryRecord(reference, 0, interface, host, UInt16(kDNSServiceType_A), UInt16(kDNSServiceClass_IN), { _, _, _, code, _, _, _, length, data, _, context in
                guard let context = CallbackContext.from(context), code == DNSServiceErrorType(kDNSServiceErr_NoError),
                      length == 4, let data else { return }
                let octets = UnsafeBufferPointer(start: data.assumingMemoryBound(to: UInt8.self), count: 4)
                context.discovery.addressFound(id: context.id, octets.map { String($0) }.joined(separator: "."))
            }, context)
        }) {
            addressQueries[queryID] = name
        }
    }

    private func addressFound(id: Int, _ address: String) {
        finish(id)
        guard let name = addressQueries.removeValue(forKey: id), servers[name]?.addresses.contains(address) == false else { return }
        servers[name]?.addresses.append(address)
    }

    /// "browser-demo on vm._cdbrowser._tcp.local." → "browser-demo on vm", with DNS's `\ddd` and `\.` escapes
    /// undone.
    static func instanceName(fromFullName fullName: String) -> String {
        var bytes: [UInt8] = []
        var iterator = Array(fullName.utf8)[...]
        while let byte = iterator.popFirst() {
            if byte == UInt8(ascii: ".") { break }
            guard byte == UInt8(ascii: "\\"), let next = iterator.popFirst() else { bytes.append(byte); continue }
            if next >= UInt8(ascii: "0"), next <= UInt8(ascii: "9"), iterator.count >= 2 {
                let digits = [next, iterator.removeFirst(), iterator.removeFirst()]
                bytes.append(UInt8(clamping: Int(String(decoding: digits, as: UTF8.self)) ?? 0))
            } else {
                bytes.append(next)
            }
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// The listing `discover` prints: a line per server with its name, app and stores, then its URL.
    static func listing(_ servers: [Server]) -> String {
        guard !servers.isEmpty else { return "No CoreDataBrowser servers found on the network (\(BonjourAdvertisement.serviceType))." }
        return servers.map { server in
            var facts: [String] = []
            if let app = server.value(BonjourAdvertisement.Key.app), !app.isEmpty {
                facts.append(app + (server.value(BonjourAdvertisement.Key.bundleID).map { " (\($0))" } ?? ""))
            }
            if let stores = server.value(BonjourAdvertisement.Key.stores), !stores.isEmpty { facts.append("stores: \(stores)") }
            if server.value(BonjourAdvertisement.Key.token) == "required" { facts.append("pairing token required") }
            return server.name + (facts.isEmpty ? "" : " — " + facts.joined(separator: ", ")) + "\n  " + server.url
        }.joined(separator: "\n")
    }
}
