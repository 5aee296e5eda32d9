#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The decoding state for one binary property list: the buffer, the validated
/// offsets, a cache of decoded objects and the cycle bitset.
struct BinaryScanner {
    private let buf: UnsafeRawBufferPointer
    private let trailer: BinaryTrailer
    private let limits: Limits
    /// Each object's offset (checked to lie in the object area) and its slot in
    /// `cache` when more than one container refers to it (-1 otherwise), side
    /// by side: decoding reads both for every object.
    private var objects: [ObjectInfo]

    struct ObjectInfo {
        var offset: UInt32
        var slot: Int32
    }
    /// Decoded shared objects, so each is read once (only shared objects are
    /// cached, so a tree of distinct objects costs no cache entries).
    private var cache: [PlistValue?]
    /// Number of nodes each cached object expands to, to bound the logical tree size.
    private var expandedSize: [Int]
    /// Bytes of string and data content each cached object holds, to bound
    /// what its reuses add (`Limits.maxSharedExpansion`).
    private var expandedBytes: [Int]
    /// Objects currently being decoded (for cycle detection).
    private var onStack: [Bool]
    /// Prints of the keys of the small dictionaries being read (see `keyPrint`), a stack.
    private var keyPrints: [UInt64] = []
    /// Logical nodes produced so far.
    private var nodeCount = 0
    /// Bytes of string and data content decoded so far.
    private var byteCount = 0
    /// Bytes of string and data content added by reusing shared values.
    private var sharedBytes = 0
    /// Duplicate keys and lone surrogates found.
    private(set) var diagnostics: [PlistDiagnostic] = []

    init(_ buffer: UnsafeRawBufferPointer, limits: Limits) throws {
        buf = buffer
        self.limits = limits
        trailer = try BinaryTrailer(buffer)
        let n = trailer.numObjects
        let size = trailer.offsetIntSize
        var offsets = [Int](repeating: 0, count: n)
        let tableStart = trailer.offsetTableOffset
        let end = tableStart
        guard end <= Int(UInt32.max) else {
            throw PlistError(.limitExceeded, "binary property lists whose objects take more than 4 GiB are not supported",
                             at: .binary(offset: tableStart, object: nil))
        }
        for i in 0..<n {
            let at = tableStart + i * size
            let off = BinaryScanner.readUInt(buffer, at, size)
            guard off >= 8, off < UInt64(end) else {
                throw PlistError(.corrupt, "offset table entry \(i) points at \(off), outside the object area 8..<\(end)",
                                 at: .binary(offset: at, object: i))
            }
            offsets[i] = Int(off)
        }
        onStack = [Bool](repeating: false, count: n)
        let slots = BinaryScanner.sharedSlots(buffer, trailer: trailer, offsets: offsets)
        var shared = 0
        objects = [ObjectInfo](unsafeUninitializedCapacity: n) { info, count in
            for i in 0..<n {
                info[i] = ObjectInfo(offset: UInt32(truncatingIfNeeded: offsets[i]), slot: slots[i])
                if slots[i] >= 0 { shared += 1 }
            }
            count = n
        }
        cache = [PlistValue?](repeating: nil, count: shared)
        expandedSize = [Int](repeating: 0, count: shared)
        expandedBytes = [Int](repeating: 0, count: shared)
    }

    /// Counts the references to each object from every container whose header
    /// and reference list lie in the object area (a container that does not
    /// fails when it is read), and numbers the objects referred to more than once.
    private static func sharedSlots(_ b: UnsafeRawBufferPointer, trailer: BinaryTrailer, offsets: [Int]) -> [Int32] {
        let n = offsets.count
        var counts = [UInt8](repeating: 0, count: n)
        let refSize = trailer.objectRefSize
        let area = trailer.offsetTableOffset
        counts.withUnsafeMutableBufferPointer { counts in
            for at in offsets {
                let marker = b[at]
                let kind = marker >> 4
                guard kind == 0xA || kind == 0xC || kind == 0xD else { continue }
                var count = Int(marker & 0x0F)
                var p = at + 1
                if count == 0x0F {
                    guard p < area else { continue }
                    let intMarker = b[p]
                    guard intMarker & 0xF0 == 0x10, Int(intMarker & 0x0F) <= maxCountWidthLog2 else { continue }
                    let size = 1 << Int(intMarker & 0x0F)
                    guard size <= area - p - 1 else { continue }
                    let raw = readLow64(b, p + 1, size)
                    guard raw <= UInt64(area) else { continue }
                    count = Int(raw)
                    p += 1 + size
                }
                let refs = kind == 0xD ? 2 * count : count
                guard refs <= (area - p) / refSize else { continue }
                for i in 0..<refs {
                    let r = readUInt(b, p + i * refSize, refSize)
                    if r < UInt64(n), counts[Int(r)] < 2 { counts[Int(r)] += 1 }
                }
            }
        }
        var slots = [Int32](repeating: -1, count: n)
        var next: Int32 = 0
        for i in 0..<n where counts[i] > 1 {
            slots[i] = next
            next += 1
        }
        return slots
    }

