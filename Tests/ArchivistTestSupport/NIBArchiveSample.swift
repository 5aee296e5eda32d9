/// Generated iOS compiled nibs (NIBArchive), laid out as the format's
/// documentation lays them out (a 50-byte header, then the object, key,
/// value and class tables with the format's varints), for the reader's
/// tests, the fuzz seeds and the guide's example.
public enum NIBArchiveSample {
    /// A value of an object, by its type byte.
    public enum Value: Sendable {
        case int8(Int8), int16(Int16), int32(Int32), int64(Int64)
        case bool(Bool), float(Float), double(Double), data([UInt8]), null
        /// A reference to an object by its index in the object table.
        case object(UInt32)
    }

    /// An object: its class (an index in `classes`) and its keyed values in order.
    public struct Object: Sendable {
        public var classIndex: Int
        public var values: [(key: String, value: Value)]
        public init(_ classIndex: Int, _ values: [(key: String, value: Value)]) {
            self.classIndex = classIndex
            self.values = values
        }
    }

    /// A nib of `objects` whose classes are `classes` (a name and its
    /// fallback classes' indices); format version 1, coder version 10.
    public static func make(_ objects: [Object], classes: [(name: String, fallbacks: [Int32])], coderVersion: Int32 = 10) -> [UInt8] {
        var keys: [String] = []
        func keyIndex(_ k: String) -> Int {
            if let i = keys.firstIndex(of: k) { return i }
            keys.append(k)
            return keys.count - 1
        }
        var objectTable: [UInt8] = [], valueTable: [UInt8] = [], valueCount = 0
        for o in objects {
            objectTable += varint(o.classIndex) + varint(valueCount) + varint(o.values.count)
            for (k, v) in o.values {
                valueTable += varint(keyIndex(k)) + encode(v)
                valueCount += 1
            }
        }
        var keyTable: [UInt8] = []
        for k in keys { keyTable += varint(k.utf8.count) + Array(k.utf8) }
        var classTable: [UInt8] = []
        for c in classes {
            classTable += varint(c.name.utf8.count + 1) + varint(c.fallbacks.count)
            for f in c.fallbacks { classTable += le(UInt32(bitPattern: f)) }
            classTable += Array(c.name.utf8) + [0]
        }
        let objectsAt = 50, keysAt = objectsAt + objectTable.count, valuesAt = keysAt + keyTable.count, classesAt = valuesAt + valueTable.count
        var out = Array("NIBArchive".utf8)
        for field in [1, Int(coderVersion), objects.count, objectsAt, keys.count, keysAt, valueCount, valuesAt, classes.count, classesAt] {
            out += le(UInt32(truncatingIfNeeded: field))
        }
        return out + objectTable + keyTable + valueTable + classTable
    }

    /// The format's varint: 7-bit groups, least significant first, the last
    /// one marked by its high bit.
    public static func varint(_ value: Int) -> [UInt8] {
        var v = UInt64(value), out: [UInt8] = []
        while v >= 0x80 {
            out.append(UInt8(v & 0x7F))
            v >>= 7
        }
        out.append(UInt8(v) | 0x80)
        return out
    }

    public static func le(_ v: UInt32) -> [UInt8] { (0..<4).map { UInt8(truncatingIfNeeded: v >> (8 * $0)) } }
    static func le64(_ v: UInt64) -> [UInt8] { (0..<8).map { UInt8(truncatingIfNeeded: v >> (8 * $0)) } }

    static func encode(_ v: Value) -> [UInt8] {
        switch v {
        case .int8(let n): return [0, UInt8(bitPattern: n)]
        case .int16(let n): return [1] + le(UInt32(UInt16(bitPattern: n)))[0..<2]
        case .int32(let n): return [2] + le(UInt32(bitPattern: n))
        case .int64(let n): return [3] + le64(UInt64(bitPattern: n))
        case .bool(let b): return [b ? 5 : 4]
        case .float(let f): return [6] + le(f.bitPattern)
        case .double(let d): return [7] + le64(d.bitPattern)
        case .data(let b): return [8] + varint(b.count) + b
        case .null: return [9]
        case .object(let r): return [10] + le(r)
        }
    }

    /// A small iOS view nib: the root object (as ibtool writes it) holding
    /// an array of top-level objects, a view with a background color and a
    /// label with its text, a dictionary, and a value of every type.
    public static let example: [UInt8] = {
        let string = 3, array = 1, dictionary = 2
        func text(_ s: String) -> Object { Object(string, [("NS.bytes", .data(Array(s.utf8)))]) }
        let objects: [Object] = [
            Object(0, [("UINibTopLevelObjectsKey", .object(1)), ("UINibObjectsKey", .object(1)), ("UINibConnectionsKey", .object(7))]),
            Object(array, [("NSInlinedValue", .bool(true)), ("UINibEncoderEmptyKey", .object(2)), ("UINibEncoderEmptyKey", .object(4))]),
            Object(4, [("UIBounds", .data([7] + [0.0, 0.0, 320.0, 480.0].flatMap { le64($0.bitPattern) })), ("UISubviews", .object(8)),
                       ("UIBackgroundColor", .object(3)), ("UIOpaque", .bool(true)), ("UITag", .int16(-300))]),
            Object(5, [("UIColorComponentCount", .int8(4)), ("UIRed", .float(1)), ("UIGreen", .float(0.5)), ("UIBlue", .float(0)), ("UIAlpha", .float(1))]),
            Object(6, [("UIText", .object(5)), ("UIFontPointSize", .double(17)), ("UIUserInteractionDisabled", .bool(true)),
                       ("UINumberOfLines", .int32(2)), ("UIIdentifier", .int64(1 << 40)), ("UIAttributes", .object(6)), ("UIShadowColor", .null)]),
            text("Hello, nib"),
            Object(dictionary, [("NSInlinedValue", .bool(true)), ("UINibEncoderEmptyKey", .object(9)), ("UINibEncoderEmptyKey", .object(10))]),
            Object(array, [("NSInlinedValue", .bool(true))]),
            Object(array, [("NSInlinedValue", .bool(true)), ("UINibEncoderEmptyKey", .object(4))]),
            text("NSFontSizeAttribute"),
            Object(7, [("NS.intval", .int8(17))]),
        ]
        return make(objects, classes: [("NSObject", []), ("NSArray", []), ("NSMutableDictionary", []), ("NSString", []),
                                       ("UIView", []), ("UIColor", []), ("UILabel", [4]), ("NSNumber", [])])
    }()
}
