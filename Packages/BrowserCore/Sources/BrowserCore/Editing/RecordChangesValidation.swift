import Foundation

/// Checks a write against the model before any store sees it, and gives it the shape `RecordChanges` promises:
/// names, types, ranges, optional and required properties, minimum and maximum values and lengths, relationship
/// destinations and counts. Every refusal names its field (`BrowserError.invalidFields`, 422), all at once, so a
/// form can mark each field that needs attention.
struct RecordChangesValidation {
    enum Purpose { case insert, update }

    let entity: EntitySchema
    let schema: StoreSchema
    /// The model as the store describes it: minimum, maximum, default values, derivations, relationship counts
    /// (a field it does not know is nil and not checked; the schema's own rules still are).
    let model: ModelDescription
    /// The store's UUID, when known: an ID of another store is refused.
    let storeIdentifier: String?

    func changes(from body: RecordWriteBody, for purpose: Purpose) throws(BrowserError) -> RecordChanges {
        var problems: [FieldProblem] = []
        var changes = RecordChanges()

        for (name, sent) in body.attributes.sorted(by: { $0.key < $1.key }) {
            switch attributeValue(name, sent) {
            case .success(let value): changes.attributes[name] = value
            case .failure(let problem): problems.append(problem)
            }
        }
        for (name, sent) in body.relationships.sorted(by: { $0.key < $1.key }) {
            switch relationshipContents(name, sent) {
            case .success(let contents): changes.relationships[name] = contents
            case .failure(let problem): problems.append(problem)
            }
        }
        if purpose == .insert {
            problems += fillDefaultsAndRequireValues(&changes, sent: body)
        }
        guard problems.isEmpty else { throw .invalidFields(problems) }
        return changes
    }

    // MARK: Attributes

    private func attributeValue(_ name: String, _ sent: AttributeValue) -> Result<AttributeValue, FieldProblem> {
        func refuse(_ message: String) -> Result<AttributeValue, FieldProblem> { .failure(.attribute(name, message)) }
        guard let attribute = entity.attribute(named: name) else {
            return refuse("\(entity.name) has no attribute \"\(name)\"" + (entity.relationship(named: name) != nil
                ? " (it is a relationship: send it under \"relationships\")" : ""))
        }
        let declared = modelAttribute(name)
        if let derivation = declared?.derivation {
            return refuse("derived (\(derivation)): Core Data computes it, so it cannot be set")
        }
        if case .null = sent {
            return attribute.isOptional ? .success(.null) : refuse("required: the model does not let it be nil")
        }
        switch attribute.type {
        case .binary, .transformable:
            return refuse("\(attribute.type.rawValue) values cannot be edited here, only cleared with null")
        case .undefined, .objectID:
            return refuse("an attribute of type \(attribute.type.rawValue) cannot be edited")
        default: break
        }
        let value: AttributeValue
        do throws(FilterProblem) {
            value = try FilterValueCoercion.coerce(sent, to: attribute, name: name) { FilterProblem(conditionIndex: nil, message: $0) }
        } catch {
            return refuse(error.message)
        }
        if let problem = rangeProblem(value, attribute: attribute, declared: declared) { return refuse(problem) }
        return .success(value)
    }

    /// The integer type's own range, then the model's minimum and maximum (a value for numbers and dates, a length
    /// in UTF-16 units for strings, as `NSString.length` counts).
    private func rangeProblem(_ value: AttributeValue, attribute: AttributeSchema, declared: ModelAttribute?) -> String? {
        if case .integer(let number) = value {
            let bits = attribute.type == .integer16 ? 16 : attribute.type == .integer32 ? 32 : 64
            if bits < 64, number < -(1 << (bits - 1)) || number >= 1 << (bits - 1) {
                return "\(number) does not fit an \(attribute.type.rawValue) (\(-(1 << (bits - 1))) to \((1 << (bits - 1)) - 1))"
            }
        }
        let measure: Double?
        var noun = "value", unit = ""
        var shown: (Double) -> String = Self.shown
        switch value {
        case .integer(let number): measure = Double(number)
        case .double(let number): measure = number
        case .decimal(let number): measure = Double(number.description)
        case .date(let date):
            measure = date.timeIntervalSinceReferenceDate
            shown = { ISO8601Timestamp.string(from: Date(timeIntervalSinceReferenceDate: $0)) }
        case .string(let text): (measure, noun, unit) = (Double(text.utf16.count), "length", " characters")
        default: measure = nil
        }
        guard let measure else { return nil }
        if let minimum = declared?.minimum.flatMap(Self.bound), measure < minimum {
            return "\(noun) below the model's minimum of \(shown(minimum))\(unit)"
        }
        if let maximum = declared?.maximum.flatMap(Self.bound), measure > maximum {
            return "\(noun) above the model's maximum of \(shown(maximum))\(unit)"
        }
        return nil
    }

    /// A model's minimum or maximum: a number, or a date the model editor wrote in ISO 8601.
    private static func bound(_ text: String) -> Double? {
        Double(text) ?? PredicateValues.date(fromISO: text).map(\.timeIntervalSinceReferenceDate)
    }

