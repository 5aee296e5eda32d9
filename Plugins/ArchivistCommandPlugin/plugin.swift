import PackagePlugin

/// `swift package archivist COMMAND ...`: runs a command of `archivist` that
/// only reads (lint, dump, classes, info, get, diff, schema) on the package's
/// files, paths taken from the package's folder. Commands that write go
/// through `archivist-write`, which asks for write access.
@main
struct ArchivistCommandPlugin: CommandPlugin {
    func performCommand(context: PluginContext, arguments: [String]) async throws {
        try ArchivistTool.run(context, arguments: arguments, writing: false)
    }
}
