// libFuzzer target: Finder .DS_Store files. The input follows the
// `00 00 00 01 Bud1` header (added when it is missing, so the fuzzer works on
// the root block, the block addresses, the B-tree and its records), read by
// the .DS_Store reader; a file it reads is written as XML.
import ArchivistCore

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzDSStore(_ data: UnsafeRawPointer, _ size: Int) -> CInt {
    guard size <= 1 << 20 else { return 0 }
    var bytes = Array(UnsafeRawBufferPointer(start: data, count: size))
    let header: [UInt8] = [0, 0, 0, 1] + Array("Bud1".utf8)
    if !bytes.starts(with: header) { bytes = header + bytes }
    if let document = try? DSStoreReader.read(bytes) {
        _ = try? PropertyList.write(document.tree, as: .xml)
    }
    return 0
}
