/// What an iOS app's Info.plist needs before it may advertise over Bonjour: since iOS 14 publishing a service
/// shows the local-network permission prompt, which needs `NSLocalNetworkUsageDescription`, and a service type
/// missing from `NSBonjourServices` fails to publish. `start()` logs the snippet to add when either is missing.
enum LocalNetworkUsageCheck {
    static let usageDescriptionKey = "NSLocalNetworkUsageDescription"
    static let bonjourServicesKey = "NSBonjourServices"

    /// The Info.plist lines to add, or nil when the app has both entries.
    static func missingEntries(in info: [String: Any]) -> String? {
        let hasDescription = (info[usageDescriptionKey] as? String).map { !$0.isEmpty } ?? false
        let services = info[bonjourServicesKey] as? [String] ?? []
        let hasService = services.contains(BonjourAdvertisement.serviceType)
            || services.contains(BonjourAdvertisement.serviceType + ".")
        guard !hasDescription || !hasService else { return nil }
        var lines = ["Options.advertise: add to the app's Info.plist (debug builds):"]
        if !hasDescription {
            lines.append("<key>\(usageDescriptionKey)</key>")
            lines.append("<string>Lets CoreDataBrowser show this app's data in a browser on your network.</string>")
        }
        if !hasService {
            lines.append("<key>\(bonjourServicesKey)</key>")
            lines.append("<array><string>\(BonjourAdvertisement.serviceType)</string></array>")
            if !services.isEmpty { lines.append("(keep the services already listed: \(services.joined(separator: ", ")))") }
        }
        return lines.joined(separator: "\n")
    }
}
