import ArchivistCore

extension ContainerShape {
    /// The shape `get` sees: a Foundation collection only when it reads as one.
    init(_ o: ArchivedObject, in graph: ObjectGraph) {
        let value = FoundationValue.interpret(o, in: graph)
        switch value?.shape {
        case .sequence?, .countedSet?:
            self = .list
        case .map?:
            self = .map(keys: value?.mapKeys.map { graph.string(.reference($0)) } ?? [])
        case .attributedText?:
            self = .attributedString
        case .text?, .bytes?, .date?, .reference?, .null?, .scalar?, .opaque?, nil:
            self = .fields
        }
    }
}
