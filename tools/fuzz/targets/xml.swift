// libFuzzer target: the XML plist reader (libxml2 underneath), and the XML writer.
import ArchivistCore

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzXML(_ data: UnsafeRawPointer, _ size: Int) -> CInt {
    let buffer = UnsafeRawBufferPointer(start: data, count: size)
    if let document = try? PropertyList.read(buffer, as: .xml) {
        _ = try? PropertyList.write(document.tree, as: .xml)
    }
    return 0
}
