// libFuzzer target: migration rules files.
import ArchivistArchive

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzRules(_ data: UnsafeRawPointer, _ size: Int) -> CInt {
    let bytes = [UInt8](UnsafeRawBufferPointer(start: data, count: size))
    _ = try? MigrationRules(bytes: bytes)
    return 0
}
