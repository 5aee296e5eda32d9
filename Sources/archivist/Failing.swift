import ArchivistCore
import ArgumentParser

/// The one way a command ends on a `PlistError`: runs `body`, and when it
/// throws one, prints it on standard error as `PATH: error: …` (`error: …`
/// when no file is at fault), runs `cleanup`, and exits with status 1. Other
/// errors pass through unchanged.
func failing<T>(at path: String?, cleanup: () -> Void = {}, _ body: () throws -> T) throws -> T {
    do {
        return try body()
    } catch let error as PlistError {
        Console.error(path.map { error.hinted(path: $0) } ?? "error: " + PlistError.oneLine(error.commandMessage))
        cleanup()
        throw ExitCode.failure
    }
}
