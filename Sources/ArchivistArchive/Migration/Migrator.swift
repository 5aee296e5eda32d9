import ArchivistCore

/// Why a migration result is not written: a secure decoder would still refuse
/// it. Each violation names the class, the object index and the key.
public struct MigrationRefused: Error, Sendable {
    /// The violations, each with the key path of its archive (empty for the
    /// input's own, else the `<data>` value holding it).
    public var violations: [(archive: String, violation: SecureCodingViolation)]

    /// The violations as located errors; a nested archive's key path is
    /// prefixed to the key path inside it.
    public var errors: [PlistError] {
        violations.map { archive, violation in NestedDocuments.relocated(violation.error, under: archive) }
    }
}

/// Applies migration rules to keyed archives: renames classes (and their
/// `$classes` chains) and keys, removes keys, boxes inline primitives of
/// custom objects into referenced NSNumbers, then proves with
/// `SecureCodingCheck` that a secure decoder would accept the result.
/// Archives nested in `<data>` values (of a plain plist or of an archive) are
/// migrated where they are; everything else stays as it was. With `codable`
/// set, each archive nested in data is replaced by the Codable encoding of its
/// root instead (scenario 3: `defaults.data(forKey:)` read with `JSONDecoder`).
public struct Migrator: Sendable {
    /// The rules.
    public let rules: MigrationRules
    /// The secure-coding policy results must meet.
    public let policy: SecurePolicy
    /// When set, archives nested in `<data>` values become the bytes this
    /// encoder would write for their root (the input must not be an archive
    /// itself); every custom class must then have a rule.
    public var codable: CodableEncoding?
    /// With `codable`: the date strategy (JSON) and what a cycle becomes.
    public var codableOptions = CodableOptions()
    /// False for a report of what would change (`migrate --dry-run`): nothing
    /// is written, every boxed field refers to one shared number, and
    /// ``Outcome/tree`` is the input's tree.
    package var writesResult = true

    /// A migrator for rules.
    ///
    /// - Parameter rules: The migration rules; their allowlist is the policy
    ///   results are checked against.
    public init(rules: MigrationRules) {
        self.rules = rules
        self.policy = SecurePolicy(rules: rules)
    }

    /// The result of migrating one input.
    public struct Outcome: Sendable {
        /// The migrated tree: the input's tree when nothing changed; a
        /// migrated archive as ``GraphWriter`` wrote it; a plain tree with
        /// its changed `<data>` values replaced and every other node as it
        /// was read.
        public var tree: PlistTree
        /// What changed.
        public var report: MigrationReport
    }

    /// Migrates a tree as a reader built it (`document.tree`): a keyed
    /// archive, or a plist holding archives in `<data>`. Each archive's graph
    /// is built on its tree and written back into a tree; nothing unchanged is
    /// converted. Throws `MigrationRefused` when a result would not decode
    /// securely, a `PlistError` when an archive is broken or a rename clashes,
    /// and `PlistError(.noArchive)` when the tree holds no keyed archive.
    ///
    /// - Parameter tree: A document's tree.
    /// - Returns: The migrated tree and the report of what changed.
    /// - Throws: ``MigrationRefused`` when a result would not decode securely;
    ///   `PlistError` when an archive is broken, a rename clashes, or the tree
    ///   holds no archive (`noArchive`).
    public func migrate(_ tree: PlistTree) throws -> Outcome {
        if codable != nil, KeyedArchive.looksLikeArchive(tree) {
            throw PlistError(.invalidValue, "the input is a keyed archive itself; Codable encoding replaces archives nested in data values").because(.archiveAtTop)
        }
        var report = MigrationReport()
        var refused: [(archive: String, violation: SecureCodingViolation)] = []
        let migrated = try migrated(tree, at: "", depth: 0, report: &report, refused: &refused)
        if !refused.isEmpty { throw MigrationRefused(violations: refused) }
        guard !report.archives.isEmpty else {
            throw PlistError(.noArchive, "not a keyed archive, and holds none in its data values")
        }
        return Outcome(tree: migrated ?? tree, report: report)
    }

    /// What migrating one input for writing gives.
    package enum Output: Sendable {
        /// Nothing changed.
        case unchanged
        /// The migrated tree (a plain tree with changed `<data>` values, an
        /// archive ``GraphWriter`` wrote, or the input's when only the report changed).
        case tree(PlistTree)
        /// A migrated archive, to write straight from the tree read (``GraphOutput``).
        case archive(GraphOutput)
    }

