// libFuzzer target: keyed archives: any format read, then the object graph on the compact tree,
// its dump, the archive writer, the Codable export, a secure check and a migration,
// the Graphviz drawing, the unarchiver check, a diff, the schema and the generated Swift.
import ArchivistArchive
import ArchivistCore

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzArchive(_ data: UnsafeRawPointer, _ size: Int) -> CInt {
    let buffer = UnsafeRawBufferPointer(start: data, count: size)
    guard let document = try? PropertyList.read(buffer), let graph = try? ObjectGraph(document.tree) else { return 0 }
    let tree = document.tree
    _ = try? ArchiveDumper.render(graph)
    _ = try? ArchiveJSONDumper.json(graph)
    _ = try? CodableExport.value(tree, options: CodableOptions(cycles: .omit, maxValues: 100_000))
    _ = try? GraphWriter.archive(graph)
    _ = try? CodableExport.value(graph, options: CodableOptions(cycles: .omit, maxValues: 100_000))
    _ = SecureCodingCheck.violations(in: graph, policy: SecurePolicy(allowing: []))
    _ = try? Migrator(rules: MigrationRules()).migrate(tree)
    _ = try? CodableSchema(tree)
    _ = ArchiveGraphviz.render(graph)
    if let archive = try? KeyedArchive(tree) { _ = UnarchiverCheck.errors(in: archive) }
    _ = try? PlistDiff(tree, tree)
    var codegen = SwiftCodegen()
    if (try? codegen.add(tree)) != nil {
        _ = codegen.secureCodingSource
        _ = codegen.allowedClassesSource
    }
    return 0
}
