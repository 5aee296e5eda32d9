import ArchivistCore
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Writes an `Encodable` value as an NSKeyedArchiver archive that Foundation's
/// `NSKeyedUnarchiver` reads: each keyed container of a type becomes an
/// object of that type's class name (`classNames`, else the type's full Swift
/// name), unkeyed containers NSArray, `[String: V]` and nested keyed
/// containers NSDictionary, strings and data `$objects` entries, dates NSDate,
/// UUIDs NSUUID, URLs NSURL. Numbers and booleans of objects are boxed
/// NSNumbers (read by `decodeObject(of: NSNumber.self, forKey:)` under secure
/// coding) or, with `.inline`, written in the object's dictionary (read by
/// `decodeInteger`, `decodeDouble`, `decodeBool`). Nil optionals are left out.
public struct KeyedArchiveEncoder: Sendable {
    /// How numbers and booleans of objects are written.
    public enum PrimitiveStyle: Sendable {
        /// As referenced NSNumber objects (secure-coding friendly).
        case boxed
        /// Inline in the object's dictionary, as `encode(_: Int, forKey:)` writes them.
        case inline
    }

    /// Archived class names by Swift type name: the full name
    /// (`MusicBox.Computer`), the name without its module, or the bare name.
    public var classNames: [String: String] = [:]
    /// How numbers and booleans of objects are written.
    public var primitives: PrimitiveStyle = .boxed

    /// An encoder with default settings.
    public init() {}

    /// The archive tree of a value, as ``GraphWriter`` builds it (read it
    /// with ``ObjectGraph``, write it with `PropertyList.write`).
    ///
    /// - Parameter value: The value to archive as the root object.
    /// - Returns: The archive's tree.
    /// - Throws: The value's own encoding errors, and `EncodingError` for what
    ///   an archive cannot hold.
    public func encode<T: Encodable>(_ value: T) throws -> PlistTree {
        let root = EncodedNode()
        try ArchiveEncodingCore.encode(value, into: root, codingPath: [])
        var builder = ArchiveGraphBuilder(classNames: classNames, primitives: primitives)
        let top = try builder.node(root)
        return try GraphWriter.archive(ObjectGraph(nodes: builder.nodes, top: [(key: "root", object: top)]))
    }

    /// The archive of a value as bytes in a format (binary by default, as Foundation writes).
    ///
    /// - Parameters:
    ///   - value: The value to archive as the root object.
    ///   - format: The property-list format to write.
    /// - Returns: The archive's bytes.
    /// - Throws: The value's own encoding errors, `EncodingError` for what an
    ///   archive cannot hold, `PlistError` for what `format` cannot hold.
    public func encode<T: Encodable>(_ value: T, as format: PlistFormat = .binary) throws -> [UInt8] {
        try PropertyList.write(try encode(value), as: format)
    }
}

/// What an encoded value became, before it is laid out as archive objects.
final class EncodedNode {
    enum Content {
        case empty
        case scalar(PlistValue)
        case null
        case date(Double)
        case uuid([UInt8])
        case url(String)
        case keyed(typeName: String?, fields: [(String, EncodedNode)])
        case unkeyed([EncodedNode])
    }

    var content: Content = .empty

    func field(_ key: String) -> EncodedNode {
        let child = EncodedNode()
        if case .keyed(let name, var fields) = content {
            fields.removeAll { PlistKeys.same($0.0, key) }
            fields.append((key, child))
            content = .keyed(typeName: name, fields: fields)
        }
        return child
    }

    func item() -> EncodedNode {
        let child = EncodedNode()
        if case .unkeyed(var items) = content {
            items.append(child)
            content = .unkeyed(items)
        }
        return child
    }
}

/// Dictionaries with string keys, which encode as NSDictionary.
protocol ArchiveStringKeyedDictionary {
    func encodeEntries(into node: EncodedNode, codingPath: [any CodingKey]) throws
}

