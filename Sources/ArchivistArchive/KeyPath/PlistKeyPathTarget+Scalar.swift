import ArchivistCore

extension PlistKeyPath.Target {
    /// The value `get` prints raw (a string, number, bool, date, data or
    /// UID; a container here is shown as `dump` shows it), or nil for what
    /// `get` shows as `dump` does.
    ///
    /// An archived object is a scalar only when Foundation reads it as one
    /// (NSString, NSData, NSDate, NSUUID, NSURL, ...), and its plain value is
    /// made only then: a collection, a map or an object of fields is never
    /// one, and its plain value would be the whole tree under it (`get
    /// FILE root` of a big archive built it all before printing).
    package func printedScalar() throws -> PlistValue? {
        switch self {
        case .tree(let node):
            return node.kind == .array || node.kind == .dictionary ? nil : node.value
        case .value(let v):
            return v
        case .archive, .references:
            return nil
        case .node(let graph, let i):
            if case .value(let v)? = graph.nodes[safe: i] { return v }
            if case .object(let o)? = graph.nodes[safe: i] {
                switch FoundationValue.interpret(o, in: graph) {
                case .list?, .counted?, .map?, .null?, .line?, nil: return nil
                // A described value is printed raw when it exports as a scalar (a UUID, a colour's text).
                case .string?, .data?, .date?, .described?, .url?, .attributedString?: break
                }
            }
            let plain = try plainValue()
            switch plain {
            case .string, .integer, .real, .bool, .date, .data: return plain
            case .uid, .null, .array, .dictionary: return nil
            }
        }
    }
}