    mutating func readRoot() throws -> PlistValue {
        try value(trailer.topObject, depth: 0)
    }

    // MARK: - Primitive reads

    /// Counts may be written as integers of 1 to 128 bytes (2^0...2^7), as
    /// CoreFoundation reads them; only their last 8 bytes are significant.
    static let maxCountWidthLog2 = 7

    /// The last 8 bytes (all of them when fewer) of the big-endian integer of
    /// `size` bytes at `at`: CoreFoundation's reading of wide counts and UIDs.
    @inline(__always)
    static func readLow64(_ b: UnsafeRawBufferPointer, _ at: Int, _ size: Int) -> UInt64 {
        size <= 8 ? readUInt(b, at, size) : readUInt(b, at + size - 8, 8)
    }

    @inline(__always)
    static func readUInt(_ b: UnsafeRawBufferPointer, _ at: Int, _ size: Int) -> UInt64 {
        switch size {
        case 1: return UInt64(b[at])
        case 2: return UInt64(UInt16(bigEndian: b.loadUnaligned(fromByteOffset: at, as: UInt16.self)))
        case 4: return UInt64(UInt32(bigEndian: b.loadUnaligned(fromByteOffset: at, as: UInt32.self)))
        case 8: return UInt64(bigEndian: b.loadUnaligned(fromByteOffset: at, as: UInt64.self))
        default:
            var v: UInt64 = 0
            for k in 0..<size { v = v << 8 | UInt64(b[at + k]) }
            return v
        }
    }

    private func fail(_ kind: PlistError.Kind, _ message: String, offset: Int, object: Int) -> PlistError {
        PlistError(kind, message, at: .binary(offset: offset, object: object))
    }

    /// Checks that `length` bytes from `start` lie inside the object area.
    @inline(__always)
    private func checkRange(_ start: Int, _ length: Int, object: Int, what: @autoclosure () -> String) throws {
        let end = start.addingReportingOverflow(length)
        guard length >= 0, !end.overflow, end.partialValue <= trailer.offsetTableOffset else {
            throw fail(.corrupt, "\(what()) of \(length) bytes at offset \(start) runs past the object area (ends at \(trailer.offsetTableOffset))",
                       offset: start, object: object)
        }
    }

    /// Reads the count of a data, string or collection object whose marker is at `at`;
    /// returns the count and the offset of the payload.
    @inline(__always)
    private func count(marker: UInt8, at: Int, object: Int) throws -> (Int, Int) {
        let info = Int(marker & 0x0F)
        if info != 0x0F { return (info, at + 1) }
        try checkRange(at + 1, 1, object: object, what: "count header")
        let intMarker = buf[at + 1]
        guard intMarker & 0xF0 == 0x10, Int(intMarker & 0x0F) <= BinaryScanner.maxCountWidthLog2 else {
            throw fail(.corrupt, "count is not an integer of 1 to 128 bytes (marker 0x\(String(intMarker, radix: 16)))", offset: at + 1, object: object)
        }
        let size = 1 << Int(intMarker & 0x0F)
        try checkRange(at + 2, size, object: object, what: "count")
        let raw = BinaryScanner.readLow64(buf, at + 2, size)
        guard raw <= UInt64(trailer.offsetTableOffset) * 2 + 1 else {
            throw fail(.corrupt, "count \(raw) is larger than the file can hold", offset: at + 2, object: object)
        }
        return (Int(raw), at + 2 + size)
    }

