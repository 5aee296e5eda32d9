import PackagePlugin

/// `swift package --allow-writing-to-package-directory archivist-write
/// COMMAND ...`: runs any command of `archivist` (convert, migrate, set,
/// remove and codegen included) on the package's files, paths taken from the
/// package's folder.
@main
struct ArchivistWriteCommandPlugin: CommandPlugin {
    func performCommand(context: PluginContext, arguments: [String]) async throws {
        try ArchivistTool.run(context, arguments: arguments, writing: true)
    }
}