    /// ``migrate(_:)`` for writing: a keyed archive migrated by class
    /// migrations and boxed numbers alone is not built as a tree but given
    /// as a ``GraphOutput`` that writes it from the tree read.
    ///
    /// - Parameter tree: A document's tree.
    /// - Returns: The report and what to write.
    /// - Throws: As ``migrate(_:)``.
    package func migrateForWriting(_ tree: PlistTree) throws -> (report: MigrationReport, result: Output) {
        guard codable == nil, writesResult, KeyedArchive.looksLikeArchive(tree) else {
            let outcome = try migrate(tree)
            return (outcome.report, outcome.report.isEmpty ? .unchanged : .tree(outcome.tree))
        }
        var report = MigrationReport()
        var refused: [(archive: String, violation: SecureCodingViolation)] = []
        var graph = try prefixed("") { try ObjectGraph(tree) }
        report.noteArchive("")
        let changed = try migrate(&graph, at: "", depth: 0, report: &report, refused: &refused)
        for violation in SecureCodingCheck.violations(in: graph, policy: policy) {
            refused.append(("", violation))
        }
        if !refused.isEmpty { throw MigrationRefused(violations: refused) }
        if report.isEmpty { return (report, .unchanged) }
        guard changed else { return (report, .tree(tree)) }
        let migrated = graph
        if let output = try prefixed("", { try GraphOutput(migrated) }) { return (report, .archive(output)) }
        return (report, .tree(try prefixed("") { try GraphWriter.archive(migrated) }))
    }

    /// Every class of the archives in a tree (nested ones included), to check
    /// that the rules name classes that occur.
    package func classNames(in tree: PlistTree) -> [ClassName] {
        var census = RulesCensus()
        census.add(tree)
        return census.classNames
    }

    /// Migrates a tree; nil when nothing in it changed. A plain tree is
    /// walked down to its data values (``NestedArchiveWalk/dataNodes(in:keyPath:_:)``,
    /// one depth rule: `NestedDocuments`') and only those that changed
    /// are replaced.
    private func migrated(_ tree: PlistTree, at path: String, depth: Int, report: inout MigrationReport,
                          refused: inout [(archive: String, violation: SecureCodingViolation)]) throws -> PlistTree? {
        if KeyedArchive.looksLikeArchive(tree) {
            var graph = try prefixed(path) { try ObjectGraph(tree) }
            report.noteArchive(path)
            let changed = try migrate(&graph, at: path, depth: depth, report: &report, refused: &refused)
            for violation in SecureCodingCheck.violations(in: graph, policy: policy) {
                refused.append((path, violation))
            }
            return changed && writesResult ? try prefixed(path) { try GraphWriter.archive(graph) } : nil
        }
        var replacements: [(node: Int, bytes: [UInt8])] = []
        try NestedArchiveWalk.dataNodes(in: tree, keyPath: path) { node, at in
            if let new = try data(tree.data(at: node) ?? [], at: at, depth: depth, report: &report, refused: &refused) {
                replacements.append((node, new))
            }
        }
        return replacements.isEmpty ? nil : tree.replacingData(replacements)
    }

    /// Migrates a document held in data (`NestedDocuments`' rewrite: written
    /// back in its own format); nil when the data holds none, or nothing
    /// writable (a typedstream, a bookmark), or nothing in it changed.
    private func data(_ bytes: [UInt8], at path: String, depth: Int, report: inout MigrationReport,
                      refused: inout [(archive: String, violation: SecureCodingViolation)]) throws -> [UInt8]? {
        if let codable, let nested = NestedDocuments.open(bytes, level: depth), case .keyedArchive = nested.kind {
            return try encode(nested.document.tree, as: codable, at: path, report: &report)
        }
        return try NestedDocuments.rewrite(bytes, level: depth, at: path, unwritable: .skip) { nested, level -> PlistTree? in
            try migrated(nested.document.tree, at: path, depth: level, report: &report, refused: &refused)
        }
    }

    /// The Codable encoding of a nested archive's root.
    private func encode(_ archive: PlistTree, as encoding: CodableEncoding, at path: String, report: inout MigrationReport) throws -> [UInt8] {
        let graph = try prefixed(path) { try ObjectGraph(archive) }
        let rootClass = graph.top.first { $0.key == "root" }.flatMap { graph.object($0.object) }?.className.archived ?? "its root"
        let bytes = try prefixed(path) { try encoding.encode(archive: graph, rules: rules, options: codableOptions) }
        report.noteArchive(path)
        report.record(.encodeCodable(className: rootClass, encoding: encoding.name), in: path)
        return bytes
    }

