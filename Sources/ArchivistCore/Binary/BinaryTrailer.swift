/// The validated 32-byte trailer of a `bplist00` file.
struct BinaryTrailer {
    /// Width of each offset-table entry (1 to 8 bytes; CF writes 1, 2, 4 or 8, other encoders 3).
    let offsetIntSize: Int
    /// Width of each object reference (1 to 8).
    let objectRefSize: Int
    /// Number of objects (entries in the offset table).
    let numObjects: Int
    /// Index of the root object.
    let topObject: Int
    /// Byte offset of the offset table.
    let offsetTableOffset: Int

    /// Reads and validates the header and trailer of `buffer`.
    init(_ buffer: UnsafeRawBufferPointer) throws {
        let count = buffer.count
        guard count >= 8 + 32 + 1 else {
            throw PlistError(.corrupt, "binary property list of \(count) bytes is too short for a header and trailer",
                             at: .binary(offset: 0, object: nil))
        }
        let t = count - 32
        offsetIntSize = Int(buffer[t + 6])
        objectRefSize = Int(buffer[t + 7])
        let objects = BinaryTrailer.be64(buffer, t + 8)
        let top = BinaryTrailer.be64(buffer, t + 16)
        let table = BinaryTrailer.be64(buffer, t + 24)
        guard (1...8).contains(offsetIntSize) else {
            throw PlistError(.corrupt, "trailer: offset size \(offsetIntSize) is not 1 to 8", at: .binary(offset: t + 6, object: nil))
        }
        guard (1...8).contains(objectRefSize) else {
            throw PlistError(.corrupt, "trailer: object reference size \(objectRefSize) is not 1 to 8", at: .binary(offset: t + 7, object: nil))
        }
        guard objects >= 1, objects <= UInt64(count) else {
            throw PlistError(.corrupt, "trailer: object count \(objects) is impossible in a file of \(count) bytes", at: .binary(offset: t + 8, object: nil))
        }
        guard top < objects else {
            throw PlistError(.corrupt, "trailer: top object \(top) is not below the object count \(objects)", at: .binary(offset: t + 16, object: nil))
        }
        numObjects = Int(objects)
        topObject = Int(top)
        // The offset table must sit between the header and the trailer.
        let tableBytes = numObjects.multipliedReportingOverflow(by: offsetIntSize)
        guard table >= 9, table < UInt64(t), !tableBytes.overflow,
              Int(table) + tableBytes.partialValue <= t else {
            throw PlistError(.corrupt, "trailer: offset table at \(table) with \(objects) entries of \(offsetIntSize) bytes does not fit before the trailer at \(t)",
                             at: .binary(offset: t + 24, object: nil))
        }
        offsetTableOffset = Int(table)
    }

    @inline(__always)
    static func be64(_ b: UnsafeRawBufferPointer, _ at: Int) -> UInt64 {
        UInt64(bigEndian: b.loadUnaligned(fromByteOffset: at, as: UInt64.self))
    }
}
