import ArchivistCore

/// What the merge knows of Xcode projects (`project.pbxproj`): a dictionary
/// with `objects` (object ID → object) and `rootObject`, and the references
/// between objects that a merge must keep whole.
enum XcodeProject {
    /// The `objects` of a project; nil for other property lists.
    static func objects(of value: PlistValue) -> PlistDictionary? {
        guard case .dictionary(let top) = value, case .dictionary(let objects)? = top["objects"],
              top["rootObject"]?.stringValue != nil else { return nil }
        return objects
    }

    /// A reference the merge broke: `id` is used at `place` but no object has it.
    struct MissingObject: Equatable {
        var id: String
        var place: String
    }

    /// The IDs among `knownIDs` used in `project` (a value of `objects` or
    /// `rootObject`) that are not keys of its `objects`, each once, with
    /// the first place that uses it.
    static func missingObjects(in project: PlistValue, knownIDs: Set<String>, work: inout MergeWork) -> [MissingObject] {
        guard case .dictionary(let top) = project, let objects = objects(of: project) else { return [] }
        var present = Set<String>(minimumCapacity: objects.count)
        for id in objects.keys { present.insert(id) }
        work.add(objects.count)
        var missing: [MissingObject] = []
        var seen: Set<String> = []
        func visit(_ v: PlistValue, _ place: @autoclosure () -> String, depth: Int, _ work: inout MergeWork) {
            work.add()
            switch v {
            case .string(let s):
                if knownIDs.contains(s), !present.contains(s), seen.insert(s).inserted { missing.append(MissingObject(id: s, place: place())) }
            case .array(let items):
                for item in items { visit(item, place(), depth: depth + 1, &work) }
            case .dictionary(let d):
                for (k, item) in d { visit(item, place() + "." + k, depth: depth + 1, &work) }
            default:
                break
            }
        }
        if let root = top["rootObject"] { visit(root, "rootObject", depth: 0, &work) }
        for (id, object) in objects { visit(object, "objects." + id, depth: 0, &work) }
        return missing
    }

    /// For each build file (`PBXBuildFile`), the build phases whose `files` hold it.
    static func phases(ofBuildFilesIn project: PlistValue, work: inout MergeWork) -> [String: [String]] {
        guard let objects = objects(of: project) else { return [:] }
        var phases: [String: [String]] = [:]
        for (id, object) in objects {
            work.add()
            guard case .dictionary(let o) = object else { continue }
            if o["isa"]?.stringValue == "PBXBuildFile", phases[id] == nil { phases[id] = [] }
            guard let isa = o["isa"]?.stringValue, isa.hasSuffix("BuildPhase"), case .array(let files)? = o["files"] else { continue }
            for case .string(let file) in files {
                work.add()
                phases[file, default: []].append(id)
            }
        }
        return phases
    }
}
