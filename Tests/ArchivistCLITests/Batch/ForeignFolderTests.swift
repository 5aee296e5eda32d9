import Foundation
import XCTest

/// What holds when root runs a batch on a folder another user can write
/// (docs/guide/safety.md, "Another user's folder"): the user `nobody` swaps a
/// file or a subfolder for a symbolic link while archivist is held (strace
/// stops it at a chosen system call), and archivist neither reads, writes nor
/// leaves files where the link leads. (strace's SIGSTOP injection stops a
/// process once the call it is injected into has run, so archivist is held
/// after the call before the one that matters.) Also the retry after a change meanwhile,
/// set-id bits rewritten by the file's owner, and backups where hard links
/// fail. Every test skips with its reason when it cannot run here.
extension CLITests {
    /// Skips unless the test can run a second user (root, setpriv).
    private func requireSecondUser() throws {
        guard geteuid() == 0 else { throw XCTSkip("needs root, to act as a second user (nobody)") }
        guard FileManager.default.isExecutableFile(atPath: "/usr/bin/setpriv") else { throw XCTSkip("needs setpriv (util-linux)") }
        guard ["/usr/bin/strace", "/bin/strace"].contains(where: { FileManager.default.isExecutableFile(atPath: $0) }) else {
            throw XCTSkip("needs strace, to hold archivist at a system call")
        }
    }

    /// Runs `script` with /bin/sh as user and group 65534 (nobody) in the scratch folder.
    @discardableResult
    private func asNobody(_ script: String) throws -> Result {
        let result = try runCommand("/usr/bin/setpriv", ["--reuid=65534", "--regid=65534", "--clear-groups", "/bin/sh", "-c", script])
        XCTAssertEqual(result.status, 0, "as nobody: \(script): \(result.stderr)")
        return result
    }

    /// A folder of root's that nobody may not enter, holding `name` (mode 600).
    private func makePrivate(_ name: String) {
        make("private/\(name)", Self.plainXML)
        XCTAssertEqual(chmod(path("private"), 0o700), 0)
        XCTAssertEqual(chmod(path("private/\(name)"), 0o600), 0)
    }

    /// Gives `names` (made already) to nobody.
    private func giveToNobody(_ names: [String]) {
        for name in names { XCTAssertEqual(chown(path(name), 65534, 65534), 0, name) }
    }

    /// Item 1: the walk found `tree/f.plist`, a regular file; before it is
    /// opened, nobody replaces it with a link to a root-only file outside
    /// the folder. The file is opened below the folder's descriptor with no
    /// link followed: refused, and the private file is neither converted nor
    /// copied into the folder.
    func testAFileSwappedForALinkAfterTheWalkIsNotFollowed() throws {
        try requireSecondUser()
        makePrivate("settings.plist")
        make("tree/f.plist", Self.plainXML)
        giveToNobody(["tree", "tree/f.plist"])
        // Held once the walk has listed the folder (the second getdents64 finds
        // its end), before tree/f.plist is opened.
        guard let result = try runStopped(at: "getdents64", when: 2, ["convert", "tree", "--to", "json", "--in-place"], meanwhile: {
            try asNobody("rm tree/f.plist && ln -s ../private/settings.plist tree/f.plist")
        }) else { throw XCTSkip("strace cannot run here") }
        XCTAssertEqual(result.status, 1, result.stderr)
        XCTAssertTrue(result.stderr.contains("tree/f.plist: error: cannot read tree/f.plist: it is no longer the regular file found in the folder (a symbolic link or another kind of file now); it was not followed\n"), result.stderr)
        XCTAssertTrue(result.stderr.contains("0 converted, 0 unchanged, 0 skipped, 1 failed"), result.stderr)
        XCTAssertEqual(contents("private/settings.plist"), Data(Self.plainXML.utf8), "the private file is not converted")
        XCTAssertEqual(try listing("private"), ["settings.plist"])
        XCTAssertEqual(try listing("tree"), ["f.plist"], "nothing copied into the folder")
        XCTAssertEqual(try fileStatus("tree/f.plist").st_mode & S_IFMT, S_IFLNK)
    }