    /// Applies the rules to every object of a graph; true when anything changed.
    /// A graph read from an archive gets one ``ClassMigration`` per class the
    /// rules change, laid over its nodes; only an object whose nested data
    /// changed is stored edited.
    private func migrate(_ graph: inout ObjectGraph, at path: String, depth: Int, report: inout MigrationReport,
                         refused: inout [(archive: String, violation: SecureCodingViolation)]) throws -> Bool {
        var changed = false
        let count = graph.nodes.count
        // Key paths name places in the input, as `get` finds them there.
        let input = graph
        var inputPaths: ArchivePaths?
        func inputPath(of index: Int) -> String {
            if inputPaths == nil { inputPaths = input.paths() }
            return inputPaths?.path(to: index) ?? "$objects[\(index)]"
        }
        // One migration per class of the archive, laid over the graph.
        var migrations: [UInt32: ClassMigration] = [:]
        // (Only over a graph as read: boxed nodes come before any appended one.)
        let overlaid = graph.nodes.storage.map { $0.objects.count == count } ?? false
        if overlaid, let storage = graph.nodes.storage {
            for (c, info) in storage.classInfo.sorted(by: { $0.key < $1.key }) {
                guard let migration = ClassMigration(info.name, chain: info.chain, rules: rules) else { continue }
                migrations[c] = migration
                _ = graph.nodes.migrate(class: c, migration, sharingBoxes: !writesResult)
            }
        }
        for index in 0..<count {
            let original: ArchivedNode
            var migration: ClassMigration?
            if overlaid, let stored = graph.nodes.stored(index) {
                original = stored
                if let c = graph.nodes.storage?.classOf(index) { migration = migrations[c] }
            } else {
                original = graph.nodes[index]
            }
            let o: ArchivedObject
            switch original {
            case .value(.data(let bytes)):
                let at = ArchivePaths.nested(inputPath(of: index), in: path)
                if let new = try data(bytes, at: at, depth: depth, report: &report, refused: &refused) {
                    graph.nodes[index] = .value(.data(new))
                    changed = true
                }
                continue
            case .object(let object):
                o = object
            case .null, .value, .classDescription:
                continue
            }
            if !overlaid {
                migration = ClassMigration(o.className, chain: o.classChain, rules: rules)
            }
            var edited = o
            if let migration {
                migration.record(o, in: &report, at: path)
                if overlaid {
                    // Made from the object as read, as the graph makes it when read.
                    let boxes = graph.nodes.box(object: index)
                    let start = boxes > 0 ? graph.nodes.boxStart(of: index) : nil
                    edited = migration.migrated(o) { k in start?.index(k) ?? 0 }
                } else {
                    // A graph made otherwise: each boxed number appended as a node.
                    var boxes: [Int] = []
                    for field in o.fields {
                        if case .keep(true, _) = migration.change(field.key, field.value), case .inline(let v) = field.value {
                            boxes.append(graph.append(.value(v)))
                        }
                    }
                    edited = migration.migrated(o) { k in boxes[k] }
                }
            }
            // Archives nested in inline data, in the fields kept (as read, before any rename).
            var nestedChanged = false
            var kept = 0
            for field in o.fields {
                if let migration, case .remove = migration.change(field.key, field.value) { continue }
                defer { kept += 1 }
                guard case .inline(.data(let bytes)) = field.value else { continue }
                let at = ArchivePaths.nested(NestedDocuments.path(ofField: field.key, of: o, at: inputPath(of: index), in: input), in: path)
                if let new = try data(bytes, at: at, depth: depth, report: &report, refused: &refused), kept < edited.fields.count {
                    edited.fields[kept].value = .inline(.data(new))
                    nestedChanged = true
                }
            }
            // Keys read are distinct (a tree stores each key of a dictionary
            // once): only renamed keys or edited objects can clash.
            var keys: Set<PlistKey> = []
            let mayClash = !overlaid || migration?.renamesKeys == true
            for field in edited.fields where mayClash && !keys.insert(PlistKey(field.key)).inserted {
                throw PlistError(.archive, "the rules give \(o.className) two fields named \(field.key)",
                                 at: .archive(object: index, keyPath: ArchivePaths.nested(ArchivePaths.joined(inputPath(of: index), field.key), in: path)))
            }
            if nestedChanged || (!overlaid && migration != nil) {
                graph.nodes[index] = .object(edited)
            }
            if nestedChanged || (migration != nil && !changed && edited != o) { changed = true }
        }
        return changed
    }

    private func prefixed<T>(_ path: String, _ body: () throws -> T) throws -> T {
        try NestedDocuments.located(under: path, naming: true, body)
    }
}
