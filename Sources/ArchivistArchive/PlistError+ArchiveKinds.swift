import ArchivistCore

extension PlistError.Kind {
    /// A keyed archive's structure is broken.
    public static let archive = PlistError.Kind("archive")
    /// The input is no keyed archive and holds none in its `<data>` values,
    /// where an operation needs one (a migration): batches skip such files.
    public static let noArchive = PlistError.Kind("noArchive")
}

extension PlistError.Reason {
    /// A key path names a key that a dictionary on the way lacks:
    /// ``PlistEditor/apply(_:at:in:create:)`` with `create: true` makes the
    /// missing dictionaries.
    public static let missingKey = PlistError.Reason("missingKey")
    /// An object refers back to an object that contains it, a cycle JSON
    /// cannot hold: ``CodableOptions/CyclePolicy/omit`` leaves such
    /// references out.
    public static let referenceCycle = PlistError.Reason("referenceCycle")
    /// A migration with Codable encoding was given a keyed archive itself,
    /// where it replaces archives nested in data values:
    /// ``CodableExport`` exports the archive itself.
    public static let archiveAtTop = PlistError.Reason("archiveAtTop")
    /// A Codable upgrade (``UpgradeCodegen`` with a Codable encoding) met a
    /// struct that contains itself; it converts structs that do not.
    public static let selfContainingStruct = PlistError.Reason("selfContainingStruct")
    /// An upgrade (``UpgradeCodegen``) met a class that changes its archived
    /// shape and has custom superclasses; it converts classes without them.
    public static let upgradeOfSubclass = PlistError.Reason("upgradeOfSubclass")
    /// A Codable upgrade met a class with custom superclasses; it converts
    /// classes without them.
    public static let codableUpgradeOfSubclass = PlistError.Reason("codableUpgradeOfSubclass")
    /// A Codable upgrade met a class the rules unwrap; it converts classes
    /// into structs of their own.
    public static let codableUpgradeOfUnwrappedClass = PlistError.Reason("codableUpgradeOfUnwrappedClass")
    /// A Core Data transformer was asked of a Codable upgrade: a transformer
    /// reads archives, and a Codable upgrade writes Codable data.
    public static let transformerOfCodableUpgrade = PlistError.Reason("transformerOfCodableUpgrade")
    /// A Codable upgrade was given archives whose roots are of several
    /// classes; it upgrades archives whose roots are of one class.
    public static let rootsOfSeveralClasses = PlistError.Reason("rootsOfSeveralClasses")
    /// An upgrade was given an archive whose root object is not of one of the
    /// app's classes; it upgrades archives whose root is.
    public static let rootNotOfTheApp = PlistError.Reason("rootNotOfTheApp")
}
