/// Values captured by `:name` (and `*name`) segments of a route pattern, percent-decoded.
public struct RouteParameters: Sendable, Equatable {
    private var values: [String: String]

    public init(_ values: [String: String] = [:]) {
        self.values = values
    }

    public subscript(name: String) -> String? {
        values[name]
    }
}
