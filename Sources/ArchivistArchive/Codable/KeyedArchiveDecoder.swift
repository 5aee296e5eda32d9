import ArchivistCore
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Decodes keyed archives straight into `Decodable` Swift types, with no
/// NSObject classes: `try KeyedArchiveDecoder(rules: rules).decode(Computer.self, from: bytes)`.
///
/// The archive is read as `CodableExport` reads it for `convert --to
/// codable-json` (the same rules rename and remove keys, unwrap wrappers and
/// tag mixed arrays), so a type that decodes that JSON with `JSONDecoder`
/// decodes the archive here. Dates and data keep their own types; `Date` also
/// decodes from seconds since 2001, `Data` from base64, `URL` from its string.
/// Errors are `DecodingError`s with the coding path.
public struct KeyedArchiveDecoder: Sendable {
    /// The rules (renames, removals, unwrap, typeKey).
    public var rules: MigrationRules
    /// What a reference back into its own container becomes.
    public var cycles: CodableOptions.CyclePolicy

    /// A decoder with rules.
    ///
    /// - Parameters:
    ///   - rules: The renames, removals and Codable rules to apply.
    ///   - cycles: What a reference back into its own container becomes.
    public init(rules: MigrationRules = MigrationRules(), cycles: CodableOptions.CyclePolicy = .error) {
        self.rules = rules
        self.cycles = cycles
    }

    /// Decodes an archive's bytes (binary, XML or any supported format).
    ///
    /// - Parameters:
    ///   - type: The type to decode the root object as.
    ///   - bytes: The archive's bytes.
    /// - Returns: The decoded value.
    /// - Throws: `PlistError` when the bytes are no readable archive; a
    ///   `DecodingError` with the coding path when the value does not fit `type`.
    public func decode<T: Decodable>(_ type: T.Type, from bytes: [UInt8]) throws -> T {
        try decode(type, from: try PropertyList.read(bytes).tree)
    }

    /// Decodes an archive's bytes.
    ///
    /// - Parameters:
    ///   - type: The type to decode the root object as.
    ///   - data: The archive's bytes.
    /// - Returns: The decoded value.
    /// - Throws: `PlistError` when the bytes are no readable archive; a
    ///   `DecodingError` with the coding path when the value does not fit `type`.
    public func decode<T: Decodable>(_ type: T.Type, from data: Data) throws -> T {
        try decode(type, from: [UInt8](data))
    }

    /// Decodes an archive (or a plain property list) as a reader built it.
    ///
    /// - Parameters:
    ///   - type: The type to decode the root object as.
    ///   - tree: A document's tree.
    /// - Returns: The decoded value.
    /// - Throws: `PlistError` when the tree is no readable archive; a
    ///   `DecodingError` with the coding path when the value does not fit `type`.
    public func decode<T: Decodable>(_ type: T.Type, from tree: PlistTree) throws -> T {
        let options = CodableOptions(cycles: cycles, nativeLeaves: true)
        guard KeyedArchive.looksLikeArchive(tree) else {
            let exported = try CodableExport.value(tree, rules: rules, options: options)
            return try TreeDecoder(exported, codingPath: [], exports: nil).decodeValue(type)
        }
        // The graph is read as the type asks: each custom object exported
        // one level deep when its container is decoded, never the whole.
        var exporter = CodableExporter(graph: try ObjectGraph(tree), rules: rules, options: options, budget: options.maxValues, nesting: 0)
        exporter.shallowBelow = 0
        let exports = DeferredExports(exporter)
        return try TreeDecoder(try exports.root(), codingPath: [], exports: exports).decodeValue(type)
    }
}

/// A shallow export of an archive (``CodableExporter/shallowBelow``) that
/// decoders share, to export the objects it left for later as they are read.
final class DeferredExports {
    private var exporter: CodableExporter

    init(_ exporter: CodableExporter) {
        self.exporter = exporter
    }

    func root() throws -> PlistValue {
        try exporter.root()
    }

    /// What stands at a value: a deferred object exported one level deep,
    /// or the value itself.
    func resolve(_ value: PlistValue) throws -> PlistValue {
        guard case .uid(let k) = value, let k = Int(exactly: k), exporter.deferred.indices.contains(k) else { return value }
        return try exporter.exportDeferred(k)
    }
}

