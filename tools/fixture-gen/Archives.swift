// Keyed archives written by Foundation's real NSKeyedArchiver, for Corpus/archives.
import ArchivistCore
import Foundation

final class ScaryCreatureData: NSObject, NSCoding {
    let title: String
    let rating: Float
    init(title: String, rating: Float) { self.title = title; self.rating = rating }
    func encode(with coder: NSCoder) {
        coder.encode(title, forKey: "Title")
        coder.encode(rating, forKey: "Rating")
    }
    init?(coder: NSCoder) { nil }
}

final class CPUCore: NSObject, NSCoding {
    let constant: Int
    let coreID: String
    init(constant: Int, coreID: String) { self.constant = constant; self.coreID = coreID }
    func encode(with coder: NSCoder) {
        coder.encode(constant, forKey: "constant")
        coder.encode(coreID as NSString, forKey: "coreID")
    }
    init?(coder: NSCoder) { nil }
}

final class CPUCoder: NSObject, NSCoding {
    let clock: Int, constant: Int, cores: [CPUCore]
    init(clock: Int, constant: Int, cores: [CPUCore]) { self.clock = clock; self.constant = constant; self.cores = cores }
    func encode(with coder: NSCoder) {
        coder.encode(NSNumber(value: clock), forKey: "clock")
        coder.encode(NSNumber(value: constant), forKey: "constant")
        coder.encode(cores as NSArray, forKey: "cores")
    }
    init?(coder: NSCoder) { nil }
}

final class Computer: NSObject, NSCoding {
    let name: String, cpu: CPUCoder
    init(name: String, cpu: CPUCoder) { self.name = name; self.cpu = cpu }
    func encode(with coder: NSCoder) {
        coder.encode(name as NSString, forKey: "cpu_name")
        coder.encode(cpu, forKey: "cpu_coder")
    }
    init?(coder: NSCoder) { nil }
}

final class User: NSObject, NSCoding {
    let name: String, age: Int, email: String?
    init(name: String, age: Int, email: String?) { self.name = name; self.age = age; self.email = email }
    func encode(with coder: NSCoder) {
        coder.encode(name as NSString, forKey: "name")
        coder.encode(age, forKey: "age")
        coder.encode(email.map { $0 as NSString }, forKey: "email")
    }
    init?(coder: NSCoder) { nil }
}

/// A node that points back at its owner with a conditional reference.
final class Node: NSObject, NSCoding {
    let label: String
    var children: [Node] = []
    weak var parent: Node?
    init(label: String) { self.label = label }
    func encode(with coder: NSCoder) {
        coder.encode(label as NSString, forKey: "label")
        coder.encode(children as NSArray, forKey: "children")
        coder.encodeConditionalObject(parent, forKey: "parent")
    }
    init?(coder: NSCoder) { nil }
}

/// Scenario 2: a struct archived through a wrapper class; the optionals are
/// encoded as objects (NSNumber).
final class EncodableCoordinate: NSObject, NSCoding {
    let latitude: Double?, longitude: Double?
    init(latitude: Double?, longitude: Double?) { self.latitude = latitude; self.longitude = longitude }
    func encode(with coder: NSCoder) {
        coder.encode(latitude.map { NSNumber(value: $0) }, forKey: "latitude")
        coder.encode(longitude.map { NSNumber(value: $0) }, forKey: "longitude")
    }
    init?(coder: NSCoder) { nil }
}

/// A struct stored with PropertyListEncoder inside an NSCoding wrapper.
struct Cart: Codable {
    struct Item: Codable { var sku: String; var quantity: Int; var price: Double }
    var items: [Item]
    var updated: Date
    var note: String?
}

final class CartBox: NSObject, NSCoding {
    let payload: Data
    init(payload: Data) { self.payload = payload }
    func encode(with coder: NSCoder) { coder.encode(payload as NSData, forKey: "payload") }
    init?(coder: NSCoder) { nil }
}

final class Order: NSObject, NSCoding {
    let id: String, cart: CartBox
    init(id: String, cart: CartBox) { self.id = id; self.cart = cart }
    func encode(with coder: NSCoder) {
        coder.encode(id as NSString, forKey: "id")
        coder.encode(cart, forKey: "cart")
    }
    init?(coder: NSCoder) { nil }
}

/// Shapes of two classes in one array, for a type discriminator.
final class Circle: NSObject, NSCoding {
    let radius: Double
    init(radius: Double) { self.radius = radius }
    func encode(with coder: NSCoder) { coder.encode(NSNumber(value: radius), forKey: "radius") }
    init?(coder: NSCoder) { nil }
}

final class Square: NSObject, NSCoding {
    let side: Double
    init(side: Double) { self.side = side }
    func encode(with coder: NSCoder) { coder.encode(NSNumber(value: side), forKey: "side") }
    init?(coder: NSCoder) { nil }
}

