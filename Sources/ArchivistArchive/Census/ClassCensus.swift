/// The classes of one or more archives: counts, chains, which are Foundation's.
package struct ClassCensus: Sendable {
    /// One class.
    package struct Entry: Sendable, Equatable {
        /// Archived and readable name.
        package var name: ClassName
        /// The `$classes` chain.
        package var chain: [String]
        /// Objects of this class, over all archives counted.
        package var count: Int
        /// True for Foundation's classes (secure by themselves).
        package var isFoundation: Bool

        /// The framework the class belongs to, as `classes` labels it: the
        /// catalogue's (`Foundation`, `AppKit`, `UIKit`, `CloudKit`), else
        /// `Foundation` for Foundation's private subclasses, `UIKit` for other
        /// `UI` classes; another class of Apple's frameworks (`NS` followed by
        /// a capital letter) takes the framework of the first catalogued
        /// superclass in its chain below `NSObject` (`NSTextField < NSControl
        /// < NSView < NSResponder`: AppKit), else `Apple`; the rest are `custom`.
        package var framework: String {
            if let known = ClassCatalogue.description(of: name.archived) { return known.framework.rawValue }
            if isFoundation { return ClassFramework.foundation.rawValue }
            guard SecurePolicy.isFrameworkClass(name) else { return "custom" }
            if name.archived.hasPrefix("UI") { return ClassFramework.uiKit.rawValue }
            for superclass in chain.dropFirst() where superclass != ClassDescription.nsObject.name {
                if let known = ClassCatalogue.description(of: superclass) { return known.framework.rawValue }
            }
            return "Apple"
        }
    }

    /// The classes, in the order first met.
    package private(set) var entries: [Entry] = []
    /// Each class's index in `entries`, by archived name.
    private var index: [String: Int] = [:]

    /// An empty census.
    package init() {}

    /// Adds an archive's classes.
    package mutating func add(_ graph: ObjectGraph) {
        for (name, chain, count) in graph.classCensus() {
            if let i = index[name.archived] {
                entries[i].count += count
            } else {
                index[name.archived] = entries.count
                entries.append(Entry(name: name, chain: chain, count: count, isFoundation: FoundationClasses.isFoundation(name.archived)))
            }
        }
    }

    /// The `NSKeyedUnarchiver.unarchivedObject(ofClasses:from:)` call a developer
    /// needs for these classes.
    package var swiftAllowlist: String {
        "try NSKeyedUnarchiver.unarchivedObject(ofClasses: \(swiftClassList), from: data)"
    }

    /// The classes as a Swift array literal (`[Computer.self, CPU.CPUCoder.self,
    /// NSArray.self]`): Foundation classes by their names, custom ones as code
    /// of their own module names them (`ClassName.swiftType`), every class an
    /// archive holds once. Names that are no Swift type (`unnamedInSwift`) are
    /// left out.
    package var swiftClassList: String {
        var seen: Set<String> = []
        let names = entries.compactMap { e -> String? in
            let type = Self.swiftType(of: e)
            guard SwiftNames.isTypeExpression(type) else { return nil }
            return seen.insert(type).inserted ? "\(type).self" : nil
        }
        return "[" + names.joined(separator: ", ") + "]"
    }

    /// The classes whose names are no Swift type name (an archive can name a
    /// class anything), which `swiftClassList` leaves out.
    package var unnamedInSwift: [ClassName] {
        entries.filter { !SwiftNames.isTypeExpression(Self.swiftType(of: $0)) }.map(\.name)
    }

    private static func swiftType(of e: Entry) -> String {
        e.isFoundation ? e.name.archived : e.name.swiftType
    }
}