/// A `Decoder` over a Codable-shaped tree (for an archive, exported as it is read).
struct TreeDecoder: Decoder {
    let value: PlistValue
    let codingPath: [any CodingKey]
    let exports: DeferredExports?
    var userInfo: [CodingUserInfoKey: Any] { [:] }

    init(_ value: PlistValue, codingPath: [any CodingKey], exports: DeferredExports?) throws {
        self.value = try exports?.resolve(value) ?? value
        self.codingPath = codingPath
        self.exports = exports
    }

    func container<Key: CodingKey>(keyedBy type: Key.Type) throws -> KeyedDecodingContainer<Key> {
        guard case .dictionary(let d) = value else { throw mismatch([String: Any].self) }
        return KeyedDecodingContainer(TreeKeyedContainer<Key>(d, codingPath: codingPath, exports: exports))
    }

    func unkeyedContainer() throws -> any UnkeyedDecodingContainer {
        guard case .array(let items) = value else { throw mismatch([Any].self) }
        return TreeUnkeyedContainer(items, codingPath: codingPath, exports: exports)
    }

    func singleValueContainer() throws -> any SingleValueDecodingContainer {
        TreeSingleValue(decoder: self)
    }

    func mismatch(_ type: Any.Type) -> DecodingError {
        DecodingError.typeMismatch(type, .init(codingPath: codingPath, debugDescription: "expected \(type), found \(value.aTypeName)"))
    }

    /// Decodes a value, with the types JSONDecoder also treats specially.
    func decodeValue<T: Decodable>(_ type: T.Type) throws -> T {
        if type == Date.self {
            switch value {
            case .date(let d): return try cast(Date(timeIntervalSinceReferenceDate: d.secondsSinceReferenceDate))
            case .integer(let i): return try cast(Date(timeIntervalSinceReferenceDate: i.doubleValue))
            case .real(let r): return try cast(Date(timeIntervalSinceReferenceDate: r.value))
            default: throw mismatch(Date.self)
            }
        }
        if type == Data.self {
            switch value {
            case .data(let b): return try cast(Data(b))
            case .string(let s):
                guard let b = Base64.decode(Array(s.utf8)) else { throw mismatch(Data.self) }
                return try cast(Data(b))
            default: throw mismatch(Data.self)
            }
        }
        if type == URL.self {
            guard case .string(let s) = value, let url = URL(string: s) else { throw mismatch(URL.self) }
            return try cast(url)
        }
        return try T(from: self)
    }

    private func cast<T, U>(_ value: U) throws -> T {
        guard let t = value as? T else { throw mismatch(T.self) }
        return t
    }

    // Scalars, shared by the containers.

    func decodeNil() -> Bool {
        if case .null = value { return true }
        return false
    }

    func decode(_ type: Bool.Type) throws -> Bool {
        guard case .bool(let b) = value else { throw mismatch(type) }
        return b
    }

    func decode(_ type: String.Type) throws -> String {
        guard case .string(let s) = value else { throw mismatch(type) }
        return s
    }

    func decodeFloatingPoint<T: BinaryFloatingPoint>(_ type: T.Type) throws -> T {
        switch value {
        case .real(let r): return T(r.value)
        case .integer(let i): return T(i.doubleValue)
        default: throw mismatch(type)
        }
    }

    func decodeInteger<T: FixedWidthInteger>(_ type: T.Type) throws -> T {
        switch value {
        case .integer(let i):
            if let v = i.int64Value, let t = T(exactly: v) { return t }
            if let v = i.uint64Value, let t = T(exactly: v) { return t }
        case .real(let r):
            if let t = T(exactly: r.value) { return t }
        default:
            throw mismatch(type)
        }
        throw DecodingError.dataCorrupted(.init(codingPath: codingPath, debugDescription: "\(value) does not fit in \(type)"))
    }
}

/// The keyed container: a dictionary.
struct TreeKeyedContainer<Key: CodingKey>: KeyedDecodingContainerProtocol {
    let dictionary: PlistDictionary
    let codingPath: [any CodingKey]
    let exports: DeferredExports?

    init(_ dictionary: PlistDictionary, codingPath: [any CodingKey], exports: DeferredExports?) {
        self.dictionary = dictionary
        self.codingPath = codingPath
        self.exports = exports
    }

