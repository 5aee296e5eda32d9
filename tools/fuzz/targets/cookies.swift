// libFuzzer target: binary cookie stores. The input follows the `cook` magic
// (added when it is missing, so the fuzzer works on page tables, pages and
// records), read by the cookie reader; a store it reads is written as XML.
import ArchivistCore

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzCookies(_ data: UnsafeRawPointer, _ size: Int) -> CInt {
    guard size <= 1 << 20 else { return 0 }
    var bytes = Array(UnsafeRawBufferPointer(start: data, count: size))
    if !bytes.starts(with: Array("cook".utf8)) { bytes = Array("cook".utf8) + bytes }
    if let document = try? BinaryCookiesReader.read(bytes) {
        _ = try? PropertyList.write(document.tree, as: .xml)
    }
    return 0
}
