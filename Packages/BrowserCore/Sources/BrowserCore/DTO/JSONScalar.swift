/// One JSON scalar of a request body (a predicate's value, an edited attribute's value).
///
/// As a value: `null`, `true`/`false`, an integer that fits 64 bits, another number (a Double),
/// a string. Arrays and objects are refused.
struct JSONScalar: Decodable {
    let value: AttributeValue

    init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if container.decodeNil() {
            value = .null
        } else if let flag = try? container.decode(Bool.self) {
            value = .boolean(flag)
        } else if let integer = try? container.decode(Int64.self) {
            value = .integer(integer)
        } else if let number = try? container.decode(Double.self) {
            value = .double(number)
        } else if let text = try? container.decode(String.self) {
            value = .string(text)
        } else {
            throw DecodingError.dataCorruptedError(in: container, debugDescription: "a value is a string, a number, true, false or null")
        }
    }
}
