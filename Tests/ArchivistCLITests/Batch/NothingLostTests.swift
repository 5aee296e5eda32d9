import ArchivistTestSupport
import ArchivistCore
import Foundation
import XCTest

/// What "nothing lost" means on a real machine: special files written, not
/// replaced; inputs that are no regular files never replaced in place;
/// backups never inputs and never overwritten, with the original's mode,
/// owner and extended attributes; links that lead out of a folder not
/// followed; folders that cannot be listed reported while the rest runs; the
/// leftovers of a killed run removed. Devices are only touched inside a
/// private mount namespace with a tmpfs `/dev` of the test's own.
extension CLITests {
    static let plainXML = """
        <?xml version="1.0" encoding="UTF-8"?>
        <!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">
        <plist version="1.0">
        <dict>
        \t<key>name</key>
        \t<string>value</string>
        </dict>
        </plist>

        """

    /// Runs `executable ARGS` in the scratch folder; standard input is empty.
    func runCommand(_ executable: String, _ args: [String]) throws -> Result {
        try run(executable: URL(fileURLWithPath: executable), args)
    }

    /// Runs `archivist ARGS` as user and group 65534 (nobody); nil where
    /// the process cannot change user (not root).
    func runAsNobody(_ args: [String]) throws -> Result? {
        guard geteuid() == 0 else { return nil }
        return try runCommand("/usr/bin/setpriv", ["--reuid=65534", "--regid=65534", "--clear-groups",
                                                   Self.productsDirectory.appendingPathComponent("archivist").path] + args)
    }

    func path(_ name: String) -> String { work.appendingPathComponent(name).path }

    func fileStatus(_ name: String) throws -> stat {
        var st = stat()
        guard lstat(path(name), &st) == 0 else { throw CocoaError(.fileNoSuchFile) }
        return st
    }

    // MARK: special files

    /// Devices and descriptor links are written, never replaced by a regular
    /// file: `/dev/null` stays a device, `/dev/full` fails with ENOSPC,
    /// `/dev/stdout` into a pipe reaches the pipe and stays a link, for every
    /// command that writes a file.
    func testDevicesAndDescriptorLinksAreWrittenNotReplaced() throws {
        make("in.plist", Self.plainXML)
        let archive = corpus("archives/scary-creature-v1.plist"), rules = corpus("rules/scary-creatures.json")
        let writers = [
            "convert in.plist --to json -o", "convert in.plist --to xml --report", "set in.plist name new --type string -o",
            "remove in.plist name -o", "migrate \(archive) --rules \(rules) -o", "codegen \(archive) --rules \(rules) --secure-coding -o",
            "convert \(archive) --to codable-json --suggest-rules -o",
        ]
        var script = ""
        for (i, command) in writers.enumerated() {
            let quiet = command.contains("--report") ? " -o /dev/null" : ""
            script += """
                $A \(command) /dev/null\(quiet) >/dev/null 2>&1; echo "\(i) null $? $(stat -c %F /dev/null)"
                $A \(command) /dev/full\(quiet) >/dev/null 2>err; echo "\(i) full $? $(grep -c 'No space left on device' err)"
                $A \(command) /dev/stdout\(quiet) 2>/dev/null | wc -c | tr -d ' ' > count; echo "\(i) stdout $(cat count) $(stat -c %F /dev/stdout)"

                """
        }
        let archivist = Self.productsDirectory.appendingPathComponent("archivist").path
        let result = try runWithPrivateDevices(executable: "/bin/sh", ["-c", "A='\(archivist)'\n" + script])
        let lines = result.stdout.split(separator: "\n").map(String.init)
        XCTAssertEqual(lines.count, writers.count * 3, result.stdout + result.stderr)
        for (i, command) in writers.enumerated() {
            XCTAssertTrue(lines.contains("\(i) null 0 character special file"), "\(command): \(result.stdout)")
            XCTAssertTrue(lines.contains("\(i) full 1 1"), "\(command) -o /dev/full fails with ENOSPC: \(result.stdout)")
            let stdout = lines.first { $0.hasPrefix("\(i) stdout ") } ?? ""
            XCTAssertTrue(stdout.hasSuffix(" symbolic link"), "\(command): \(stdout)")
            XCTAssertNotEqual(stdout, "\(i) stdout 0 symbolic link", "\(command): the bytes reach the pipe")
        }
    }

