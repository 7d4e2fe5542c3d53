/// `GET /api/entities/:name/explain`: how a store answered one page of a list — the statements it ran with their
/// bound values, what SQLite planned for each, how long they took, which of the store's own plans and caches
/// served the page, and what would make it faster.
public struct QueryExplanationDTO: Encodable, Sendable, Hashable {
    /// What answered: "SQLite", or a description of a store that has no query language to show.
    public var engine: String
    /// How the page and its total were served, in plain words, in the order it happened.
    public var steps: [String]
    /// Every statement the page ran, in order (empty when everything came from a cache or the store has no SQL).
    public var statements: [ExplainedStatementDTO]
    /// What would make this list faster, with the model change that does it.
    public var hints: [QueryHintDTO]
    /// The page's total, and the time the whole page took on the server, in milliseconds.
    public var total: Int
    public var milliseconds: Double

    public init(engine: String, steps: [String], statements: [ExplainedStatementDTO] = [], hints: [QueryHintDTO] = [],
                total: Int, milliseconds: Double) {
        self.engine = engine
        self.steps = steps
        self.statements = statements
        self.hints = hints
        self.total = total
        self.milliseconds = milliseconds
    }
}

/// One SQL statement a page ran.
public struct ExplainedStatementDTO: Encodable, Sendable, Hashable {
    public var sql: String
    /// The values bound to its `?`s, in order, as SQL literals (`42`, `'text'`, `x'0A1B'`, `NULL`).
    public var arguments: [String]
    /// Rows it returned, and the time spent stepping through them.
    public var rows: Int
    public var milliseconds: Double
    /// SQLite's `EXPLAIN QUERY PLAN` for the same SQL and values, one line per node, indented by depth.
    public var plan: [String]
    /// The indexes the plan uses.
    public var indexes: [String]
    /// Tables the plan reads whole, and whether it sorts rows in a temporary B-tree.
    public var fullScans: [String]
    public var temporarySort: Bool

    public init(sql: String, arguments: [String], rows: Int, milliseconds: Double, plan: [String], indexes: [String],
                fullScans: [String], temporarySort: Bool) {
        self.sql = sql
        self.arguments = arguments
        self.rows = rows
        self.milliseconds = milliseconds
        self.plan = plan
        self.indexes = indexes
        self.fullScans = fullScans
        self.temporarySort = temporarySort
    }
}

/// A way to make a list faster, said plainly, with the model change that does it (nil when there is none).
public struct QueryHintDTO: Encodable, Sendable, Hashable {
    public var text: String
    /// For Xcode's model file (`contents`): the element to add to the entity.
    public var modelEditor: String?
    /// For SwiftData: the macro to add to the model class.
    public var swiftData: String?

    public init(text: String, modelEditor: String? = nil, swiftData: String? = nil) {
        self.text = text
        self.modelEditor = modelEditor
        self.swiftData = swiftData
    }
}
