// The Foundation part of Apple's `CoreData` module as the adapter sees it.
//
// On Apple platforms `import CoreData` re-exports Foundation. swift-corelibs-foundation (Linux) declares
// `NSPredicate(format:)`, `NSComparisonPredicate`, `NSExpression` and `NSSortDescriptor(key:ascending:)` as
// unavailable and has no `ValueTransformer`, so this stand-in cannot re-export all of Foundation: it re-exports
// the Foundation types that exist on Linux with Apple's shape, and declares the predicate, sort and transformer
// types itself with Apple's Swift signatures. A file that imports only `CoreData` (as the adapter's files do)
// then sees exactly one declaration of each name. Files that `import Foundation` too would see two
// `NSPredicate`s here; on Apple that import is harmless, here it is ambiguous, which is why the adapter's
// files import `CoreData` alone.

@_exported import struct Foundation.Data
@_exported import struct Foundation.Date
@_exported import struct Foundation.Decimal
@_exported import struct Foundation.URL
@_exported import struct Foundation.UUID
@_exported import typealias Foundation.TimeInterval
@_exported import class Foundation.NSObject
@_exported import class Foundation.NSNumber
@_exported import class Foundation.NSDecimalNumber
@_exported import class Foundation.NSNull
@_exported import class Foundation.NSLock
@_exported import class Foundation.NSError
@_exported import class Foundation.NSKeyedArchiver
@_exported import class Foundation.NSOrderedSet
@_exported import class Foundation.NSSet
@_exported import class Foundation.NSMutableSet
@_exported import class Foundation.NSMutableOrderedSet
@_exported import class Foundation.ProcessInfo
@_exported import class Foundation.FileManager
@_exported import class Foundation.NSDictionary
@_exported import class Foundation.NSArray
@_exported import class Foundation.ISO8601DateFormatter
@_exported import class Foundation.NotificationCenter
@_exported import struct Foundation.Notification
@_exported import class Foundation.OperationQueue
@_exported import protocol Foundation.NSObjectProtocol
import Foundation

// MARK: NSPredicate family (Foundation on Apple; unavailable in swift-corelibs-foundation)

/// https://developer.apple.com/documentation/foundation/nspredicate
/// Declared non-Sendable: the stand-in errs on the strict side, so code that compiles here compiles there.
open class NSPredicate: NSObject {
    /// https://developer.apple.com/documentation/foundation/nspredicate/init(value:)
    /// `init(value: Bool)`
    public init(value: Bool) { super.init() }
    override public init() { super.init() }
    /// https://developer.apple.com/documentation/foundation/nspredicate/init(format:argumentarray:)
    /// `init(format predicateFormat: String, argumentArray arguments: [Any]?)` (what "Copy as Swift" writes)
    public convenience init(format predicateFormat: String, argumentArray arguments: [Any]?) { self.init() }
    /// https://developer.apple.com/documentation/foundation/nspredicate/evaluate(with:)
    /// `func evaluate(with object: Any?) -> Bool`
    open func evaluate(with object: Any?) -> Bool { false }
    /// https://developer.apple.com/documentation/foundation/nspredicate/predicateformat
    /// `var predicateFormat: String { get }`
    open var predicateFormat: String { "" }
}

/// https://developer.apple.com/documentation/foundation/nscompoundpredicate
open class NSCompoundPredicate: NSPredicate {
    /// https://developer.apple.com/documentation/foundation/nscompoundpredicate/init(andpredicatewithsubpredicates:)
    /// `convenience init(andPredicateWithSubpredicates subpredicates: [NSPredicate])`
    public convenience init(andPredicateWithSubpredicates subpredicates: [NSPredicate]) { self.init() }
    /// https://developer.apple.com/documentation/foundation/nscompoundpredicate/init(orpredicatewithsubpredicates:)
    /// `convenience init(orPredicateWithSubpredicates subpredicates: [NSPredicate])`
    public convenience init(orPredicateWithSubpredicates subpredicates: [NSPredicate]) { self.init() }
    /// https://developer.apple.com/documentation/foundation/nscompoundpredicate/init(notpredicatewithsubpredicate:)
    /// `convenience init(notPredicateWithSubpredicate predicate: NSPredicate)`
    public convenience init(notPredicateWithSubpredicate predicate: NSPredicate) { self.init() }
}

