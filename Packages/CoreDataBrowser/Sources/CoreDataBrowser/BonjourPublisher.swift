#if canImport(CoreData)
// On Apple platforms CoreData re-exports Foundation (NetService); here the stand-in declares Apple's NetService
// signatures, so this file is compiled by scripts/apple-typecheck like the rest of the Apple-only code.
import CoreData
import Dispatch

/// `Options.advertise` on Apple platforms: the server published as `_cdbrowser._tcp` through the system's own
/// Bonjour service (`NetService`), no dependency.
///
/// `NetService` is scheduled on the run loop of the thread that publishes it; the main thread's always runs in
/// an app, so the service is created, published and stopped there, and its delegate (this object, which says
/// whether the registration succeeded) is called there. `@unchecked Sendable`: `service` and `stopped` are
/// touched only on the main queue.
final class BonjourPublisher: NSObject, NetServiceDelegate, @unchecked Sendable {
    private var service: NetService?
    private var stopped = false
    /// Whether a registration that succeeded is printed (`Options.printsURLs`); a failure always is.
    private let printsSuccess: Bool

    init(printsSuccess: Bool) {
        self.printsSuccess = printsSuccess
        super.init()
    }

    /// Publishes on the main queue (asynchronously: `start()` may run on the main thread).
    func publish(_ advertisement: BonjourAdvertisement) {
        DispatchQueue.main.async { [self] in
            guard !stopped, service == nil else { return }
            // Apple's examples spell the type with its trailing dot; "" is the default domain (local.).
            let service = NetService(domain: "", type: BonjourAdvertisement.serviceType + ".",
                                     name: advertisement.name, port: Int32(advertisement.port))
            _ = service.setTXTRecord(Data(advertisement.txtRecord))
            // NetService does not keep its delegate: `service` (and so its calls) ends in `stop()`, before this
            // object can go.
            service.delegate = self
            service.publish()
            self.service = service
        }
    }

    /// Withdraws the service (also when it has not been published yet).
    func stop() {
        DispatchQueue.main.async { [self] in
            stopped = true
            service?.stop()
            service = nil
        }
    }

    // MARK: NetServiceDelegate (on the main queue, where the service was published)

    func netServiceDidPublish(_ sender: NetService) {
        guard printsSuccess else { return }
        // The name registered, which the system changes on a conflict ("… (2)").
        print("CoreDataBrowser: advertised on the local network as \"\(sender.name)\" (\(BonjourAdvertisement.serviceType))")
    }

    func netService(_ sender: NetService, didNotPublish errorDict: [String: NSNumber]) {
        let code = errorDict[NetService.errorCode].map { " (NetService error \($0.intValue))" } ?? ""
        print("CoreDataBrowser: could not advertise on the local network\(code); the URLs printed still work")
        service = nil
    }
}
#endif
