import CDNSSD
import Dispatch
import Foundation

/// A service published through the platform's DNS-SD daemon (`DNSServiceRegister`) for as long as this object is
/// not stopped: what `browser-demo --advertise` and, on Apple platforms, `Options.advertise` of an app publish.
///
/// The daemon's answers (the name registered, which it changes on a conflict, or why registration failed) arrive
/// on the registration's socket; a dispatch read source on a private queue runs them, so no run loop or thread of
/// the host's is needed (Apple's `DNSServiceSetDispatchQueue` would do the same, but Avahi has no such call).
///
/// `@unchecked Sendable`: the registration is created in `start` and afterwards touched only on `queue`, where the
/// read source runs its callbacks.
public final class DNSServiceRegistration: @unchecked Sendable {
    /// What the daemon answered: the name registered, or why the registration failed.
    public enum Outcome: Sendable {
        case registered(name: String)
        case failed(DNSService.Failure)
    }

    private let queue = DispatchQueue(label: "BrowserDNSSD.DNSServiceRegistration")
    private var registration: DNSServiceOperation?
    private var source: (any DispatchSourceRead)?
    private var stopped = false
    /// What the host calls the registration in messages (its option's name); the C callback cannot capture it.
    private var doing = ""
    private let report: @Sendable (Outcome) -> Void

    /// `report` is called on a private queue, once the daemon has answered.
    public init(report: @escaping @Sendable (Outcome) -> Void) {
        self.report = report
    }

    /// Registers `name` as `type` (`_service._tcp`) on `port` with the TXT record `txt` (RFC 6763 §6 bytes), on
    /// every interface or, with `loopbackOnly`, on the loopback interface alone (`DNSService.loopbackInterface`).
    /// Throws when the daemon refuses at once (not running); later failures go to `report`.
    /// Does nothing after `stop()`: a host that looks up what to publish asynchronously may have stopped meanwhile.
    public func start(name: String, type: String, port: UInt16, txt: [UInt8], loopbackOnly: Bool,
                      doing: String) throws(DNSService.Failure) {
        DNSService.silenceCompatibilityWarning()
        let context = Unmanaged.passUnretained(self).toOpaque()
        // On the queue, so a concurrent `stop()` comes wholly before (nothing is registered) or after (withdrawn).
        let started: Result<Void, DNSService.Failure> = queue.sync {
            guard !stopped, registration == nil else { return .success(()) }
            self.doing = doing
            let registration: DNSServiceOperation
            do throws(DNSService.Failure) {
                registration = try DNSServiceOperation({ reference in
                    txt.withUnsafeBytes { bytes in
                        DNSServiceRegister(reference, 0, loopbackOnly ? DNSService.loopbackInterface : 0, name, type, nil, nil,
                                           port.bigEndian, UInt16(bytes.count), bytes.baseAddress,
                                           { _, _, code, name, _, _, context in
                            guard let context else { return }
                            let registration = Unmanaged<DNSServiceRegistration>.fromOpaque(context).takeUnretainedValue()
                            if code == DNSServiceErrorType(kDNSServiceErr_NoError), let name {
                                registration.report(.registered(name: String(cString: name)))
                            } else {
                                registration.report(.failed(DNSService.Failure(registration.doing, code: code)))
                            }
                        }, context)
                    }
                }, doing: doing)
            } catch {
                return .failure(error)
            }
            self.registration = registration
            let source = DispatchSource.makeReadSource(fileDescriptor: registration.socket, queue: queue)
            source.setEventHandler { [self] in
                if self.registration?.processResult() != DNSServiceErrorType(kDNSServiceErr_NoError) {
                    // The daemon went away: stop watching a socket that would stay readable.
                    self.source?.cancel()
                }
            }
            self.source = source
            source.resume()
            return .success(())
        }
        try started.get()
    }

    /// Withdraws the service, for good (a later `start` does nothing). The callback context is this object, unretained: the registration is deallocated
    /// here, on the queue its callbacks run on, so none runs after `stop()` returns.
    public func stop() {
        queue.sync {
            stopped = true
            source?.cancel()
            source = nil
            registration?.cancel()
            registration = nil
        }
    }

    deinit {
        source?.cancel()
        registration?.cancel()
    }
}
