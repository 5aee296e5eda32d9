import Foundation

// The plain Codable structs that replace the scenario-2 wrapper classes, as
// SCENARIOS.md declares them.

struct CPUCore: Codable, Equatable {
    var constant: Int = 1494
    var coreID: String
}

struct CPU: Codable, Equatable {
    var clock: Int!
    var constant: Int!
    var cores: [CPUCore]!
}

struct Computer: Codable, Equatable {
    var name: String?
    var cpu: CPU?
}

struct Coordinate: Codable, Equatable {
    let latitude: Double
    let longitude: Double
}

/// The struct stored with PropertyListEncoder inside `Shop.Cart.Box`.
struct Cart: Codable, Equatable {
    struct Item: Codable, Equatable { var sku: String; var quantity: Int; var price: Double }
    var items: [Item]
    var updated: Date
    var note: String?
}

struct Order: Codable, Equatable {
    var id: String
    var cart: Cart
}

/// Shapes decoded by hand-written polymorphic code reading "type".
enum Shape: Codable, Equatable {
    case circle(radius: Double)
    case square(side: Double)

    private enum CodingKeys: String, CodingKey { case type, radius, side }

    init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        switch try c.decode(String.self, forKey: .type) {
        case "circle": self = .circle(radius: try c.decode(Double.self, forKey: .radius))
        case "square": self = .square(side: try c.decode(Double.self, forKey: .side))
        case let other: throw DecodingError.dataCorruptedError(forKey: .type, in: c, debugDescription: "unknown shape \(other)")
        }
    }

    func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        switch self {
        case .circle(let r): try c.encode("circle", forKey: .type); try c.encode(r, forKey: .radius)
        case .square(let s): try c.encode("square", forKey: .type); try c.encode(s, forKey: .side)
        }
    }
}

struct Drawing: Codable, Equatable {
    var title: String
    var shapes: [Shape]
}

/// The scenario-2 values the corpus archives hold.
enum ScenarioTwo {
    static let computer = Computer(name: "Mac", cpu: CPU(clock: 3200, constant: 7,
                                                         cores: [CPUCore(constant: 1494, coreID: "A1B2"), CPUCore(constant: 1494, coreID: "C3D4")]))
    static let coordinate = Coordinate(latitude: 48.8584, longitude: 2.2945)
    static let order = Order(id: "o-17", cart: Cart(items: [.init(sku: "A-1", quantity: 2, price: 9.5), .init(sku: "B-2", quantity: 1, price: 120)],
                                                    updated: Date(timeIntervalSinceReferenceDate: 720_000_000), note: nil))
    static let drawing = Drawing(title: "mixed", shapes: [.circle(radius: 1.5), .square(side: 2), .circle(radius: 3)])
}
