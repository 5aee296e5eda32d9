import ArchivistCore

extension PlistKeyPath.Target {
    /// The type of what a path leads to, as `get --type` prints it: a property
    /// list type name (`string`, `integer`, `real`, `bool`, `date`, `data`,
    /// `array`, `dictionary`, `uid`), Foundation values by the type they hold,
    /// and other archived objects by their class.
    package var typeName: String {
        switch self {
        case .tree(let node):
            return node.kind.name
        case .value(let v):
            return v.typeName
        case .references:
            return "array"
        case .archive:
            return "archive"
        case .node(let graph, let i):
            switch graph.nodes[safe: i] {
            case .value(let v)?: return v.typeName
            case .null?, nil: return "null"
            case .classDescription?: return "class"
            case .object(let o)?:
                switch FoundationValue.interpret(o, in: graph) {
                case .string?, .attributedString?: return "string"
                case .data?: return "data"
                case .date?: return "date"
                case .list?, .counted?: return "array"
                case .map?: return "dictionary"
                case .null?: return "null"
                case .described?, .url?, .line?, nil: return o.className.readable
                }
            }
        }
    }

    /// A plain tree of what the path leads to (archived objects as
    /// `CodableExport` writes them), for writing in a format.
    package func plainValue() throws -> PlistValue {
        switch self {
        case .tree(let node):
            return node.value
        case .value(let v):
            return v
        case .archive(let graph):
            return try CodableExport.value(graph, options: CodableOptions(cycles: .omit, nativeLeaves: true))
        case .node(let graph, let i):
            if case .value(let v)? = graph.nodes[safe: i] { return v }
            return try CodableExport.value(graph, node: i, options: CodableOptions(cycles: .omit, nativeLeaves: true))
        case .references(let graph, let refs):
            return .array(try refs.map { try CodableExport.value(graph, node: $0, options: CodableOptions(cycles: .omit, nativeLeaves: true)) })
        }
    }
}
