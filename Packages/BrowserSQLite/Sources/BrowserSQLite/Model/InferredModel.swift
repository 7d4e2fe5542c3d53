/// A model inferred from the store alone, for stores without a model cache (Core Data before 2015) when no model
/// file is named.
///
/// Exact: entity names, numbers and inheritance (`Z_PRIMARYKEY`), many-to-many relationships (join table and
/// column names carry both relationship names and entity numbers), to-many relationships without inverse
/// (`Z<n><R>`). Guessed: attribute names (the column name without its `Z`, lower-cased: `ZSTATUSID` →
/// `statusid`), attribute types (from the declared SQL type: INTEGER → Integer 64, TIMESTAMP → Date, FLOAT →
/// Double, DECIMAL → Decimal, VARCHAR → String, BLOB → Binary), to-one relationships (an INTEGER column named
/// after an entity, or with a `Z<n>_<R>` entity column) and the names of their inverses. Every column is listed
/// on the root entity of its table, since nothing says which sub-entity declared it.
enum InferredModel {
    static let note = "inferred from the tables: attribute and relationship names are guessed from column names"

    static func build(from catalog: StoreCatalog) -> ModelDefinition {
        let rows = catalog.entities
        let byNumber = Dictionary(rows.map { ($0.number, $0) }, uniquingKeysWith: { first, _ in first })
        var entities: [String: EntityDefinition] = [:]
        for row in rows {
            entities[row.name] = EntityDefinition(name: row.name, parent: byNumber[row.parent]?.name)
        }
        let entityByUppercasedName = Dictionary(rows.map { ($0.name.uppercased(), $0) }, uniquingKeysWith: { first, _ in first })
        var inverseCandidates: [(source: String, relationship: String, destination: String)] = []

        for row in rows where row.parent == 0 || byNumber[row.parent] == nil {
            guard let table = catalog.table("Z" + row.name.uppercased()) else { continue }
            for column in table.columns {
                let upper = column.name.uppercased()
                guard upper.hasPrefix("Z"), !upper.hasPrefix("Z_"), !StoreMapping.fixedColumns.contains(upper) else { continue }
                let rest = upper.dropFirst()
                let digits = rest.prefix { $0.isASCII && $0.isNumber }
                if !digits.isEmpty {
                    let afterDigits = rest.dropFirst(digits.count)
                    // Z<n>_<R>: the entity column of a to-one; described with its foreign key.
                    if afterDigits.hasPrefix("_") { continue }
                    // Z<n><R>: a to-many without inverse of entity n whose targets live in this table.
                    if let number = Int64(digits), let owner = byNumber[number], !afterDigits.isEmpty {
                        entities[owner.name]?.relationships.append(RelationshipDefinition(
                            name: String(afterDigits).lowercased(), destination: row.name, isToMany: true))
                        continue
                    }
                }
                let name = String(rest).lowercased()
                // A to-one: an INTEGER column with an entity column beside it, or named after an entity.
                if column.declaredType.hasPrefix("INT") {
                    if let entityColumn = table.columns.first(where: {
                        let other = $0.name.uppercased()
                        return other.hasPrefix("Z") && other.hasSuffix("_" + rest) && other.dropFirst().dropLast(rest.count + 1).allSatisfy { $0.isASCII && $0.isNumber }
                    }), let number = Int64(entityColumn.name.dropFirst().dropLast(rest.count + 1)), let target = byNumber[number] {
                        entities[row.name]?.attributes.removeAll { $0.name == name }
                        entities[row.name]?.relationships.append(RelationshipDefinition(name: name, destination: target.name, isToMany: false))
                        inverseCandidates.append((row.name, name, target.name))
                        continue
                    }
                    if let target = entityByUppercasedName[String(rest)] {
                        entities[row.name]?.relationships.append(RelationshipDefinition(name: name, destination: target.name, isToMany: false))
                        inverseCandidates.append((row.name, name, target.name))
                        continue
                    }
                }
                entities[row.name]?.attributes.append(AttributeDefinition(name: name, type: kind(of: column.declaredType)))
            }
        }

        // Many-to-many: Z_<n1><R1> (Z_<n2><R2>, Z_<n1'><R1'>): column Z_<n><R> holds keys of entity n reached
        // through relationship R, which the entity of the *other* column declares.
        for table in catalog.tables.values where table.name.uppercased().hasPrefix("Z_") {
            let ends = table.columns.compactMap { column -> (number: Int64, name: String)? in
                let upper = column.name.uppercased()
                guard upper.hasPrefix("Z_"), !upper.hasPrefix("Z_FOK_") else { return nil }
                let rest = upper.dropFirst(2)
                let digits = rest.prefix { $0.isASCII && $0.isNumber }
                guard let number = Int64(digits), byNumber[number] != nil, rest.count > digits.count else { return nil }
                return (number, String(rest.dropFirst(digits.count)).lowercased())
            }
            guard ends.count == 2, let first = byNumber[ends[0].number], let second = byNumber[ends[1].number] else { continue }
            // ends[0] = keys of `first` reached through relationship ends[0].name declared on `second`.
            entities[second.name]?.relationships.append(RelationshipDefinition(
                name: ends[0].name, destination: first.name, inverse: ends[1].name, isToMany: true))
            entities[first.name]?.relationships.append(RelationshipDefinition(
                name: ends[1].name, destination: second.name, inverse: ends[0].name, isToMany: true))
        }

        // Inverses of to-ones: a to-one back (one-to-one), else a to-many named after the source (a guess).
        for candidate in inverseCandidates {
            let alreadyPaired = entities[candidate.source]?.relationships.contains {
                $0.name == candidate.relationship && $0.inverse != nil
            } ?? false
            if alreadyPaired { continue }
            if let back = entities[candidate.destination]?.relationships.firstIndex(where: {
                !$0.isToMany && $0.destination == candidate.source && $0.inverse == nil
            }), candidate.source != candidate.destination {
                entities[candidate.destination]?.relationships[back].inverse = candidate.relationship
                let backName = entities[candidate.destination]?.relationships[back].name
                if let index = entities[candidate.source]?.relationships.firstIndex(where: { $0.name == candidate.relationship }) {
                    entities[candidate.source]?.relationships[index].inverse = backName
                }
                continue
            }
            guard let destination = entities[candidate.destination] else { continue }
            let inverseName = candidate.source.prefix(1).lowercased() + candidate.source.dropFirst() + "s"
            let taken = destination.attributes.contains { $0.name == inverseName }
                || destination.relationships.contains { $0.name == inverseName }
            guard !taken else { continue }
            entities[candidate.destination]?.relationships.append(RelationshipDefinition(
                name: inverseName, destination: candidate.source, inverse: candidate.relationship, isToMany: true))
            if let index = entities[candidate.source]?.relationships.firstIndex(where: { $0.name == candidate.relationship }) {
                entities[candidate.source]?.relationships[index].inverse = inverseName
            }
        }

        let ordered = rows.compactMap { entities[$0.name] }.map { entity -> EntityDefinition in
            var entity = entity
            entity.attributes.sort { $0.name < $1.name }
            entity.relationships.sort { $0.name < $1.name }
            return entity
        }
        return ModelDefinition(entities: ordered)
    }

    static func kind(of declaredType: String) -> AttributeKind {
        let type = declaredType.uppercased()
        if type.hasPrefix("INT") { return .integer64 }
        if type.hasPrefix("TIMESTAMP") || type.hasPrefix("DATE") { return .date }
        if type.hasPrefix("FLOAT") || type.hasPrefix("REAL") || type.hasPrefix("DOUBLE") { return .double }
        if type.hasPrefix("DECIMAL") || type.hasPrefix("NUMERIC") { return .decimal }
        if type.hasPrefix("VARCHAR") || type.hasPrefix("TEXT") || type.hasPrefix("CHAR") { return .string }
        if type.hasPrefix("BLOB") { return .binary }
        return .undefined
    }
}