    // MARK: - Objects

    private mutating func value(_ index: Int, depth: Int) throws -> PlistValue {
        let info = objects[index]
        let at = Int(info.offset)
        // Numbers, booleans, dates and UIDs cost less to read again than to
        // cache: only strings, data and containers go through the cache.
        let slot = Int(info.slot)
        guard slot >= 0 else { return try decode(index, at: at, depth: depth) }
        switch buf[at] >> 4 {
        case 0x0, 0x1, 0x2, 0x3, 0x8:
            return try decode(index, at: at, depth: depth)
        default:
            break
        }
        if let cached = cache[slot] {
            try account(expandedSize[slot], object: index)
            sharedBytes += expandedBytes[slot]
            byteCount += expandedBytes[slot]
            if sharedBytes > limits.maxSharedExpansion {
                throw fail(.limitExceeded, "shared strings and data expand to more than \(limits.maxSharedExpansion) bytes beyond the input (each reuse counts)",
                           offset: at, object: index)
            }
            return cached
        }
        let start = nodeCount, startBytes = byteCount
        let v = try decode(index, at: at, depth: depth)
        cache[slot] = v
        expandedSize[slot] = nodeCount - start
        expandedBytes[slot] = byteCount - startBytes
        return v
    }

    /// The offset of an object (already validated).
    @inline(__always)
    private func offset(_ index: Int) -> Int {
        Int(objects[index].offset)
    }

    @inline(__always)
    private mutating func account(_ nodes: Int, object: Int) throws {
        nodeCount += nodes
        if nodeCount > limits.maxObjects {
            throw fail(.limitExceeded, "the property list expands to more than \(limits.maxObjects) objects", offset: offset(object), object: object)
        }
    }

    private mutating func decode(_ index: Int, at: Int, depth: Int) throws -> PlistValue {
        try account(1, object: index)
        let marker = buf[at]
        switch marker >> 4 {
        case 0x0:
            switch marker {
            case 0x00: return .null
            case 0x08: return .bool(false)
            case 0x09: return .bool(true)
            default:
                throw fail(.corrupt, "unknown object marker 0x\(String(marker, radix: 16))", offset: at, object: index)
            }
        case 0x1:
            return try integer(marker, at: at, object: index)
        case 0x2:
            switch marker & 0x0F {
            case 2:
                try checkRange(at + 1, 4, object: index, what: "real")
                let bits = UInt32(bigEndian: buf.loadUnaligned(fromByteOffset: at + 1, as: UInt32.self))
                return .real(PlistReal(float: Float(bitPattern: bits)))
            case 3:
                try checkRange(at + 1, 8, object: index, what: "real")
                return .real(PlistReal(Double(bitPattern: BinaryScanner.readUInt(buf, at + 1, 8))))
            default:
                throw fail(.corrupt, "real of unsupported width (marker 0x\(String(marker, radix: 16)))", offset: at, object: index)
            }
        case 0x3:
            guard marker == 0x33 else {
                throw fail(.corrupt, "date with marker 0x\(String(marker, radix: 16)) (expected 0x33)", offset: at, object: index)
            }
            try checkRange(at + 1, 8, object: index, what: "date")
            return .date(PlistDate(secondsSinceReferenceDate: Double(bitPattern: BinaryScanner.readUInt(buf, at + 1, 8))))
        case 0x4:
            let (n, p) = try count(marker: marker, at: at, object: index)
            try checkLength(n, object: index, at: at)
            try checkRange(p, n, object: index, what: "data")
            byteCount += n
            return .data(Array(UnsafeRawBufferPointer(rebasing: buf[p..<(p + n)])))
        case 0x5:
            let (n, p) = try count(marker: marker, at: at, object: index)
            try checkLength(n, object: index, at: at)
            try checkRange(p, n, object: index, what: "ASCII string")
            byteCount += n
            return .string(BinaryStrings.ascii(UnsafeRawBufferPointer(rebasing: buf[p..<(p + n)])))
        case 0x6:
            let (n, p) = try count(marker: marker, at: at, object: index)
            let bytes = n.multipliedReportingOverflow(by: 2)
            guard !bytes.overflow else { throw fail(.corrupt, "UTF-16 string length overflows", offset: at, object: index) }
            try checkLength(bytes.partialValue, object: index, at: at)
            try checkRange(p, bytes.partialValue, object: index, what: "UTF-16 string")
            byteCount += bytes.partialValue
            let (s, lone) = BinaryStrings.utf16BE(UnsafeRawBufferPointer(rebasing: buf[p..<(p + bytes.partialValue)]))
            if lone {
                diagnostics.append(PlistDiagnostic(.loneSurrogate, "string holds a lone UTF-16 surrogate (read as U+FFFD)",
                                                   at: .binary(offset: at, object: index)))
            }
            return .string(s)
        case 0x8:
            // 1 to 16 bytes, of which the last 8 count; CoreFoundation refuses
            // values above 32 bits.
            let size = Int(marker & 0x0F) + 1
            try checkRange(at + 1, size, object: index, what: "UID")
            let uid = BinaryScanner.readLow64(buf, at + 1, size)
            guard uid <= UInt64(UInt32.max) else {
                throw fail(.invalidValue, "UID \(uid) is above 4294967295 (2^32-1), the largest CoreFoundation reads", offset: at, object: index)
            }
            return .uid(uid)
        case 0xA, 0xC:
            return try array(marker, at: at, object: index, depth: depth)
        case 0xD:
            return try dictionary(marker, at: at, object: index, depth: depth)
        default:
            throw fail(.unsupported, "unknown object type 0x\(String(marker, radix: 16))", offset: at, object: index)
        }
    }

