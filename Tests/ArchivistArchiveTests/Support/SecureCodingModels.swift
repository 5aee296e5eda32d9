import Foundation

// Version-1 classes: plain NSCoding, primitives written inline, as apps wrote
// them before adopting NSSecureCoding. Version-2 classes: NSSecureCoding,
// reading every field with decodeObject(of:forKey:).

/// Scenario 1, version 1: `Title` by reference, `Rating` an inline real.
final class ScaryCreatureDataV1: NSObject, NSCoding {
    let title: String
    let rating: Float
    init(title: String, rating: Float) { self.title = title; self.rating = rating }
    func encode(with coder: NSCoder) {
        coder.encode(title, forKey: "Title")
        coder.encode(rating, forKey: "Rating")
    }
    init?(coder: NSCoder) {
        title = coder.decodeObject(forKey: "Title") as? String ?? ""
        rating = coder.decodeFloat(forKey: "Rating")
    }
}

/// Scenario 1, version 2.
final class ScaryCreatureDataV2: NSObject, NSSecureCoding {
    static var supportsSecureCoding: Bool { true }
    let title: String
    let rating: Float
    init(title: String, rating: Float) { self.title = title; self.rating = rating }
    func encode(with coder: NSCoder) {
        coder.encode(title as NSString, forKey: "Title")
        coder.encode(NSNumber(value: rating), forKey: "Rating")
    }
    init?(coder: NSCoder) {
        guard let title = coder.decodeObject(of: NSString.self, forKey: "Title"),
              let rating = coder.decodeObject(of: NSNumber.self, forKey: "Rating") else { return nil }
        self.title = title as String
        self.rating = rating.floatValue
    }
    override var description: String { "ScaryCreatureData(title: \(title), rating: \(rating))" }
}

/// A class renamed between versions (`Person` in a new module): `age` inline.
final class OwnerV1: NSObject, NSCoding {
    let name: String
    let age: Int
    init(name: String, age: Int) { self.name = name; self.age = age }
    func encode(with coder: NSCoder) {
        coder.encode(name, forKey: "name")
        coder.encode(age, forKey: "age")
    }
    init?(coder: NSCoder) {
        name = coder.decodeObject(forKey: "name") as? String ?? ""
        age = coder.decodeInteger(forKey: "age")
    }
}

/// Version 2 of `OwnerV1`, archived as `Shop.Person`.
final class PersonV2: NSObject, NSSecureCoding {
    static var supportsSecureCoding: Bool { true }
    let name: String
    let age: Int
    init(name: String, age: Int) { self.name = name; self.age = age }
    func encode(with coder: NSCoder) {
        coder.encode(name as NSString, forKey: "name")
        coder.encode(NSNumber(value: age), forKey: "age")
    }
    init?(coder: NSCoder) {
        guard let name = coder.decodeObject(of: NSString.self, forKey: "name"),
              let age = coder.decodeObject(of: NSNumber.self, forKey: "age") else { return nil }
        self.name = name as String
        self.age = age.intValue
    }
    override var description: String { "Person(name: \(name), age: \(age))" }
}

/// Every kind of field: inline Int, Double, Float and Bool; a string (under a
/// key renamed in version 2), a date, data, an array, a dictionary, an owner
/// shared by two fields, and an obsolete key version 2 drops.
final class InventoryV1: NSObject, NSCoding {
    let label: String
    let count: Int
    let price: Double
    let weight: Float
    let active: Bool
    let created: Date
    let blob: Data
    let tags: [String]
    let stock: [String: Int]
    let owner: OwnerV1
    init(label: String, count: Int, price: Double, weight: Float, active: Bool, created: Date, blob: Data,
         tags: [String], stock: [String: Int], owner: OwnerV1) {
        self.label = label; self.count = count; self.price = price; self.weight = weight; self.active = active
        self.created = created; self.blob = blob; self.tags = tags; self.stock = stock; self.owner = owner
    }
    func encode(with coder: NSCoder) {
        coder.encode(label, forKey: "label")
        coder.encode(count, forKey: "count")
        coder.encode(price, forKey: "price")
        coder.encode(weight, forKey: "weight")
        coder.encode(active, forKey: "active")
        coder.encode(created, forKey: "created")
        coder.encode(blob, forKey: "blob")
        coder.encode(tags, forKey: "tags")
        coder.encode(stock, forKey: "stock")
        coder.encode(owner, forKey: "owner")
        coder.encode(owner, forKey: "coOwner")
        coder.encode("no longer read", forKey: "legacyNote")
    }
    init?(coder: NSCoder) { return nil }
}

