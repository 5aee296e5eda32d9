// libFuzzer target: NSArchiver typedstreams. The input follows a valid
// header (version 4, `streamtyped`, system version 1000), so the fuzzer works
// on typed-value groups, objects, classes and references; then the graph, the
// dumper's and the JSON view's reading of it, and the same bytes in `<data>`.
import ArchivistArchive
import ArchivistCore

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzTypedstream(_ data: UnsafeRawPointer, _ size: Int) -> CInt {
    guard size <= 1 << 20 else { return 0 }
    let bytes: [UInt8] = [4, 11] + Array("streamtyped".utf8) + [0x81, 0xE8, 0x03] + Array(UnsafeRawBufferPointer(start: data, count: size))
    if let document = try? Typedstream.readDocument(bytes), let graph = try? ObjectGraph(document.tree) {
        _ = try? ArchiveDumper.render(graph)
        _ = graph.classCensus()
    }
    _ = try? TreeDumper.render(.data(bytes))
    _ = try? PlistKeyPath("b.root").resolve(in: try PlistTree(.dictionary(PlistDictionary([("b", .data(bytes))]))))
    return 0
}
