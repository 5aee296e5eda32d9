import ArchivistBatch
import ArchivistCore
import ArgumentParser

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// How a batch walks folders, splits and runs its work.
struct BatchOptions: ParsableArguments {
    @Flag(name: [.short, .long], help: "Walk folders given as inputs recursively (otherwise only the files directly inside). Not plutil's -r (human-readable JSON): that is --pretty.")
    var recursive = false

    @OptionGroup var folders: FolderOptions

    @Option(parsing: .unconditional, help: ArgumentHelp("Files converted at once (default: the number of cores); results do not depend on it.", valueName: "N"))
    var jobs: Int?

    @Flag(name: .customLong("fail-fast"), help: "Stop at the first failure (default: report every failure and go on).")
    var failFast = false

    @Flag(name: .customLong("keep-going"), help: "Report every failure and go on (the default for files).")
    var keepGoing = false

    @Option(help: ArgumentHelp("Write a JSON report with one entry per input file (path, status, destination, errors).", valueName: "FILE"))
    var report: String?

    @Option(help: ArgumentHelp("Take only shard I of N (1 <= I <= N), split by a stable hash of each path, for fanning a job out across machines.", valueName: "I/N"))
    var shard: String?

    func validate() throws {
        if let jobs, jobs < 1 { throw ValidationError("--jobs takes a number of at least 1.") }
        if failFast, keepGoing { throw ValidationError("Use only one of --fail-fast and --keep-going.") }
        if let shard, BatchSelection.parseShard(shard) == nil { throw ValidationError("--shard takes I/N with 1 <= I <= N, such as 2/8.") }
    }

    /// The selection these options describe.
    var selection: BatchSelection {
        BatchSelection(recursive: recursive, include: folders.include, exclude: folders.exclude, shard: shard.flatMap(BatchSelection.parseShard),
                       followLinks: folders.followLinks, hidden: folders.hidden)
    }

    /// The number of jobs: --jobs, else the online processors.
    var jobCount: Int {
        if let jobs { return jobs }
        return max(1, Int(sysconf(Int32(_SC_NPROCESSORS_ONLN))))
    }
}
