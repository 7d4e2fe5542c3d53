public import CDNSSD
import Foundation

/// The platform's DNS-SD client (Apple's `dns_sd`, part of libSystem, or Avahi's compatible API on Linux): one
/// operation per `DNSServiceRef`, whose answers arrive when `processResult()` runs after its socket became readable.
public enum DNSService {
    /// A DNS-SD call failed; `message` says what was being done and, for the error a person meets, what to do.
    public struct Failure: Error, CustomStringConvertible, Sendable {
        public let message: String
        public var description: String { message }

        public init(_ doing: String, code: DNSServiceErrorType) {
            switch Int(code) {
            case Int(kDNSServiceErr_Unknown), -65563 /* kDNSServiceErr_ServiceNotRunning, Apple's header only */:
                #if os(Linux)
                message = "\(doing): no mDNS daemon answers (start avahi-daemon; Debian: apt-get install avahi-daemon)"
                #else
                message = "\(doing): the mDNSResponder daemon does not answer (DNS-SD error \(code))"
                #endif
            case Int(kDNSServiceErr_NameConflict):
                message = "\(doing): the name is already taken on the network"
            case -65555 /* kDNSServiceErr_NoAuth, Apple's header only */:
                message = "\(doing): not allowed to use the local network (DNS-SD error \(code)); on iOS, allow "
                    + "Local Network for this app in Settings, and list the service type in NSBonjourServices"
            default:
                message = "\(doing): DNS-SD error \(code)"
            }
        }
    }

    /// Avahi prints a warning about its compatibility layer to stderr on every first use unless this is set.
    public static func silenceCompatibilityWarning() {
        #if os(Linux)
        setenv("AVAHI_COMPAT_NOWARN", "1", 1)
        #endif
    }

    /// The interface index of loopback: Apple's "local only" index, Linux's `lo` (Avahi has no local-only index).
    /// A service registered there is found by browsers on this machine and announced to no other.
    public static var loopbackInterface: UInt32 {
        #if os(Linux)
        if_nametoindex("lo")
        #else
        UInt32.max  // kDNSServiceInterfaceIndexLocalOnly, `((uint32_t)-1)`: a macro with a cast Swift may not import
        #endif
    }
}

/// One DNS-SD operation (a registration, a browse, a resolve) and the descriptor its answers arrive on.
public final class DNSServiceOperation {
    public private(set) var reference: DNSServiceRef?

    public init(_ start: (UnsafeMutablePointer<DNSServiceRef?>) -> DNSServiceErrorType, doing: String) throws(DNSService.Failure) {
        var reference: DNSServiceRef?
        let code = start(&reference)
        guard code == DNSServiceErrorType(kDNSServiceErr_NoError), let reference else {
            throw DNSService.Failure(doing, code: code)
        }
        self.reference = reference
    }

    /// The socket that becomes readable when the daemon has answered.
    public var socket: Int32 { reference.map { DNSServiceRefSockFD($0) } ?? -1 }

    /// Runs the callbacks for the answers waiting on `socket` (blocks when none is waiting).
    public func processResult() -> DNSServiceErrorType {
        guard let reference else { return DNSServiceErrorType(kDNSServiceErr_BadReference) }
        return DNSServiceProcessResult(reference)
    }

    /// Ends the operation: a registration is withdrawn from the network.
    public func cancel() {
        if let reference { DNSServiceRefDeallocate(reference) }
        reference = nil
    }

    deinit { cancel() }
}
