import ArchivistCore
import ArchivistDatabase
import Foundation
import XCTest

/// `archivist codegen --sqlite ... --upgrade --transformer NAME` for scenario
/// 4: contacts of module App archived (not securely) into a Core Data
/// store's blob column, the rules moving `Contact` into ContactsCore (and
/// marking its three fields required, as the scenario declares them). The
/// class keeps its shape, so no reader is generated: version 1's name maps to
/// version 2's class. The generated file is compiled into an app of module
/// ContactsCore; the transformer's decoding (`decodeUpgradedArchive`) is
/// called on the store's version-1 blobs and on those `migrate --sqlite`
/// rewrote, and everything is read back with the secure `NSKeyedUnarchiver`.
final class UpgradeScenarioFourTests: XCTestCase {
    private static let prepared = PreparedBench<(bench: UpgradeBench, source: String, v1: [String], v2: [String], app: String)>()

    static let contacts: [(tel: String, fax: String, email: String)] = [
        ("+1 555 0100", "+1 555 0101", "ada@example.com"),
        ("+44 20 7946 0000", "", "grace@example.org"),
        ("0", "1", "ünïcode@example.net"),
    ]

    /// Version 1's class, archived the old way.
    static let writerSource = """
        import Foundation

        final class Contact: NSObject, NSCoding {
            let tel: String, fax: String, email: String

            init(tel: String, fax: String, email: String) {
                self.tel = tel
                self.fax = fax
                self.email = email
            }

            func encode(with coder: NSCoder) {
                coder.encode(tel, forKey: "tel")
                coder.encode(fax, forKey: "fax")
                coder.encode(email, forKey: "email")
            }

            init?(coder: NSCoder) { nil }
        }

        // Arguments: PATH TEL FAX EMAIL, repeated.
        var args = Array(CommandLine.arguments.dropFirst())
        while args.count >= 4 {
            let path = args.removeFirst()
            let contact = Contact(tel: args.removeFirst(), fax: args.removeFirst(), email: args.removeFirst())
            try NSKeyedArchiver.archivedData(withRootObject: contact, requiringSecureCoding: false).write(to: URL(fileURLWithPath: path))
        }

        """

    /// The app: `decode:IN` prints what `decodeUpgradedArchive` (the
    /// transformer's decoding) reads; `upgrade:IN:OUT` upgrades IN into OUT
    /// and prints what the secure unarchiver reads from OUT.
    static let appSource = """
        import Foundation

        func describe(_ value: Any?) -> String {
            guard let contact = value as? Contact else { return "not a Contact: \\(String(describing: value))" }
            return "\\(contact.tel)|\\(contact.fax)|\\(contact.email)"
        }

        for command in CommandLine.arguments.dropFirst() {
            let parts = command.split(separator: ":").map(String.init)
            do {
                let data = try Data(contentsOf: URL(fileURLWithPath: parts[1]))
                if parts[0] == "decode" {
                    let decoded = try decodeUpgradedArchive(data)
                    print("DECODED \\(parts[1]) \\(decoded.wasVersion2 ? "version2" : "version1") \\(describe(decoded.root))")
                    continue
                }
                let upgraded = try upgradeArchive(data)
                try upgraded.write(to: URL(fileURLWithPath: parts[2]))
                let read = try NSKeyedUnarchiver.unarchivedObject(ofClasses: [Contact.self], from: upgraded)
                print("UPGRADED \\(parts[1]) \\(upgraded == data ? "unchanged" : "changed") \\(describe(read))")
            } catch {
                print("THREW \\(parts[1]) \\(error)")
            }
        }

        """

