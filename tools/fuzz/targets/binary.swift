// libFuzzer target: the binary plist reader, and writing back what it read.
import ArchivistCore

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzBinary(_ data: UnsafeRawPointer, _ size: Int) -> CInt {
    let buffer = UnsafeRawBufferPointer(start: data, count: size)
    if let document = try? PropertyList.read(buffer, as: .binary) {
        _ = try? PropertyList.write(document.tree, as: .binary)
    }
    return 0
}