extension Dictionary: ArchiveStringKeyedDictionary where Key == String, Value: Encodable {
    func encodeEntries(into node: EncodedNode, codingPath: [any CodingKey]) throws {
        node.content = .keyed(typeName: nil, fields: [])
        for (key, value) in self.sorted(by: { $0.key < $1.key }) {
            try ArchiveEncodingCore.encode(value, into: node.field(key), codingPath: codingPath + [TreeIndexKey(stringValue: key)])
        }
    }
}

/// The `Encoder` writing into one node.
struct ArchiveEncodingCore: Encoder {
    let node: EncodedNode
    let typeName: String?
    let codingPath: [any CodingKey]
    var userInfo: [CodingUserInfoKey: Any] { [:] }

    /// Encodes a value into a node, with the types Foundation archives specially.
    static func encode<T: Encodable>(_ value: T, into node: EncodedNode, codingPath: [any CodingKey]) throws {
        switch value {
        case let date as Date: node.content = .date(date.timeIntervalSinceReferenceDate)
        case let data as Data: node.content = .scalar(.data([UInt8](data)))
        case let url as URL: node.content = .url(url.absoluteString)
        case let uuid as UUID: node.content = .uuid(withUnsafeBytes(of: uuid.uuid) { Array($0) })
        case let dict as any ArchiveStringKeyedDictionary: try dict.encodeEntries(into: node, codingPath: codingPath)
        default:
            try value.encode(to: ArchiveEncodingCore(node: node, typeName: String(reflecting: T.self), codingPath: codingPath))
            if case .empty = node.content { node.content = .keyed(typeName: String(reflecting: T.self), fields: []) }
        }
    }

    func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
        if case .keyed = node.content {} else { node.content = .keyed(typeName: typeName, fields: []) }
        return KeyedEncodingContainer(ArchiveKeyedContainer<Key>(node: node, codingPath: codingPath))
    }

    func unkeyedContainer() -> any UnkeyedEncodingContainer {
        if case .unkeyed = node.content {} else { node.content = .unkeyed([]) }
        return ArchiveUnkeyedContainer(node: node, codingPath: codingPath)
    }

    func singleValueContainer() -> any SingleValueEncodingContainer {
        ArchiveSingleValueContainer(node: node, codingPath: codingPath)
    }
}

struct ArchiveKeyedContainer<Key: CodingKey>: KeyedEncodingContainerProtocol {
    let node: EncodedNode
    let codingPath: [any CodingKey]