/// https://developer.apple.com/documentation/foundation/nscomparisonpredicate
open class NSComparisonPredicate: NSPredicate {
    /// https://developer.apple.com/documentation/foundation/nscomparisonpredicate/modifier
    public enum Modifier: UInt, Sendable {
        case direct = 0, all = 1, any = 2
    }

    /// https://developer.apple.com/documentation/foundation/nscomparisonpredicate/operator
    public enum Operator: UInt, Sendable {
        case lessThan = 0, lessThanOrEqualTo = 1, greaterThan = 2, greaterThanOrEqualTo = 3, equalTo = 4
        case notEqualTo = 5, matches = 6, like = 7, beginsWith = 8, endsWith = 9, `in` = 10, customSelector = 11
        case contains = 99, between = 100
    }

    /// https://developer.apple.com/documentation/foundation/nscomparisonpredicate/options-swift.struct
    /// (NSCaseInsensitivePredicateOption 0x01, NSDiacriticInsensitivePredicateOption 0x02, NSNormalizedPredicateOption 0x04)
    public struct Options: OptionSet, Sendable {
        public let rawValue: UInt
        public init(rawValue: UInt) { self.rawValue = rawValue }
        public static let caseInsensitive = Options(rawValue: 0x01)
        public static let diacriticInsensitive = Options(rawValue: 0x02)
        public static let normalized = Options(rawValue: 0x04)
    }

    /// https://developer.apple.com/documentation/foundation/nscomparisonpredicate/init(leftexpression:rightexpression:modifier:type:options:)
    /// `init(leftExpression lhs: NSExpression, rightExpression rhs: NSExpression, modifier: NSComparisonPredicate.Modifier,
    ///       type: NSComparisonPredicate.Operator, options: NSComparisonPredicate.Options = [])`
    public init(leftExpression lhs: NSExpression, rightExpression rhs: NSExpression, modifier: NSComparisonPredicate.Modifier,
                type: NSComparisonPredicate.Operator, options: NSComparisonPredicate.Options = []) {
        super.init()
    }
}

/// https://developer.apple.com/documentation/foundation/nsexpression
open class NSExpression: NSObject {
    /// https://developer.apple.com/documentation/foundation/nsexpression/init(forkeypath:)-5w6fj
    /// `convenience init(forKeyPath keyPath: String)`
    public convenience init(forKeyPath keyPath: String) { self.init() }
    /// https://developer.apple.com/documentation/foundation/nsexpression/init(forvariable:)
    /// `init(forVariable string: String)`
    public init(forVariable string: String) { super.init() }
    /// https://developer.apple.com/documentation/foundation/nsexpression/init(forconstantvalue:)
    /// `init(forConstantValue obj: Any?)`
    public init(forConstantValue obj: Any?) { super.init() }
    /// https://developer.apple.com/documentation/foundation/nsexpression/init(forsubquery:usingiteratorvariable:predicate:)
    /// `init(forSubquery expression: NSExpression, usingIteratorVariable variable: String, predicate: NSPredicate)`
    public init(forSubquery expression: NSExpression, usingIteratorVariable variable: String, predicate: NSPredicate) { super.init() }
    /// https://developer.apple.com/documentation/foundation/nsexpression/init(forfunction:arguments:)
    /// `init(forFunction name: String, arguments parameters: [Any])`
    public init(forFunction name: String, arguments parameters: [Any]) { super.init() }
    /// https://developer.apple.com/documentation/foundation/nsexpression/expressionforevaluatedobject()
    /// `class func expressionForEvaluatedObject() -> NSExpression`
    open class func expressionForEvaluatedObject() -> NSExpression { NSExpression() }
    override public init() { super.init() }
}

// MARK: NSSortDescriptor (init(key:ascending:) is unavailable in swift-corelibs-foundation)

/// https://developer.apple.com/documentation/foundation/nssortdescriptor
open class NSSortDescriptor: NSObject {
    /// https://developer.apple.com/documentation/foundation/nssortdescriptor/init(key:ascending:)
    /// `init(key: String?, ascending: Bool)`
    public init(key: String?, ascending: Bool) { super.init() }
    /// https://developer.apple.com/documentation/foundation/nssortdescriptor/key
    /// `var key: String? { get }`
    open var key: String? { nil }
    /// https://developer.apple.com/documentation/foundation/nssortdescriptor/ascending
    /// `var ascending: Bool { get }`
    open var ascending: Bool { true }
}