final class Drawing: NSObject, NSCoding {
    let title: String, shapes: [NSObject]
    init(title: String, shapes: [NSObject]) { self.title = title; self.shapes = shapes }
    func encode(with coder: NSCoder) {
        coder.encode(title as NSString, forKey: "title")
        coder.encode(shapes as NSArray, forKey: "shapes")
    }
    init?(coder: NSCoder) { nil }
}

enum ArchiveFixtures {
    /// Archives `root` and renames Linux's `fixture_gen.X` class names to the
    /// names the scenarios have on disk (Foundation on Linux ignores setClassName).
    static func archive(_ root: Any, names: [String: String]) throws -> [UInt8] {
        let data = try NSKeyedArchiver.archivedData(withRootObject: root, requiringSecureCoding: false)
        var tree = try PropertyList.read([UInt8](data)).tree.value
        guard case .dictionary(var envelope) = tree, case .array(var objects)? = envelope["$objects"] else { return [UInt8](data) }
        func rename(_ s: String) -> String { names[s] ?? names[s.replacingOccurrences(of: "fixture_gen.", with: "")] ?? s }
        for (i, object) in objects.enumerated() {
            guard case .dictionary(var d) = object, case .string(let name)? = d["$classname"] else { continue }
            d["$classname"] = .string(rename(name))
            if case .array(let chain)? = d["$classes"] {
                d["$classes"] = .array(chain.map { $0.stringValue.map { .string(rename($0)) } ?? $0 })
            }
            objects[i] = .dictionary(d)
        }
        envelope["$objects"] = .array(objects)
        tree = .dictionary(envelope)
        return try PropertyList.write(tree, as: .binary)
    }

    /// One object of each Foundation class that `dump` shows as a value, keyed by what it is.
    static func foundationClasses() -> NSDictionary {
        let url = NSURL(string: "https://example.com/a/") ?? NSURL(fileURLWithPath: "/")
        let objects: [(String, Any)] = [
            ("NSArray", NSArray(array: ["a", NSNumber(value: 1)])),
            ("NSMutableArray", NSMutableArray(array: ["m", "n", "o"])),
            ("NSSet", NSSet(array: ["only"])),
            ("NSMutableSet", NSMutableSet(array: [NSNumber(value: 7), NSNumber(value: 8)])),
            ("NSOrderedSet", NSOrderedSet(array: ["first", "second", "third", "fourth"])),
            ("NSMutableOrderedSet", NSMutableOrderedSet(array: ["x", "y", "z", "w", "v"])),
            ("NSDictionary", NSDictionary(dictionary: ["key": "value"])),
            ("NSMutableDictionary", NSMutableDictionary(dictionary: ["k1": NSNumber(value: 1), "k2": NSNumber(value: 2)])),
            ("NSString", "plain" as NSString),
            ("NSMutableString", NSMutableString(string: "mutable ünïcode")),
            ("NSData", NSData(data: Data([0xDE, 0xAD, 0xBE, 0xEF]))),
            ("NSMutableData", NSMutableData(data: Data([1, 2, 3, 4, 5]))),
            ("NSDate", NSDate(timeIntervalSinceReferenceDate: 600_000_000.5)),
            ("NSUUID", NSUUID(uuidString: "0F7C0B8A-5E3D-4C1B-9A2F-6D8E4B3C2A10") ?? NSUUID()),
            ("NSURL", NSURL(string: "https://example.org/path?q=1") ?? url),
            ("NSURL relative", NSURL(string: "b/c.txt", relativeTo: url as URL) ?? url),
            ("NSNull", NSNull()),
            ("NSNumber integer", NSNumber(value: -12345678901)),
            ("NSNumber real", NSNumber(value: 0.125)),
            ("NSNumber bool", NSNumber(value: false)),
            ("NSValue point", NSValue(point: NSPoint(x: 1.5, y: -2))),
            ("NSValue size", NSValue(size: NSSize(width: 640, height: 480))),
            ("NSValue rect", NSValue(rect: NSRect(x: 0, y: 10, width: 320, height: 240))),
            ("NSValue range", NSValue(range: NSRange(location: 5, length: 12))),
            ("NSValue edgeInsets", NSValue(edgeInsets: NSEdgeInsets(top: 1, left: 2, bottom: 3, right: 4))),
            ("NSLocale", NSLocale(localeIdentifier: "fr_CA")),
            ("NSTimeZone", NSTimeZone(name: "America/New_York") ?? NSTimeZone(forSecondsFromGMT: 0)),
        ]
        let dictionary = NSMutableDictionary()
        for (key, object) in objects { dictionary[key] = object }
        return dictionary
    }