    mutating func encodeNil(forKey key: Key) throws { node.field(key.stringValue).content = .null }
    mutating func encode(_ value: Bool, forKey key: Key) throws { node.field(key.stringValue).content = .scalar(.bool(value)) }
    mutating func encode(_ value: String, forKey key: Key) throws { node.field(key.stringValue).content = .scalar(.string(value)) }
    mutating func encode(_ value: Double, forKey key: Key) throws { node.field(key.stringValue).content = .scalar(.double(value)) }
    mutating func encode(_ value: Float, forKey key: Key) throws { node.field(key.stringValue).content = .scalar(.real(PlistReal(float: value))) }
    mutating func encode(_ value: Int, forKey key: Key) throws { node.field(key.stringValue).content = .scalar(.int(Int64(value))) }
    mutating func encode(_ value: Int8, forKey key: Key) throws { node.field(key.stringValue).content = .scalar(.int(Int64(value))) }
    mutating func encode(_ value: Int16, forKey key: Key) throws { node.field(key.stringValue).content = .scalar(.int(Int64(value))) }
    mutating func encode(_ value: Int32, forKey key: Key) throws { node.field(key.stringValue).content = .scalar(.int(Int64(value))) }
    mutating func encode(_ value: Int64, forKey key: Key) throws { node.field(key.stringValue).content = .scalar(.int(value)) }
    mutating func encode(_ value: UInt, forKey key: Key) throws { node.field(key.stringValue).content = .scalar(.integer(PlistInteger(UInt64(value)))) }
    mutating func encode(_ value: UInt8, forKey key: Key) throws { node.field(key.stringValue).content = .scalar(.int(Int64(value))) }
    mutating func encode(_ value: UInt16, forKey key: Key) throws { node.field(key.stringValue).content = .scalar(.int(Int64(value))) }
    mutating func encode(_ value: UInt32, forKey key: Key) throws { node.field(key.stringValue).content = .scalar(.int(Int64(value))) }
    mutating func encode(_ value: UInt64, forKey key: Key) throws { node.field(key.stringValue).content = .scalar(.integer(PlistInteger(value))) }
    mutating func encode<T: Encodable>(_ value: T, forKey key: Key) throws {
        try ArchiveEncodingCore.encode(value, into: node.field(key.stringValue), codingPath: codingPath + [key])
    }

    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type, forKey key: Key) -> KeyedEncodingContainer<NestedKey> {
        ArchiveEncodingCore(node: node.field(key.stringValue), typeName: nil, codingPath: codingPath + [key]).container(keyedBy: keyType)
    }

    mutating func nestedUnkeyedContainer(forKey key: Key) -> any UnkeyedEncodingContainer {
        ArchiveEncodingCore(node: node.field(key.stringValue), typeName: nil, codingPath: codingPath + [key]).unkeyedContainer()
    }

    mutating func superEncoder() -> any Encoder {
        ArchiveEncodingCore(node: node.field("super"), typeName: nil, codingPath: codingPath + [TreeIndexKey(stringValue: "super")])
    }

    mutating func superEncoder(forKey key: Key) -> any Encoder {
        ArchiveEncodingCore(node: node.field(key.stringValue), typeName: nil, codingPath: codingPath + [key])
    }
}

struct ArchiveUnkeyedContainer: UnkeyedEncodingContainer {
    let node: EncodedNode
    let codingPath: [any CodingKey]
    var count: Int {
        if case .unkeyed(let items) = node.content { return items.count }
        return 0
    }

    private func next() -> EncodedNode { node.item() }

    mutating func encodeNil() throws { next().content = .null }
    mutating func encode(_ value: Bool) throws { next().content = .scalar(.bool(value)) }
    mutating func encode(_ value: String) throws { next().content = .scalar(.string(value)) }
    mutating func encode(_ value: Double) throws { next().content = .scalar(.double(value)) }
    mutating func encode(_ value: Float) throws { next().content = .scalar(.real(PlistReal(float: value))) }
    mutating func encode(_ value: Int) throws { next().content = .scalar(.int(Int64(value))) }
    mutating func encode(_ value: Int64) throws { next().content = .scalar(.int(value)) }
    mutating func encode(_ value: UInt64) throws { next().content = .scalar(.integer(PlistInteger(value))) }
    mutating func encode<T: Encodable>(_ value: T) throws {
        try ArchiveEncodingCore.encode(value, into: next(), codingPath: codingPath + [TreeIndexKey(intValue: count)])
    }

    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type) -> KeyedEncodingContainer<NestedKey> {
        ArchiveEncodingCore(node: next(), typeName: nil, codingPath: codingPath).container(keyedBy: keyType)
    }

    mutating func nestedUnkeyedContainer() -> any UnkeyedEncodingContainer {
        ArchiveEncodingCore(node: next(), typeName: nil, codingPath: codingPath).unkeyedContainer()
    }

    mutating func superEncoder() -> any Encoder {
        ArchiveEncodingCore(node: next(), typeName: nil, codingPath: codingPath)
    }
}

struct ArchiveSingleValueContainer: SingleValueEncodingContainer {
    let node: EncodedNode
    let codingPath: [any CodingKey]

