import BrowserCore
import BrowserFormats
import Foundation

/// How a model's default, minimum and maximum values are written in `/api/model`: as the model editor's
/// `contents` XML writes them (`defaultValueString`), so a value reads the same from an `.xcdatamodel`, a
/// compiled `.mom` and the store's model cache.
enum ModelValueText {
    /// A date value, stored by the editor as seconds since 2001 (`defaultDateTimeInterval`).
    static func date(_ secondsSince2001: Double) -> String {
        ISO8601Timestamp.string(from: Date(timeIntervalSinceReferenceDate: secondsSince2001))
    }

    /// An archived value (`NSDefaultValue`, a validation predicate's constant) for an attribute of type `kind`.
    static func archived(_ value: PropertyListValue, kind: AttributeKind?, in archive: KeyedArchive) -> String? {
        switch value {
        case .string(let text):
            return text
        case .boolean(let flag):
            return flag ? "YES" : "NO"
        case .integer(let number):
            if kind == .boolean { return number != 0 ? "YES" : "NO" }
            return String(number)
        case .real(let number):
            if kind == .boolean { return number != 0 ? "YES" : "NO" }
            return number.rounded() == number && abs(number) < 1e15 ? String(Int64(number)) : String(number)
        case .date(let seconds):
            return date(seconds)
        case .data(let bytes):
            return "<\(bytes.count) bytes>"
        case .dictionary:
            if let text = archive.string(value, "NS.string") { return text }
            if let seconds = archive.value(value, "NS.time"), case .real(let time) = seconds { return date(time) }
            if archive.className(of: value) == "NSDecimalNumberPlaceholder" || archive.className(of: value) == "NSDecimalNumber" {
                return decimal(value, in: archive) ?? "<NSDecimalNumber>"
            }
            // An archived object of the app's own (a custom Transformable default): only its class is known here.
            return "<\(archive.className(of: value) ?? "archived object")>"
        default:
            return nil
        }
    }

    /// `NSDecimalNumberPlaceholder`: a mantissa of up to eight 16-bit words (`NS.mantissa`, little-endian unless
    /// `NS.mantissa.bo` says otherwise), an exponent and a sign (Foundation's `NSDecimal` layout).
    private static func decimal(_ value: PropertyListValue, in archive: KeyedArchive) -> String? {
        guard let bytes = archive.value(value, "NS.mantissa")?.data,
              let exponent = archive.integer(value, "NS.exponent") else { return nil }
        let littleEndian = (archive.integer(value, "NS.mantissa.bo") ?? 1) == 1
        let ordered = littleEndian ? bytes : bytes.reversed()
        var significand: Decimal = 0
        for byte in ordered.prefix(16).reversed() { significand = significand * 256 + Decimal(Int(byte)) }
        let negative = archive.boolean(value, "NS.negative") ?? false
        let number = Decimal(sign: negative ? .minus : .plus, exponent: Int(exponent), significand: significand)
        return number.description
    }
}
