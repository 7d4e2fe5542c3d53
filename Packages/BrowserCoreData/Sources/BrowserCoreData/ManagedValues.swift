#if canImport(CoreData)
import BrowserCore
import CoreData

/// The object Core Data takes for a validated value (`setValue(_:forKey:)`): the inverse of `ManagedRecords.value`.
///
/// Exactly the class the attribute's type asks for, because Core Data answers a value of another class with an
/// Objective-C exception ("Unacceptable type of value for attribute"), which would end the app being inspected:
/// a URI attribute takes a `URL` (BrowserCore's `foundationValue` gives a URI's text, right for a predicate, not
/// here), a Decimal an `NSDecimalNumber`, a Float a float `NSNumber`. Anything that is not one of these cases is
/// refused with the field's name before any value is set.
enum ManagedValues {
    static func object(for value: AttributeValue, of attribute: NSAttributeDescription) -> Result<Any?, FieldProblem> {
        func refuse(_ message: String) -> Result<Any?, FieldProblem> { .failure(.attribute(attribute.name, message)) }
        if case .null = value { return .success(nil) }
        switch (ModelSchema.attributeType(attribute.attributeType), value) {
        case (.integer16, .integer(let number)), (.integer32, .integer(let number)), (.integer64, .integer(let number)):
            return .success(NSNumber(value: number))
        case (.double, .double(let number)): return .success(NSNumber(value: number))
        case (.double, .float(let number)): return .success(NSNumber(value: Double(number)))
        case (.float, .float(let number)): return .success(NSNumber(value: number))
        case (.float, .double(let number)): return .success(NSNumber(value: Float(number)))
        case (.decimal, .decimal(let number)): return .success(NSDecimalNumber(decimal: number))
        case (.boolean, .boolean(let flag)): return .success(NSNumber(value: flag))
        case (.string, .string(let text)): return .success(text)
        case (.date, .date(let date)): return .success(date)
        case (.uuid, .uuid(let uuid)): return .success(uuid)
        case (.uri, .uri(let text)), (.uri, .string(let text)):
            guard let url = URL(string: text) else { return refuse("\"\(text)\" is not a URL") }
            return .success(url)
        case (let type, _):
            // Binary and Transformable values can only be cleared through the API (validation says so too); any
            // other pairing is a value validation should not have let through.
            return refuse("a \(type.rawValue) attribute cannot be set to this value here")
        }
    }
}

#endif