// MARK: Value transformers (not in swift-corelibs-foundation)

/// https://developer.apple.com/documentation/foundation/nsvaluetransformername
public struct NSValueTransformerName: RawRepresentable, Hashable, Sendable {
    public let rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }
    public init(_ rawValue: String) { self.rawValue = rawValue }
}

/// https://developer.apple.com/documentation/foundation/valuetransformer
open class ValueTransformer: NSObject {
    /// https://developer.apple.com/documentation/foundation/valuetransformer/init(forname:)
    /// `/*not inherited*/ init?(forName name: NSValueTransformerName)`
    public init?(forName name: NSValueTransformerName) { super.init() }
    override public init() { super.init() }
    /// https://developer.apple.com/documentation/foundation/valuetransformer/transformedvalue(_:)
    /// `func transformedValue(_ value: Any?) -> Any?`
    open func transformedValue(_ value: Any?) -> Any? { nil }
    /// https://developer.apple.com/documentation/foundation/valuetransformer/reversetransformedvalue(_:)
    /// `func reverseTransformedValue(_ value: Any?) -> Any?`
    open func reverseTransformedValue(_ value: Any?) -> Any? { nil }
    /// https://developer.apple.com/documentation/foundation/valuetransformer/setvaluetransformer(_:forname:)
    /// `class func setValueTransformer(_ transformer: ValueTransformer?, forName name: NSValueTransformerName)`
    open class func setValueTransformer(_ transformer: ValueTransformer?, forName name: NSValueTransformerName) {}
}

/// https://developer.apple.com/documentation/foundation/nssecureunarchivefromdatatransformer
open class NSSecureUnarchiveFromDataTransformer: ValueTransformer {}

// MARK: NetService (Foundation on Apple; not in swift-corelibs-foundation)

/// https://developer.apple.com/documentation/foundation/netservice
open class NetService: NSObject {
    /// https://developer.apple.com/documentation/foundation/netservice/init(domain:type:name:port:)
    public init(domain: String, type: String, name: String, port: Int32) { super.init() }
    /// https://developer.apple.com/documentation/foundation/netservice/publish()
    open func publish() {}
    /// https://developer.apple.com/documentation/foundation/netservice/stop()
    open func stop() {}
    /// https://developer.apple.com/documentation/foundation/netservice/settxtrecord(_:)
    open func setTXTRecord(_ recordData: Data?) -> Bool { true }
    /// https://developer.apple.com/documentation/foundation/netservice/delegate
    /// `unowned(unsafe) var delegate: (any NetServiceDelegate)?` (an `assign` property: not kept)
    open unowned(unsafe) var delegate: (any NetServiceDelegate)?
    /// https://developer.apple.com/documentation/foundation/netservice/name — `var name: String { get }`
    open var name: String { "" }
    /// https://developer.apple.com/documentation/foundation/netservice/errorcode — `class let errorCode: String`
    public static let errorCode = "NSNetServicesErrorCode"
}

/// https://developer.apple.com/documentation/foundation/netservicedelegate — an `@objc` protocol whose methods are
/// all optional; the stand-in (no Objective-C runtime here) declares the two this package implements, with
/// default implementations in place of `optional`.
public protocol NetServiceDelegate: NSObjectProtocol {
    /// https://developer.apple.com/documentation/foundation/netservicedelegate/netservicedidpublish(_:)
    /// `optional func netServiceDidPublish(_ sender: NetService)`
    func netServiceDidPublish(_ sender: NetService)
    /// https://developer.apple.com/documentation/foundation/netservicedelegate/netservice(_:didnotpublish:)
    /// `optional func netService(_ sender: NetService, didNotPublish errorDict: [String : NSNumber])`
    func netService(_ sender: NetService, didNotPublish errorDict: [String: NSNumber])
}

extension NetServiceDelegate {
    public func netServiceDidPublish(_ sender: NetService) {}
    public func netService(_ sender: NetService, didNotPublish errorDict: [String: NSNumber]) {}
}
