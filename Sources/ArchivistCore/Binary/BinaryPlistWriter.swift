/// Writes binary property lists (`bplist00`) as CoreFoundation does: objects
/// numbered in pre-order (a dictionary, then its keys, then its values), equal
/// scalars written once, the smallest reference and offset sizes that fit, and
/// the same bytes for the same tree every time.
public enum BinaryPlistWriter {
    /// Writes a tree as a binary property list.
    public static func write(_ value: PlistValue, options: WriteOptions = WriteOptions()) throws -> [UInt8] {
        var flattener = BinaryFlattener()
        // Size the tables once: growing a hash table rehashes every key again.
        let (scalars, containers, refs) = BinaryFlattener.count(value, depth: 0)
        flattener.unique.reserveCapacity(scalars)
        flattener.objects.reserveCapacity(scalars + containers)
        flattener.refs.reserveCapacity(refs)
        _ = try flattener.flatten(value, depth: 0)
        return flattener.serialize()
    }
}

/// One object to write, in index order: a scalar, or a container whose
/// references are `count` (arrays) or `2 * count` (dictionaries: keys, then
/// values) entries of the flattener's reference pool from `start`.
private enum FlatObject {
    case scalar(PlistValue)
    case array(start: Int, count: Int)
    case dictionary(start: Int, count: Int)
}

private struct BinaryFlattener {
    var objects: [FlatObject] = []
    /// Every container's references, one after another.
    var refs: [Int] = []
    var unique: [ScalarKey: Int] = [:]
    static let maxDepth = 512

    /// The index of an equal scalar written before, or `candidate` (recorded for `key`).
    @inline(__always)
    private static func settle(_ slot: inout Int, _ candidate: Int) -> Int {
        if slot < 0 { slot = candidate }
        return slot
    }

    /// Scalars (an upper bound on the unique ones), containers and references in a tree
    /// (stopping below the writable depth, which `flatten` reports).
    static func count(_ value: PlistValue, depth: Int) -> (Int, Int, Int) {
        guard depth <= maxDepth else { return (0, 0, 0) }
        switch value {
        case .array(let items):
            var total = (0, 1, items.count)
            for item in items {
                let c = count(item, depth: depth + 1)
                total = (total.0 + c.0, total.1 + c.1, total.2 + c.2)
            }
            return total
        case .dictionary(let dict):
            var total = (dict.count, 1, 2 * dict.count)
            for v in dict.values {
                let c = count(v, depth: depth + 1)
                total = (total.0 + c.0, total.1 + c.1, total.2 + c.2)
            }
            return total
        default:
            return (1, 0, 0)
        }
    }