    /// Item 1, a subfolder: after the walk entered `tree/sub`, nobody moves
    /// it away and puts a link to a root-only folder in its place. The file
    /// is reached from the folder walked with no link followed: refused;
    /// nothing is written or left in the root-only folder.
    func testASubfolderSwappedForALinkAfterTheWalkIsNotFollowed() throws {
        try requireSecondUser()
        makePrivate("f.plist")
        make("tree/sub/f.plist", Self.plainXML)
        giveToNobody(["tree", "tree/sub", "tree/sub/f.plist"])
        // Held once the walk has listed tree and tree/sub (two getdents64 each).
        guard let result = try runStopped(at: "getdents64", when: 4, ["convert", "tree", "-r", "--to", "json", "--in-place", "--backup", ".orig"], meanwhile: {
            try asNobody("mv tree/sub tree/old && ln -s ../private tree/sub")
        }) else { throw XCTSkip("strace cannot run here") }
        XCTAssertEqual(result.status, 1, result.stderr)
        XCTAssertTrue(result.stderr.contains("tree/sub/f.plist: error: cannot read tree/sub/f.plist: it is no longer the regular file found in the folder"), result.stderr)
        XCTAssertEqual(contents("private/f.plist"), Data(Self.plainXML.utf8))
        XCTAssertEqual(try listing("private"), ["f.plist"], "no backup or temporary file in the root-only folder")
        XCTAssertEqual(contents("tree/old/f.plist"), Data(Self.plainXML.utf8))
    }

    /// Item 2: `convert DIR -r --output-dir out` into an output folder
    /// nobody owns; as archivist makes `out/sub`, nobody puts a link to a
    /// root-only folder there. The subfolder is entered with O_NOFOLLOW:
    /// refused; no result lands in the root-only folder.
    func testAnOutputSubfolderSwappedForALinkIsNotFollowed() throws {
        try requireSecondUser()
        make("private/keep", "")
        XCTAssertEqual(chmod(path("private"), 0o700), 0)
        make("tree/sub/a.plist", Self.plainXML)
        make("out/.keep", "")
        giveToNobody(["out"])
        // Held once the first mkdirat made out/sub (out exists already), before it is entered.
        guard let result = try runStopped(at: "mkdirat", ["convert", "tree", "-r", "--to", "json", "--output-dir", "out"], meanwhile: {
            try asNobody("mv out/sub out/gone && ln -s ../private out/sub")
        }) else { throw XCTSkip("strace cannot run here") }
        XCTAssertEqual(result.status, 1, result.stderr)
        XCTAssertTrue(result.stderr.contains("tree/sub/a.plist: error: refusing out/sub: it is (or became) a symbolic link or no folder, which is not followed here\n"), result.stderr)
        XCTAssertEqual(try listing("private"), ["keep"], "nothing written through the link")
    }

    /// Item 2, exports: `convert --sqlite ... --output-dir` writes through the
    /// output folder's descriptor as file batches do: a link planted at a
    /// row's file name is refused, not written through.
    func testAStoreExportDoesNotWriteThroughALinkInTheOutputFolder() throws {
        let store = try makeStore("Employees.sqlite")
        make("victim.json", "untouched")
        make("out/.keep", "")
        XCTAssertEqual(symlink(path("victim.json"), path("out/2.json")), 0)
        let result = try run(["convert", "--sqlite", store, "--table", "ZEMPLOYEEENTITY", "--column", "ZCONTACT", "--to", "codable-json", "--output-dir", "out"])
        XCTAssertEqual(result.status, 1)
        XCTAssertTrue(result.stderr.contains("refusing to write through the symbolic link out/2.json in the output folder"), result.stderr)
        XCTAssertEqual(contents("victim.json"), Data("untouched".utf8))
        XCTAssertEqual(try fileStatus("out/2.json").st_mode & S_IFMT, S_IFLNK)
    }

