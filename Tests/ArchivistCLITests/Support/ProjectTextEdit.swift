import ArchivistCore
import Foundation

/// Edits of a `project.pbxproj` in Xcode's text, line by line as Xcode
/// makes them (objects on their own lines, IDs added to lists, one line per
/// build setting), so that git sees the small diffs Xcode's edits give.
struct ProjectTextEdit {
    var lines: [String]
    /// The project as read, for finding the objects to edit.
    let objects: PlistDictionary
    let rootObject: String

    init(_ bytes: [UInt8]) throws {
        lines = String(decoding: bytes, as: UTF8.self).components(separatedBy: "\n")
        let value = try PropertyList.read(bytes).tree.value
        guard let objects = value["objects"]?.dictionaryValue, let root = value["rootObject"]?.stringValue else {
            throw PlistError(.syntax, "not an Xcode project")
        }
        self.objects = objects
        rootObject = root
    }

    var bytes: [UInt8] { Array(lines.joined(separator: "\n").utf8) }

    /// The IDs of objects of `isa`, in file order.
    func ids(isa: String) -> [String] {
        objects.keys.filter { objects[$0]?["isa"]?.stringValue == isa }
    }

    var mainGroup: String? { objects[rootObject]?["mainGroup"]?.stringValue }

    /// The first target's sources phase and first build configuration.
    var firstTarget: (sources: String, configuration: String)? {
        for case .string(let target) in objects[rootObject]?["targets"]?.arrayValue ?? [] {
            guard let phases = objects[target]?["buildPhases"]?.arrayValue?.compactMap(\.stringValue),
                  let sources = phases.first(where: { objects[$0]?["isa"]?.stringValue == "PBXSourcesBuildPhase" }),
                  let list = objects[target]?["buildConfigurationList"]?.stringValue,
                  let configuration = objects[list]?["buildConfigurations"]?.arrayValue?.first?.stringValue else { continue }
            return (sources, configuration)
        }
        return nil
    }

    /// A new object ID: 24 hex digits, `tag` making it unique to the edit.
    static func id(_ tag: String, _ n: Int) -> String {
        let text = tag + String(n)
        return String(repeating: "0", count: max(0, 24 - text.count)) + text
    }

    /// Inserts object definitions after `objects = {`.
    mutating func addObjects(_ definitions: [String]) {
        guard let at = lines.firstIndex(where: { $0.hasSuffix("objects = {") }) else { return }
        lines.insert(contentsOf: definitions.map { "\t\t" + $0 }, at: at + 1)
    }

    /// Adds `item` to the list `name = (` of object `id`.
    mutating func addToList(_ name: String, of id: String, _ item: String) {
        guard let start = lines.firstIndex(where: { $0.hasPrefix("\t\t\(id) ") && $0.hasSuffix("= {") }),
              let list = lines[start...].firstIndex(where: { $0 == "\t\t\t\(name) = (" }) else { return }
        lines.insert("\t\t\t\t\(item),", at: list + 1)
    }

    /// A source file in `group`, built by the sources phase `phase`.
    mutating func addFile(_ name: String, tag: String, group: String, phase: String) {
        let file = Self.id(tag + "F", 0), build = Self.id(tag + "B", 0)
        addObjects([
            "\(file) /* \(name) */ = {isa = PBXFileReference; lastKnownFileType = sourcecode.swift; path = \(name); sourceTree = \"<group>\"; };",
            "\(build) /* \(name) in Sources */ = {isa = PBXBuildFile; fileRef = \(file) /* \(name) */; };",
        ])
        addToList("children", of: group, "\(file) /* \(name) */")
        addToList("files", of: phase, "\(build) /* \(name) in Sources */")
    }

    /// A group `name` in the main group, holding a new file.
    mutating func addGroup(_ name: String, tag: String) {
        guard let main = mainGroup else { return }
        let group = Self.id(tag + "G", 0), file = Self.id(tag + "G", 1)
        addObjects([
            "\(group) /* \(name) */ = {", "\tisa = PBXGroup;", "\tchildren = (", "\t\t\(file) /* \(name).md */,", "\t);",
            "\tpath = \(name);", "\tsourceTree = \"<group>\";", "};",
            "\(file) /* \(name).md */ = {isa = PBXFileReference; lastKnownFileType = net.daringfireball.markdown; path = \(name).md; sourceTree = \"<group>\"; };",
        ])
        addToList("children", of: main, "\(group) /* \(name) */")
    }

    /// A framework target `name` with its configuration list and a sources phase.
    mutating func addTarget(_ name: String, tag: String) {
        let target = Self.id(tag + "T", 0), list = Self.id(tag + "T", 1), debug = Self.id(tag + "T", 2), phase = Self.id(tag + "T", 3)
        addObjects([
            "\(target) /* \(name) */ = {", "\tisa = PBXNativeTarget;", "\tbuildConfigurationList = \(list) /* Build configuration list for PBXNativeTarget \"\(name)\" */;",
            "\tbuildPhases = (", "\t\t\(phase) /* Sources */,", "\t);", "\tbuildRules = (", "\t);", "\tdependencies = (", "\t);",
            "\tname = \(name);", "\tproductName = \(name);", "\tproductType = \"com.apple.product-type.framework\";", "};",
            "\(list) /* Build configuration list for PBXNativeTarget \"\(name)\" */ = {", "\tisa = XCConfigurationList;",
            "\tbuildConfigurations = (", "\t\t\(debug) /* Debug */,", "\t);", "\tdefaultConfigurationIsVisible = 0;", "\tdefaultConfigurationName = Debug;", "};",
            "\(debug) /* Debug */ = {", "\tisa = XCBuildConfiguration;", "\tbuildSettings = {", "\t\tPRODUCT_NAME = \"$(TARGET_NAME)\";", "\t};", "\tname = Debug;", "};",
            "\(phase) /* Sources */ = {", "\tisa = PBXSourcesBuildPhase;", "\tbuildActionMask = 2147483647;", "\tfiles = (", "\t);",
            "\trunOnlyForDeploymentPostprocessing = 0;", "};",
        ])
        addToList("targets", of: rootObject, "\(target) /* \(name) */")
    }

    /// Sets a build setting of configuration `id` (its line replaced, or added first).
    mutating func setBuildSetting(_ key: String, _ value: String, in id: String) {
        guard let start = lines.firstIndex(where: { $0.hasPrefix("\t\t\(id) ") && $0.hasSuffix("= {") }),
              let settings = lines[start...].firstIndex(where: { $0 == "\t\t\tbuildSettings = {" }) else { return }
        var i = settings + 1
        while i < lines.count, lines[i] != "\t\t\t};" {
            if lines[i].hasPrefix("\t\t\t\t\(key) = ") {
                lines[i] = "\t\t\t\t\(key) = \(value);"
                return
            }
            i += 1
        }
        lines.insert("\t\t\t\t\(key) = \(value);", at: settings + 1)
    }

    /// Removes file `id` as Xcode does: every line naming it or a build file of it.
    mutating func removeFile(_ id: String) {
        let builds = objects.keys.filter { objects[$0]?["fileRef"]?.stringValue == id }
        let named = [id] + builds
        lines.removeAll { line in named.contains { line.contains($0) } }
    }
}