/// Version 2 of `InventoryV1`, archived as `Shop.Inventory`.
final class InventoryV2: NSObject, NSSecureCoding {
    static var supportsSecureCoding: Bool { true }
    let name: String
    let count: Int
    let price: Double
    let weight: Float
    let active: Bool
    let created: Date
    let blob: Data
    let tags: [String]
    let stock: [String: Int]
    let owner: PersonV2
    let coOwner: PersonV2
    func encode(with coder: NSCoder) {}
    init?(coder: NSCoder) {
        guard let name = coder.decodeObject(of: NSString.self, forKey: "name"),
              let count = coder.decodeObject(of: NSNumber.self, forKey: "count"),
              let price = coder.decodeObject(of: NSNumber.self, forKey: "price"),
              let weight = coder.decodeObject(of: NSNumber.self, forKey: "weight"),
              let active = coder.decodeObject(of: NSNumber.self, forKey: "active"),
              let created = coder.decodeObject(of: NSDate.self, forKey: "created"),
              let blob = coder.decodeObject(of: NSData.self, forKey: "blob"),
              let tags = coder.decodeObject(of: [NSArray.self, NSString.self], forKey: "tags") as? [String],
              let stock = coder.decodeObject(of: [NSDictionary.self, NSString.self, NSNumber.self], forKey: "stock") as? [String: Int],
              let owner = coder.decodeObject(of: PersonV2.self, forKey: "owner"),
              let coOwner = coder.decodeObject(of: PersonV2.self, forKey: "coOwner"),
              !coder.containsValue(forKey: "legacyNote") else { return nil }
        self.name = name as String; self.count = count.intValue; self.price = price.doubleValue
        self.weight = weight.floatValue; self.active = active.boolValue; self.created = created as Date
        self.blob = blob as Data; self.tags = tags; self.stock = stock; self.owner = owner; self.coOwner = coOwner
    }
    override var description: String {
        "Inventory(name: \(name), count: \(count), price: \(price), weight: \(weight), active: \(active), "
            + "created: \(created.timeIntervalSinceReferenceDate), blob: \(blob.map { $0 }), tags: \(tags), "
            + "stock: \(stock.sorted { $0.key < $1.key }), owner: \(owner), coOwner: \(coOwner), shared: \(owner === coOwner))"
    }
}

/// A tree whose children point back at their parent with a conditional
/// reference, so the archive holds a cycle.
final class NodeV1: NSObject, NSCoding {
    let label: String
    let level: Int
    var children: [NodeV1] = []
    weak var parent: NodeV1?
    init(label: String, level: Int) { self.label = label; self.level = level }
    func encode(with coder: NSCoder) {
        coder.encode(label, forKey: "label")
        coder.encode(level, forKey: "level")
        coder.encode(children, forKey: "children")
        coder.encodeConditionalObject(parent, forKey: "parent")
    }
    init?(coder: NSCoder) { return nil }
}

/// Version 2 of `NodeV1`, archived as `Tree.Node`. swift-corelibs-foundation
/// recurses without end when `init(coder:)` decodes a back-reference inside a
/// cycle, so version 2 rebuilds `parent` from `children` instead of decoding
/// it; the archive still holds the back-references.
final class NodeV2: NSObject, NSSecureCoding {
    static var supportsSecureCoding: Bool { true }
    let label: String
    let level: Int
    let children: [NodeV2]
    weak var parent: NodeV2?
    func encode(with coder: NSCoder) {}
    init?(coder: NSCoder) {
        guard let label = coder.decodeObject(of: NSString.self, forKey: "label"),
              let level = coder.decodeObject(of: NSNumber.self, forKey: "level"),
              let children = coder.decodeObject(of: [NSArray.self, NodeV2.self], forKey: "children") as? [NodeV2] else { return nil }
        self.label = label as String
        self.level = level.intValue
        self.children = children
        super.init()
        for child in children { child.parent = self }
    }
    override var description: String {
        "Node(\(label), \(level), parent: \(parent?.label ?? "-"), [\(children.map(\.description).joined(separator: ", "))])"
    }
}

/// Scenario 4, version 2: the Core Data `contact` attribute's class, read
/// through NSSecureUnarchiveFromDataTransformer.
final class ContactV2: NSObject, NSSecureCoding {
    static var supportsSecureCoding: Bool { true }
    let tel: String, fax: String, email: String
    func encode(with coder: NSCoder) {}
    init?(coder: NSCoder) {
        guard let tel = coder.decodeObject(of: NSString.self, forKey: "tel"), let fax = coder.decodeObject(of: NSString.self, forKey: "fax"),
              let email = coder.decodeObject(of: NSString.self, forKey: "email") else { return nil }
        self.tel = tel as String; self.fax = fax as String; self.email = email as String
    }
    override var description: String { "Contact(tel: \(tel), fax: \(fax), email: \(email))" }
}

/// The version-2 classes by the name tests give them to the child decoder.
let secureModelClasses: [String: AnyClass] = [
    "ScaryCreatureData": ScaryCreatureDataV2.self,
    "Person": PersonV2.self,
    "Inventory": InventoryV2.self,
    "Node": NodeV2.self,
    "Contact": ContactV2.self,
]
