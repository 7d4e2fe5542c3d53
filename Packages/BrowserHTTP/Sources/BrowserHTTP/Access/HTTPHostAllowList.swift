/// The host names a server answers to, checked against each request's `Host` before routing.
///
/// Why: a DNS-rebinding attack points an attacker's name (`evil.example`) at the victim's local server, so a
/// page from that name can read the server's responses as same-origin. The browser still sends
/// `Host: evil.example`, so refusing names the server does not own defeats it (RFC 9110 §7.4 lets a server
/// reject a request whose target it does not serve, with 421).
///
/// Matching is ASCII case-insensitive, ignores the port (a tunnel or port forward may change it) and one
/// trailing dot (`localhost.` is `localhost`). IPv6 literals are written in brackets: `[::1]`.
public struct HTTPHostAllowList: Sendable, Equatable {
    public private(set) var names: Set<String>

    public init(_ names: some Sequence<String>) {
        self.names = Set(names.compactMap { Self.normalized(hostname: $0) })
    }

    public mutating func insert(_ name: String) {
        if let name = Self.normalized(hostname: name) { names.insert(name) }
    }

    /// Whether the request's authority names one of `names`.
    public func allows(_ request: HTTPRequest) -> Bool {
        guard let host = Self.host(of: request) else { return false }
        return names.contains(host)
    }

    /// The host the request is addressed to (`HTTPRequest.authority`), normalized, or nil when it is missing or
    /// malformed. An empty `Host` (allowed by RFC 9112 §3.2 for targets without an authority) names nothing and so
    /// matches nothing.
    public static func host(of request: HTTPRequest) -> String? {
        request.authority.flatMap { host(fromAuthority: Substring($0)) }
    }

    /// `host[:port]` → normalized host. Userinfo (`user@host`) is not allowed in HTTP authorities (RFC 9110
    /// §4.2.4), and a port must be digits, so anything else is malformed.
    static func host(fromAuthority authority: Substring) -> String? {
        guard !authority.isEmpty, !authority.contains("@") else { return nil }
        var host = authority
        var port: Substring = ""
        if authority.hasPrefix("[") {
            guard let close = authority.firstIndex(of: "]") else { return nil }
            host = authority[...close]
            port = authority[authority.index(after: close)...]
            guard port.isEmpty || port.hasPrefix(":") else { return nil }
        } else if let colon = authority.firstIndex(of: ":") {
            host = authority[..<colon]
            port = authority[colon...]
        }
        if !port.isEmpty {
            guard port.utf8.dropFirst().allSatisfy(ASCII.isDigit) else { return nil }
        }
        return normalized(hostname: String(host))
    }

    /// Lowercased, one trailing dot removed; nil when empty or when it holds bytes no host name has.
    static func normalized(hostname: String) -> String? {
        var bytes = Array(hostname.utf8)
        if bytes.count > 1, bytes.last == UInt8(ascii: ".") { bytes.removeLast() }
        guard !bytes.isEmpty,
            bytes.allSatisfy({ !ASCII.isControl($0) && $0 != ASCII.space && $0 != ASCII.slash })
        else { return nil }
        return String(decoding: bytes.map(ASCII.lowercased), as: UTF8.self)
    }
}
