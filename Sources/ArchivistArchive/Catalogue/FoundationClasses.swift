import ArchivistCore

/// Foundation's classes that archives hold.
package enum FoundationClasses {
    /// True when a class name is one of Foundation's in `ClassCatalogue` (or
    /// a private subclass of one, its ``ClassDescription/family``, such as
    /// `NSSimpleRegularExpressionCheckingResult` or `NSUnitLength`).
    package static func isFoundation(_ name: String) -> Bool {
        ClassCatalogue.description(orFamilyOf: name)?.framework == .foundation
    }
}
