import Foundation

/// `Options.advertise`: the server's Bonjour advertisement, started with the server and withdrawn by `stop()`.
extension CoreDataBrowserServer {
    /// `Options.advertise`: publishes the running server and answers how to withdraw it (nil when not advertised).
    func startAdvertising(_ info: RunningInfo) -> (@Sendable () -> Void)? {
        guard options.advertise else { return nil }
        if let refusal = Self.advertisingRefusal(options) {
            BrowserLog.warning(refusal)
            return nil
        }
        #if canImport(CoreData)
        #if !os(macOS)
        // iOS-family apps need both Info.plist entries, or the service is never published.
        if let missing = LocalNetworkUsageCheck.missingEntries(in: Bundle.main.infoDictionary ?? [:]) {
            BrowserLog.warning(missing)
        }
        #endif
        let bundle = Bundle.main
        let appName = bundle.object(forInfoDictionaryKey: "CFBundleDisplayName") as? String
            ?? bundle.object(forInfoDictionaryKey: "CFBundleName") as? String
            ?? ProcessInfo.processInfo.processName
        let bundleID = bundle.bundleIdentifier
        let hostName = ProcessInfo.processInfo.hostName.split(separator: ".").first.map(String.init)
        let publisher = BonjourPublisher(printsSuccess: options.printsURLs)
        // A store the server named itself is known by its own name, which may need it opened (async): the service
        // is published once the names are known (a `stop()` before then publishes nothing).
        Task { [self] in
            let storeNames = await advertisedStoreNames()
            publisher.publish(BonjourAdvertisement(
                appName: appName, bundleID: bundleID, storeNames: storeNames, tokenRequired: info.tokenRequired,
                port: info.port, hostName: hostName == "localhost" ? nil : hostName))
        }
        return { publisher.stop() }
        #else
        return nil  // `advertisingRefusal` answers wherever the library does not advertise
        #endif
    }

    /// Why `Options.advertise` publishes nothing, or nil when it publishes: a server on 127.0.0.1 only is not
    /// advertised (its address would be useless to whoever finds it), and the library advertises on Apple platforms
    /// only (on Linux it would need Avahi to build; `browser-demo --advertise` publishes there).
    static func advertisingRefusal(_ options: Options) -> String? {
        if options.bindAddress == .loopback {
            return "Options.advertise: not advertised on the local network, because the server listens on 127.0.0.1"
                + " only (bindAddress .loopback), which nobody else can reach"
        }
        #if canImport(CoreData)
        return nil
        #else
        return "Options.advertise uses Apple's Bonjour and does nothing here"
            + " (on Linux, browser-demo --advertise publishes through Avahi)"
        #endif
    }

    /// The stores' names as the Bonjour advertisement lists them (`AdvertisedStoreNames`).
    func advertisedStoreNames() async -> [String] {
        await servedStores.advertisedStoreNames()
    }
}