    mutating func flatten(_ value: PlistValue, depth: Int) throws -> Int {
        guard depth <= Self.maxDepth else {
            throw PlistError(.limitExceeded, "nesting deeper than \(Self.maxDepth) levels cannot be written")
        }
        let key: ScalarKey
        switch value {
        case .array(let items):
            let index = objects.count
            let start = refs.count
            objects.append(.array(start: start, count: items.count))
            refs.append(contentsOf: repeatElement(0, count: items.count))
            for (i, item) in items.enumerated() { refs[start + i] = try flatten(item, depth: depth + 1) }
            return index
        case .dictionary(let dict):
            let index = objects.count
            let n = dict.count
            let start = refs.count
            objects.append(.dictionary(start: start, count: n))
            refs.append(contentsOf: repeatElement(0, count: 2 * n))
            for (i, k) in dict.keys.enumerated() { refs[start + i] = try flatten(.string(k), depth: depth + 1) }
            for (i, v) in dict.values.enumerated() { refs[start + n + i] = try flatten(v, depth: depth + 1) }
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
        // One hash probe: a new key takes the next index.
        let candidate = objects.count
        let index = BinaryFlattener.settle(&unique[key, default: -1], candidate)
        if index == candidate { objects.append(.scalar(value)) }
        return index
    }

    func serialize() -> [UInt8] {
        let n = objects.count
        let refSize = BinaryFlattener.bytesNeeded(UInt64(n))
        let out = ByteSink(capacity: 64 + n * 16)
        out.append("bplist00")
        var offsets = [Int](repeating: 0, count: n)
        refs.withUnsafeBufferPointer { refs in
            for (i, object) in objects.enumerated() {
                offsets[i] = out.count
                switch object {
                case .scalar(let v): BinaryFlattener.writeScalar(v, into: out)
                case .array(let start, let count):
                    BinaryFlattener.writeHeader(0xA0, count: count, into: out)
                    BinaryFlattener.appendRefs(refs, start, count, size: refSize, into: out)
                case .dictionary(let start, let count):
                    BinaryFlattener.writeHeader(0xD0, count: count, into: out)
                    BinaryFlattener.appendRefs(refs, start, 2 * count, size: refSize, into: out)
                }
            }
        }
        let tableOffset = out.count
        let offsetSize = BinaryFlattener.bytesNeeded(UInt64(tableOffset))
        offsets.withUnsafeBufferPointer { BinaryFlattener.appendRefs($0, 0, n, size: offsetSize, into: out) }
        out.append([0, 0, 0, 0, 0, 0, UInt8(offsetSize), UInt8(refSize)])
        BinaryFlattener.appendBE(UInt64(n), size: 8, into: out)
        BinaryFlattener.appendBE(0, size: 8, into: out)
        BinaryFlattener.appendBE(UInt64(tableOffset), size: 8, into: out)
        return out.bytes()
    }

    /// `count` big-endian integers of `size` bytes from `values[start...]`.
    static func appendRefs(_ values: UnsafeBufferPointer<Int>, _ start: Int, _ count: Int, size: Int, into out: ByteSink) {
        out.appendUninitialized(max: count * size) { p in
            var k = 0
            for i in start..<(start + count) {
                let v = UInt64(truncatingIfNeeded: values[i])
                switch size {
                case 1: p[k] = UInt8(truncatingIfNeeded: v)
                case 2: UnsafeMutableRawPointer(p + k).storeBytes(of: UInt16(truncatingIfNeeded: v).bigEndian, as: UInt16.self)
                case 4: UnsafeMutableRawPointer(p + k).storeBytes(of: UInt32(truncatingIfNeeded: v).bigEndian, as: UInt32.self)
                default: UnsafeMutableRawPointer(p + k).storeBytes(of: v.bigEndian, as: UInt64.self)
                }
                k += size
            }
            return k
        }
    }

    static func bytesNeeded(_ v: UInt64) -> Int {
        v <= 0xFF ? 1 : v <= 0xFFFF ? 2 : v <= 0xFFFF_FFFF ? 4 : 8
    }

    @inline(__always)
    static func appendBE(_ v: UInt64, size: Int, into out: ByteSink) {
        out.appendUninitialized(max: size) { p in
            var shift = (size - 1) * 8
            var k = 0
            while shift >= 0 {
                p[k] = UInt8(truncatingIfNeeded: v >> UInt64(shift))
                shift -= 8
                k += 1
            }
            return size
        }
    }

    static func writeHeader(_ marker: UInt8, count: Int, into out: ByteSink) {
        if count < 15 {
            out.append(marker | UInt8(count))
        } else {
            out.append(marker | 0x0F)
            writeUnsigned(UInt64(count), into: out)
        }
    }

    static func writeUnsigned(_ v: UInt64, into out: ByteSink) {
        switch v {
        case 0...0xFF: out.append(0x10); appendBE(v, size: 1, into: out)
        case 0x100...0xFFFF: out.append(0x11); appendBE(v, size: 2, into: out)
        case 0x1_0000...0xFFFF_FFFF: out.append(0x12); appendBE(v, size: 4, into: out)
        default: out.append(0x13); appendBE(v, size: 8, into: out)
        }
    }

    static func writeScalar(_ value: PlistValue, into out: ByteSink) {
        switch value {
        case .null: out.append(0x00)
        case .bool(let b): out.append(b ? 0x09 : 0x08)
        case .integer(let i):
            if i.isUnsignedBeyondInt64 {
                out.append(0x14)
                appendBE(0, size: 8, into: out)
                appendBE(i.bitPattern, size: 8, into: out)
            } else if i.isNegative || i.bitPattern > UInt64(Int64.max) {
                out.append(0x13)
                appendBE(i.bitPattern, size: 8, into: out)
            } else {
                writeUnsigned(i.bitPattern, into: out)
            }
        case .real(let r):
            switch r.width {
            case .bits32:
                out.append(0x22)
                appendBE(UInt64(Float(r.value).bitPattern), size: 4, into: out)
            case .bits64:
                out.append(0x23)
                appendBE(r.value.bitPattern, size: 8, into: out)
            }
        case .date(let d):
            out.append(0x33)
            appendBE(d.secondsSinceReferenceDate.bitPattern, size: 8, into: out)
        case .data(let d):
            writeHeader(0x40, count: d.count, into: out)
            out.append(d)
        case .string(let s):
            var s = s
            let ascii = s.withUTF8 { bytes in
                for b in bytes where b >= 0x80 { return false }
                writeHeader(0x50, count: bytes.count, into: out)
                out.append(bytes)
                return true
            }
            if !ascii {
                let units = s.utf16.count
                writeHeader(0x60, count: units, into: out)
                out.appendUninitialized(max: 2 * units) { p in
                    var k = 0
                    for u in s.utf16 {
                        p[k] = UInt8(u >> 8)
                        p[k + 1] = UInt8(u & 0xFF)
                        k += 2
                    }
                    return k
                }
            }
        case .uid(let u):
            let size = bytesNeeded(u)
            out.append(0x80 | UInt8(size - 1))
            appendBE(u, size: size, into: out)
        case .array, .dictionary:
            break // containers are written by serialize()
        }
    }
}