    /// Item 7: a file rewritten by someone else after its backup was made
    /// and before its result was put in place is left as they wrote it, and
    /// its backup is withdrawn, so the retry the message asks for backs up
    /// what the file holds now instead of refusing ("a backup is never
    /// overwritten").
    func testTheRetryAfterAChangeMeanwhileIsNotRefusedForItsBackup() throws {
        make("a.plist", Self.plainXML)
        let theirs = Data("<plist><string>someone else</string></plist>".utf8)
        // Held once the backup is linked, before the result is exchanged with the input.
        guard let result = try runStopped(at: "linkat", ["convert", "a.plist", "--to", "binary", "--in-place", "--backup", ".orig"], meanwhile: {
            XCTAssertEqual(contents("a.plist.orig"), Data(Self.plainXML.utf8), "the backup is in place")
            try theirs.write(to: work.appendingPathComponent("a.plist"))
        }) else { throw XCTSkip("strace cannot run here") }
        XCTAssertEqual(result.status, 1)
        XCTAssertEqual(result.stderr, "a.plist: error: a.plist changed while converting; it was left as it is (run again to convert what it holds now)\n")
        XCTAssertEqual(contents("a.plist"), theirs)
        XCTAssertEqual(try listing().filter { $0 != "strace.log" }, ["a.plist"], "the backup of the old content is withdrawn")
        let retry = try run(["convert", "a.plist", "--to", "binary", "--in-place", "--backup", ".orig"])
        XCTAssertEqual(retry.status, 0, retry.stderr)
        XCTAssertEqual(contents("a.plist.orig"), theirs)
        XCTAssertEqual(contents("a.plist")?.prefix(8), Data("bplist00".utf8))
    }

    /// Item 9: the owner (not root) rewriting a set-user-ID file keeps the
    /// bit: the mode is set after the last write (which clears it).
    func testTheOwnerRewritingASetIDFileKeepsTheBits() throws {
        guard geteuid() == 0 else { throw XCTSkip("needs root, to run as the file's owner (nobody)") }
        XCTAssertEqual(chmod(path(""), 0o755), 0)
        make("mine/tool.plist", Self.plainXML)
        giveToNobody(["mine", "mine/tool.plist"])
        XCTAssertEqual(chmod(path("mine/tool.plist"), 0o4755), 0)
        guard let result = try runAsNobody(["convert", path("mine/tool.plist"), "--to", "binary", "--in-place", "--backup", ".orig"]) else {
            throw XCTSkip("cannot run as nobody")
        }
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertEqual(result.stderr, "")
        XCTAssertEqual(contents("mine/tool.plist")?.prefix(8), Data("bplist00".utf8))
        XCTAssertEqual(try fileStatus("mine/tool.plist").st_mode & 0o7777, 0o4755)
        XCTAssertEqual(try fileStatus("mine/tool.plist.orig").st_mode & 0o7777, 0o4755)
    }

    /// Item 10: where a hard link cannot be made (EPERM, as on vfat and
    /// exFAT; injected here), the backup is renamed into place only where
    /// nothing is (RENAME_NOREPLACE): a file that appears at the backup's
    /// name at that moment is kept, and the input is refused.
    func testABackupWithoutHardLinksNeverReplacesAFileThatAppeared() throws {
        make("a.plist", Self.plainXML)
        let theirs = Data("someone else's".utf8)
        guard let result = try runStopped(at: "linkat", injecting: ":error=EPERM", ["convert", "a.plist", "--to", "binary", "--in-place", "--backup", ".orig"], meanwhile: {
            try theirs.write(to: work.appendingPathComponent("a.plist.orig"))
        }) else { throw XCTSkip("strace cannot run here") }
        XCTAssertEqual(result.status, 1)
        XCTAssertEqual(result.stderr, "a.plist: error: refusing to overwrite a.plist.orig: a backup is never overwritten (move it away, or choose another --backup suffix)\n")
        XCTAssertEqual(contents("a.plist.orig"), theirs)
        XCTAssertEqual(contents("a.plist"), Data(Self.plainXML.utf8))

        // Without the file in the way, the backup is made by the exclusive rename.
        XCTAssertEqual(unlink(path("a.plist.orig")), 0)
        guard let made = try runStopped(at: "linkat", injecting: ":error=EPERM", ["convert", "a.plist", "--to", "binary", "--in-place", "--backup", ".orig"], meanwhile: {}) else {
            throw XCTSkip("strace cannot run here")
        }
        XCTAssertEqual(made.status, 0, made.stderr)
        XCTAssertEqual(contents("a.plist.orig"), Data(Self.plainXML.utf8))
        XCTAssertEqual(contents("a.plist")?.prefix(8), Data("bplist00".utf8))
    }
}
