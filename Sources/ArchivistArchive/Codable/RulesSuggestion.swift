import ArchivistCore

/// A starter rules file for `convert --to codable-json`, from the archives a
/// user has: every custom class that needs a change (by its readable name, which
/// the rules accept for mangled names too), camelCase names for keys that are
/// not Swift-style, the struct a wrapper class stands for, `unwrap` for wrappers
/// of a single data or object field, and `typeKey` when arrays mix classes.
/// Nothing that would change nothing (a key renamed to itself) is proposed.
package struct RulesSuggestion: Sendable {
    private struct ClassInfo {
        var name: ClassName
        var keys: [String] = []
        var singleField: String?? = .none
        var objects = 0
    }

    private var classes: [ClassInfo] = []
    private var mixedArrays = false

    /// An empty suggestion.
    package init() {}

    /// Adds the keyed archives of a tree: the tree itself, and those its
    /// `<data>` values hold, followed 8 levels deep as every command follows
    /// them.
    package mutating func add(_ tree: PlistTree) {
        try? NestedArchiveWalk.archives(in: tree, broken: .skip) { archive in
            if archive.kind != .typedstream { add(archive.graph) }
        }
    }

    private mutating func add(_ graph: ObjectGraph) {
        for node in graph.nodes {
            guard case .object(let o) = node else { continue }
            if let f = FoundationValue.interpret(o, in: graph) {
                if case .list(let refs) = f {
                    let custom = Set(refs.compactMap { graph.object($0) }.filter { FoundationValue.interpret($0, in: graph) == nil }.map(\.className.archived))
                    if custom.count > 1 { mixedArrays = true }
                }
                continue
            }
            let i: Int
            if let existing = classes.firstIndex(where: { $0.name == o.className }) {
                i = existing
            } else {
                classes.append(ClassInfo(name: o.className))
                i = classes.count - 1
            }
            classes[i].objects += 1
            for field in o.fields where !PlistKeys.contains(field.key, in: classes[i].keys) { classes[i].keys.append(field.key) }
            // A wrapper: one field holding data (a struct stored with an
            // encoder), or one object when the class is named like a wrapper.
            var candidate: String?
            if o.fields.count == 1, let only = o.fields.first {
                switch only.value {
                case .inline(.data):
                    candidate = only.key
                case .reference(let r):
                    switch graph.nodes[safe: r] {
                    case .value(.data)?: candidate = only.key
                    case .object(let inner)?:
                        if case .data? = FoundationValue.interpret(inner, in: graph) { candidate = only.key }
                        else if Self.structName(for: o.className) != nil { candidate = only.key }
                    default: break
                    }
                case .inline, .references:
                    break
                }
            }
            switch classes[i].singleField {
            case .none: classes[i].singleField = .some(candidate)
            case .some(let earlier?) where earlier != candidate: classes[i].singleField = .some(nil)
            case .some: break
            }
        }
    }

    /// The suggested rules as pretty JSON, in the order classes were met.
    package func rulesJSON() throws -> String {
        var classRules = PlistDictionary()
        for info in classes {
            var rule = PlistDictionary()
            if let type = Self.structName(for: info.name) { rule["renameTo"] = .string(type) }
            if case .some(let field?) = info.singleField {
                rule["unwrap"] = .string(field)
            } else {
                // Only keys that change: a key already in Swift style needs no rule.
                var keys = PlistDictionary()
                for key in info.keys {
                    let renamed = SwiftNames.camelCase(key)
                    if renamed != key { keys[key] = .dictionary(PlistDictionary([("renameTo", .string(renamed))])) }
                }
                if !keys.isEmpty { rule["keys"] = .dictionary(keys) }
            }
            guard !rule.isEmpty else { continue }
            classRules[info.name.readable] = .dictionary(rule)
        }
        var top = PlistDictionary([("classes", .dictionary(classRules))])
        if mixedArrays { top["typeKey"] = .string("type") }
        let bytes = try PropertyList.write(.dictionary(top), as: .json, options: WriteOptions(keepKeyOrder: true, pretty: true))
        return String(decoding: bytes, as: UTF8.self)
    }

    /// The struct a wrapper class stands for: a class nested in a type and
    /// named `...Coder`, `...Wrapper`, `...Box` or `...Archive` stands for the
    /// enclosing type (`MusicBox.CPU.CPUCoder` -> `MusicBox.CPU`); a class named
    /// `Encodable...`, `Codable...` or `...Wrapper`/`...Coder` stands for the rest
    /// of its name (`Maps.EncodableCoordinate` -> `Maps.Coordinate`).
    static func structName(for name: ClassName) -> String? {
        var parts = name.readable.split(separator: ".").map(String.init)
        guard let last = parts.last else { return nil }
        let suffixes = ["Coder", "Wrapper", "Box", "Archive"]
        if parts.count >= 3, suffixes.contains(where: { last.hasSuffix($0) }) {
            return parts.dropLast().joined(separator: ".")
        }
        for prefix in ["Encodable", "Codable", "Archivable"] where last.hasPrefix(prefix) && last.count > prefix.count {
            parts[parts.count - 1] = String(last.dropFirst(prefix.count))
            return parts.joined(separator: ".")
        }
        for suffix in suffixes where last.hasSuffix(suffix) && last.count > suffix.count {
            parts[parts.count - 1] = String(last.dropLast(suffix.count))
            return parts.joined(separator: ".")
        }
        return nil
    }
}
