/// One attribute of an entity, as stores describe it to BrowserCore.
public struct AttributeSchema: Sendable, Hashable {
    public var name: String
    public var type: AttributeType
    public var isOptional: Bool
    /// A Transformable attribute's value transformer (`NSSecureUnarchiveFromData`, an app's own), when the model
    /// names one: it tells what the stored bytes are (a keyed archive for the unarchiving transformers).
    public var valueTransformerName: String?

    public init(name: String, type: AttributeType, isOptional: Bool = true, valueTransformerName: String? = nil) {
        self.name = name
        self.type = type
        self.isOptional = isOptional
        self.valueTransformerName = valueTransformerName
    }
}
