#if canImport(CoreData)
import BrowserCore
import CoreData

/// What a failed `save()` means for the client, as a `BrowserError`: Core Data's validation errors become 422 with
/// one problem per property of the written record (409 for a delete, which has no fields to mark), merge and
/// constraint conflicts 409, anything else 500.
///
/// Validation errors (codes `NSManagedObjectValidationError` 1550 to `NSValidationInvalidURIError` 1690, several
/// under `NSDetailedErrorsKey` of an `NSValidationMultipleErrorsError`) name the object
/// (`NSValidationObjectErrorKey`) and the key (`NSValidationKeyErrorKey`). A problem of the written record is its
/// field; a problem of another record is put on the written record's relationship whose inverse is the failing key
/// (the usual way a write breaks another record: a maximum count on the other side); any other is only in the
/// message. An app's own `validate…` methods may throw errors of any domain: one that names a key or object is
/// treated as a validation error too.
enum SaveFailure {
    enum Purpose { case insert, update, delete }

    static func error(_ error: any Error, writing written: NSManagedObject?, purpose: Purpose) -> BrowserError {
        if let error = error as? BrowserError { return error }
        let failure = error as NSError
        let code = failure.code
        if failure.domain == NSCocoaErrorDomain, code == NSManagedObjectMergeError || code == NSPersistentStoreSaveConflictsError {
            return .conflict("A record this write changes was changed in the store while it was being saved (Core Data's "
                + "optimistic locking\(versionNote(failure))): nothing was written; read the record again")
        }
        if failure.domain == NSCocoaErrorDomain, code == NSManagedObjectConstraintMergeError || code == NSManagedObjectConstraintValidationError {
            return .conflict("Another record already has these values, and the model keeps them unique (a uniqueness "
                + "constraint): nothing was written")
        }
        let details = failure.domain == NSCocoaErrorDomain && code == NSValidationMultipleErrorsError
            ? (failure.userInfo[NSDetailedErrorsKey] as? [NSError] ?? []) : [failure]
        guard !details.isEmpty, details.allSatisfy(isValidation) else {
            return .storeFailure("Core Data could not save the write (\(failure.domain) \(code)): \(failure.localizedDescription)")
        }
        var fields: [FieldProblem] = []
        var unplaced: [String] = []
        for detail in details {
            let placed = purpose == .delete ? nil : field(for: detail, written: written)
            if let placed { fields.append(placed) } else { unplaced.append(describe(detail)) }
        }
        if purpose == .delete {
            return .conflict("Core Data refused the delete: it would leave records the model does not allow ("
                + unplaced.joined(separator: "; ") + "); nothing was written")
        }
        if unplaced.isEmpty { return .invalidFields(fields) }
        let message = (fields.map { "\($0.field): \($0.message)" } + unplaced).joined(separator: "; ")
        return BrowserError(.unprocessable, message, details: .fields(fields))
    }

    private static func isValidation(_ error: NSError) -> Bool {
        if error.userInfo[NSValidationKeyErrorKey] != nil || error.userInfo[NSValidationObjectErrorKey] != nil { return true }
        return error.domain == NSCocoaErrorDomain
            && (NSManagedObjectValidationError...NSValidationInvalidURIError).contains(error.code)
    }

    /// The written record's field the problem belongs to, or nil when it cannot be placed on one.
    private static func field(for error: NSError, written: NSManagedObject?) -> FieldProblem? {
        guard let written, let key = error.userInfo[NSValidationKeyErrorKey] as? String else { return nil }
        let culprit = error.userInfo[NSValidationObjectErrorKey] as? NSManagedObject
        if culprit == nil || culprit === written {
            if written.entity.relationshipsByName[key] != nil { return .relationship(key, phrase(error)) }
            if written.entity.attributesByName[key] != nil { return .attribute(key, phrase(error)) }
            return nil
        }
        guard let culprit else { return nil }
        let via = written.entity.relationshipsByName.values
            .filter { $0.inverseRelationship?.name == key && isKind(culprit.entity, of: $0.destinationEntity) }
            .map(\.name).sorted().first
        return via.map { .relationship($0, "\(name(of: culprit)).\(key): \(phrase(error))") }
    }

    private static func isKind(_ entity: NSEntityDescription, of ancestor: NSEntityDescription?) -> Bool {
        guard let wanted = ancestor?.name else { return false }
        var current: NSEntityDescription? = entity
        while let found = current {
            if found.name == wanted { return true }
            current = found.superentity
        }
        return false
    }

    private static func describe(_ error: NSError) -> String {
        let culprit = (error.userInfo[NSValidationObjectErrorKey] as? NSManagedObject).map(name(of:))
        let key = error.userInfo[NSValidationKeyErrorKey] as? String
        let place = [culprit, key].compactMap { $0 }.joined(separator: ".")
        return (place.isEmpty ? "" : place + ": ") + phrase(error)
    }

    private static func name(of object: NSManagedObject) -> String {
        let entity = object.entity.name ?? "record"
        guard !object.objectID.isTemporaryID, let id = try? ManagedRecords.objectID(object.objectID) else { return "the new \(entity)" }
        return "\(entity) \(id.shortForm)"
    }

    /// Core Data's reason in words; an app's own validation error keeps its own description.
    private static func phrase(_ error: NSError) -> String {
        guard error.domain == NSCocoaErrorDomain else { return error.localizedDescription }
        switch error.code {
        case NSValidationMissingMandatoryPropertyError: return "required: Core Data refused nil"
        case NSValidationRelationshipLacksMinimumCountError: return "fewer records than the model's minimum count"
        case NSValidationRelationshipExceedsMaximumCountError: return "more records than the model's maximum count"
        case NSValidationRelationshipDeniedDeleteError: return "a Deny delete rule keeps it while it holds records"
        case NSValidationNumberTooLargeError: return "above the model's maximum"
        case NSValidationNumberTooSmallError: return "below the model's minimum"
        case NSValidationDateTooLateError: return "later than the model's maximum date"
        case NSValidationDateTooSoonError: return "earlier than the model's minimum date"
        case NSValidationInvalidDateError: return "not a valid date"
        case NSValidationStringTooLongError: return "longer than the model's maximum length"
        case NSValidationStringTooShortError: return "shorter than the model's minimum length"
        case NSValidationStringPatternMatchingError: return "does not match the model's regular expression"
        case NSValidationInvalidURIError: return "not a valid URI"
        default: return "Core Data refused it (\(error.code)): \(error.localizedDescription)"
        }
    }

    /// Core Data's row versions for the conflicts a failed save lists, when it lists them.
    private static func versionNote(_ error: NSError) -> String {
        let conflicts = error.userInfo[NSPersistentStoreSaveConflictsErrorKey] as? [NSMergeConflict] ?? []
        guard let first = conflicts.first else { return "" }
        let what = first.newVersionNumber == 0 ? "deleted since" : "row version \(first.oldVersionNumber), now \(first.newVersionNumber)"
        return ": \(name(of: first.sourceObject)) \(what)" + (conflicts.count > 1 ? ", and \(conflicts.count - 1) more" : "")
    }
}

#endif