    var allKeys: [Key] { dictionary.compactMap { Key(stringValue: $0.0) } }

    func contains(_ key: Key) -> Bool { dictionary[key.stringValue] != nil }

    private func child(_ key: Key) throws -> TreeDecoder {
        guard let v = dictionary[key.stringValue] else {
            throw DecodingError.keyNotFound(key, .init(codingPath: codingPath, debugDescription: "no value for \"\(key.stringValue)\" (keys: \(dictionary.map(\.0).joined(separator: ", ")))"))
        }
        return try TreeDecoder(v, codingPath: codingPath + [key], exports: exports)
    }

    func decodeNil(forKey key: Key) throws -> Bool {
        guard let v = dictionary[key.stringValue] else { return true }
        if case .null = v { return true }
        return false
    }

    func decode(_ type: Bool.Type, forKey key: Key) throws -> Bool { try child(key).decode(type) }
    func decode(_ type: String.Type, forKey key: Key) throws -> String { try child(key).decode(type) }
    func decode(_ type: Double.Type, forKey key: Key) throws -> Double { try child(key).decodeFloatingPoint(type) }
    func decode(_ type: Float.Type, forKey key: Key) throws -> Float { try child(key).decodeFloatingPoint(type) }
    func decode(_ type: Int.Type, forKey key: Key) throws -> Int { try child(key).decodeInteger(type) }
    func decode(_ type: Int8.Type, forKey key: Key) throws -> Int8 { try child(key).decodeInteger(type) }
    func decode(_ type: Int16.Type, forKey key: Key) throws -> Int16 { try child(key).decodeInteger(type) }
    func decode(_ type: Int32.Type, forKey key: Key) throws -> Int32 { try child(key).decodeInteger(type) }
    func decode(_ type: Int64.Type, forKey key: Key) throws -> Int64 { try child(key).decodeInteger(type) }
    func decode(_ type: UInt.Type, forKey key: Key) throws -> UInt { try child(key).decodeInteger(type) }
    func decode(_ type: UInt8.Type, forKey key: Key) throws -> UInt8 { try child(key).decodeInteger(type) }
    func decode(_ type: UInt16.Type, forKey key: Key) throws -> UInt16 { try child(key).decodeInteger(type) }
    func decode(_ type: UInt32.Type, forKey key: Key) throws -> UInt32 { try child(key).decodeInteger(type) }
    func decode(_ type: UInt64.Type, forKey key: Key) throws -> UInt64 { try child(key).decodeInteger(type) }
    func decode<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T { try child(key).decodeValue(type) }

    func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type, forKey key: Key) throws -> KeyedDecodingContainer<NestedKey> {
        try child(key).container(keyedBy: type)
    }

    func nestedUnkeyedContainer(forKey key: Key) throws -> any UnkeyedDecodingContainer {
        try child(key).unkeyedContainer()
    }

    func superDecoder() throws -> any Decoder {
        try TreeDecoder(dictionary["super"] ?? .null, codingPath: codingPath + [TreeIndexKey(stringValue: "super")], exports: exports)
    }

    func superDecoder(forKey key: Key) throws -> any Decoder {
        try TreeDecoder(dictionary[key.stringValue] ?? .null, codingPath: codingPath + [key], exports: exports)
    }
}

/// The unkeyed container: an array.
struct TreeUnkeyedContainer: UnkeyedDecodingContainer {
    let items: [PlistValue]
    let codingPath: [any CodingKey]
    let exports: DeferredExports?
    private(set) var currentIndex = 0

    init(_ items: [PlistValue], codingPath: [any CodingKey], exports: DeferredExports?) {
        self.items = items
        self.codingPath = codingPath
        self.exports = exports
    }

    var count: Int? { items.count }
    var isAtEnd: Bool { currentIndex >= items.count }

    private mutating func next(_ type: Any.Type) throws -> TreeDecoder {
        guard !isAtEnd else {
            throw DecodingError.valueNotFound(type, .init(codingPath: codingPath + [TreeIndexKey(intValue: currentIndex)],
                                                          debugDescription: "the array has only \(items.count) elements"))
        }
        defer { currentIndex += 1 }
        return try TreeDecoder(items[currentIndex], codingPath: codingPath + [TreeIndexKey(intValue: currentIndex)], exports: exports)
    }

