import Foundation
import PackagePlugin

/// A build tool plugin: on every build where they changed, lints the target's
/// property lists (`.plist`, `.strings`, `.stringsdict`, `.entitlements`,
/// `.xcprivacy`, and any file that starts as a binary plist, keyed archives
/// included) with `archivist lint --format xcode`, so that a problem fails
/// the build as a `FILE:LINE:COL: error: ...` line the build log and Xcode
/// show in place. An `archivist.json` in the target's folder (Xcode: the
/// project's folder or a folder named after the target) is passed as
/// `--config`: `secure`, `allowedClasses`, `rules`, `requireFormat`,
/// `exclude`.
@main
struct ArchivistLintPlugin: BuildToolPlugin {
    func createBuildCommands(context: PluginContext, target: Target) throws -> [Command] {
        guard let target = target as? SourceModuleTarget else { return [] }
        // `directoryURL` needs tools version 6.1 and 6.0 deprecates `Path`'s
        // members: the folder is taken from `directory` as it prints.
        let config = URL(fileURLWithPath: String(describing: target.directory)).appendingPathComponent(LintInputs.configName)
        return try LintInputs.commands(
            tool: context.tool(named: "archivist").url,
            // Resources, and files the target leaves unhandled; not its code.
            candidates: target.sourceFiles.filter { $0.type != .source && $0.type != .header }.map(\.url),
            config: FileManager.default.fileExists(atPath: config.path) ? config : nil,
            workDirectory: context.pluginWorkDirectoryURL,
            targetName: target.name,
            swiftStamp: target is SwiftSourceModuleTarget
        )
    }
}

#if canImport(XcodeProjectPlugin)
import XcodeProjectPlugin

extension ArchivistLintPlugin: XcodeBuildToolPlugin {
    func createBuildCommands(context: XcodePluginContext, target: XcodeTarget) throws -> [Command] {
        // The Path members are taken as they print, which every Xcode that
        // runs tools-version 6.0 plugins has (their URL twins may be newer).
        let project = URL(fileURLWithPath: String(describing: context.xcodeProject.directory))
        let configs = [
            project.appendingPathComponent(target.displayName).appendingPathComponent(LintInputs.configName),
            project.appendingPathComponent(LintInputs.configName),
        ]
        return try LintInputs.commands(
            tool: context.tool(named: "archivist").url,
            candidates: target.inputFiles.map(\.url),
            config: configs.first { FileManager.default.fileExists(atPath: $0.path) },
            workDirectory: URL(fileURLWithPath: String(describing: context.pluginWorkDirectory)),
            targetName: target.displayName,
            swiftStamp: true
        )
    }
}
#endif

/// Which files the plugin lints, and the command that lints them.
enum LintInputs {
    /// The configuration file the plugin looks for.
    static let configName = "archivist.json"
    /// Extensions of property-list files.
    static let extensions: Set<String> = ["plist", "strings", "stringsdict", "entitlements", "xcprivacy"]
    /// Folders given as one resource (`.copy("Resources")`) are searched this deep.
    static let maxDepth = 32

    /// The one command that lints `candidates`' property lists, or none when
    /// there are none. Its output is a stamp file `archivist lint` writes
    /// only when every file is valid, so the build runs it again only when a
    /// file, the configuration or its rules file changed, or the last run
    /// failed. The build takes a command's outputs into the target: for a
    /// Swift target the stamp is a Swift file holding one comment (compiled
    /// to nothing), for other targets a `.stamp` file that becomes a resource.
    static func commands(tool: URL, candidates: [URL], config: URL?, workDirectory: URL, targetName: String, swiftStamp: Bool) -> [Command] {
        let files = candidates.flatMap { propertyLists(at: $0, depth: 0) }
        guard !files.isEmpty else { return [] }
        let stamp = workDirectory.appendingPathComponent(swiftStamp ? "ArchivistLint.swift" : "ArchivistLint.stamp")
        var arguments = ["lint", "--quiet", "--format", "xcode", "--stamp", stamp.path]
        var inputs = files
        if let config {
            arguments += ["--config", config.path]
            inputs.append(config)
            if let rules = rulesFile(of: config) { inputs.append(rules) }
        }
        // Absolute paths, which no option starts like.
        arguments += files.map(\.path)
        return [.buildCommand(
            displayName: "Linting \(files.count) property list\(files.count == 1 ? "" : "s") of \(targetName)",
            executable: tool,
            arguments: arguments,
            inputFiles: inputs,
            outputFiles: [stamp]
        )]
    }

    /// The property lists at `url`: the file itself when it is one, the
    /// files of a folder (hidden entries skipped) when it is a folder.
    static func propertyLists(at url: URL, depth: Int) -> [URL] {
        var isFolder: ObjCBool = false
        guard FileManager.default.fileExists(atPath: url.path, isDirectory: &isFolder) else { return [] }
        guard isFolder.boolValue else { return isPropertyList(url) ? [url] : [] }
        guard depth < maxDepth,
              let names = try? FileManager.default.contentsOfDirectory(atPath: url.path) else { return [] }
        return names.sorted().filter { !$0.hasPrefix(".") }.flatMap {
            propertyLists(at: url.appendingPathComponent($0), depth: depth + 1)
        }
    }

    /// True for a file with a property list's extension, or one that starts as a binary plist.
    static func isPropertyList(_ url: URL) -> Bool {
        if extensions.contains(url.pathExtension.lowercased()) { return true }
        guard let handle = try? FileHandle(forReadingFrom: url) else { return false }
        defer { try? handle.close() }
        let head = (try? handle.read(upToCount: 6)) ?? Data()
        return head == Data("bplist".utf8)
    }

    /// The rules file a configuration names, so that editing it runs the
    /// lint again (the command reads and checks the configuration itself).
    static func rulesFile(of config: URL) -> URL? {
        guard let data = try? Data(contentsOf: config),
              let object = try? JSONSerialization.jsonObject(with: data) as? [String: Any],
              let rules = object["rules"] as? String, !rules.isEmpty else { return nil }
        if rules.hasPrefix("/") { return URL(fileURLWithPath: rules) }
        return config.deletingLastPathComponent().appendingPathComponent(rules)
    }
}
