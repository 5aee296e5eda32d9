import ArchivistCore

/// Reads the four tables of a NIBArchive (objects, keys, values, class
/// names) at the offsets its header gives, and checks every reference
/// between them: an object's class and value range, a value's key, an
/// object reference, a class's fallback classes.
///
/// Linear in the input: every table entry takes at least one byte, so no
/// count can make a loop run longer than the input is long; the objects'
/// value ranges together hold at most the values the table has (so no
/// value is read for more than one object more than the table allows);
/// nothing is reserved for a count before the bytes of its entries are
/// read.
struct NIBArchiveReader {
    /// `NIBArchive`, then ten little-endian 32-bit fields.
    static let magic = Array("NIBArchive".utf8)
    static let headerSize = 50

    struct Object {
        var classIndex: Int
        var values: Range<Int>
    }

    enum Value {
        case integer(Int64)
        case bool(Bool)
        case float(Float)
        case double(Double)
        case data(Range<Int>)
        case null
        case object(Int)
    }

    struct ClassName {
        var name: String
        /// The classes to use where this one is missing, as indices in the table.
        var fallbacks: [Int]
    }

    let bytes: UnsafeRawBufferPointer
    private(set) var formatVersion = 0
    private(set) var coderVersion = 0
    private(set) var objects: [Object] = []
    private(set) var keys: [String] = []
    private(set) var values: [(key: Int, value: Value)] = []
    private(set) var classes: [ClassName] = []

    init(_ bytes: UnsafeRawBufferPointer) {
        self.bytes = bytes
    }

    mutating func read() throws {
        var header = NIBArchiveCursor(bytes)
        guard bytes.count >= Self.headerSize, try bytes[header.take(Self.magic.count)].elementsEqual(Self.magic) else {
            throw header.error("not a NIBArchive (a 50-byte header starting with NIBArchive)")
        }
        formatVersion = try header.headerField("format version")
        coderVersion = try header.headerField("coder version")
        let objectCount = try header.headerField("object count"), objectsAt = try header.headerField("object table offset")
        let keyCount = try header.headerField("key count"), keysAt = try header.headerField("key table offset")
        let valueCount = try header.headerField("value count"), valuesAt = try header.headerField("value table offset")
        let classCount = try header.headerField("class count"), classesAt = try header.headerField("class table offset")
        try readObjects(objectCount, at: try tableStart(objectsAt, "object"), values: valueCount, classes: classCount)
        try readKeys(keyCount, at: try tableStart(keysAt, "key"))
        try readValues(valueCount, at: try tableStart(valuesAt, "value"))
        try readClasses(classCount, at: try tableStart(classesAt, "class"))
    }

    private func tableStart(_ offset: Int, _ name: String) throws -> NIBArchiveCursor {
        guard offset >= Self.headerSize, offset <= bytes.count else {
            throw PlistError(.corrupt, "NIBArchive: the \(name) table's offset \(offset) is outside the file (\(Self.headerSize)...\(bytes.count))",
                             at: .binary(offset: 0, object: nil))
        }
        return NIBArchiveCursor(bytes, at: offset)
    }

    /// Each object: its class index, first value and value count (varints).
    private mutating func readObjects(_ count: Int, at start: NIBArchiveCursor, values valueCount: Int, classes classCount: Int) throws {
        var c = start
        var total = 0
        objects.reserveCapacity(min(count, c.remaining / 3))
        for i in 0..<count {
            let entry = c.offset
            let classIndex = try c.varint(), first = try c.varint(), n = try c.varint()
            guard classIndex < classCount else {
                throw at(entry, object: i, "object \(i) is of class \(classIndex), of \(classCount)")
            }
            guard first <= valueCount, n <= valueCount - first else {
                throw at(entry, object: i, "object \(i) has values \(first) to \(first) + \(n), of \(valueCount)")
            }
            total += n
            guard total <= valueCount else {
                throw at(entry, object: i, "the objects hold more values (\(total)) than the value table (\(valueCount))")
            }
            objects.append(Object(classIndex: classIndex, values: first..<(first + n)))
        }
    }

    /// Each key: its length (a varint) and UTF-8 name.
    private mutating func readKeys(_ count: Int, at start: NIBArchiveCursor) throws {
        var c = start
        keys.reserveCapacity(min(count, c.remaining))
        for i in 0..<count {
            let entry = c.offset
            let name = try c.take(try c.varint())
            guard let key = String(validating: bytes[name], as: UTF8.self) else { throw at(entry, "key \(i) is not UTF-8") }
            keys.append(key)
        }
    }

    /// Each value: its key index (a varint), a type byte and the value.
    private mutating func readValues(_ count: Int, at start: NIBArchiveCursor) throws {
        var c = start
        values.reserveCapacity(min(count, c.remaining / 2))
        for i in 0..<count {
            let entry = c.offset
            let key = try c.varint()
            guard key < keys.count else { throw at(entry, "value \(i) has key \(key), of \(keys.count)") }
            let type = try c.byte()
            let value: Value
            switch type {
            case 0: value = .integer(Int64(Int8(truncatingIfNeeded: try c.unsigned(1))))
            case 1: value = .integer(Int64(Int16(truncatingIfNeeded: try c.unsigned(2))))
            case 2: value = .integer(Int64(Int32(truncatingIfNeeded: try c.unsigned(4))))
            case 3: value = .integer(Int64(bitPattern: try c.unsigned(8)))
            case 4: value = .bool(false)
            case 5: value = .bool(true)
            case 6: value = .float(Float(bitPattern: UInt32(truncatingIfNeeded: try c.unsigned(4))))
            case 7: value = .double(Double(bitPattern: try c.unsigned(8)))
            case 8: value = .data(try c.take(try c.varint()))
            case 9: value = .null
            case 10:
                let r = try c.unsigned(4)
                guard r < UInt64(objects.count) else { throw at(entry, "value \(i) refers to object \(r), of \(objects.count)") }
                value = .object(Int(r))
            default:
                throw at(entry, "value \(i) is of unknown type \(type)")
            }
            values.append((key, value))
        }
    }

    /// Each class: its name's length (a varint, with the terminating NUL),
    /// the number of fallback classes (a varint), their indices (32-bit),
    /// and the name.
    private mutating func readClasses(_ count: Int, at start: NIBArchiveCursor) throws {
        var c = start
        classes.reserveCapacity(min(count, c.remaining / 2))
        for i in 0..<count {
            let entry = c.offset
            let length = try c.varint()
            let fallbackCount = try c.varint()
            guard fallbackCount <= c.remaining / 4 else { throw at(entry, "class \(i) has \(fallbackCount) fallback classes, more than the file holds") }
            var fallbacks: [Int] = []
            fallbacks.reserveCapacity(fallbackCount)
            for _ in 0..<fallbackCount {
                let f = Int32(truncatingIfNeeded: try c.unsigned(4))
                guard f >= 0, f < count else { throw at(entry, "class \(i) falls back to class \(f), of \(count)") }
                fallbacks.append(Int(f))
            }
            let name = try c.take(length)
            guard let last = name.last, bytes[last] == 0, let text = String(validating: bytes[name.dropLast()], as: UTF8.self), !text.isEmpty else {
                throw at(entry, "class \(i)'s name is not a UTF-8 name ending in NUL")
            }
            classes.append(ClassName(name: text, fallbacks: fallbacks))
        }
    }

    private func at(_ offset: Int, object: Int? = nil, _ message: String) -> PlistError {
        PlistError(.corrupt, "NIBArchive: \(message)", at: .binary(offset: offset, object: object))
    }
}
