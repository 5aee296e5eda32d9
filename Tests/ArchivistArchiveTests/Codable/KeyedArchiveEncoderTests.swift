import ArchivistCore
import Foundation
import XCTest
@testable import ArchivistArchive

/// A struct with every kind of field, encoded by KeyedArchiveEncoder.
private struct Profile: Encodable {
    var name: String
    var age: Int
    var height: Double
    var score: Float
    var active: Bool
    var born: Date
    var photo: Data
    var id: UUID
    var site: URL
    var tags: [String]
    var stock: [String: Int]
    var nickname: String?
    var pet: Critter?
}

private struct Critter: Encodable {
    var kind: String
    var legs: Int
}

/// Reads `Profile` archives with NSSecureCoding and decodeObject(of:forKey:).
final class ProfileSecure: NSObject, NSSecureCoding {
    static var supportsSecureCoding: Bool { true }
    var values: [String: Any] = [:]
    func encode(with coder: NSCoder) {}
    init?(coder: NSCoder) {
        guard let name = coder.decodeObject(of: NSString.self, forKey: "name"), let age = coder.decodeObject(of: NSNumber.self, forKey: "age"),
              let height = coder.decodeObject(of: NSNumber.self, forKey: "height"), let score = coder.decodeObject(of: NSNumber.self, forKey: "score"),
              let active = coder.decodeObject(of: NSNumber.self, forKey: "active"), let born = coder.decodeObject(of: NSDate.self, forKey: "born"),
              let photo = coder.decodeObject(of: NSData.self, forKey: "photo"), let id = coder.decodeObject(of: NSUUID.self, forKey: "id"),
              let site = coder.decodeObject(of: NSURL.self, forKey: "site"),
              let tags = coder.decodeObject(of: [NSArray.self, NSString.self], forKey: "tags") as? [String],
              let stock = coder.decodeObject(of: [NSDictionary.self, NSString.self, NSNumber.self], forKey: "stock") as? [String: Int],
              let pet = coder.decodeObject(of: PetSecure.self, forKey: "pet") else { return nil }
        values = ["name": name as String, "age": age.intValue, "height": height.doubleValue, "score": score.floatValue, "active": active.boolValue,
                  "born": born as Date, "photo": photo as Data, "id": id as UUID, "site": site as URL, "tags": tags, "stock": stock,
                  "nickname": coder.containsValue(forKey: "nickname"), "pet": pet.kind + "/\(pet.legs)"]
    }
}

final class PetSecure: NSObject, NSSecureCoding {
    static var supportsSecureCoding: Bool { true }
    let kind: String, legs: Int
    func encode(with coder: NSCoder) {}
    init?(coder: NSCoder) {
        guard let kind = coder.decodeObject(of: NSString.self, forKey: "kind"), let legs = coder.decodeObject(of: NSNumber.self, forKey: "legs") else { return nil }
        self.kind = kind as String
        self.legs = legs.intValue
    }
}

/// Reads inline primitives with decodeInteger/decodeDouble/decodeBool (plain NSCoding).
final class PetInline: NSObject, NSCoding {
    let kind: String, legs: Int
    func encode(with coder: NSCoder) {}
    init?(coder: NSCoder) {
        kind = coder.decodeObject(forKey: "kind") as? String ?? ""
        legs = coder.decodeInteger(forKey: "legs")
    }
}

private class Base: Encodable {
    var id = 7
}

private final class Derived: Base {
    var extra = "more"
    enum Keys: String, CodingKey { case extra }
    override func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: Keys.self)
        try c.encode(extra, forKey: .extra)
        try super.encode(to: c.superEncoder())
    }
}

final class DerivedDecoded: NSObject, NSCoding {
    var extra = "", superID = 0
    func encode(with coder: NSCoder) {}
    init?(coder: NSCoder) {
        extra = coder.decodeObject(forKey: "extra") as? String ?? ""
        superID = ((coder.decodeObject(forKey: "super") as? NSDictionary)?["id"] as? NSNumber)?.intValue ?? -1
    }
}

final class KeyedArchiveEncoderTests: XCTestCase {
    private let profile = Profile(name: "Ada ü", age: 36, height: 1.68, score: 0.1, active: true, born: Date(timeIntervalSinceReferenceDate: -123.5),
                                  photo: Data([0, 1, 2, 255]), id: UUID(uuidString: "E621E1F8-C36C-495A-93FC-0C247A3E6E5F") ?? UUID(),
                                  site: URL(string: "https://example.com/a?b=c") ?? URL(fileURLWithPath: "/"), tags: ["x", "y", "x"],
                                  stock: ["bolts": 40, "nuts": 7], nickname: nil, pet: Critter(kind: "cat", legs: 4))

