/// What changed between two Xcode projects, in Xcode's terms: files added
/// to or removed from a target's build phase, targets added or removed,
/// build settings set or removed in a configuration.
package enum XcodeProjectChanges {
    /// The changes from `old` to `new`, one line each, or nil when either is
    /// not an Xcode project.
    package static func describe(_ old: PlistTree, _ new: PlistTree) throws -> [String]? {
        guard let a = try index(old), let b = try index(new) else { return nil }
        var lines: [String] = []
        // Targets.
        for object in b.objects where object.isa.hasSuffix("Target") && a.object(object.id) == nil {
            lines.append("added target \(object.comment ?? object.id)")
        }
        for object in a.objects where object.isa.hasSuffix("Target") && b.object(object.id) == nil {
            lines.append("removed target \(object.comment ?? object.id)")
        }
        // Build files, by the phase and target that list them.
        for object in b.objects where object.isa == "PBXBuildFile" && a.object(object.id) == nil {
            lines.append("added file \(fileName(object, in: b, tree: new)) to \(place(object.id, in: b))")
        }
        for object in a.objects where object.isa == "PBXBuildFile" && b.object(object.id) == nil {
            lines.append("removed file \(fileName(object, in: a, tree: old)) from \(place(object.id, in: a))")
        }
        // Build settings of the configurations both have.
        for object in b.objects where object.isa == "XCBuildConfiguration" {
            guard let before = a.object(object.id) else { continue }
            let was = settings(before.node, in: old), now = settings(object.node, in: new)
            let owner = configurationName(object, in: b, tree: new)
            for (key, value) in now where was[key] != value {
                lines.append("set \(key) to \(value) in \(owner)")
            }
            for key in was.keys where now[key] == nil {
                lines.append("removed \(key) from \(owner)")
            }
        }
        return lines
    }

    private static func index(_ tree: PlistTree) throws -> XcodeProjectIndex? {
        try tree.withView { view in
            try XcodeProjectIndex.isProject(&view) ? try XcodeProjectIndex(&view, projectName: nil) : nil
        }
    }

    /// The name of a build file's file or product.
    private static func fileName(_ buildFile: XcodeProjectIndex.Object, in index: XcodeProjectIndex, tree: PlistTree) -> String {
        for key in ["fileRef", "productRef"] {
            if let node = tree.node(forKey: key, in: buildFile.node), let id = tree.string(at: node) {
                return index.object(id)?.comment ?? id
            }
        }
        return buildFile.id
    }

    /// `target App (Sources)`.
    private static func place(_ buildFile: String, in index: XcodeProjectIndex) -> String {
        guard let phase = index.phaseOfFile[buildFile] else { return "no build phase" }
        let phaseObject = index.objects[phase]
        let target = index.targetOfPhase[phaseObject.id].flatMap { index.objects[$0].comment } ?? "?"
        return "target \(target) (\(phaseObject.comment ?? phaseObject.isa))"
    }

    /// `Release of target App`, `Debug of the project`.
    private static func configurationName(_ configuration: XcodeProjectIndex.Object, in index: XcodeProjectIndex, tree: PlistTree) -> String {
        let name = tree.node(forKey: "name", in: configuration.node).flatMap { tree.string(at: $0) } ?? configuration.id
        guard let list = index.listOfConfiguration[configuration.id],
              let owner = index.ownerOfList[index.objects[list].id].map({ index.objects[$0] }) else { return name }
        return owner.isa == "PBXProject" ? "\(name) of the project" : "\(name) of target \(owner.comment ?? owner.id)"
    }

    /// A configuration's build settings, each as its text (arrays joined by spaces).
    private static func settings(_ configuration: Int, in tree: PlistTree) -> [(key: String, value: String)] {
        guard let settings = tree.node(forKey: "buildSettings", in: configuration), tree.kind(of: settings) == .dictionary else { return [] }
        var result: [(key: String, value: String)] = []
        for i in 0..<tree.count(of: settings) {
            let (key, value) = tree.entry(i, of: settings)
            guard let name = tree.string(at: key) else { continue }
            if let text = tree.string(at: value) {
                result.append((name, text))
            } else if tree.kind(of: value) == .array {
                let items = (0..<tree.count(of: value)).compactMap { tree.string(at: tree.element($0, of: value)) }
                result.append((name, items.joined(separator: " ")))
            }
        }
        return result.sorted { $0.key < $1.key }
    }
}

extension Array where Element == (key: String, value: String) {
    fileprivate subscript(key: String) -> String? {
        first { $0.key == key }?.value
    }

    fileprivate var keys: [String] { map(\.key) }
}
