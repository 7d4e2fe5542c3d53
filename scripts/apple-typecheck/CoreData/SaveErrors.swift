// What `NSManagedObjectContext.save()` throws: Core Data's error codes in NSCocoaErrorDomain, the keys of their
// user info, and the merge conflicts they carry (CoreDataErrors.h, NSMergePolicy.h).

@_exported import let Foundation.NSCocoaErrorDomain

// MARK: User info keys

/// https://developer.apple.com/documentation/coredata/nsdetailederrorskey — `let NSDetailedErrorsKey: String`
/// (several validation errors of one save, collected in an array under this key of the top-level error)
public let NSDetailedErrorsKey: String = "NSDetailedErrors"
/// https://developer.apple.com/documentation/coredata/nsvalidationobjecterrorkey — `let NSValidationObjectErrorKey: String`
/// (the object that failed to validate)
public let NSValidationObjectErrorKey: String = "NSValidationErrorObject"
/// https://developer.apple.com/documentation/coredata/nsvalidationkeyerrorkey — `let NSValidationKeyErrorKey: String`
/// (the key that failed to validate)
public let NSValidationKeyErrorKey: String = "NSValidationErrorKey"
/// https://developer.apple.com/documentation/coredata/nspersistentstoresaveconflictserrorkey
/// `let NSPersistentStoreSaveConflictsErrorKey: String` (the array of `NSMergeConflict`s)
public let NSPersistentStoreSaveConflictsErrorKey: String = "conflictList"

// MARK: Error codes (each page shows `var <name>: Int { get }`; the values are CoreDataErrors.h's)

/// https://developer.apple.com/documentation/coredata/nsmanagedobjectvalidationerror — a generic validation error
public var NSManagedObjectValidationError: Int { 1550 }
/// https://developer.apple.com/documentation/coredata/nsmanagedobjectconstraintvalidationerror — a uniqueness constraint
public var NSManagedObjectConstraintValidationError: Int { 1551 }
/// https://developer.apple.com/documentation/coredata/nsvalidationmultipleerrorserror — several validation errors
public var NSValidationMultipleErrorsError: Int { 1560 }
/// https://developer.apple.com/documentation/coredata/nsvalidationmissingmandatorypropertyerror — a non-optional property is nil
public var NSValidationMissingMandatoryPropertyError: Int { 1570 }
/// https://developer.apple.com/documentation/coredata/nsvalidationrelationshiplacksminimumcounterror
public var NSValidationRelationshipLacksMinimumCountError: Int { 1580 }
/// https://developer.apple.com/documentation/coredata/nsvalidationrelationshipexceedsmaximumcounterror
public var NSValidationRelationshipExceedsMaximumCountError: Int { 1590 }
/// https://developer.apple.com/documentation/coredata/nsvalidationrelationshipdenieddeleteerror — a Deny rule
public var NSValidationRelationshipDeniedDeleteError: Int { 1600 }
/// https://developer.apple.com/documentation/coredata/nsvalidationnumbertoolargeerror
public var NSValidationNumberTooLargeError: Int { 1610 }
/// https://developer.apple.com/documentation/coredata/nsvalidationnumbertoosmallerror
public var NSValidationNumberTooSmallError: Int { 1620 }
/// https://developer.apple.com/documentation/coredata/nsvalidationdatetoolateerror
public var NSValidationDateTooLateError: Int { 1630 }
/// https://developer.apple.com/documentation/coredata/nsvalidationdatetoosoonerror
public var NSValidationDateTooSoonError: Int { 1640 }
/// https://developer.apple.com/documentation/coredata/nsvalidationinvaliddateerror
public var NSValidationInvalidDateError: Int { 1650 }
/// https://developer.apple.com/documentation/coredata/nsvalidationstringtoolongerror
public var NSValidationStringTooLongError: Int { 1660 }
/// https://developer.apple.com/documentation/coredata/nsvalidationstringtooshorterror
public var NSValidationStringTooShortError: Int { 1670 }
/// https://developer.apple.com/documentation/coredata/nsvalidationstringpatternmatchingerror
public var NSValidationStringPatternMatchingError: Int { 1680 }
/// https://developer.apple.com/documentation/coredata/nsvalidationinvalidurierror (iOS 11)
public var NSValidationInvalidURIError: Int { 1690 }
/// https://developer.apple.com/documentation/coredata/nsmanagedobjectmergeerror — a merge policy failed
public var NSManagedObjectMergeError: Int { 133020 }
/// https://developer.apple.com/documentation/coredata/nsmanagedobjectconstraintmergeerror — a uniqueness constraint conflict
public var NSManagedObjectConstraintMergeError: Int { 133021 }
/// https://developer.apple.com/documentation/coredata/nspersistentstoresaveconflictserror — an unresolved merge
/// conflict during a save; the user info holds `NSPersistentStoreSaveConflictsErrorKey`
public var NSPersistentStoreSaveConflictsError: Int { 134050 }

/// https://developer.apple.com/documentation/coredata/nsmergeconflict — `class NSMergeConflict`
open class NSMergeConflict: NSObject {
    /// https://developer.apple.com/documentation/coredata/nsmergeconflict/init(source:newversion:oldversion:cachedsnapshot:persistedsnapshot:)
    /// `init(source srcObject: NSManagedObject, newVersion newvers: Int, oldVersion oldvers: Int,
    ///       cachedSnapshot cachesnap: [String : Any]?, persistedSnapshot persnap: [String : Any]?)`
    public init(source srcObject: NSManagedObject, newVersion newvers: Int, oldVersion oldvers: Int,
                cachedSnapshot cachesnap: [String: Any]?, persistedSnapshot persnap: [String: Any]?) { super.init() }
    /// Not listed among the class's members on Apple's pages: only the initializer above creates one.
    @available(*, unavailable)
    override public init() { super.init() }
    /// https://developer.apple.com/documentation/coredata/nsmergeconflict/sourceobject
    /// `var sourceObject: NSManagedObject { get }`
    open var sourceObject: NSManagedObject { fatalError() }
    /// https://developer.apple.com/documentation/coredata/nsmergeconflict/oldversionnumber
    /// `var oldVersionNumber: Int { get }`
    open var oldVersionNumber: Int { 0 }
    /// https://developer.apple.com/documentation/coredata/nsmergeconflict/newversionnumber
    /// `var newVersionNumber: Int { get }` (0: the object was deleted)
    open var newVersionNumber: Int { 0 }
}