    private static func shown(_ number: Double) -> String {
        number == number.rounded() && abs(number) < 1e15 ? String(Int64(number)) : String(number)
    }

    // MARK: Relationships

    private func relationshipContents(_ name: String, _ sent: RecordWriteBody.RelationshipValue) -> Result<RelationshipContents, FieldProblem> {
        func refuse(_ message: String) -> Result<RelationshipContents, FieldProblem> { .failure(.relationship(name, message)) }
        guard let relationship = entity.relationship(named: name) else {
            return refuse("\(entity.name) has no relationship \"\(name)\"" + (entity.attribute(named: name) != nil
                ? " (it is an attribute: send it under \"attrs\")" : ""))
        }
        let declared = modelRelationship(name)
        var rawIDs: [String]
        switch (sent, relationship.isToMany) {
        case (.none, false):
            if declared?.isOptional == false { return refuse("required: the model does not let it be nil") }
            return .success(.toOne(nil))
        case (.one(let id), false): rawIDs = [id]
        case (.many, false): return refuse("a to-one relationship takes one object ID or null")
        case (.many(let ids), true): rawIDs = ids
        case (.none, true), (.one, true): return refuse("a to-many relationship takes an array of object IDs ([] empties it)")
        }
        var ids: [ObjectID] = []
        let destinations = schema.subtree(of: relationship.destination)
        for raw in rawIDs {
            let id: ObjectID
            do throws(BrowserError) { id = try ObjectID(uri: raw) } catch { return refuse(error.message) }
            if let storeIdentifier, id.storeIdentifier != storeIdentifier {
                return refuse("\(raw) is an object of another store")
            }
            guard destinations.contains(id.entity) else {
                return refuse("\(raw) is a \(id.entity); \(name) holds \(relationship.destination) records")
            }
            if ids.contains(id) { return refuse("\(raw) is listed twice") }
            ids.append(id)
        }
        guard relationship.isToMany else { return .success(.toOne(ids[0])) }
        if let minimum = declared?.minCount, minimum > 0, ids.count < minimum {
            return refuse("\(ids.count) records, below the model's minimum of \(minimum)")
        }
        if let maximum = declared?.maxCount, maximum > 0, ids.count > maximum {
            return refuse("\(ids.count) records, above the model's maximum of \(maximum)")
        }
        if declared?.isOptional == false, ids.isEmpty {
            return refuse("required: the model does not let it be empty")
        }
        return .success(.toMany(ids))
    }

    // MARK: A new record

    /// An insert gives every attribute not sent the model's default value (as `NSEntityDescription.insertNewObject`
    /// does), then requires every non-optional property to have a value.
    private func fillDefaultsAndRequireValues(_ changes: inout RecordChanges, sent body: RecordWriteBody) -> [FieldProblem] {
        var problems: [FieldProblem] = []
        for attribute in entity.attributes where body.attributes[attribute.name] == nil {
            let declared = modelAttribute(attribute.name)
            if declared?.derivation != nil { continue }
            if let text = declared?.defaultValue, let value = Self.defaultValue(text, of: attribute) {
                changes.attributes[attribute.name] = value
            } else if !attribute.isOptional {
                problems.append(.attribute(attribute.name, "required: the model gives it no default value"))
            }
        }
        for relationship in entity.relationships where body.relationships[relationship.name] == nil {
            let declared = modelRelationship(relationship.name)
            if declared?.isOptional == false || (declared?.minCount ?? 0) > 0 {
                problems.append(.relationship(relationship.name, "required: the model does not let it be "
                    + (relationship.isToMany ? "empty" : "nil")))
            }
        }
        return problems
    }

    /// A default value as the model editor writes it (`ModelAttribute.defaultValue`), in the attribute's type;
    /// nil for what cannot be one here (an archived object's class name).
    static func defaultValue(_ text: String, of attribute: AttributeSchema) -> AttributeValue? {
        switch attribute.type {
        case .boolean:
            switch text.uppercased() {
            case "YES", "TRUE", "1": return .boolean(true)
            case "NO", "FALSE", "0": return .boolean(false)
            default: return nil
            }
        case .binary, .transformable, .undefined, .objectID:
            return nil
        case .string:
            return .string(text)
        default:
            return try? FilterValueCoercion.coerce(.string(text), to: attribute, name: attribute.name) {
                FilterProblem(conditionIndex: nil, message: $0)
            }
        }
    }

    // MARK: The model's own description of a property (inherited ones from the ancestor that declares them)

    private func modelAttribute(_ name: String) -> ModelAttribute? {
        declaringEntities.lazy.compactMap { $0.attributes.first { $0.name == name } }.first
    }

    private func modelRelationship(_ name: String) -> ModelRelationship? {
        declaringEntities.lazy.compactMap { $0.relationships.first { $0.name == name } }.first
    }

    private var declaringEntities: [ModelEntity] {
        var chain: [ModelEntity] = []
        var next: String? = entity.name
        while let name = next, let found = model.entity(named: name), !chain.contains(where: { $0.name == name }) {
            chain.append(found)
            next = found.parent
        }
        return chain
    }
}
