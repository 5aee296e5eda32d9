/// Writes binary property lists (`bplist00`) as CoreFoundation does: objects
/// numbered in pre-order (a dictionary, then its keys, then its values), equal
/// scalars written once, the smallest reference and offset sizes that fit, and
/// the same bytes for the same tree every time.
public enum BinaryPlistWriter {
    /// Writes a tree as a binary property list.
    public static func write(_ value: PlistValue, options: WriteOptions = WriteOptions()) throws -> [UInt8] {
        var flattener = BinaryFlattener()
        _ = try flattener.flatten(value, depth: 0)
        return flattener.serialize()
    }
}

/// One object to write, in index order.
private enum FlatObject {
    case scalar(PlistValue)
    case array([Int])
    case dictionary(keys: [Int], values: [Int])
}

private struct BinaryFlattener {
    var objects: [FlatObject] = []
    var unique: [ScalarKey: Int] = [:]
    static let maxDepth = 512

    mutating func flatten(_ value: PlistValue, depth: Int) throws -> Int {
        guard depth <= Self.maxDepth else {
            throw PlistError(.limitExceeded, "nesting deeper than \(Self.maxDepth) levels cannot be written")
        }
        let key: ScalarKey
        switch value {
        case .array(let items):
            let index = objects.count
            objects.append(.array([]))
            var refs: [Int] = []
            refs.reserveCapacity(items.count)
            for item in items { refs.append(try flatten(item, depth: depth + 1)) }
            objects[index] = .array(refs)
            return index
        case .dictionary(let dict):
            let index = objects.count
            objects.append(.array([]))
            var keys: [Int] = []
            keys.reserveCapacity(dict.count)
            for k in dict.keys { keys.append(try flatten(.string(k), depth: depth + 1)) }
            var values: [Int] = []
            values.reserveCapacity(dict.count)
            for v in dict.values { values.append(try flatten(v, depth: depth + 1)) }
            objects[index] = .dictionary(keys: keys, values: values)
            return index
        case .string(let s): key = .string(s)
        case .integer(let i): key = .integer(i.bitPattern, i.isUnsignedBeyondInt64)
        case .real(let r):
            key = r.width == .bits32 ? .real32(Float(r.value).bitPattern) : .real64(r.value.bitPattern)
        case .date(let d): key = .date(d.secondsSinceReferenceDate.bitPattern)
        case .data(let d): key = .data(d)
        case .uid(let u): key = .uid(u)
        case .bool(let b): key = .bool(b)
        case .null: key = .null
        }
        if let existing = unique[key] { return existing }
        let index = objects.count
        objects.append(.scalar(value))
        unique[key] = index
        return index
    }

    func serialize() -> [UInt8] {
        let n = objects.count
        let refSize = BinaryFlattener.bytesNeeded(UInt64(n))
        var out: [UInt8] = []
        out.reserveCapacity(64 + n * 16)
        out.append(contentsOf: "bplist00".utf8)
        var offsets = [Int](repeating: 0, count: n)
        for (i, object) in objects.enumerated() {
            offsets[i] = out.count
            switch object {
            case .scalar(let v): BinaryFlattener.writeScalar(v, into: &out)
            case .array(let refs):
                BinaryFlattener.writeHeader(0xA0, count: refs.count, into: &out)
                for r in refs { BinaryFlattener.appendBE(UInt64(r), size: refSize, into: &out) }
            case .dictionary(let keys, let values):
                BinaryFlattener.writeHeader(0xD0, count: keys.count, into: &out)
                for r in keys { BinaryFlattener.appendBE(UInt64(r), size: refSize, into: &out) }
                for r in values { BinaryFlattener.appendBE(UInt64(r), size: refSize, into: &out) }
            }
        }
        let tableOffset = out.count
        let offsetSize = BinaryFlattener.bytesNeeded(UInt64(tableOffset))
        for o in offsets { BinaryFlattener.appendBE(UInt64(o), size: offsetSize, into: &out) }
        out.append(contentsOf: [0, 0, 0, 0, 0, 0, UInt8(offsetSize), UInt8(refSize)])
        BinaryFlattener.appendBE(UInt64(n), size: 8, into: &out)
        BinaryFlattener.appendBE(0, size: 8, into: &out)
        BinaryFlattener.appendBE(UInt64(tableOffset), size: 8, into: &out)
        return out
    }

    static func bytesNeeded(_ v: UInt64) -> Int {
        v <= 0xFF ? 1 : v <= 0xFFFF ? 2 : v <= 0xFFFF_FFFF ? 4 : 8
    }

    @inline(__always)
    static func appendBE(_ v: UInt64, size: Int, into out: inout [UInt8]) {
        var shift = (size - 1) * 8
        while shift >= 0 {
            out.append(UInt8(truncatingIfNeeded: v >> UInt64(shift)))
            shift -= 8
        }
    }

    static func writeHeader(_ marker: UInt8, count: Int, into out: inout [UInt8]) {
        if count < 15 {
            out.append(marker | UInt8(count))
        } else {
            out.append(marker | 0x0F)
            writeUnsigned(UInt64(count), into: &out)
        }
    }

    static func writeUnsigned(_ v: UInt64, into out: inout [UInt8]) {
        switch v {
        case 0...0xFF: out.append(0x10); appendBE(v, size: 1, into: &out)
        case 0x100...0xFFFF: out.append(0x11); appendBE(v, size: 2, into: &out)
        case 0x1_0000...0xFFFF_FFFF: out.append(0x12); appendBE(v, size: 4, into: &out)
        default: out.append(0x13); appendBE(v, size: 8, into: &out)
        }
    }

    static func writeScalar(_ value: PlistValue, into out: inout [UInt8]) {
        switch value {
        case .null: out.append(0x00)
        case .bool(let b): out.append(b ? 0x09 : 0x08)
        case .integer(let i):
            if i.isUnsignedBeyondInt64 {
                out.append(0x14)
                appendBE(0, size: 8, into: &out)
                appendBE(i.bitPattern, size: 8, into: &out)
            } else if i.isNegative || i.bitPattern > UInt64(Int64.max) {
                out.append(0x13)
                appendBE(i.bitPattern, size: 8, into: &out)
            } else {
                writeUnsigned(i.bitPattern, into: &out)
            }
        case .real(let r):
            switch r.width {
            case .bits32:
                out.append(0x22)
                appendBE(UInt64(Float(r.value).bitPattern), size: 4, into: &out)
            case .bits64:
                out.append(0x23)
                appendBE(r.value.bitPattern, size: 8, into: &out)
            }
        case .date(let d):
            out.append(0x33)
            appendBE(d.secondsSinceReferenceDate.bitPattern, size: 8, into: &out)
        case .data(let d):
            writeHeader(0x40, count: d.count, into: &out)
            out.append(contentsOf: d)
        case .string(let s):
            var ascii = true
            for b in s.utf8 where b >= 0x80 { ascii = false; break }
            if ascii {
                writeHeader(0x50, count: s.utf8.count, into: &out)
                out.append(contentsOf: s.utf8)
            } else {
                writeHeader(0x60, count: s.utf16.count, into: &out)
                for u in s.utf16 {
                    out.append(UInt8(u >> 8))
                    out.append(UInt8(u & 0xFF))
                }
            }
        case .uid(let u):
            let size = bytesNeeded(u)
            out.append(0x80 | UInt8(size - 1))
            appendBE(u, size: size, into: &out)
        case .array, .dictionary:
            break // containers are written by serialize()
        }
    }
}
