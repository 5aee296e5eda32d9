import ArchivistCore
import Foundation

/// Keyed archives for the tests: made by hand, object by object (for the
/// shapes Foundation never writes, or writes only on a Mac), or by
/// Foundation's own `NSKeyedArchiver`.
public enum ArchiveBuilder {
    /// A class entry of `$objects`: `$classname` and the chain `$classes`
    /// (the class, its `superclasses`, then `NSObject`).
    public static func classEntry(_ name: String, superclasses: [String] = []) -> PlistValue {
        .dictionary(PlistDictionary([
            ("$classname", .string(name)),
            ("$classes", .array(([name] + superclasses + ["NSObject"]).map { .string($0) })),
        ]))
    }

    /// An object entry of `$objects`: its `fields`, then `$class`, the UID of its class entry.
    public static func object(_ fields: [(String, PlistValue)], classAt uid: UInt64) -> PlistValue {
        .dictionary(PlistDictionary(fields + [("$class", .uid(uid))]))
    }

    /// A keyed archive: `$archiver`, `$version`, `$top` (by default `root`,
    /// the first object) and `$objects`, which are `$null` then `objects`
    /// (so the first of them is UID 1).
    public static func archive(_ objects: [PlistValue], top: [(String, PlistValue)] = [("root", .uid(1))]) -> PlistValue {
        .dictionary(PlistDictionary([
            ("$archiver", .string("NSKeyedArchiver")), ("$version", .int(100_000)),
            ("$top", .dictionary(PlistDictionary(top))), ("$objects", .array([.string("$null")] + objects)),
        ]))
    }

    /// A keyed archive whose root is one object of class `className` holding
    /// `fields`; its class entry is UID 2, and `more` objects follow from UID 3.
    public static func archive(className: String, fields: [(String, PlistValue)], more: [PlistValue] = []) -> PlistValue {
        archive([object(fields, classAt: 2), classEntry(className)] + more)
    }

    /// The archive Foundation's `NSKeyedArchiver` writes for `root` (binary, not secure coding).
    public static func foundation(_ root: Any) throws -> [UInt8] {
        [UInt8](try NSKeyedArchiver.archivedData(withRootObject: root, requiringSecureCoding: false))
    }
}
