import ArchivistCore

extension ClassDescription {
    /// `NSHashTable` as it archives itself (`plaso/test_data/backgrounditems.btm`):
    /// its NSPointerFunctions options in `$0` (an integer; 5 is weak memory),
    /// then each member in `$1`, `$2`, ..., ended by `$null`. Any other field
    /// leaves the table a generic object.
    static let nsHashTable = ClassDescription(
        ["NSHashTable"], framework: .foundation, fields: [.inline("$0", "integer"), .numbered("$")],
        shape: .sequence, swiftType: "[Any]", secureCoding: .secureWhenNamed, read: FoundationValue.hashTable,
        examples: [.shared("real-world/plaso/test_data/backgrounditems.btm", shows: "NSHashTable")]
    )
}

extension FoundationValue {
    static func hashTable(_ o: ArchivedObject, in graph: ObjectGraph) -> FoundationValue? {
        guard case .inline(.integer)? = o["$0"], o.fields.count <= 1 << 20 else { return nil }
        var members: [Int] = []
        var ended = false
        for n in 1..<max(o.fields.count, 1) {
            guard !ended, case .reference(let r)? = o["$\(n)"] else { return nil }
            if r == 0 { ended = true } else { members.append(r) }
        }
        return .list(members)
    }
}
