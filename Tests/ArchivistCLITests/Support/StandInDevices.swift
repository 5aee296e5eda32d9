import ArchivistTestSupport
import Foundation
import XCTest

/// Stand-ins for special files, so that tests never write to the host's `/dev`:
/// a pipe whose reader is gone (EPIPE), and a private mount namespace whose
/// `/dev` is a fresh tmpfs holding its own `null`, `zero` and `full` nodes.
extension CLITests {
    /// True when `unshare -m` can make a private mount namespace here (Linux,
    /// run as root): `runWithPrivateDevices` needs it.
    static let privateDevicesAvailable: Bool = {
        #if os(Linux)
        guard FileManager.default.isExecutableFile(atPath: unshare) else { return false }
        let probe = try? ProcessRunner.run(URL(fileURLWithPath: unshare), ["-m", "sh", "-c", "mount -t tmpfs none /dev && mknod /dev/full c 1 7"],
                                           stdout: .null, stderr: .null)
        return probe?.status == 0
        #else
        return false
        #endif
    }()

    private static let unshare = "/usr/bin/unshare"

    /// The script run inside the namespace: a private tmpfs on `/dev` with
    /// `null`, `zero` and `full` made by `mknod` and the descriptor links
    /// (`/dev/fd`, `/dev/stdin`, `/dev/stdout`, `/dev/stderr`), then `"$@"` with standard
    /// output sent to `$ARCHIVIST_TEST_STDOUT` when it is set. The mount is
    /// the namespace's own (`unshare -m` makes mounts private): the host's
    /// `/dev` is never touched.
    private static let privateDevScript = """
        mount -t tmpfs -o mode=755 none /dev || exit 125
        mknod -m 666 /dev/null c 1 3 && mknod -m 666 /dev/zero c 1 5 && mknod -m 666 /dev/full c 1 7 || exit 125
        ln -s /proc/self/fd /dev/fd && ln -s /proc/self/fd/0 /dev/stdin && ln -s /proc/self/fd/1 /dev/stdout && ln -s /proc/self/fd/2 /dev/stderr || exit 125
        if [ -n "$ARCHIVIST_TEST_STDOUT" ]; then exec "$@" > "$ARCHIVIST_TEST_STDOUT"; fi
        exec "$@"
        """

    /// Runs `archivist` with `args` inside a private mount namespace whose
    /// `/dev` holds stand-in `null`, `zero` and `full` devices, standard output
    /// going to `standardOutput` (a path inside the namespace, such as
    /// `/dev/full`) when given. Skips the test where no such namespace can be
    /// made.
    func runWithPrivateDevices(_ args: [String], standardOutput: String? = nil) throws -> Result {
        try runWithPrivateDevices(executable: ProcessRunner.archivist.path, args, standardOutput: standardOutput)
    }

    /// `runWithPrivateDevices(_:standardOutput:)` for any executable (a
    /// shell script that runs `archivist` several times, say).
    func runWithPrivateDevices(executable: String, _ args: [String], standardOutput: String? = nil) throws -> Result {
        guard Self.privateDevicesAvailable else { throw XCTSkip("unshare -m is not available (Linux, as root)") }
        var environment = ProcessInfo.processInfo.environment
        environment["ARCHIVIST_TEST_STDOUT"] = standardOutput ?? ""
        let r = try ProcessRunner.run(URL(fileURLWithPath: Self.unshare), ["-m", "sh", "-c", Self.privateDevScript, "sh", executable] + args,
                                      in: work, environment: environment, stdin: .null)
        if r.status == 125 { throw XCTSkip("no private /dev: \(r.stderr)") }
        return r
    }

    /// Runs `archivist` with `args`, its standard output a pipe whose read end
    /// is closed before it starts: every write to standard output fails with
    /// EPIPE (archivist ignores SIGPIPE).
    func runWithClosedStandardOutput(_ args: [String]) throws -> Result {
        try ProcessRunner.run(ProcessRunner.archivist, args, in: work, stdin: .null, stdout: .closed)
    }
}
