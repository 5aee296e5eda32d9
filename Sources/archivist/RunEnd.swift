import ArchivistCore
import ArgumentParser

/// How a run ends: standard output is checked after the command, so that a
/// failed write to it (a full disk, a closed pipe) ends the run with
/// `error: cannot write standard output: REASON` and status 1 (2 for `diff`)
/// whatever the command did, instead of status 0.
extension Archivist {
    /// Parses `arguments` (the command line's, as `CommandLineBytes` reads
    /// them) and runs the command,
    /// as ArgumentParser's `main(_:)` does, then ends the run with `end`.
    static func runAndEnd(_ arguments: [String]) -> Never {
        do {
            var command = try parseAsRoot(arguments)
            try command.run()
        } catch {
            end(error)
        }
        end(nil)
    }

    /// Ends the run after the command finished (`failure` nil) or threw:
    /// writes what standard output still holds, reports a failed write once,
    /// and exits as ArgumentParser does (its message for `failure`).
    static func end(_ failure: (any Error)?) -> Never {
        let status = failure.map { exitCode(for: $0).rawValue } ?? 0
        guard let failedStatus = Console.finish(status: status) else {
            // An output stream that failed is reported by Console.finish;
            // this branch is reached only when it did not fail.
            guard let failure, !(failure is Console.OutputFailed) else { exit(withError: failure.map { _ in ExitCode.failure }) }
            reportParserError(failure)
        }
        if let failure, !(failure is ExitCode), !(failure is Console.OutputFailed) {
            Console.error(fullMessage(for: failure))
        }
        exit(withError: ExitCode(failedStatus))
    }

    /// Exits as ArgumentParser does for `failure`, its message on standard
    /// error through the console like every other message: what it quotes
    /// of the command line with every control character escaped (a line
    /// break in an argument cannot forge a line), its own lines and usage
    /// with their layout kept. Help and version requests go to standard
    /// output as ArgumentParser prints them.
    private static func reportParserError(_ failure: any Error) -> Never {
        let code = exitCode(for: failure)
        var text = fullMessage(for: failure)
        guard code != .success, !(failure is ExitCode), !text.isEmpty else { exit(withError: failure) }
        for argument in CommandLine.arguments.dropFirst() where argument.unicodeScalars.contains(where: { TerminalText.isControl($0) }) {
            // An option's value is quoted alone (`--to=VALUE`), longest first.
            let parts = [argument] + argument.split(separator: "=", maxSplits: 1).dropFirst().map(String.init)
            for part in parts where part.unicodeScalars.contains(where: { TerminalText.isControl($0) }) {
                text = text.replacing(part, with: TerminalText.escaped(part))
            }
        }
        Console.errorBlock(text)
        exit(withError: code)
    }
}
