/// Why a store file could not be opened or read. Each description is one line that names the file and says
/// what is wrong with it, fit to print as a command-line error.
public enum SQLiteStoreError: Error, Sendable, Hashable, CustomStringConvertible {
    /// Nothing exists at the path.
    case fileMissing(path: String)
    /// The file exists but is not an SQLite database (wrong header, a directory, encrypted…).
    case notSQLite(path: String, reason: String? = nil)
    /// An SQLite database without Core Data's tables.
    case notCoreDataStore(path: String, missingTable: String)
    /// SQLite found the file damaged, or it is shorter than its header says.
    case corrupt(path: String, message: String)
    /// The model file named by the user cannot be read.
    case modelUnreadable(path: String, reason: String)
    /// The model file named by the user does not describe this store.
    case modelMismatch(modelPath: String, details: String)
    /// The file could not be opened or read for another reason (permissions, I/O, a lock held too long).
    case unreadable(path: String, message: String)
    /// A query failed after the store was opened; carries SQLite's message and the SQL.
    case queryFailed(message: String, sql: String?)
    /// A relationship the model declares has no storage in the store; the message says what is missing.
    case relationshipUnreadable(entity: String, relationship: String, reason: String)

    public var description: String {
        switch self {
        case .fileMissing(let path):
            "No such file: \(path)"
        case .notSQLite(let path, let reason):
            "\(path) is not an SQLite database" + (reason.map { " (\($0))" } ?? "")
        case .notCoreDataStore(let path, let table):
            "\(path) is an SQLite database but not a Core Data store (no \(table) table)"
        case .corrupt(let path, let message):
            "\(path) is corrupt or truncated: \(message)"
        case .modelUnreadable(let path, let reason):
            "Cannot read the model at \(path): \(reason)"
        case .modelMismatch(let modelPath, let details):
            "The model at \(modelPath) does not match the store: \(details)"
        case .unreadable(let path, let message):
            "Cannot read \(path): \(message)"
        case .queryFailed(let message, let sql):
            "Store query failed: \(message)" + (sql.map { " (in \($0))" } ?? "")
        case .relationshipUnreadable(let entity, let relationship, let reason):
            "Cannot read \(entity).\(relationship): \(reason)"
        }
    }
}