    /// The same without devices: a FIFO of the test's own and a link to a
    /// descriptor (`/proc/self/fd/1`) are written directly.
    func testAFIFOAndADescriptorLinkAreWrittenDirectly() throws {
        make("in.plist", Self.plainXML)
        XCTAssertEqual(mkfifo(path("fifo"), 0o600), 0)
        let reader = ErrorBox()
        let group = DispatchGroup()
        let fifo = path("fifo")
        DispatchQueue.global().async(group: group) {
            // Plain reads until the writer closes (Foundation's file reading
            // takes a FIFO's size of 0 as its length).
            let fd = open(fifo, O_RDONLY)
            guard fd >= 0 else { return }
            var buffer = [UInt8](repeating: 0, count: 4096)
            while true {
                let n = read(fd, &buffer, buffer.count)
                if n <= 0 { break }
                reader.data.append(contentsOf: buffer[..<n])
            }
            close(fd)
        }
        let result = try run(["convert", "in.plist", "--to", "json", "-o", "fifo"])
        group.wait()
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertEqual(String(decoding: reader.data, as: UTF8.self), #"{"name":"value"}"#)
        XCTAssertEqual(try fileStatus("fifo").st_mode & S_IFMT, S_IFIFO, "still a FIFO")

        XCTAssertEqual(symlink("/proc/self/fd/1", path("out")), 0)
        let linked = try run(["convert", "in.plist", "--to", "json", "-o", "out"])
        XCTAssertEqual(linked.status, 0, linked.stderr)
        XCTAssertEqual(linked.stdout, #"{"name":"value"}"#, "the bytes reach the pipe")
        XCTAssertEqual(try fileStatus("out").st_mode & S_IFMT, S_IFLNK, "still a link")
    }

    /// `--in-place` and `set` without `-o` replace only regular files: a
    /// descriptor link to a pipe (what `/dev/stdin` is), or a FIFO, is refused
    /// and left as it was.
    func testInPlaceRefusesWhatIsNoRegularFile() throws {
        XCTAssertEqual(symlink("/proc/self/fd/0", path("stdin")), 0)
        XCTAssertEqual(mkfifo(path("fifo"), 0o600), 0)
        for args in [["convert", "stdin", "--to", "json", "--in-place"], ["convert", "fifo", "--to", "json", "--in-place"],
                     ["set", "stdin", "name", "x", "--type", "string"], ["remove", "fifo", "name"]] {
            let result = try run(args, stdin: Data(Self.plainXML.utf8))
            XCTAssertEqual(result.status, 1, "\(args)")
            XCTAssertEqual(result.stderr, "\(args[1]): error: cannot replace \(args[1]) in place: not a regular file (a device, pipe, socket or descriptor; write the result with -o)\n", "\(args)")
        }
        XCTAssertEqual(try fileStatus("stdin").st_mode & S_IFMT, S_IFLNK)
        XCTAssertEqual(try fileStatus("fifo").st_mode & S_IFMT, S_IFIFO)
        XCTAssertEqual(try listing(), ["fifo", "stdin"])
    }

    // MARK: backups

    /// A second in-place run with the same backup suffix takes no backup as
    /// an input, and refuses (naming it) every file whose backup exists, so
    /// the originals are never lost; files without a backup go on.
    func testBackupsAreNeverInputsAndNeverOverwritten() throws {
        let rules = corpus("rules/scary-creatures.json")
        let original = try XCTUnwrap(FileManager.default.contents(atPath: corpus("archives/scary-creature-v1.plist")))
        try FileManager.default.createDirectory(at: work.appendingPathComponent("docs/sub"), withIntermediateDirectories: true)
        try original.write(to: work.appendingPathComponent("docs/a.plist"))
        try original.write(to: work.appendingPathComponent("docs/sub/b.plist"))
        let first = try run(["migrate", "docs", "-r", "--rules", rules, "--in-place", "--backup", ".v1"])
        XCTAssertEqual(first.status, 0, first.stderr)
        XCTAssertEqual(contents("docs/a.plist.v1"), original)
        XCTAssertEqual(contents("docs/sub/b.plist.v1"), original)
        let migrated = contents("docs/a.plist")
        XCTAssertNotEqual(migrated, original)

        // A second run: no backup is an input, the migrated files are left
        // alone, and a file added since is migrated with its backup.
        try original.write(to: work.appendingPathComponent("docs/c.plist"))
        let second = try run(["migrate", "docs", "-r", "--rules", rules, "--in-place", "--backup", ".v1"])
        XCTAssertEqual(second.status, 0, second.stderr)
        XCTAssertTrue(second.stderr.hasPrefix("1 converted, 2 unchanged, 0 skipped, 0 failed"), second.stderr)
        XCTAssertEqual(try listing("docs"), ["a.plist", "a.plist.v1", "c.plist", "c.plist.v1", "sub"])
        XCTAssertEqual(contents("docs/c.plist.v1"), original)

        // A third run that would change them again: every existing backup is
        // refused, named, and kept; the originals are still there.
        let third = try run(["convert", "docs", "-r", "--to", "xml", "--in-place", "--backup", ".v1"])
        XCTAssertEqual(third.status, 1)
        for name in ["docs/a.plist", "docs/c.plist", "docs/sub/b.plist"] {
            XCTAssertTrue(third.stderr.contains("\(name): error: refusing to overwrite \(name).v1: a backup is never overwritten"), third.stderr)
            XCTAssertEqual(contents(name + ".v1"), original, name)
            XCTAssertEqual(contents(name), name.hasSuffix("c.plist") ? contents("docs/c.plist") : migrated, name)
        }
        XCTAssertTrue(third.stderr.contains("\n0 converted, 0 unchanged, 0 skipped, 3 failed;"), third.stderr)
        XCTAssertEqual(try listing("docs"), ["a.plist", "a.plist.v1", "c.plist", "c.plist.v1", "sub"])
    }

    /// A killed in-place run that had made a file's backup but not yet
    /// replaced the file is retried as it was: the backup, which holds that
    /// file exactly, is kept and the run goes on.
    func testARetryKeepsTheBackupItsKilledAttemptMade() throws {
        make("a.plist", Self.plainXML)
        make("a.plist.orig", Self.plainXML)
        let retry = try run(["convert", "a.plist", "--to", "binary", "--in-place", "--backup", ".orig"])
        XCTAssertEqual(retry.status, 0, retry.stderr)
        XCTAssertEqual(contents("a.plist.orig"), Data(Self.plainXML.utf8))
        XCTAssertEqual(contents("a.plist")?.prefix(8), Data("bplist00".utf8))
        XCTAssertEqual(try listing(), ["a.plist", "a.plist.orig"])
    }

    /// Backups and in-place results keep the original's mode, owner, group
    /// and extended attributes (run as root, for a file of another user).
    func testBackupsAndResultsKeepModeOwnerAndExtendedAttributes() throws {
        guard geteuid() == 0 else { throw XCTSkip("needs root to give a file to another user") }
        make("secret.plist", Self.plainXML)
        let file = path("secret.plist")
        XCTAssertEqual(chmod(file, 0o600), 0)
        XCTAssertEqual(chown(file, 1234, 2345), 0)
        let xattrs = "import os, sys\nfor p in sys.argv[2:]:\n    os.setxattr(p, 'user.archivist-test', b'kept') if sys.argv[1] == 'set' else print(os.getxattr(p, 'user.archivist-test').decode())"
        let hasXattrs = try runCommand("/usr/bin/python3", ["-c", xattrs, "set", file]).status == 0
        let result = try run(["convert", "secret.plist", "--to", "binary", "--in-place", "--backup", ".orig"])
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertEqual(result.stderr, "")
        for name in ["secret.plist", "secret.plist.orig"] {
            let st = try fileStatus(name)
            XCTAssertEqual(st.st_mode & 0o7777, 0o600, name)
            XCTAssertEqual(st.st_uid, 1234, name)
            XCTAssertEqual(st.st_gid, 2345, name)
        }
        if hasXattrs {
            let read = try runCommand("/usr/bin/python3", ["-c", xattrs, "get", path("secret.plist"), path("secret.plist.orig")])
            XCTAssertEqual(read.stdout, "kept\nkept\n", read.stderr)
        }
        XCTAssertEqual(contents("secret.plist.orig"), Data(Self.plainXML.utf8))
        XCTAssertEqual(contents("secret.plist")?.prefix(8), Data("bplist00".utf8))

        // `set` keeps them too.
        let set = try run(["set", "secret.plist", "name", "other", "--type", "string"])
        XCTAssertEqual(set.status, 0, set.stderr)
        let st = try fileStatus("secret.plist")
        XCTAssertEqual([st.st_mode & 0o7777, mode_t(st.st_uid), mode_t(st.st_gid)], [0o600, 1234, 2345])
    }

    /// A user who may write a file but not give it away: the new file is
    /// theirs, and the command says the owner was not kept.
    func testAnOwnerThatCannotBeKeptIsSaid() throws {
        make("shared/prefs.plist", Self.plainXML)
        XCTAssertEqual(chmod(path("shared"), 0o777), 0)
        XCTAssertEqual(chmod(work.path, 0o755), 0)
        XCTAssertEqual(chmod(path("shared/prefs.plist"), 0o666), 0)
        guard let result = try runAsNobody(["set", "shared/prefs.plist", "name", "edited", "--type", "string"]) else {
            throw XCTSkip("needs root to run as another user")
        }
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertEqual(result.stderr, "shared/prefs.plist: warning: the owner (user 0, group 0) is not kept: the new file belongs to user 65534, group 65534 (Operation not permitted)\n")
        XCTAssertEqual(try fileStatus("shared/prefs.plist").st_uid, 65534)
    }

    /// A file with hard links is replaced by a new file, and the command
    /// says its other names keep the old content.
    func testHardLinksAreReported() throws {
        make("a.plist", Self.plainXML)
        XCTAssertEqual(link(path("a.plist"), path("b.plist")), 0)
        let result = try run(["set", "a.plist", "name", "edited", "--type", "string"])
        XCTAssertEqual(result.status, 0)
        XCTAssertEqual(result.stderr, "a.plist: warning: it had 2 names (hard links): it is replaced by a new file, and its other names keep the old content\n")
        XCTAssertEqual(contents("b.plist"), Data(Self.plainXML.utf8))
        XCTAssertTrue(String(decoding: contents("a.plist") ?? Data(), as: UTF8.self).contains("edited"))
    }

    // MARK: folders and links

    /// Links inside a folder that lead out of it are skipped with a warning
    /// (their targets untouched), dangling and looping links are reported,
    /// and `--follow-links` takes what they lead to; a link planted in the
    /// output folder is not written through.
    func testLinksThatLeaveTheFolderAreNotFollowed() throws {
        make("outside.plist", Self.plainXML)
        make("docs/inside.plist", Self.plainXML)
        XCTAssertEqual(symlink(path("outside.plist"), path("docs/out.plist")), 0)
        XCTAssertEqual(symlink("inside.plist", path("docs/alias.plist")), 0)
        XCTAssertEqual(symlink("missing.plist", path("docs/dangling.plist")), 0)
        XCTAssertEqual(symlink("loop.plist", path("docs/loop.plist")), 0)
        let result = try run(["convert", "docs", "--to", "binary", "--in-place"])
        XCTAssertEqual(result.status, 0, result.stderr)
        let lines = result.stderr.split(separator: "\n").map(String.init)
        XCTAssertEqual(Array(lines.dropLast()), [
            "docs/dangling.plist: warning: a dangling symbolic link (No such file or directory); skipped",
            "docs/loop.plist: warning: a symbolic link that loops; skipped",
            "docs/out.plist: warning: a symbolic link to \(path("outside.plist")), outside \(path("docs")); skipped (name it, or give --follow-links)",
        ])
        // The link to a file inside is the same file: converted once.
        XCTAssertTrue(lines.last?.hasPrefix("1 converted, 1 unchanged, 0 skipped, 0 failed") == true, result.stderr)
        XCTAssertEqual(try fileStatus("docs/alias.plist").st_mode & S_IFMT, S_IFLNK)
        XCTAssertEqual(contents("outside.plist"), Data(Self.plainXML.utf8), "the target outside is untouched")
        let lint = try run(["lint", "docs"])
        XCTAssertEqual(lint.status, 0, lint.stderr)
        XCTAssertEqual(lint.stdout, "docs/alias.plist: OK\ndocs/inside.plist: OK\n")
        XCTAssertTrue(lint.stderr.contains("docs/out.plist: warning: a symbolic link to"), lint.stderr)
        XCTAssertEqual(contents("docs/inside.plist")?.prefix(6), Data("bplist".utf8))

        let followed = try run(["convert", "docs", "--to", "binary", "--in-place", "--follow-links"])
        XCTAssertEqual(followed.status, 0, followed.stderr)
        XCTAssertEqual(contents("outside.plist")?.prefix(6), Data("bplist".utf8))

        // A link planted in an output folder.
        make("victim.plist", "untouched")
        make("out/inside.plist", "")
        XCTAssertEqual(unlink(path("out/inside.plist")), 0)
        XCTAssertEqual(symlink(path("victim.plist"), path("out/inside.plist")), 0)
        let planted = try run(["convert", "docs/inside.plist", "--to", "xml", "--output-dir", "out"])
        XCTAssertEqual(planted.status, 1)
        XCTAssertEqual(planted.stderr, "docs/inside.plist: error: refusing to write through the symbolic link out/inside.plist in the output folder (remove it, or give --follow-links)\n")
        XCTAssertEqual(contents("victim.plist"), Data("untouched".utf8))
    }

    /// A subfolder that cannot be listed is reported and the rest converted
    /// (exit 1).
    func testFoldersThatCannotBeReadAreReportedAndTheRestRuns() throws {
        make("docs/a.plist", Self.plainXML)
        make("docs/locked/b.plist", Self.plainXML)
        for folder in ["", "docs"] { XCTAssertEqual(chmod(path(folder), 0o777), 0) }
        XCTAssertEqual(chmod(path("docs/a.plist"), 0o666), 0)
        XCTAssertEqual(chmod(path("docs/locked"), 0o000), 0)
        defer { chmod(path("docs/locked"), 0o755) }
        guard let result = try runAsNobody(["convert", "docs", "-r", "--to", "json", "--output-dir", "out"]) else {
            throw XCTSkip("needs root to run as a user who cannot list the folder")
        }
        XCTAssertEqual(result.status, 1)
        XCTAssertTrue(result.stderr.contains("docs/locked: error: cannot list docs/locked: Permission denied"), result.stderr)
        XCTAssertTrue(result.stderr.contains("1 converted, 0 unchanged, 0 skipped, 1 failed"), result.stderr)
        XCTAssertEqual(contents("out/a.json"), Data(#"{"name":"value"}"#.utf8))

        // lint too: the folder it cannot list is an error, the rest is checked.
        let lint = try runAsNobody(["lint", "docs"])
        XCTAssertEqual(lint?.status, 1)
        XCTAssertTrue(lint?.stdout.contains("docs/a.plist: OK") == true, lint?.stdout ?? "")
        XCTAssertTrue(lint?.stderr.contains("docs/locked: error: cannot list docs/locked: Permission denied") == true, lint?.stderr ?? "")
    }

    /// A file name that is not UTF-8 (Latin-1 `caf\xE9.plist`) keeps its bytes:
    /// it is read, converted into a folder under its own name, replaced in
    /// place, and shown as `\xE9` in messages.
    func testNamesThatAreNotUTF8KeepTheirBytes() throws {
        make("docs/plain.plist", Self.plainXML)
        let raw = Array(path("docs/caf").utf8) + [0xE9] + Array(".plist".utf8)
        let fd = open(raw.map { CChar(bitPattern: $0) } + [0], O_WRONLY | O_CREAT, 0o644)
        XCTAssertGreaterThanOrEqual(fd, 0)
        _ = Self.plainXML.withCString { write(fd, $0, strlen($0)) }
        close(fd)
        /// The names in a folder, as bytes.
        func names(_ folder: String) -> [[UInt8]] {
            guard let dir = opendir(path(folder)) else { return [] }
            defer { closedir(dir) }
            var found: [[UInt8]] = []
            while let entry = readdir(dir) {
                let name = withUnsafeBytes(of: entry.pointee.d_name) { Array($0.prefix { $0 != 0 }) }
                if name.first != UInt8(ascii: ".") { found.append(name) }
            }
            return found.sorted { $0.lexicographicallyPrecedes($1) }
        }
        let converted = try run(["convert", "docs", "--to", "json", "--output-dir", "out"])
        XCTAssertEqual(converted.status, 0, converted.stderr)
        XCTAssertEqual(names("out"), [Array("caf".utf8) + [0xE9] + Array(".json".utf8), Array("plain.json".utf8)])
        let inPlace = try run(["convert", "docs", "--to", "binary", "--in-place"])
        XCTAssertEqual(inPlace.status, 0, inPlace.stderr)
        XCTAssertEqual(names("docs"), [Array("caf".utf8) + [0xE9] + Array(".plist".utf8), Array("plain.plist".utf8)])
        let fd2 = open(raw.map { CChar(bitPattern: $0) } + [0], O_RDONLY)
        var head = [UInt8](repeating: 0, count: 8)
        XCTAssertEqual(read(fd2, &head, 8), 8)
        close(fd2)
        XCTAssertEqual(head, Array("bplist00".utf8), "replaced in place under its own name")
        let lint = try run(["lint", "docs"])
        XCTAssertEqual(lint.stdout, "docs/caf\\xE9.plist: OK\ndocs/plain.plist: OK\n")
    }

    /// An output folder inside the input folder is not walked on the next run.
    func testAnOutputFolderInsideTheInputIsNotWalked() throws {
        make("docs/a.plist", Self.plainXML)
        for _ in 0..<2 {
            let result = try run(["convert", "docs", "-r", "--to", "binary", "--output-dir", "docs/converted"])
            XCTAssertEqual(result.status, 0, result.stderr)
        }
        XCTAssertEqual(try listing("docs/converted"), ["a.plist"])
    }

    /// The temporary files a killed run left are removed by the next run
    /// writing into the folder; those a live process holds locked are kept,
    /// whatever process ID their name holds (one of another PID namespace
    /// may be a number that is free here, or this very process's).
    func testLeftoversOfAKilledRunAreRemoved() throws {
        make("docs/a.plist", Self.plainXML)
        let done = try ProcessRunner.start(URL(fileURLWithPath: "/bin/true"), [], stdin: .inherit, stdout: .null, stderr: .null)
        done.process.waitUntilExit()
        let dead = done.pid
        make("docs/.a.plist.archivist-\(dead)-0000001", "partial")
        make("docs/.b.plist.archivist-\(dead)-0000002", "being written, by a process of another namespace")
        make("docs/.c.plist.archivist-\(getpid())-0000003", "left by a killed run whose ID is now the test's")
        make("docs/.notes.archivist-x", "not ours")
        let held = open(path("docs/.b.plist.archivist-\(dead)-0000002"), O_RDONLY)
        XCTAssertGreaterThanOrEqual(held, 0)
        defer { close(held) }
        XCTAssertEqual(flock(held, LOCK_EX), 0)
        let result = try run(["convert", "docs/a.plist", "--to", "binary", "--in-place"])
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertEqual(try listing("docs"), [".b.plist.archivist-\(dead)-0000002", ".notes.archivist-x", "a.plist"])
    }

    /// Two shards of one folder in separate PID namespaces (as containers
    /// run them): the second runs from start to end while the first has
    /// every result staged, and removes none of the first's temporary files
    /// (each is locked by its writer), so both succeed.
    func testShardsInSeparatePIDNamespacesKeepEachOthersFiles() throws {
        guard let unshare = ["/usr/bin/unshare", "/bin/unshare"].first(where: { FileManager.default.isExecutableFile(atPath: $0) }) else {
            throw XCTSkip("unshare is not installed")
        }
        let namespace = [unshare, "--pid", "--fork", "--mount-proc"]
        let probe = try runCommand(unshare, Array(namespace.dropFirst()) + ["/bin/true"])
        guard probe.status == 0 else { throw XCTSkip("new PID namespaces are not permitted here: \(probe.stderr)") }
        for i in 0..<40 { make("docs/f\(i).plist", Self.plainXML) }
        let archivist = Self.productsDirectory.appendingPathComponent("archivist").path
        let shard = ["convert", "docs", "--to", "binary", "--in-place", "--shard"]
        var second: Result?
        // The first shard runs after 100 other processes of its namespace,
        // so the ID in its files' names is free in the second's namespace,
        // where the second shard is process 1 (its threads count up from 2).
        let burn = "i=0; while [ $i -lt 100 ]; do /bin/true; i=$((i+1)); done; \"$0\" \"$@\"; exit $?"
        let first = try runStopped(at: "syncfs", namespace.dropFirst() + ["/bin/sh", "-c", burn, archivist] + shard + ["1/2"],
                                   launcher: unshare) {
            let staged = try listing("docs").filter { $0.contains(".archivist-") }
            XCTAssertFalse(staged.isEmpty, "the first shard has its results staged")
            second = try runCommand(unshare, Array(namespace.dropFirst()) + [archivist] + shard + ["2/2"])
            XCTAssertEqual(try listing("docs").filter { $0.contains(".archivist-") }.count, staged.count, "the second shard kept the first's files")
        }
        guard let first else { throw XCTSkip("strace cannot run here") }
        XCTAssertEqual(second?.status, 0, second?.stderr ?? "")
        XCTAssertEqual(first.status, 0, first.stderr)
        let names = try listing("docs")
        XCTAssertEqual(names.count, 40, "\(names)")
        for name in names {
            XCTAssertEqual(contents("docs/\(name)")?.prefix(8), Data("bplist00".utf8), name)
        }
    }

    // MARK: concurrent writers

    /// Runs `archivist ARGS` (or `launcher ARGS`, which runs it) under
    /// strace, stopped (SIGSTOP) when it enters `call` the `when`-th time
    /// (`injecting`: more of strace's injection, such as `:error=EPERM`, for
    /// that call); `meanwhile` runs while it is stopped, then it goes on.
    /// Nil (a skip; a failure under CI) where strace cannot run.
    func runStopped(at call: String, when: Int = 1, injecting: String = "", _ args: [String], launcher: String? = nil,
                    meanwhile: () throws -> Void) throws -> Result? {
        guard let strace = ["/usr/bin/strace", "/bin/strace"].first(where: { FileManager.default.isExecutableFile(atPath: $0) }) else {
            if ProcessInfo.processInfo.environment["CI"] == "true" { XCTFail("strace is not installed") }
            return nil
        }
        let traced = try ProcessRunner.start(URL(fileURLWithPath: strace),
                                             ["-f", "-qq", "-o", path("strace.log"), "-e", "trace=" + call, "-e", "inject=\(call):signal=SIGSTOP\(injecting):when=\(when)",
                                              launcher ?? ProcessRunner.archivist.path] + args,
                                             in: work, stdin: .inherit, stdout: .null)
        let process = traced.process
        // The traced process, once strace says it is stopped (the line
        // `PID --- stopped by SIGSTOP ---`; a tracee shows as stopped at
        // every traced call, so its state alone does not tell).
        var stopped: Int32?
        for _ in 0..<6000 where stopped == nil && process.isRunning {
            usleep(10_000)
            let log = (try? String(contentsOfFile: path("strace.log"), encoding: .utf8)) ?? ""
            stopped = log.split(separator: "\n").first { $0.hasSuffix("--- stopped by SIGSTOP ---") }
                .flatMap { $0.split(separator: " ").first }.flatMap { Int32($0) }
        }
        guard let child = stopped else {
            process.terminate()
            process.waitUntilExit()
            if ProcessInfo.processInfo.environment["CI"] == "true" { XCTFail("archivist did not stop at \(call)") }
            return nil
        }
        try meanwhile()
        kill(child, SIGCONT)
        return traced.finish()
    }

    /// A file another process rewrites after an in-place batch read it and
    /// before its result is put in place is left as they wrote it; the run
    /// says so and exits 1; the other files are converted.
    func testAConcurrentEditDuringABatchIsNotOverwritten() throws {
        for name in ["a", "b", "c"] { make("docs/\(name).plist", Self.plainXML) }
        let theirs = Data("<plist><string>someone else</string></plist>".utf8)
        // syncfs: every result is staged, none is in place yet.
        guard let result = try runStopped(at: "syncfs", ["convert", "docs", "--to", "binary", "--in-place", "--backup", ".orig"], meanwhile: {
            try theirs.write(to: work.appendingPathComponent("docs/b.plist"))
        }) else { throw XCTSkip("strace is not installed or cannot trace here (tools/test installs it; a container needs ptrace)") }
        XCTAssertEqual(result.status, 1)
        XCTAssertTrue(result.stderr.contains("docs/b.plist: error: docs/b.plist changed while converting; it was left as it is (run again to convert what it holds now)\n"), result.stderr)
        XCTAssertTrue(result.stderr.contains("2 converted, 0 unchanged, 0 skipped, 1 failed"), result.stderr)
        XCTAssertEqual(contents("docs/b.plist"), theirs)
        XCTAssertEqual(try listing("docs"), ["a.plist", "a.plist.orig", "b.plist", "c.plist", "c.plist.orig"])
        XCTAssertEqual(contents("docs/a.plist")?.prefix(8), Data("bplist00".utf8))
    }

    /// The same for `set`: an edit made between its read and its rename wins.
    func testAConcurrentEditDuringSetIsNotOverwritten() throws {
        make("prefs.plist", Self.plainXML)
        let theirs = Data("<plist><string>someone else</string></plist>".utf8)
        // fsync: the new file is written, not yet renamed into place.
        guard let result = try runStopped(at: "fsync", ["set", "prefs.plist", "name", "mine", "--type", "string"], meanwhile: {
            try theirs.write(to: work.appendingPathComponent("prefs.plist"), options: .atomic)
        }) else { throw XCTSkip("strace is not installed or cannot trace here (tools/test installs it; a container needs ptrace)") }
        XCTAssertEqual(result.status, 1)
        XCTAssertEqual(result.stderr, "prefs.plist: error: prefs.plist changed while converting; it was left as it is (run again to convert what it holds now)\n")
        XCTAssertEqual(contents("prefs.plist"), theirs)
        XCTAssertEqual(try listing().filter { $0 != "strace.log" }, ["prefs.plist"])
    }
}
