import Foundation
import XCTest

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Names typed on the command line that are not UTF-8 keep their bytes, as
/// names found in folders do.
extension CLITests {
    /// `caf\xE9` as bytes: a Latin-1 name, not UTF-8.
    private static let latin1Base = Array("caf".utf8) + [0xE9]

    /// Runs `archivist` through `sh -c SCRIPT` (the binary is `$A`), so that
    /// the script can pass arguments that are not UTF-8 (`$(printf 'caf\351')`),
    /// which `Process` (taking Strings) cannot.
    private func runShell(_ script: String) throws -> Result {
        let archivist = Self.productsDirectory.appendingPathComponent("archivist").path
        return try run(executable: URL(fileURLWithPath: "/bin/sh"), ["-c", "A=\"$0\"; N=$(printf 'caf\\351'); " + script, archivist])
    }

    /// Writes `bytes` to a file of the scratch folder whose name is given as bytes.
    private func create(named name: [UInt8], _ bytes: [UInt8]) {
        let path = Array(work.path.utf8) + [UInt8(ascii: "/")] + name
        let fd = open(path.map { CChar(bitPattern: $0) } + [0], O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        XCTAssertGreaterThanOrEqual(fd, 0)
        _ = bytes.withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
        close(fd)
    }

    /// The bytes of a scratch file whose name is given as bytes, nil when there is none.
    private func contents(named name: [UInt8]) -> [UInt8]? {
        let path = Array(work.path.utf8) + [UInt8(ascii: "/")] + name
        let fd = open(path.map { CChar(bitPattern: $0) } + [0], O_RDONLY)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        var out: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 4096)
        while true {
            let n = read(fd, &buffer, buffer.count)
            if n <= 0 { break }
            out += buffer[..<n]
        }
        return out
    }

    /// A name typed on the command line that is not UTF-8 (`caf\xE9.plist`)
    /// keeps its bytes, as names found in folders do: convert, lint, dump and
    /// an output name all reach the file, and messages show `\xE9`.
    func testNamesOnTheCommandLineThatAreNotUTF8() throws {
        create(named: Self.latin1Base + Array(".plist".utf8), Array(#"{"name": "value"}"#.utf8))
        let convert = try runShell(#""$A" convert "$N.plist" --to json"#)
        XCTAssertEqual(convert.status, 0, convert.stderr)
        XCTAssertEqual(convert.stdout, #"{"name":"value"}"#)
        let lint = try runShell(#""$A" lint "$N.plist""#)
        XCTAssertEqual(lint.status, 0, lint.stderr)
        XCTAssertEqual(lint.stdout, "caf\\xE9.plist: OK\n")
        let dump = try runShell(#""$A" dump "$N.plist""#)
        XCTAssertEqual(dump.status, 0, dump.stderr)
        XCTAssertEqual(dump.stdout, "{\n  \"name\" => \"value\"\n}\n")
        let output = try runShell(#""$A" convert "$N.plist" --to binary -o "$N-out.plist""#)
        XCTAssertEqual(output.status, 0, output.stderr)
        XCTAssertEqual(contents(named: Self.latin1Base + Array("-out.plist".utf8))?.prefix(8).map { $0 }, Array("bplist00".utf8),
                       "written under its own bytes")
        XCTAssertEqual(try listing().count, 2, "no file under a decoded name")
        // A name that does not exist is reported with its bytes shown, not U+FFFD.
        let missing = try runShell(#""$A" lint "$N-missing.plist""#)
        XCTAssertEqual(missing.status, 1)
        XCTAssertTrue(missing.stderr.hasPrefix("caf\\xE9-missing.plist: error: "), missing.stderr)
    }

    /// A store named on the command line that is not UTF-8: `lint --sqlite`
    /// and `dump --sqlite` open it under its own bytes, and `migrate --sqlite`
    /// rewrites it and writes its backup beside it under the same bytes.
    func testStoreNamesOnTheCommandLineThatAreNotUTF8() throws {
        _ = try makeStore("plain.sqlite")
        let moved = try runShell(#"mv plain.sqlite "$N.sqlite""#)
        XCTAssertEqual(moved.status, 0, moved.stderr)
        let lint = try runShell(#""$A" lint --sqlite "$N.sqlite""#)
        XCTAssertEqual(lint.status, 0, lint.stderr)
        XCTAssertTrue(lint.stdout.hasPrefix("caf\\xE9.sqlite: ZEMPLOYEEENTITY.ZCONTACT: 3 blobs, 3 property lists"), lint.stdout)
        let dump = try runShell(#""$A" dump --sqlite "$N.sqlite" --table ZEMPLOYEEENTITY --column ZCONTACT"#)
        XCTAssertEqual(dump.status, 0, dump.stderr)
        XCTAssertTrue(dump.stdout.contains("ada@example.com"), dump.stdout)
        let rules = contactRules()
        let before = try listing()
        let migrate = try runShell(#""$A" migrate --sqlite "$N.sqlite" --table ZEMPLOYEEENTITY --column ZCONTACT --rules "# + rules)
        XCTAssertEqual(migrate.status, 0, migrate.stderr)
        XCTAssertEqual(contents(named: Self.latin1Base + Array(".sqlite.bak".utf8))?.prefix(15).map { $0 }, Array("SQLite format 3".utf8),
                       "the backup is written under the store's own bytes: \(before)")
        let after = try listing()
        XCTAssertEqual(after.count, before.count + 1, "only the backup is new: \(after)")
    }
}
