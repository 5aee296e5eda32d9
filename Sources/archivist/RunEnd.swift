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
            exit(withError: failure is Console.OutputFailed ? ExitCode.failure : failure)
        }
        if let failure, !(failure is ExitCode), !(failure is Console.OutputFailed) {
            Console.error(fullMessage(for: failure))
        }
        exit(withError: ExitCode(failedStatus))
    }
}
