// libFuzzer target: keyed archives: any format read, then the object graph on the compact tree,
// its dump, the archive writer, the Codable export, a secure check and a migration,
// the Graphviz drawing, the unarchiver check, a diff, the schema and the generated Swift.
import ArchivistArchive
import ArchivistCore

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzArchive(_ data: UnsafeRawPointer, _ size: Int) -> CInt {
    let buffer = UnsafeRawBufferPointer(start: data, count: size)
    guard let document = try? PropertyList.read(buffer), let tree = try? document.tree,
          let graph = try? ObjectGraph(tree) else { return 0 }
    _ = try? ArchiveDumper.render(graph)
    _ = try? ArchiveJSONDumper.json(graph)
    _ = try? CodableExport.value(tree, options: CodableOptions(cycles: .omit, maxValues: 100_000))
    _ = try? GraphWriter.archive(graph)
    _ = try? CodableExport.value(graph, options: CodableOptions(cycles: .omit, maxValues: 100_000))
    _ = SecureCodingCheck.violations(in: graph, policy: SecurePolicy(allowing: []))
    _ = try? Migrator(rules: MigrationRules()).migrate(document.tree.value)
    _ = try? CodableSchema(document.tree.value)
    _ = ArchiveGraphviz.render(graph)
    if let archive = try? KeyedArchive(document.tree.value) { _ = UnarchiverCheck.errors(in: archive) }
    _ = try? PlistDiff(document.tree.value, document.tree.value)
    var codegen = SwiftCodegen()
    if (try? codegen.add(document.tree.value)) != nil {
        _ = codegen.secureCodingSource
        _ = codegen.allowedClassesSource
    }
    return 0
}