    static func write(into root: URL) throws -> String {
        let dir = root.appendingPathComponent("archives")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        var manifest = ""
        func save(_ name: String, _ bytes: [UInt8], _ kind: String) throws {
            try Data(bytes).write(to: dir.appendingPathComponent(name))
            manifest += "archives/\(name)\tkeyed-archive-binary\tyes\t\(kind)\tarchivist:tools/fixture-gen\n"
        }
        try save("scary-creature-v1.plist", try archive(ScaryCreatureData(title: "Scary Bug", rating: 3.5),
                                                         names: ["ScaryCreatureData": "ScaryCreatures.ScaryCreatureData"]),
                 "NSKeyedArchiver: scenario 1, ScaryCreatureData with inline Rating")
        let cores = [CPUCore(constant: 1494, coreID: "A1B2"), CPUCore(constant: 1494, coreID: "C3D4")]
        try save("computer.plist", try archive(Computer(name: "Mac", cpu: CPUCoder(clock: 3200, constant: 7, cores: cores)),
                                               names: ["Computer": "MusicBox.Computer", "CPUCoder": "_TtCV8MusicBox3CPU8CPUCoder", "CPUCore": "MusicBox.CPUCore"]),
                 "NSKeyedArchiver: scenario 2, Computer with a mangled CPU.CPUCoder")
        let shared = "shared string" as NSString
        let date = Date(timeIntervalSinceReferenceDate: 700_000_000.25)
        let values: NSDictionary = [
            "array": NSArray(array: [shared, shared, NSNumber(value: 42)]), "date": date, "data": Data([1, 2, 3]),
            "uuid": NSUUID(uuidString: "E621E1F8-C36C-495A-93FC-0C247A3E6E5F") ?? NSUUID(),
            "url": NSURL(string: "https://example.com/a?b=c") ?? NSURL(fileURLWithPath: "/"), "null": NSNull(), "set": NSSet(array: [NSNumber(value: 1)]),
            "bool": NSNumber(value: true), "real": NSNumber(value: 2.5),
        ]
        try save("foundation-values.plist", try archive(values, names: [:]), "NSKeyedArchiver: Foundation values and a shared string")
        try save("foundation-classes.plist", try archive(foundationClasses(), names: [:]),
                 "NSKeyedArchiver: one object of every Foundation class Archivist reads as a value")
        // Foundation on Linux writes attributed strings without NSAttributeInfo and then
        // cannot read them back (it crashes), so they have an archive of their own.
        let attributed = NSArray(array: [
            NSAttributedString(string: "styled", attributes: [NSAttributedString.Key("weight"): NSNumber(value: 700)]),
            NSMutableAttributedString(string: "plain run"),
        ])
        try save("attributed-strings.plist", try archive(attributed, names: [:]),
                 "NSKeyedArchiver: NSAttributedString and NSMutableAttributedString (NSString, NSAttributes)")
        // Foundation on Linux writes an NSCountedSet inside a collection as an empty NSSet,
        // so the counted set is the root of its own archive.
        try save("counted-set.plist", try archive(NSCountedSet(array: ["twice", "twice", "once"]), names: [:]),
                 "NSKeyedArchiver: NSCountedSet (NS.objectN, NS.countN)")
        let parent = Node(label: "parent")
        let child = Node(label: "child")
        parent.children = [child]
        child.parent = parent
        try save("cycle.plist", try archive(parent, names: ["Node": "Tree.Node"]), "NSKeyedArchiver: conditional back-reference (cycle)")
        try save("coordinate.plist", try archive(EncodableCoordinate(latitude: 48.8584, longitude: 2.2945),
                                                 names: ["EncodableCoordinate": "Maps.EncodableCoordinate"]),
                 "NSKeyedArchiver: scenario 2, EncodableCoordinate wrapping a struct")
        let encoder = PropertyListEncoder()
        encoder.outputFormat = .binary
        let cart = Cart(items: [Cart.Item(sku: "A-1", quantity: 2, price: 9.5), Cart.Item(sku: "B-2", quantity: 1, price: 120)],
                        updated: Date(timeIntervalSinceReferenceDate: 720_000_000), note: nil)
        try save("order-with-cart.plist", try archive(Order(id: "o-17", cart: CartBox(payload: try encoder.encode(cart))),
                                                      names: ["Order": "Shop.Order", "CartBox": "Shop.Cart.Box"]),
                 "NSKeyedArchiver: a wrapper holding a struct stored with PropertyListEncoder")
        try save("drawing.plist", try archive(Drawing(title: "mixed", shapes: [Circle(radius: 1.5), Square(side: 2), Circle(radius: 3)]),
                                              names: ["Drawing": "Shapes.Drawing", "Circle": "Shapes.Circle", "Square": "Shapes.Square"]),
                 "NSKeyedArchiver: an array mixing two classes")
        // Scenario 3: an archived User stored as data in a preferences plist.
        let user = try archive(User(name: "Ada", age: 36, email: nil), names: ["User": "Prefs.User"])
        let prefs = PlistValue.dictionary(PlistDictionary([
            ("currentUser", .data(user)), ("launchCount", .int(12)), ("theme", .string("dark")),
        ]))
        try Data(try PropertyList.write(prefs, as: .binary)).write(to: dir.appendingPathComponent("preferences-with-user.plist"))
        manifest += "archives/preferences-with-user.plist\tbinary\tyes\tscenario 3: a keyed archive nested as data in preferences\tarchivist:tools/fixture-gen\n"
        return manifest
    }
}
