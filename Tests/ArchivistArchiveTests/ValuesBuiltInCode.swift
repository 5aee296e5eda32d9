import ArchivistCore
@testable import ArchivistArchive

// Tests build many small archives as `PlistValue`s in code. The library takes
// trees only (one overload per operation); these test-only conveniences make
// each value's tree once, as a caller holding a value built in code would.

extension KeyedArchive {
    init(_ value: PlistValue) throws {
        try self.init(try PlistTree(value, limits: .writing))
    }

    static func looksLikeArchive(_ value: PlistValue) -> Bool {
        (try? PlistTree(value, limits: .writing)).map { looksLikeArchive($0) } ?? false
    }
}

extension ObjectGraph {
    init(_ value: PlistValue) throws {
        try self.init(try PlistTree(value, limits: .writing))
    }
}

extension PlistDiff {
    init(_ a: PlistValue, _ b: PlistValue) throws {
        try self.init(try PlistTree(a, limits: .writing), try PlistTree(b, limits: .writing))
    }
}

extension PlistEditor {
    static func apply(_ edit: PlistEdit, at path: PlistKeyPath, in value: PlistValue, create: Bool = false) throws -> PlistValue {
        try apply(edit, at: path, in: try PlistTree(value, limits: .writing), create: create)
    }
}

extension PlistKeyPath {
    func resolve(in root: PlistValue) throws -> Target {
        try resolve(in: try PlistTree(root, limits: .writing))
    }
}
