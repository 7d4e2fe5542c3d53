import CDNSSD
import Foundation

/// The platform's DNS-SD client (Apple's `dns_sd`, or Avahi's compatible API on Linux), as `browser-demo` uses
/// it: one operation per `DNSServiceRef`, whose answers arrive when `processResult()` runs after its socket
/// became readable.
enum DNSService {
    /// A DNS-SD call failed; `message` says what was being done and, for the error a person meets, what to do.
    struct Failure: Error, CustomStringConvertible {
        let message: String
        var description: String { message }

        init(_ doing: String, code: DNSServiceErrorType) {
            switch Int(code) {
            case Int(kDNSServiceErr_Unknown), -65563 /* kDNSServiceErr_ServiceNotRunning, Apple's header only */:
                #if os(Linux)
                message = "\(doing): no mDNS daemon answers (start avahi-daemon; Debian: apt-get install avahi-daemon)"
                #else
                message = "\(doing): the mDNSResponder daemon does not answer (DNS-SD error \(code))"
                #endif
            case Int(kDNSServiceErr_NameConflict):
                message = "\(doing): the name is already taken on the network"
            default:
                message = "\(doing): DNS-SD error \(code)"
            }
        }
    }

    /// Avahi prints a warning about its compatibility layer to stderr on every first use unless this is set.
    static func silenceCompatibilityWarning() {
        #if os(Linux)
        setenv("AVAHI_COMPAT_NOWARN", "1", 1)
        #endif
    }
}

/// One DNS-SD operation (a registration, a browse, a resolve) and the descriptor its answers arrive on.
final class DNSServiceOperation {
    private(set) var reference: DNSServiceRef?

    init(_ start: (UnsafeMutablePointer<DNSServiceRef?>) -> DNSServiceErrorType, doing: String) throws(DNSService.Failure) {
        var reference: DNSServiceRef?
        let code = start(&reference)
        guard code == DNSServiceErrorType(kDNSServiceErr_NoError), let reference else {
            throw DNSService.Failure(doing, code: code)
        }
        self.reference = reference
    }

    /// The socket that becomes readable when the daemon has answered.
    var socket: Int32 { reference.map { DNSServiceRefSockFD($0) } ?? -1 }

    /// Runs the callbacks for the answers waiting on `socket` (blocks when none is waiting).
    func processResult() -> DNSServiceErrorType {
        guard let reference else { return DNSServiceErrorType(kDNSServiceErr_BadReference) }
        return DNSServiceProcessResult(reference)
    }

    /// Ends the operation: a registration is withdrawn from the network.
    func cancel() {
        if let reference { DNSServiceRefDeallocate(reference) }
        reference = nil
    }

    deinit { cancel() }
}
