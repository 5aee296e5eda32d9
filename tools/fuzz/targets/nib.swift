// libFuzzer target: iOS compiled nibs (NIBArchive). The input follows the
// `NIBArchive` magic (added when it is missing, so the fuzzer works on the
// header's counts and offsets and the four tables); a nib that reads is
// made a graph, dumped, counted by class, and read again inside `<data>`.
// Seeds: the real nibs of ../shared/real-world/beside (with every other seed).
import ArchivistArchive
import ArchivistCore
import ArchivistNIB

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzNIB(_ data: UnsafeRawPointer, _ size: Int) -> CInt {
    guard size <= 1 << 20 else { return 0 }
    var bytes = Array(UnsafeRawBufferPointer(start: data, count: size))
    if !bytes.starts(with: Array("NIBArchive".utf8)) { bytes = Array("NIBArchive".utf8) + bytes }
    if let document = try? NIBArchive.document(bytes), let graph = try? ObjectGraph(document.tree) {
        _ = try? ArchiveDumper.render(graph)
        _ = graph.classCensus()
        _ = graph.paths()
    }
    _ = try? TreeDumper.render(.data(bytes))
    return 0
}
