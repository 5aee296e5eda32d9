import ArchivistCore

extension ClassDescription {
    /// `NSMapTable` as Foundation's `encodeWithCoder:` writes it: the key and
    /// value NSPointerFunctions options in `$0` and `$1` (integers), then
    /// each entry's key and value in turn (`$2`, `$3`, `$4`, ...), ended by
    /// `$null`, and `NS.count` (the entries; older archives lack it). A weak
    /// side whose object nothing else archived is `$null`: that entry is left
    /// out, as Foundation's decoder leaves it out. Any other field, or a count
    /// that does not match, leaves the table a generic object.
    static let nsMapTable = ClassDescription(
        ["NSMapTable"], framework: .foundation,
        fields: [.inline("$0", "integer"), .inline("$1", "integer"), .numbered("$"), .inline("NS.count", "integer", optional: true)],
        shape: .map, swiftType: "[AnyHashable: Any]", secureCoding: .secureWhenNamed, read: FoundationValue.mapTable,
        examples: [
            // swift-corelibs-foundation cannot archive an NSMapTable: the form macOS writes (strong keys and values).
            .built("NSMapTable", [("$0", .int(0)), ("$1", .int(0)), ("$2", .uid(2)), ("$3", .uid(3)), ("$4", .uid(0)), ("NS.count", .int(1))],
                   extra: [.string("key"), .string("value")], shows: "\"key\" => \"value\""),
        ]
    )
}

extension FoundationValue {
    static func mapTable(_ o: ArchivedObject, in graph: ObjectGraph) -> FoundationValue? {
        guard case .inline(.integer)? = o["$0"], case .inline(.integer)? = o["$1"], o.fields.count <= 1 << 20 else { return nil }
        var stated: Int64?
        if let field = o["NS.count"] {
            guard case .inline(.integer(let n)) = field, let count = n.int64Value else { return nil }
            stated = count
        }
        // $2 ... $(numbered + 1): the entries' keys and values, then $null.
        let numbered = o.fields.count - 2 - (stated == nil ? 0 : 1)
        guard numbered >= 1, numbered % 2 == 1, case .reference(0)? = o["$\(numbered + 1)"] else { return nil }
        let entries = (numbered - 1) / 2
        if let stated, stated != Int64(entries) { return nil }
        var keys: [Int] = [], values: [Int] = []
        for n in 0..<entries {
            guard case .reference(let k)? = o["$\(2 + 2 * n)"], case .reference(let v)? = o["$\(3 + 2 * n)"] else { return nil }
            if k != 0, v != 0 {
                keys.append(k)
                values.append(v)
            }
        }
        return .map(keys: keys, values: values)
    }
}
