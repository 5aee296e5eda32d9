/// The hash that places dictionary keys and written scalars in Archivist's
/// open-addressing tables (the readers' key table, the binary view's and the
/// builder's entry indexes, the binary writer's uniquing): FNV-1a over UTF-8
/// from a basis chosen once per process, and a 64-bit finalizer for numbers
/// mixed with the same basis.
///
/// A fixed, published function would let an input be made offline whose
/// thousands of distinct keys or numbers all start their probes in one slot,
/// and every look-up would then step through all the earlier ones: quadratic
/// time from a file of a megabyte. With the basis unknown outside the
/// process, where a key lands cannot be planned. The basis comes from Swift's
/// own per-process hash seed, so `SWIFT_DETERMINISTIC_HASHING=1` fixes it and
/// instruction counts repeat from run to run. Nothing written depends on it:
/// the tables decide only whether two things are equal.
package enum TableHash {
    /// This process's basis (odd, never the published FNV offset basis).
    package static let basis: UInt64 = {
        var hasher = Hasher()
        hasher.combine(0xCBF2_9CE4_8422_2325 as UInt64)
        let folded = UInt64(truncatingIfNeeded: hasher.finalize()) | 1
        return folded == 0xCBF2_9CE4_8422_2325 ? folded ^ 0x100 : folded
    }()

    /// FNV-1a of `utf8` from `basis` (pass ``basis``, kept in a local or a
    /// stored property on hot paths).
    @inline(__always)
    package static func text(_ utf8: UnsafeRawBufferPointer, basis: UInt64) -> UInt64 {
        var h = basis
        for b in utf8 { h = (h ^ UInt64(b)) &* 0x0000_0100_0000_01B3 }
        return h
    }

    /// FNV-1a of `utf8` from `basis`, for bytes in a buffer of `UInt8`.
    @inline(__always)
    package static func text(_ utf8: UnsafeBufferPointer<UInt8>, basis: UInt64) -> UInt64 {
        text(UnsafeRawBufferPointer(utf8), basis: basis)
    }
}
