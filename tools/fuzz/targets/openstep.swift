// libFuzzer target: the OpenStep reader and writer.
import ArchivistCore

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOpenStep(_ data: UnsafeRawPointer, _ size: Int) -> CInt {
    let buffer = UnsafeRawBufferPointer(start: data, count: size)
    if let document = try? PropertyList.read(buffer, as: .openstep) {
        _ = try? PropertyList.write(document.tree, as: .openstep)
    }
    return 0
}
