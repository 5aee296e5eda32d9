/// The Codable-export part of a rules file: what `convert --to codable-json`,
/// `schema`, `codegen --codable`, `migrate --codable` and
/// ``KeyedArchiveDecoder`` read beyond the class and key renames and removals
/// they share with `migrate`. It lives in the same file as the migration part
/// (``MigrationRules/codable``): a class entry may hold both.
///
/// ```json
/// {
///   "classes": {
///     "Shop.Cart.Box": { "unwrap": "payload" },
///     "Shapes.Circle": { "typeName": "circle" }
///   },
///   "typeKey": "type"
/// }
/// ```
public struct CodableRules: Sendable, Equatable {
    /// What the export does with the objects of one class.
    public struct ClassRule: Sendable, Equatable {
        /// Replace each object by this field's value (a wrapper around a struct).
        public var unwrap: String?
        /// The discriminator value written under ``CodableRules/typeKey`` in
        /// arrays that mix classes (default: the struct's name).
        public var typeName: String?

        /// A rule in code.
        ///
        /// - Parameters:
        ///   - unwrap: The field whose value stands for the object, or nil.
        ///   - typeName: The discriminator value under `typeKey`, or nil for the
        ///     struct's name.
        public init(unwrap: String? = nil, typeName: String? = nil) {
            self.unwrap = unwrap
            self.typeName = typeName
        }
    }

    /// Per class, keyed by the name its entry in the rules file has (the
    /// ``MigrationRules/ClassRule/name`` of the same entry).
    public var classes: [String: ClassRule]
    /// The key naming each object's type in arrays that mix classes; nil
    /// writes no discriminator.
    public var typeKey: String?

    /// Rules in code.
    ///
    /// - Parameters:
    ///   - classes: The rules by class name.
    ///   - typeKey: The key of the discriminator in arrays that mix classes.
    public init(classes: [String: ClassRule] = [:], typeKey: String? = nil) {
        self.classes = classes
        self.typeKey = typeKey
    }
}
