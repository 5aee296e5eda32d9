// Runs the artifact bundle's archivist with the plugin's arguments, in the
// package's folder, and fails the command when archivist fails. It first names
// the binary SwiftPM chose (the bundle's variant for this machine's triple).
import Foundation
import PackagePlugin

@main
struct RunArchivist: CommandPlugin {
    /// Why the command failed: archivist's exit status.
    struct Failed: Error, CustomStringConvertible {
        let status: Int32
        var description: String { "archivist exited with status \(status)" }
    }

    func performCommand(context: PluginContext, arguments: [String]) async throws {
        let archivist = try context.tool(named: "archivist")
        print("running \(archivist.url.path)")
        let process = Process()
        process.executableURL = archivist.url
        process.arguments = arguments
        process.currentDirectoryURL = context.package.directoryURL
        try process.run()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else { throw Failed(status: process.terminationStatus) }
    }
}