    mutating func decodeNil() throws -> Bool {
        guard !isAtEnd, case .null = items[currentIndex] else { return false }
        currentIndex += 1
        return true
    }

    mutating func decode(_ type: Bool.Type) throws -> Bool { try next(type).decode(type) }
    mutating func decode(_ type: String.Type) throws -> String { try next(type).decode(type) }
    mutating func decode(_ type: Double.Type) throws -> Double { try next(type).decodeFloatingPoint(type) }
    mutating func decode(_ type: Float.Type) throws -> Float { try next(type).decodeFloatingPoint(type) }
    mutating func decode(_ type: Int.Type) throws -> Int { try next(type).decodeInteger(type) }
    mutating func decode(_ type: Int8.Type) throws -> Int8 { try next(type).decodeInteger(type) }
    mutating func decode(_ type: Int16.Type) throws -> Int16 { try next(type).decodeInteger(type) }
    mutating func decode(_ type: Int32.Type) throws -> Int32 { try next(type).decodeInteger(type) }
    mutating func decode(_ type: Int64.Type) throws -> Int64 { try next(type).decodeInteger(type) }
    mutating func decode(_ type: UInt.Type) throws -> UInt { try next(type).decodeInteger(type) }
    mutating func decode(_ type: UInt8.Type) throws -> UInt8 { try next(type).decodeInteger(type) }
    mutating func decode(_ type: UInt16.Type) throws -> UInt16 { try next(type).decodeInteger(type) }
    mutating func decode(_ type: UInt32.Type) throws -> UInt32 { try next(type).decodeInteger(type) }
    mutating func decode(_ type: UInt64.Type) throws -> UInt64 { try next(type).decodeInteger(type) }
    mutating func decode<T: Decodable>(_ type: T.Type) throws -> T { try next(type).decodeValue(type) }

    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type) throws -> KeyedDecodingContainer<NestedKey> {
        try next(type).container(keyedBy: type)
    }

    mutating func nestedUnkeyedContainer() throws -> any UnkeyedDecodingContainer {
        try next([Any].self).unkeyedContainer()
    }

    mutating func superDecoder() throws -> any Decoder {
        try next(Any.self)
    }
}

/// The single-value container.
struct TreeSingleValue: SingleValueDecodingContainer {
    let decoder: TreeDecoder
    var codingPath: [any CodingKey] { decoder.codingPath }

    func decodeNil() -> Bool { decoder.decodeNil() }
    func decode(_ type: Bool.Type) throws -> Bool { try decoder.decode(type) }
    func decode(_ type: String.Type) throws -> String { try decoder.decode(type) }
    func decode(_ type: Double.Type) throws -> Double { try decoder.decodeFloatingPoint(type) }
    func decode(_ type: Float.Type) throws -> Float { try decoder.decodeFloatingPoint(type) }
    func decode(_ type: Int.Type) throws -> Int { try decoder.decodeInteger(type) }
    func decode(_ type: Int8.Type) throws -> Int8 { try decoder.decodeInteger(type) }
    func decode(_ type: Int16.Type) throws -> Int16 { try decoder.decodeInteger(type) }
    func decode(_ type: Int32.Type) throws -> Int32 { try decoder.decodeInteger(type) }
    func decode(_ type: Int64.Type) throws -> Int64 { try decoder.decodeInteger(type) }
    func decode(_ type: UInt.Type) throws -> UInt { try decoder.decodeInteger(type) }
    func decode(_ type: UInt8.Type) throws -> UInt8 { try decoder.decodeInteger(type) }
    func decode(_ type: UInt16.Type) throws -> UInt16 { try decoder.decodeInteger(type) }
    func decode(_ type: UInt32.Type) throws -> UInt32 { try decoder.decodeInteger(type) }
    func decode(_ type: UInt64.Type) throws -> UInt64 { try decoder.decodeInteger(type) }
    func decode<T: Decodable>(_ type: T.Type) throws -> T { try decoder.decodeValue(type) }
}

/// An array index or the `super` key in a coding path.
struct TreeIndexKey: CodingKey {
    let stringValue: String
    let intValue: Int?

    init(stringValue: String) {
        self.stringValue = stringValue
        self.intValue = nil
    }

    init(intValue: Int) {
        self.stringValue = "Index \(intValue)"
        self.intValue = intValue
    }
}