    private func checkLength(_ n: Int, object: Int, at: Int) throws {
        guard n <= limits.maxValueLength else {
            throw fail(.limitExceeded, "value of \(n) bytes exceeds the limit of \(limits.maxValueLength)", offset: at, object: object)
        }
    }

    private func integer(_ marker: UInt8, at: Int, object: Int) throws -> PlistValue {
        let info = Int(marker & 0x0F)
        switch info {
        case 0, 1, 2:
            let size = 1 << info
            try checkRange(at + 1, size, object: object, what: "integer")
            return .integer(PlistInteger(BinaryScanner.readUInt(buf, at + 1, size)))
        case 3:
            try checkRange(at + 1, 8, object: object, what: "integer")
            return .integer(PlistInteger(Int64(bitPattern: BinaryScanner.readUInt(buf, at + 1, 8))))
        case 4:
            try checkRange(at + 1, 16, object: object, what: "integer")
            let high = BinaryScanner.readUInt(buf, at + 1, 8)
            let low = BinaryScanner.readUInt(buf, at + 9, 8)
            if high == 0 { return .integer(PlistInteger(low)) }
            if high == UInt64.max, low >> 63 == 1 { return .integer(PlistInteger(Int64(bitPattern: low))) }
            throw fail(.invalidValue, "128-bit integer is outside the 64-bit range", offset: at, object: object)
        default:
            throw fail(.corrupt, "integer of unsupported width (marker 0x\(String(marker, radix: 16)))", offset: at, object: object)
        }
    }

    /// Reads the `i`th object reference of a list starting at `p`.
    @inline(__always)
    private func ref(_ p: Int, _ i: Int, object: Int) throws -> Int {
        let r = BinaryScanner.readUInt(buf, p + i * trailer.objectRefSize, trailer.objectRefSize)
        guard r < UInt64(trailer.numObjects) else {
            throw fail(.corrupt, "reference \(r) is not below the object count \(trailer.numObjects)",
                       offset: p + i * trailer.objectRefSize, object: object)
        }
        return Int(r)
    }

    private mutating func enter(_ index: Int, depth: Int, at: Int) throws {
        guard depth < limits.maxDepth else {
            throw fail(.limitExceeded, "nesting deeper than \(limits.maxDepth) levels", offset: at, object: index)
        }
        onStack[index] = true
    }

    private mutating func child(_ r: Int, parent: Int, depth: Int, at: Int) throws -> PlistValue {
        if onStack[r] {
            throw fail(.cycle, "container contains itself through object \(r)", offset: at, object: parent)
        }
        return try value(r, depth: depth + 1)
    }

