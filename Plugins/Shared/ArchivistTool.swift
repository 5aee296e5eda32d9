// Shared by the two command plugins (each folder links this file): runs the
// `archivist` executable with the arguments `swift package` passed on.
import Foundation
import PackagePlugin

/// Runs `archivist` for a command plugin, and keeps the read-only verb from
/// running a command that writes.
enum ArchivistTool {
    /// The verb that may only read files.
    static let readingVerb = "archivist"
    /// The verb that declares write access to the package folder.
    static let writingVerb = "archivist-write"
    /// Commands that only read the files they are given.
    static let readingCommands: Set<String> = ["lint", "dump", "classes", "info", "get", "diff", "schema"]
    /// Commands that write files (in place, or to `-o`).
    static let writingCommands: Set<String> = ["convert", "migrate", "set", "remove", "codegen"]

    /// The reason a verb cannot run `arguments`, or nil when it can: the
    /// read-only verb refuses writing commands (naming the other verb), and
    /// both refuse a command `archivist` does not have.
    static func refusal(of arguments: [String], writing: Bool) -> String? {
        guard let command = arguments.first, !command.hasPrefix("-") else { return nil }
        if readingCommands.contains(command) { return nil }
        if writingCommands.contains(command) {
            if writing { return nil }
            return "'\(command)' writes files: run it as 'swift package --allow-writing-to-package-directory \(writingVerb) \(command) ...' (the '\(readingVerb)' verb only reads)"
        }
        let known = (readingCommands.union(writing ? writingCommands : [])).sorted().joined(separator: ", ")
        return "'\(command)' is not a command of '\(writing ? writingVerb : readingVerb)'; it runs \(known)"
    }

    /// Runs `archivist ARGUMENTS` in the package's folder, its output going
    /// where the plugin's goes; a non-zero exit status is an error of the
    /// plugin, so that `swift package` fails too.
    static func run(_ context: PluginContext, arguments: [String], writing: Bool) throws {
        if let refusal = refusal(of: arguments, writing: writing) {
            Diagnostics.error(refusal)
            return
        }
        let process = Process()
        process.executableURL = try context.tool(named: "archivist").url
        process.arguments = arguments.isEmpty ? ["--help"] : arguments
        process.currentDirectoryURL = context.package.directoryURL
        try process.run()
        process.waitUntilExit()
        if process.terminationReason == .uncaughtSignal {
            Diagnostics.error("archivist \(arguments.first ?? "") ended by signal \(process.terminationStatus)")
        } else if process.terminationStatus != 0 {
            Diagnostics.error("archivist \(arguments.first ?? "") exited with status \(process.terminationStatus)")
        }
    }
}
