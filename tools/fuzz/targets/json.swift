// libFuzzer target: the JSON reader and writer.
import ArchivistCore

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzJSON(_ data: UnsafeRawPointer, _ size: Int) -> CInt {
    let buffer = UnsafeRawBufferPointer(start: data, count: size)
    if let document = try? PropertyList.read(buffer, as: .json) {
        _ = try? PropertyList.write(document.tree, as: .json)
    }
    return 0
}