    /// A hash of a one-byte-per-character key's bytes (a `0x5X` string: ASCII,
    /// or Latin-1 beyond it), never 0. Other bytes are other text, and no two
    /// such strings are canonically equivalent, so keys with different prints
    /// differ; equal prints are confirmed as strings. 0 for UTF-16 keys, which
    /// are compared as strings.
    @inline(__always)
    private func keyPrint(_ index: Int) -> UInt64 {
        let at = offset(index)
        let marker = buf[at]
        guard marker >> 4 == 0x5 else { return 0 }
        var length = Int(marker & 0x0F)
        var start = at + 1
        if length == 0x0F {
            // Already read as a string, so the count is well formed.
            let size = 1 << Int(buf[at + 1] & 0x0F)
            length = Int(BinaryScanner.readUInt(buf, at + 2, size))
            start = at + 2 + size
        }
        var h: UInt64 = 0xCBF2_9CE4_8422_2325 ^ UInt64(length)
        for k in start..<(start + length) {
            h = (h ^ UInt64(buf[k])) &* 0x0000_0100_0000_01B3
        }
        return h | 1
    }

    private mutating func array(_ marker: UInt8, at: Int, object: Int, depth: Int) throws -> PlistValue {
        let (n, p) = try count(marker: marker, at: at, object: object)
        let refBytes = n.multipliedReportingOverflow(by: trailer.objectRefSize)
        guard !refBytes.overflow else { throw fail(.corrupt, "array count \(n) overflows", offset: at, object: object) }
        try checkRange(p, refBytes.partialValue, object: object, what: "array of \(n) references")
        try enter(object, depth: depth, at: at)
        defer { onStack[object] = false }
        var items: [PlistValue] = []
        items.reserveCapacity(min(n, limits.maxReservation))
        for i in 0..<n {
            items.append(try child(try ref(p, i, object: object), parent: object, depth: depth, at: at))
        }
        return .array(items)
    }

    private mutating func dictionary(_ marker: UInt8, at: Int, object: Int, depth: Int) throws -> PlistValue {
        let (n, p) = try count(marker: marker, at: at, object: object)
        let refBytes = n.multipliedReportingOverflow(by: 2 * trailer.objectRefSize)
        guard !refBytes.overflow else { throw fail(.corrupt, "dictionary count \(n) overflows", offset: at, object: object) }
        try checkRange(p, refBytes.partialValue, object: object, what: "dictionary of \(n) entries")
        try enter(object, depth: depth, at: at)
        defer { onStack[object] = false }
        var dict = PlistDictionary(minimumCapacity: min(n, limits.maxReservation))
        let hashKeys = n > 64
        var seen = Set<String>(minimumCapacity: hashKeys ? min(n, limits.maxReservation) : 0)
        let valuesAt = p + n * trailer.objectRefSize
        let printBase = keyPrints.count
        defer { keyPrints.removeLast(keyPrints.count - printBase) }
        for i in 0..<n {
            let kr = try ref(p, i, object: object)
            guard case .string(let key) = try child(kr, parent: object, depth: depth, at: at) else {
                throw fail(.corrupt, "dictionary key \(i) (object \(kr)) is not a string", offset: offset(kr), object: object)
            }
            let v = try child(try ref(valuesAt, i, object: object), parent: object, depth: depth, at: at)
            let duplicate: Bool
            if hashKeys {
                duplicate = !seen.insert(key).inserted
            } else {
                // Keys are told apart by their prints (see keyPrint), UTF-16
                // keys by string comparison; `keyPrints` holds one print per
                // stored key, in order.
                let print = keyPrint(kr)
                var found = false
                for j in 0..<dict.count {
                    let other = keyPrints[printBase + j]
                    if print != 0, other != 0, print != other { continue }
                    if dict.keys[j] == key {
                        found = true
                        break
                    }
                }
                if !found { keyPrints.append(print) }
                duplicate = found
            }
            if duplicate {
                diagnostics.append(PlistDiagnostic(.duplicateKey, "duplicate key \"\(key)\" in dictionary (the last value is kept)",
                                                   at: .binary(offset: at, object: object)))
                dict[key] = v
            } else {
                dict.appendUnchecked(key: key, value: v)
            }
        }
        return .dictionary(dict)
    }
}
