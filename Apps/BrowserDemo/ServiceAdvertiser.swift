import CDNSSD
import CoreDataBrowser
import Foundation

/// `browser-demo --advertise`: publishes the server as `_cdbrowser._tcp` through the platform's DNS-SD daemon
/// for as long as the process runs, and says once under which name (the daemon renames on a conflict).
///
/// `@unchecked Sendable`: the registration is created in `start` and afterwards touched only on `queue`, where
/// the read source runs its callbacks.
final class ServiceAdvertiser: @unchecked Sendable {
    private let queue = DispatchQueue(label: "browser-demo.ServiceAdvertiser")
    private var registration: DNSServiceOperation?
    private var source: (any DispatchSourceRead)?
    private let report: @Sendable (String) -> Void

    /// `report` receives one line: the name registered, or why the registration failed.
    init(report: @escaping @Sendable (String) -> Void) {
        self.report = report
    }

    /// With `loopbackOnly` the service is published on the loopback interface alone: a server listening on
    /// 127.0.0.1 is found by browsers on this machine and not announced to others who could not reach it.
    func start(_ advertisement: BonjourAdvertisement, loopbackOnly: Bool) throws(DNSService.Failure) {
        DNSService.silenceCompatibilityWarning()
        let txt = advertisement.txtRecord
        let context = Unmanaged.passUnretained(self).toOpaque()
        let registration = try DNSServiceOperation({ reference in
            txt.withUnsafeBytes { bytes in
                DNSServiceRegister(reference, 0, loopbackOnly ? Self.loopbackInterface : 0, advertisement.name, BonjourAdvertisement.serviceType, nil, nil,
                                   advertisement.port.bigEndian, UInt16(bytes.count), bytes.baseAddress,
                                   { _, _, code, name, _, _, context in
                    guard let context else { return }
                    let advertiser = Unmanaged<ServiceAdvertiser>.fromOpaque(context).takeUnretainedValue()
                    if code == DNSServiceErrorType(kDNSServiceErr_NoError), let name {
                        advertiser.report("Advertised on the local network as \"\(String(cString: name))\" (\(BonjourAdvertisement.serviceType))")
                    } else {
                        advertiser.report("--advertise: " + DNSService.Failure("registering", code: code).message)
                    }
                }, context)
            }
        }, doing: "--advertise")
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
    }

    /// The interface index of loopback: Apple's "local only" index, Linux's `lo` (Avahi has no local-only index).
    private static var loopbackInterface: UInt32 {
        #if os(Linux)
        if_nametoindex("lo")
        #else
        UInt32.max  // kDNSServiceInterfaceIndexLocalOnly, `((uint32_t)-1)`: a macro with a cast Swift may not import
        #endif
    }

    /// Withdraws the advertisement.
    func stop() {
        queue.sync {
            source?.cancel()
            source = nil
            registration?.cancel()
            registration = nil
        }
    }
}
