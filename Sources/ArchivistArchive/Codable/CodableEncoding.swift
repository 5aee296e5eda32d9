import ArchivistCore

/// The bytes Swift's encoders write for the structs a keyed archive's classes
/// stand for: `JSONEncoder` (optionally with `.sortedKeys`) or
/// `PropertyListEncoder` (binary or XML). The tree is `CodableExport`'s, with
/// every custom class required to have a rule (the rules describe the structs).
public enum CodableEncoding: Sendable, Equatable {
    /// `JSONEncoder()`, with `outputFormatting = .sortedKeys` when `sortedKeys`.
    case json(sortedKeys: Bool)
    /// `PropertyListEncoder()` with `outputFormat` `.binary` or `.xml`.
    case propertyList(PlistFormat)

    /// What the encoding is called in reports (`Codable JSON`, `Codable binary plist`).
    public var name: String {
        switch self {
        case .json: return "Codable JSON"
        case .propertyList(let format): return "Codable \(format.rawValue) plist"
        }
    }

    /// The encoded root object of an archive's graph. `options` gives the date
    /// strategy (JSON only: property lists hold dates) and the cycle policy.
    /// Throws when the root cannot be expressed as Codable data: a cycle, a
    /// class the rules do not map, a value the format cannot hold.
    ///
    /// - Parameters:
    ///   - graph: The archive's object graph.
    ///   - rules: The renames, removals and Codable rules to apply.
    ///   - options: The date strategy and the cycle policy.
    /// - Returns: The encoded bytes.
    /// - Throws: `PlistError` when the root cannot be expressed as Codable data.
    public func encode(archive graph: ObjectGraph, rules: MigrationRules, options: CodableOptions = CodableOptions()) throws -> [UInt8] {
        var options = options
        options.requireClassRules = true
        switch self {
        case .json(let sortedKeys):
            options.nativeLeaves = false
            let exported = try CodableExport.value(graph, rules: rules, options: options)
            let ordered = sortedKeys ? Self.sortingKeys(exported) : exported
            return try PropertyList.write(ordered, as: .json, options: WriteOptions(jsonEncoderStyle: true))
        case .propertyList(let format):
            options.nativeLeaves = true
            let exported = try CodableExport.value(graph, rules: rules, options: options)
            return try PropertyList.write(Self.nullsAsPlaceholders(exported), as: format)
        }
    }

    /// Dictionaries with keys in the order `.sortedKeys` writes them. The tree
    /// is as deep as `CodableExport` allows (512 levels).
    private static func sortingKeys(_ value: PlistValue) -> PlistValue {
        switch value {
        case .dictionary(let d):
            var out = PlistDictionary(minimumCapacity: d.count)
            for (key, item) in d.sorted(by: { $0.0.utf8.lexicographicallyPrecedes($1.0.utf8) }) {
                out.appendUnchecked(key: key, value: sortingKeys(item))
            }
            return .dictionary(out)
        case .array(let items):
            return .array(items.map(sortingKeys))
        case .string, .integer, .real, .bool, .date, .data, .uid, .null:
            return value
        }
    }

    /// `PropertyListEncoder` writes a nil it must encode (an element of an
    /// array of optionals) as the string `$null`.
    private static func nullsAsPlaceholders(_ value: PlistValue) -> PlistValue {
        switch value {
        case .null:
            return .string("$null")
        case .dictionary(let d):
            var out = PlistDictionary(minimumCapacity: d.count)
            for (key, item) in d { out.appendUnchecked(key: key, value: nullsAsPlaceholders(item)) }
            return .dictionary(out)
        case .array(let items):
            return .array(items.map(nullsAsPlaceholders))
        case .string, .integer, .real, .bool, .date, .data, .uid:
            return value
        }
    }
}