    override class func setUp() {
        super.setUp()
        prepared.prepare { bench in
            let writer = try bench.program("writer", source: writerSource, module: "App")
            let v1 = contacts.indices.map { bench.path("v1/row\($0 + 1).plist") }
            try FileManager.default.createDirectory(atPath: bench.path("v1"), withIntermediateDirectories: true)
            let written = try bench.run(writer, zip(v1, contacts).flatMap { [$0, $1.tel, $1.fax, $1.email] })
            guard written.status == 0 else { throw UpgradeBench.Failure(description: written.text) }
            try makeStore(bench.path("Employees.sqlite"), blobs: v1)
            try bench.write("rules.json", Data(#"{"classes": {"App.Contact": {"renameTo": "ContactsCore.Contact", "keys": {"tel": {"required": true}, "fax": {"required": true}, "email": {"required": true}}}}, "allowedClasses": ["ContactsCore.Contact"]}"#.utf8))
            let column = ["--sqlite", "Employees.sqlite", "--table", "ZEMPLOYEEENTITY", "--column", "ZCONTACT", "--rules", "rules.json"]
            let source = try bench.generate(column + ["--upgrade", "--transformer", "ContactTransformer"])
            try bench.archivist(["migrate"] + column)
            var v2: [String] = []
            let db = try SQLiteDatabase(path: bench.path("Employees.sqlite"), readOnly: true)
            try BlobColumn(table: "ZEMPLOYEEENTITY", column: "ZCONTACT").forEachBlob(in: db) { row, bytes in
                v2.append(try bench.write("v2/row\(row).plist", Data(bytes)))
            }
            let app = try bench.program("app", source: appSource, after: ["Upgrade.swift"], module: "ContactsCore")
            return (bench, source, v1, v2, app)
        }
    }

    override class func tearDown() {
        prepared.remove()
        super.tearDown()
    }

    /// A store with Core Data's layout holding the blobs, and a row without one.
    private static func makeStore(_ path: String, blobs: [String]) throws {
        let db = try SQLiteDatabase.create(path: path)
        try db.execute("CREATE TABLE ZEMPLOYEEENTITY (Z_PK INTEGER PRIMARY KEY, Z_ENT INTEGER, Z_OPT INTEGER, ZNAME VARCHAR, ZCONTACT BLOB)")
        let insert = try db.prepare("INSERT INTO ZEMPLOYEEENTITY (Z_PK, Z_ENT, Z_OPT, ZNAME, ZCONTACT) VALUES (?, 1, 1, ?, ?)")
        for (i, blob) in blobs.enumerated() {
            insert.reset()
            try insert.bind(1, int: Int64(i + 1))
            try insert.bind(2, text: "Employee \(i + 1)")
            try insert.bind(3, blob: [UInt8](try Data(contentsOf: URL(fileURLWithPath: blob))))
            _ = try insert.step()
        }
        try db.execute("INSERT INTO ZEMPLOYEEENTITY (Z_PK, Z_ENT, Z_OPT, ZNAME, ZCONTACT) VALUES (\(blobs.count + 1), 1, 1, 'No contact', NULL)")
    }

    private func setup() throws -> (bench: UpgradeBench, source: String, v1: [String], v2: [String], app: String) {
        try Self.prepared.get()
    }

    private var expected: [String] { Self.contacts.map { "\($0.tel)|\($0.fax)|\($0.email)" } }

    /// A class that only moves needs no reader: version 1's name decodes as
    /// version 2's class; the transformer reads through
    /// `decodeUpgradedArchive` behind `#if canImport(CoreData)`.
    func testGeneratedSourceMapsTheOldNameAndHasATransformer() throws {
        let source = try setup().source
        XCTAssertFalse(source.contains("ContactVersion1"), source)
        XCTAssertTrue(source.contains("/// Archived as ContactsCore.Contact.\nfinal class Contact: NSObject, NSSecureCoding {"), source)
        XCTAssertTrue(source.contains("        (\"App.Contact\", Contact.self),\n"), source)
        XCTAssertTrue(source.contains("#if canImport(CoreData)\nimport CoreData\n\n"), source)
        XCTAssertTrue(source.contains("final class ContactTransformer: NSSecureUnarchiveFromDataTransformer {"), source)
        XCTAssertTrue(source.contains("guard let data = value as? Data, let decoded = try? decodeUpgradedArchive(data) else { return nil }"), source)
        XCTAssertEqual(source.components(separatedBy: "import Foundation").count, 2, "one import of Foundation")
    }

    /// The transformer's decoding reads the store's version-1 blobs and the
    /// blobs `migrate --sqlite` rewrote, as version 2's `Contact`.
    func testTransformerDecodingReadsBothVersions() throws {
        let p = try setup()
        XCTAssertEqual(p.v2.count, Self.contacts.count)
        let result = try p.bench.run(p.app, (p.v1 + p.v2).map { "decode:" + $0 })
        XCTAssertEqual(result.status, 0, result.text)
        XCTAssertEqual(result.lines("DECODED"), zip(p.v1, expected).map { "DECODED \($0) version1 \($1)" } + zip(p.v2, expected).map { "DECODED \($0) version2 \($1)" },
                       result.text)
    }

    /// Version 1 blobs come out under ContactsCore.Contact (Foundation finds
    /// the class by that name alone); version 2 blobs and the upgrade's own
    /// output come back unchanged; another class's archive throws.
    func testUpgradeRenamesAndKeepsVersionTwo() throws {
        let p = try setup()
        let outputs = p.v1.map { $0 + ".v2" }
        let upgraded = try p.bench.run(p.app, zip(p.v1, outputs).map { "upgrade:\($0):\($1)" })
        XCTAssertEqual(upgraded.lines("UPGRADED"), zip(p.v1, expected).map { "UPGRADED \($0) changed \($1)" }, upgraded.text)
        let foreign = try p.bench.copyCorpus("archives/scary-creature-v1.plist", to: "foreign.plist")
        let again = try p.bench.run(p.app, (outputs + p.v2).map { "upgrade:\($0):\($0).again" } + ["upgrade:\(foreign):\(foreign).out"])
        XCTAssertEqual(again.status, 0, again.text)
        XCTAssertEqual(again.lines("UPGRADED"), zip(outputs + p.v2, expected + expected).map { "UPGRADED \($0) unchanged \($1)" }, again.text)
        XCTAssertEqual(again.lines("THREW").count, 1, again.text)
        XCTAssertTrue(again.lines("THREW").first?.hasPrefix("THREW \(foreign) a keyed archive of ScaryCreatures.ScaryCreatureData, ") == true, again.text)
    }
}
