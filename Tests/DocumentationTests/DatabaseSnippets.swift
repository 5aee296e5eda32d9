import ArchivistTestSupport
import ArchivistArchive
import ArchivistCore
import ArchivistDatabase
import Foundation
import XCTest

/// A contact as the scenario-4 app archived it (renamed `App.Contact` in the store).
typealias Contact = ContactV1

/// The code of "Archives in SQLite", run on a Core Data-shaped store whose
/// blobs Foundation's NSKeyedArchiver wrote.
final class DatabaseSnippets: QuietTestCase {
    var storePath = ""

    override func setUpWithError() throws {
        storePath = try makeScratchFolder("snippets").path("snippets.sqlite")
        let db = try SQLiteDatabase.create(path: storePath)
        try db.execute("CREATE TABLE ZEMPLOYEEENTITY (Z_PK INTEGER PRIMARY KEY, ZNAME VARCHAR, ZCONTACT BLOB)")
        for (i, name) in ["Ada", "Grace", "Edsger"].enumerated() {
            let contact = Contact(tel: "555-010\(i)", fax: "555-020\(i)", email: "\(name.lowercased())@example.com")
            let data = try NSKeyedArchiver.archivedData(withRootObject: contact, requiringSecureCoding: false)
            let blob = try Self.renamingClass(of: [UInt8](data), to: "App.Contact")
            let insert = try db.prepare("INSERT INTO ZEMPLOYEEENTITY (ZNAME, ZCONTACT) VALUES (?, ?)")
            try insert.bind(1, text: name)
            try insert.bind(2, blob: blob)
            _ = try insert.step()
        }
    }

    /// The archive with its custom class named as the app named it (Foundation
    /// on Linux archives this class under the test module's name).
    static func renamingClass(of bytes: [UInt8], to name: String) throws -> [UInt8] {
        var graph = try ObjectGraph(try PropertyList.read(bytes).tree)
        _ = graph.renameClass(NSStringFromClass(Contact.self), to: name)
        return try PropertyList.write(try GraphWriter.archive(graph), as: .binary)
    }

    func testFindCheckAndMigrateAColumn() throws {
        let store = try SQLiteDatabase(path: storePath)
        for summary in try BlobColumnSummary.scan(store) {
            print("\(summary.column.label): \(summary.archives) archives in \(summary.blobs) blobs")
        }
        XCTAssertEqual(try BlobColumnSummary.scan(store).map { "\($0.column.label) \($0.archives)/\($0.blobs)" },
                       ["ZEMPLOYEEENTITY.ZCONTACT 3/3"])

        let contacts = BlobColumn(table: "ZEMPLOYEEENTITY", column: "ZCONTACT")
        try contacts.forEachBlob(in: store) { row, bytes in
            let graph = try ObjectGraph(try PropertyList.read(bytes).tree)
            print(row, graph.classCensus().map(\.name.readable))
        }

        let rules = try MigrationRules(bytes: Array("""
            {
              "classes": { "App.Contact": { "renameTo": "ContactsCore.Contact" } },
              "allowedClasses": ["ContactsCore.Contact"]
            }
            """.utf8))
        let migration = StoreMigration(column: contacts, migrator: Migrator(rules: rules))
        let outcome = try migration.run(on: store)
        print("\(outcome.migrated.count) migrated, \(outcome.unchanged) unchanged")

        XCTAssertEqual(outcome.migrated.count, 3)
        var classes: [String] = []
        try contacts.forEachBlob(in: store) { _, bytes in
            let graph = try ObjectGraph(try PropertyList.read(bytes).tree)
            classes += graph.classCensus().map(\.name.readable)
            XCTAssertEqual(try SecureCodingCheck.errors(in: try PropertyList.read(bytes).tree, policy: SecurePolicy(rules: rules)), [])
        }
        XCTAssertEqual(classes.filter { $0 == "ContactsCore.Contact" }.count, 3, "\(classes)")
        XCTAssertEqual(try migration.run(on: store).unchanged, 3, "a second run changes nothing")
    }

    /// "Fill a column with Codable JSON": every contact as the JSON
    /// Foundation's JSONDecoder reads.
    func testFillAColumnWithCodableJSON() throws {
        struct ContactRecord: Codable, Equatable { var tel: String; var fax: String; var email: String }
        let store = try SQLiteDatabase(path: storePath)
        let contacts = BlobColumn(table: "ZEMPLOYEEENTITY", column: "ZCONTACT")

        let fill = ColumnFill(source: contacts, target: "ZCONTACTJSON")
        let filled = try fill.run(on: store) { blob in
            let exported = try CodableExport.value(try PropertyList.read(blob).tree)
            return try PropertyList.write(exported, as: .json)
        }
        print("\(filled.written.count) rows filled, \(filled.unchanged) unchanged")

        XCTAssertTrue(filled.addedColumn)
        XCTAssertEqual(filled.written, [1, 2, 3])
        var records: [ContactRecord] = []
        try BlobColumn(table: "ZEMPLOYEEENTITY", column: "ZCONTACTJSON").forEachBlob(in: store) { _, json in
            records.append(try JSONDecoder().decode(ContactRecord.self, from: Data(json)))
        }
        XCTAssertEqual(records, ["Ada", "Grace", "Edsger"].enumerated().map {
            ContactRecord(tel: "555-010\($0.offset)", fax: "555-020\($0.offset)", email: "\($0.element.lowercased())@example.com")
        })
        let again = try fill.run(on: store) { try PropertyList.write(try CodableExport.value(try PropertyList.read($0).tree), as: .json) }
        XCTAssertEqual(again.unchanged, 3, "a second run rewrites nothing")
    }
}