    func testSecureDecodingReadsEveryField() throws {
        var encoder = KeyedArchiveEncoder()
        encoder.classNames = ["Profile": "Test.Profile", "Critter": "Test.Pet"]
        let tree = try encoder.encode(profile)
        _ = try KeyedArchive(tree)
        let graph = try ObjectGraph(tree)
        XCTAssertEqual(graph.classCensus().map(\.name.archived).sorted(), ["NSArray", "NSDate", "NSDictionary", "NSURL", "NSUUID", "Test.Pet", "Test.Profile"])
        let bytes = try encoder.encode(profile, as: .binary)
        NSKeyedUnarchiver.setClass(ProfileSecure.self, forClassName: "Test.Profile")
        NSKeyedUnarchiver.setClass(PetSecure.self, forClassName: "Test.Pet")
        let decoded = try XCTUnwrap(try NSKeyedUnarchiver.unarchivedObject(ofClasses: [ProfileSecure.self, PetSecure.self, NSArray.self, NSDictionary.self,
                                                                                       NSString.self, NSNumber.self, NSDate.self, NSData.self, NSUUID.self, NSURL.self],
                                                                           from: Data(bytes)) as? ProfileSecure)
        let v = decoded.values
        XCTAssertEqual(v["name"] as? String, "Ada ü")
        XCTAssertEqual(v["age"] as? Int, 36)
        XCTAssertEqual(v["height"] as? Double, 1.68)
        XCTAssertEqual(v["score"] as? Float, 0.1)
        XCTAssertEqual(v["active"] as? Bool, true)
        XCTAssertEqual(v["born"] as? Date, profile.born)
        XCTAssertEqual(v["photo"] as? Data, profile.photo)
        XCTAssertEqual(v["id"] as? UUID, profile.id)
        XCTAssertEqual(v["site"] as? URL, profile.site)
        XCTAssertEqual(v["tags"] as? [String], ["x", "y", "x"])
        XCTAssertEqual(v["stock"] as? [String: Int], ["bolts": 40, "nuts": 7])
        XCTAssertEqual(v["nickname"] as? Bool, false, "a nil optional is left out")
        XCTAssertEqual(v["pet"] as? String, "cat/4")
        // And the archive reads back through KeyedArchiveDecoder too.
        struct Back: Decodable { var name: String; var tags: [String]; var stock: [String: Int]; var born: Date; var id: UUID }
        let back = try KeyedArchiveDecoder().decode(Back.self, from: bytes)
        XCTAssertEqual(back.name, "Ada ü")
        XCTAssertEqual(back.id, profile.id)
        XCTAssertEqual(back.born, profile.born)
    }

    func testInlinePrimitivesReadWithDecodeInteger() throws {
        var encoder = KeyedArchiveEncoder()
        encoder.primitives = .inline
        encoder.classNames = ["Critter": "Test.InlinePet"]
        let tree = try encoder.encode(Critter(kind: "dog", legs: 3))
        guard case .node(let graph, let i) = try PlistKeyPath("root").resolve(in: tree) else { return XCTFail() }
        XCTAssertEqual(graph.object(i)?["legs"], .inline(.int(3)))
        NSKeyedUnarchiver.setClass(PetInline.self, forClassName: "Test.InlinePet")
        let pet = try XCTUnwrap(try NSKeyedUnarchiver.unarchiveTopLevelObjectWithData(Data(try PropertyList.write(tree, as: .binary))) as? PetInline)
        XCTAssertEqual(pet.kind, "dog")
        XCTAssertEqual(pet.legs, 3)
    }

    func testSuperEncoderAndDefaultNames() throws {
        let tree = try KeyedArchiveEncoder().encode(Derived() as Base)
        let graph = try ObjectGraph(tree)
        let name = try XCTUnwrap(graph.object(graph.top[0].object)?.className.archived)
        XCTAssertTrue(name.hasSuffix("Base") || name.hasSuffix("Derived"), name)
        NSKeyedUnarchiver.setClass(DerivedDecoded.self, forClassName: name)
        let decoded = try XCTUnwrap(try NSKeyedUnarchiver.unarchiveTopLevelObjectWithData(Data(try PropertyList.write(tree, as: .xml))) as? DerivedDecoded)
        XCTAssertEqual(decoded.extra, "more")
        XCTAssertEqual(decoded.superID, 7)
    }
}
