// Apple platforms only (`canImport(CoreData)`, as everywhere in this module, so scripts/apple-typecheck compiles it
// against its stand-ins): the assembly depends on BrowserDNSSD there alone, so an app built on Linux never needs
// Avahi; on Linux `browser-demo --advertise` publishes through the same BrowserDNSSD.
#if canImport(CoreData)
import BrowserDNSSD

/// `Options.advertise` on Apple platforms: the server published as `_cdbrowser._tcp` through the system's DNS-SD
/// daemon (`DNSServiceRegister`, in libSystem; the same registration `browser-demo --advertise` makes), not through
/// `NetService`, which Apple deprecated. No run loop is involved: the daemon's answers are read on a private queue.
final class BonjourPublisher: Sendable {
    private let registration: DNSServiceRegistration

    /// `printsSuccess`: whether a registration that succeeded is logged (`Options.printsURLs`); a failure always is.
    init(printsSuccess: Bool) {
        registration = DNSServiceRegistration { outcome in
            switch outcome {
            case .registered(let name):
                // The name registered, which the daemon changes on a conflict ("… (2)").
                if printsSuccess {
                    BrowserLog.notice("advertised on the local network as \"\(name)\" (\(BonjourAdvertisement.serviceType))")
                }
            case .failed(let failure):
                BrowserLog.warning("could not advertise on the local network (\(failure.message)); the URLs printed still work")
            }
        }
    }

    /// Registers the advertisement; a refusal at once (the daemon not running) is logged like a later failure.
    func publish(_ advertisement: BonjourAdvertisement) {
        do {
            try registration.start(name: advertisement.name, type: BonjourAdvertisement.serviceType,
                                   port: advertisement.port, txt: advertisement.txtRecord, loopbackOnly: false,
                                   doing: "Options.advertise")
        } catch {
            BrowserLog.warning("could not advertise on the local network (\(error.message)); the URLs printed still work")
        }
    }

    /// Withdraws the service (nothing when it was not published).
    func stop() {
        registration.stop()
    }
}
#endif
