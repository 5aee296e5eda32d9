// libFuzzer target: bookmark data. The input follows a valid 48-byte `book`
// header (its size set to the whole), so the fuzzer works on tables of
// contents and items; then the dumper's view of the same bytes in `<data>`.
import ArchivistArchive
import ArchivistCore

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzBookmark(_ data: UnsafeRawPointer, _ size: Int) -> CInt {
    guard size <= 1 << 20 else { return 0 }
    let body = Array(UnsafeRawBufferPointer(start: data, count: size))
    let total = UInt32(truncatingIfNeeded: 48 + body.count)
    var bytes: [UInt8] = Array("book".utf8)
    for word: UInt32 in [total, 0x1004_0000, 48] { bytes += (0..<4).map { UInt8(truncatingIfNeeded: word >> (8 * $0)) } }
    bytes += [UInt8](repeating: 0, count: 32) + body
    if let bookmark = Bookmark.decode(bytes) { _ = try? PlistTree(bookmark.value) }
    _ = try? TreeDumper.render(.data(bytes))
    _ = try? PlistKeyPath("b.path").resolve(in: try PlistTree(.dictionary(PlistDictionary([("b", .data(bytes))]))))
    return 0
}
