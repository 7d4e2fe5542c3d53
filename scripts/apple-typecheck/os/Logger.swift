// The part of Apple's `os` module CoreDataBrowser's logging uses (BrowserLog.swift): `Logger` and the
// interpolation its messages are written in, with the privacy options. Every declaration copies the Swift signature
// on its Apple documentation page (cited); bodies are never run.
//
// As in Apple's module, a message is an `OSLogMessage` made from a string literal with interpolations: a `String`
// value is not one, so `logger.notice(line)` fails here as in Xcode, and each interpolated value says its privacy.
// Not mirrored: the compiler's check that a message's format is a compile-time constant (Apple's
// `@_semantics("oslog.requires_constant_arguments")`), which only the real module's optimizer pass makes.

/// https://developer.apple.com/documentation/os/logger
/// `struct Logger` (iOS 14, macOS 11).
@available(iOS 14, macOS 11, tvOS 14, watchOS 7, *)
public struct Logger {
    /// https://developer.apple.com/documentation/os/logger/init(subsystem:category:)
    /// `init(subsystem: String, category: String)`
    public init(subsystem: String, category: String) {}

    /// https://developer.apple.com/documentation/os/logger/notice(_:)
    /// `func notice(_ message: OSLogMessage)`
    public func notice(_ message: OSLogMessage) {}

    /// https://developer.apple.com/documentation/os/logger/warning(_:)
    /// `func warning(_ message: OSLogMessage)`
    public func warning(_ message: OSLogMessage) {}

    /// https://developer.apple.com/documentation/os/logger/error(_:)
    /// `func error(_ message: OSLogMessage)`
    public func error(_ message: OSLogMessage) {}
}

/// https://developer.apple.com/documentation/os/oslogmessage
/// `struct OSLogMessage` (iOS 14): `ExpressibleByStringInterpolation`, `ExpressibleByStringLiteral`.
@available(iOS 14, macOS 11, tvOS 14, watchOS 7, *)
public struct OSLogMessage: ExpressibleByStringInterpolation, ExpressibleByStringLiteral {
    public init(stringLiteral value: String) {}
    public init(stringInterpolation: OSLogInterpolation) {}
}

/// https://developer.apple.com/documentation/os/osloginterpolation
/// `struct OSLogInterpolation` (iOS 14): `StringInterpolationProtocol`.
@available(iOS 14, macOS 11, tvOS 14, watchOS 7, *)
public struct OSLogInterpolation: StringInterpolationProtocol {
    public init(literalCapacity: Int, interpolationCount: Int) {}
    public mutating func appendLiteral(_ literal: String) {}

    /// https://developer.apple.com/documentation/os/osloginterpolation/appendinterpolation(_:align:privacy:)-1s7gi
    /// `mutating func appendInterpolation(_ argumentString: @autoclosure @escaping () -> String,
    ///  align: OSLogStringAlignment = .none, privacy: OSLogPrivacy = .auto)`
    public mutating func appendInterpolation(_ argumentString: @autoclosure @escaping () -> String,
                                             align: OSLogStringAlignment = .none, privacy: OSLogPrivacy = .auto) {}
}

/// https://developer.apple.com/documentation/os/oslogstringalignment
@available(iOS 14, macOS 11, tvOS 14, watchOS 7, *)
public struct OSLogStringAlignment {
    /// `static var none: OSLogStringAlignment { get }`
    public static var none: OSLogStringAlignment { OSLogStringAlignment() }
}

/// https://developer.apple.com/documentation/os/oslogprivacy
/// `struct OSLogPrivacy` (iOS 14).
@available(iOS 14, macOS 11, tvOS 14, watchOS 7, *)
public struct OSLogPrivacy {
    /// https://developer.apple.com/documentation/os/oslogprivacy/auto
    public static var auto: OSLogPrivacy { OSLogPrivacy() }
    /// https://developer.apple.com/documentation/os/oslogprivacy/public
    public static var `public`: OSLogPrivacy { OSLogPrivacy() }
    /// https://developer.apple.com/documentation/os/oslogprivacy/private
    public static var `private`: OSLogPrivacy { OSLogPrivacy() }
    /// https://developer.apple.com/documentation/os/oslogprivacy/private(mask:)
    /// `static func `private`(mask: OSLogPrivacy.Mask) -> OSLogPrivacy`
    public static func `private`(mask: OSLogPrivacy.Mask) -> OSLogPrivacy { OSLogPrivacy() }

    /// https://developer.apple.com/documentation/os/oslogprivacy/mask
    public struct Mask {
        /// https://developer.apple.com/documentation/os/oslogprivacy/mask/hash
        public static var hash: OSLogPrivacy.Mask { Mask() }
        /// https://developer.apple.com/documentation/os/oslogprivacy/mask/none
        public static var none: OSLogPrivacy.Mask { Mask() }
    }
}
