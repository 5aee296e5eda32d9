/// Class names as a rules file or an allowlist writes them (mangled or
/// readable), found by the archived class they name in constant time: the
/// same answer as `names.firstIndex { className.matches($0) }`, without a
/// scan per lookup (a rules file naming thousands of classes, checked against
/// thousands of objects, stays linear).
struct ClassNameIndex: Sendable, Equatable {
    /// Each name as written, to its first position.
    private var byName: [String: Int] = [:]
    /// Each name's demangled form (when it demangles), to its first position.
    private var byDemangled: [String: Int] = [:]

    /// An empty index.
    init() {}

    /// The names at their positions in `names`.
    init(_ names: [String]) {
        for (position, name) in names.enumerated() { insert(name, at: position) }
    }

    /// Adds a name at a position; an earlier position of the same name wins.
    mutating func insert(_ name: String, at position: Int) {
        if byName[name] == nil { byName[name] = position }
        if let demangled = SwiftDemangler.demangle(name), byDemangled[demangled] == nil { byDemangled[demangled] = position }
    }

    /// The first position whose name is `className` in either spelling
    /// (`ClassName.matches`), or nil.
    func first(matching className: ClassName) -> Int? {
        // matches(name): name == archived || name == readable || demangle(name) == readable.
        earliest(earliest(byName[className.archived], byName[className.readable]), byDemangled[className.readable])
    }

    /// True when some name is `className` in either spelling.
    func contains(_ className: ClassName) -> Bool {
        byName[className.archived] != nil || byName[className.readable] != nil || byDemangled[className.readable] != nil
    }
}

/// Archived classes found by a name that matches them (`ClassName.matches`),
/// in constant time per lookup: the reverse of ``ClassNameIndex``.
struct ArchivedClassIndex: Sendable {
    /// Positions of the classes by archived name.
    private var byArchived: [String: [Int]] = [:]
    /// Positions of the classes by readable name.
    private var byReadable: [String: [Int]] = [:]

    /// An empty index.
    init() {}

    /// Adds a class at a position.
    mutating func insert(_ className: ClassName, at position: Int) {
        byArchived[className.archived, default: []].append(position)
        byReadable[className.readable, default: []].append(position)
    }

    /// The positions, in increasing order, of every class `name` matches.
    func positions(matching name: String) -> [Int] {
        // matches(name): name == archived || name == readable || demangle(name) == readable.
        var found = (byArchived[name] ?? []) + (byReadable[name] ?? [])
        if let demangled = SwiftDemangler.demangle(name) { found += byReadable[demangled] ?? [] }
        guard found.count > 1 else { return found }
        return Array(Set(found)).sorted()
    }

    /// True when `name` matches some class.
    func contains(_ name: String) -> Bool {
        if byArchived[name] != nil || byReadable[name] != nil { return true }
        guard let demangled = SwiftDemangler.demangle(name) else { return false }
        return byReadable[demangled] != nil
    }
}

/// The smaller of two optional positions (nil when both are).
@inline(__always) func earliest(_ a: Int?, _ b: Int?) -> Int? {
    guard let a else { return b }
    guard let b else { return a }
    return min(a, b)
}
