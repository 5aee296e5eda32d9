/// How many times each object of a binary property list is referenced (0, 1,
/// or 2 for "more than once"), two bits per object: from every container
/// whose header and reference list lie in the object area (a container that
/// does not fails when it is read). Objects referenced more than once are the
/// shared ones, decoded once and reused. The same pass reads every entry
/// of the offset table, so it also tells whether all of them lie in the
/// object area (`offsetsInArea`): when one does not, the reader asks
/// `BinaryObjectArea.checkOffsetTable()` for the first bad one.
struct BinaryReferenceCounts {
    /// Four objects per byte, two bits each.
    private var packed: [UInt8]
    /// True when every offset-table entry points into the object area.
    let offsetsInArea: Bool

    init(_ area: BinaryObjectArea) {
        let n = area.trailer.numObjects
        var packed = [UInt8](repeating: 0, count: (n + 3) / 4)
        var inArea = true
        packed.withUnsafeMutableBufferPointer { counts in
            // The offset width chosen once, not per object.
            switch area.trailer.offsetIntSize {
            case 1: inArea = Self.count(area, offsets: UInt8.self, into: counts)
            case 2: inArea = Self.count(area, offsets: UInt16.self, into: counts)
            case 4: inArea = Self.count(area, offsets: UInt32.self, into: counts)
            default: inArea = Self.count(area, offsets: UInt64.self, into: counts)
            }
        }
        self.packed = packed
        offsetsInArea = inArea
    }

    /// Counts the references of every container into `counts`, reading the
    /// offset table as big-endian `Offset`s when they are that wide (any other
    /// width is read byte by byte); false when an offset lies outside the object area.
    private static func count<Offset: FixedWidthInteger & UnsignedInteger>(
        _ area: BinaryObjectArea, offsets _: Offset.Type, into counts: UnsafeMutableBufferPointer<UInt8>
    ) -> Bool {
        let b = area.buf
        let n = area.trailer.numObjects
        let refSize = area.trailer.objectRefSize
        let width = area.trailer.offsetIntSize
        let table = area.trailer.offsetTableOffset
        let end = area.end
        let fixed = width == MemoryLayout<Offset>.size
        var inArea = true
        for i in 0..<n {
            let raw = fixed ? UInt64(Offset(bigEndian: b.loadUnaligned(fromByteOffset: table &+ i &* width, as: Offset.self)))
                : BinaryObjectArea.readUInt(b, table + i * width, width)
            guard raw >= 8, raw < UInt64(end) else {
                inArea = false
                continue
            }
            let at = Int(raw)
            let marker = b[at]
            let kind = marker >> 4
            guard kind == 0xA || kind == 0xC || kind == 0xD else { continue }
            var count = Int(marker & 0x0F)
            var p = at + 1
            if count == 0x0F {
                guard p < end else { continue }
                let intMarker = b[p]
                guard intMarker & 0xF0 == 0x10, Int(intMarker & 0x0F) <= BinaryObjectArea.maxCountWidthLog2 else { continue }
                let size = 1 << Int(intMarker & 0x0F)
                guard size <= end - p - 1 else { continue }
                let value = BinaryObjectArea.readLow64(b, p + 1, size)
                guard value <= UInt64(end) else { continue }
                count = Int(value)
                p += 1 + size
            }
            let refs = kind == 0xD ? 2 * count : count
            guard refs <= (end - p) / refSize else { continue }
            // The reference size chosen once per container, not per reference.
            switch refSize {
            case 1: for k in 0..<refs { note(UInt64(b[p &+ k]), objects: n, in: counts) }
            case 2:
                for k in 0..<refs {
                    note(UInt64(UInt16(bigEndian: b.loadUnaligned(fromByteOffset: p &+ 2 &* k, as: UInt16.self))), objects: n, in: counts)
                }
            case 4:
                for k in 0..<refs {
                    note(UInt64(UInt32(bigEndian: b.loadUnaligned(fromByteOffset: p &+ 4 &* k, as: UInt32.self))), objects: n, in: counts)
                }
            default:
                for k in 0..<refs { note(BinaryObjectArea.readUInt(b, p + k * refSize, refSize), objects: n, in: counts) }
            }
        }
        return inArea
    }

    /// Counts one reference to object `r` (up to 2); one past the objects is none.
    @inline(__always)
    private static func note(_ r: UInt64, objects n: Int, in counts: UnsafeMutableBufferPointer<UInt8>) {
        guard r < UInt64(n) else { return }
        let index = Int(r)
        let shift = UInt8((index & 3) * 2)
        let c = (counts[index >> 2] >> shift) & 3
        if c < 2 { counts[index >> 2] += 1 << shift }
    }

    /// True when object `i` is referenced more than once.
    @inline(__always)
    func isShared(_ i: Int) -> Bool {
        (packed[i >> 2] >> UInt8((i & 3) * 2)) & 3 >= 2
    }
}
