import ArchivistBatch
import ArchivistCore
import ArgumentParser

/// Claims `path` for one of the run's outputs in `plan` (see `RunOutputs`),
/// as every command does before it writes a file it names once (a report,
/// `-o` of `codegen`, `--suggest-rules`, `set` and `remove`, `lint --stamp`):
/// an output that would replace what the run reads or keeps, or another of
/// its outputs, is a usage error (`Error: ...`, status 64); one whose folder
/// does not exist fails as `cp` fails (`PATH: error: cannot write ...: no
/// such folder ...`, status 1). Nothing has been written either way.
/// `makesFolders`: the folder is one the run makes (an output folder).
func claimOutput(_ path: String, as role: RunOutputs.Role, in plan: inout RunOutputs, makesFolders: Bool = false) throws {
    do {
        try plan.claim(path, as: role, makesFolders: makesFolders)
    } catch let refusal as RunOutputs.Refusal {
        switch refusal {
        case .conflict(let error):
            let message = PlistError.oneLine(error.message)
            Console.error("Error: " + message.prefix(1).uppercased() + message.dropFirst() + ".")
            throw ExitCode.validationFailure
        case .noSuchFolder(let error):
            Console.error(error.formatted(path: path))
            throw ExitCode.failure
        }
    }
}
