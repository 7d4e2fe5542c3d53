/// One attribute of an entity, as stores describe it to BrowserCore.
public struct AttributeSchema: Sendable, Hashable {
    public var name: String
    public var type: AttributeType
    public var isOptional: Bool

    public init(name: String, type: AttributeType, isOptional: Bool = true) {
        self.name = name
        self.type = type
        self.isOptional = isOptional
    }
}
