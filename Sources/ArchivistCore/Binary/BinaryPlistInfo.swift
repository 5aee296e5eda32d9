/// The layout of a binary property list, for `info`: its trailer and how many
/// objects repeat an earlier object byte for byte (a writer that did not
/// share equal values).
package struct BinaryPlistInfo: Sendable, Equatable {
    /// Bytes per offset-table entry.
    package var offsetSize: Int
    /// Bytes per object reference.
    package var referenceSize: Int
    /// Objects in the offset table.
    package var objectCount: Int
    /// The top object's index.
    package var topObject: Int
    /// Where the offset table starts.
    package var offsetTableOffset: Int
    /// Objects whose bytes repeat an earlier object's exactly.
    package var duplicateObjects: Int

    /// Reads the trailer and offset table of a `bplist00` file.
    package init(_ bytes: [UInt8]) throws {
        let trailer = try bytes.withUnsafeBytes { try BinaryTrailer($0) }
        offsetSize = trailer.offsetIntSize
        referenceSize = trailer.objectRefSize
        objectCount = trailer.numObjects
        topObject = trailer.topObject
        offsetTableOffset = trailer.offsetTableOffset
        // Each object's bytes run to the next object's start (in file order).
        var offsets: [Int] = []
        offsets.reserveCapacity(objectCount)
        for i in 0..<objectCount {
            var value = 0
            let start = offsetTableOffset + i * offsetSize
            for k in 0..<offsetSize { value = value << 8 | Int(bytes[start + k]) }
            if value >= 8, value < offsetTableOffset { offsets.append(value) }
        }
        let starts = Array(Set(offsets)).sorted()
        var seen = Set<ArraySlice<UInt8>>()
        var duplicates = 0
        for (n, start) in starts.enumerated() {
            let end = n + 1 < starts.count ? starts[n + 1] : offsetTableOffset
            if !seen.insert(bytes[start..<end]).inserted { duplicates += 1 }
        }
        duplicateObjects = duplicates
    }
}