    mutating func encodeNil() throws { node.content = .null }
    mutating func encode(_ value: Bool) throws { node.content = .scalar(.bool(value)) }
    mutating func encode(_ value: String) throws { node.content = .scalar(.string(value)) }
    mutating func encode(_ value: Double) throws { node.content = .scalar(.double(value)) }
    mutating func encode(_ value: Float) throws { node.content = .scalar(.real(PlistReal(float: value))) }
    mutating func encode(_ value: Int) throws { node.content = .scalar(.int(Int64(value))) }
    mutating func encode(_ value: Int64) throws { node.content = .scalar(.int(value)) }
    mutating func encode(_ value: UInt64) throws { node.content = .scalar(.integer(PlistInteger(value))) }
    mutating func encode<T: Encodable>(_ value: T) throws {
        try ArchiveEncodingCore.encode(value, into: node, codingPath: codingPath)
    }
}

/// Lays encoded nodes out as archive objects.
struct ArchiveGraphBuilder {
    let classNames: [String: String]
    let primitives: KeyedArchiveEncoder.PrimitiveStyle
    var nodes: [ArchivedNode] = [.null]
    private var strings: [String: Int] = [:]

    init(classNames: [String: String], primitives: KeyedArchiveEncoder.PrimitiveStyle) {
        self.classNames = classNames
        self.primitives = primitives
    }

    private mutating func append(_ node: ArchivedNode) -> Int {
        nodes.append(node)
        return nodes.count - 1
    }

    private mutating func object(_ name: String, _ fields: [Field]) -> Int {
        append(.object(ArchivedObject(className: ClassName(archived: name), classChain: [name, ClassDescription.nsObject.name], fields: fields)))
    }

    /// An object of the class that stands for a value, its fields as the catalogue lists them.
    private mutating func object(standingFor kind: ArchivedValueKind, _ values: [FieldValue]) -> Int {
        append(.object(ClassCatalogue.standing(for: kind).written(values)))
    }

    /// The archived name of a Swift type: `classNames` by the full name, the
    /// name without its module, or the bare type name; else the full name
    /// without the `(unknown context ...)` parts private types have.
    private func className(for typeName: String) -> String {
        let parts = typeName.split(separator: ".").filter { !$0.hasPrefix("(") }.map(String.init)
        let cleaned = parts.joined(separator: ".")
        for candidate in [typeName, cleaned, parts.dropFirst().joined(separator: "."), parts.last ?? typeName] {
            if let mapped = classNames[candidate] { return mapped }
        }
        return cleaned
    }

    /// The index of a node's archive object (or `$objects` entry).
    mutating func node(_ n: EncodedNode) throws -> Int {
        switch n.content {
        case .empty, .null:
            return 0
        case .scalar(.string(let s)):
            if let existing = strings[s] { return existing }
            let i = append(.value(.string(s)))
            strings[s] = i
            return i
        case .scalar(let v):
            return append(.value(v))
        case .date(let t):
            return object(standingFor: .date, [.inline(.double(t))])
        case .uuid(let bytes):
            return object(standingFor: .uuid, [.inline(.data(bytes))])
        case .url(let text):
            let relative = try node({ let s = EncodedNode(); s.content = .scalar(.string(text)); return s }())
            return object(standingFor: .url, [.reference(0), .reference(relative)])
        case .unkeyed(let items):
            var refs: [Int] = []
            for item in items { refs.append(try node(item)) }
            return object(standingFor: .array, [.references(refs)])
        case .keyed(nil, let fields):
            var keys: [Int] = [], values: [Int] = []
            for (key, value) in fields {
                keys.append(try node({ let s = EncodedNode(); s.content = .scalar(.string(key)); return s }()))
                values.append(try node(value))
            }
            return object(standingFor: .dictionary, [.references(keys), .references(values)])
        case .keyed(let typeName?, let fields):
            var out: [Field] = []
            for (key, value) in fields {
                if case .scalar(let v) = value.content, primitives == .inline, SecureCodingCheck.isPrimitive(v) {
                    out.append(Field(key: key, value: .inline(v)))
                } else {
                    out.append(Field(key: key, value: .reference(try node(value))))
                }
            }
            return object(className(for: typeName), out)
        }
    }
}
