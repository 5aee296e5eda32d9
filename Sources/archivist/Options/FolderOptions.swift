import ArchivistBatch
import ArchivistCore
import ArgumentParser

/// Which files of the folders given as inputs a command takes, and whether
/// it lists the files it skips: the same for every command that takes folders.
struct FolderOptions: ParsableArguments {
    @Option(help: ArgumentHelp("Take only files in folders whose name (or, with a '/', relative path) matches GLOB; repeatable.", valueName: "GLOB"))
    var include: [String] = []

    @Option(help: ArgumentHelp("Leave out files in folders matching GLOB; repeatable.", valueName: "GLOB"))
    var exclude: [String] = []

    @Flag(help: "List each file found in a folder that is skipped because it is not a property list (by its extension and first bytes).")
    var verbose = false

    @Flag(name: .customLong("all-files"), help: "Read every file found in a folder, not only those whose extension or first bytes say they are of the property-list family (--include globs choose files by name too).")
    var allFiles = false

    @Flag(help: "Walk hidden files and folders too (names starting with a dot, such as .DS_Store), which folder walks otherwise leave out.")
    var hidden = false

    @Flag(name: .customLong("follow-links"), help: "Take files reached through symbolic links that lead out of the folder given (otherwise skipped with a warning), and write results through links in the output folder.")
    var followLinks = false

    /// True when a file found in a folder is read only if its extension or
    /// first bytes say it is of the property-list family (`BatchPlan.readsInWalk`):
    /// not with --all-files, nor with --include globs, which choose files by name.
    var filtersByKind: Bool { !allFiles && include.isEmpty }

    /// The line that reports what a folder walk left out: `PATH: error: ...`
    /// for what could not be read, `PATH: warning: ...` for what was left out
    /// on purpose.
    static func line(for problem: FileIO.WalkProblem) -> String {
        "\(problem.path): \(problem.isError ? "error" : "warning"): \(problem.message)"
    }

    /// The line `--verbose` prints for a skipped file.
    static func skippedLine(_ path: String, reason: String = "not a property list") -> String {
        "\(path): skipped: \(reason)"
    }
}
