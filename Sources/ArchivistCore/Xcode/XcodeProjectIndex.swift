/// The objects of an Xcode project (`project.pbxproj`) as Xcode sees them:
/// each object's ID, `isa` and node, and the comment Xcode writes after its
/// ID (`/* Name.swift in Sources */`), derived from names, paths, build
/// phases and configuration lists as Xcode derives it.
package struct XcodeProjectIndex {
    /// One object of `objects`.
    package struct Object {
        /// Its ID (the key in `objects`).
        package var id: String
        /// Its `isa`, empty when it has none.
        package var isa: String
        /// Its dictionary node.
        package var node: Int
        /// The comment Xcode writes after its ID, when it writes one.
        package var comment: String?
    }

    /// The objects in the order of `objects`.
    package private(set) var objects: [Object] = []
    /// Object number by ID.
    package private(set) var byID: [String: Int] = [:]
    /// The project's `objectVersion` (0 when missing or not a number).
    package private(set) var objectVersion = 0
    /// The `objects` dictionary node.
    package private(set) var objectsNode = 0
    /// The build phase (object number) that lists each build file ID.
    package private(set) var phaseOfFile: [String: Int] = [:]
    /// The target (object number) that lists each build phase ID.
    package private(set) var targetOfPhase: [String: Int] = [:]
    /// The configuration list (object number) that lists each build configuration ID.
    package private(set) var listOfConfiguration: [String: Int] = [:]
    /// The target or project (object number) whose list each configuration list ID is.
    package private(set) var ownerOfList: [String: Int] = [:]

    /// True when `source` is an Xcode project: a dictionary holding
    /// `archiveVersion`, `objectVersion`, `rootObject` and an `objects` dictionary.
    package static func isProject<S: PlistNodes>(_ source: inout S) throws -> Bool {
        let root = source.rootNode
        // A project's top level has five keys: a larger dictionary is looked at no further.
        guard case .dictionary(let count) = try source.item(root), count >= 4, count <= 8 else { return false }
        var scratch: [UInt8] = []
        guard let objects = try node(forKey: "objects", in: root, &source, scratch: &scratch),
              case .dictionary = try source.item(objects) else { return false }
        for value in [try node(forKey: "archiveVersion", in: root, &source, scratch: &scratch),
                      try node(forKey: "objectVersion", in: root, &source, scratch: &scratch),
                      try node(forKey: "rootObject", in: root, &source, scratch: &scratch)] {
            guard let value, case .string = try source.item(value) else { return false }
        }
        return true
    }

    /// The index of the project `source` (which `isProject` accepted);
    /// `projectName` names the project in its configuration list's comment
    /// (Xcode takes it from the `.xcodeproj` folder's name; nil takes the first target's).
    package init<S: PlistNodes>(_ source: inout S, projectName: String?) throws {
        var scratch: [UInt8] = []
        let root = source.rootNode
        guard let objectsNode = try Self.node(forKey: "objects", in: root, &source, scratch: &scratch),
              case .dictionary(let count) = try source.item(objectsNode) else {
            throw PlistError(.invalidValue, "not an Xcode project: no objects dictionary")
        }
        self.objectsNode = objectsNode
        if let version = try Self.node(forKey: "objectVersion", in: root, &source, scratch: &scratch) {
            objectVersion = Int(try Self.text(version, &source, scratch: &scratch) ?? "") ?? 0
        }
        objects.reserveCapacity(count)
        for i in 0..<count {
            let id = try Self.text(try source.key(i, of: objectsNode), &source, scratch: &scratch) ?? ""
            let node = try source.value(i, of: objectsNode)
            let isa = try Self.string("isa", in: node, &source, scratch: &scratch) ?? ""
            byID[id] = objects.count
            objects.append(Object(id: id, isa: isa, node: node, comment: nil))
        }
        try nameObjects(&source, projectName: projectName, scratch: &scratch)
    }

    /// The object an ID names.
    package func object(_ id: String) -> Object? {
        byID[id].map { objects[$0] }
    }

    // MARK: - Comments

    /// Xcode's comments: first what each object says of itself, then what
    /// needs another object (build files name their phase, configuration
    /// lists their owner, exception sets their folder and target).
    private mutating func nameObjects<S: PlistNodes>(_ source: inout S, projectName: String?, scratch: inout [UInt8]) throws {
        var phaseOfFile: [String: Int] = [:]
        var ownerOfList: [String: Int] = [:]
        var folderOfExceptions: [String: Int] = [:]
        var targetOfPhase: [String: Int] = [:]
        var listOfConfiguration: [String: Int] = [:]
        defer {
            self.phaseOfFile = phaseOfFile
            self.ownerOfList = ownerOfList
            self.targetOfPhase = targetOfPhase
            self.listOfConfiguration = listOfConfiguration
        }
        var firstTarget: String?
        for (k, object) in objects.enumerated() {
            let node = object.node
            func str(_ key: StaticString) throws -> String? { try Self.string(key, in: node, &source, scratch: &scratch) }
            let comment: String?
            switch object.isa {
            case "PBXProject":
                comment = "Project object"
                if firstTarget == nil, let targets = try Self.strings("targets", in: node, &source, scratch: &scratch).first {
                    firstTarget = targets
                }
            case "PBXFileReference", "PBXGroup", "PBXVariantGroup", "XCVersionGroup", "PBXReferenceProxy",
                 "PBXFileSystemSynchronizedRootGroup":
                comment = try str("name") ?? str("path")
            case "PBXNativeTarget", "PBXAggregateTarget", "PBXLegacyTarget", "XCBuildConfiguration":
                comment = try str("name")
            case "PBXSourcesBuildPhase": comment = try str("name") ?? "Sources"
            case "PBXFrameworksBuildPhase": comment = try str("name") ?? "Frameworks"
            case "PBXResourcesBuildPhase": comment = try str("name") ?? "Resources"
            case "PBXHeadersBuildPhase": comment = try str("name") ?? "Headers"
            case "PBXCopyFilesBuildPhase": comment = try str("name") ?? "CopyFiles"
            case "PBXShellScriptBuildPhase": comment = try str("name") ?? "ShellScript"
            case "PBXRezBuildPhase": comment = try str("name") ?? "Rez"
            case "PBXAppleScriptBuildPhase": comment = try str("name") ?? "AppleScript"
            case "XCSwiftPackageProductDependency":
                // A build tool plugin's product is `plugin:Name`; Xcode names it `Name`.
                let product = try str("productName")
                comment = product.map { $0.hasPrefix("plugin:") ? String($0.dropFirst(7)) : $0 }
            case "XCRemoteSwiftPackageReference":
                comment = "XCRemoteSwiftPackageReference \"\(Self.repositoryName(try str("repositoryURL") ?? ""))\""
            case "XCLocalSwiftPackageReference":
                comment = "XCLocalSwiftPackageReference \"\(try str("relativePath") ?? "")\""
            case "PBXBuildFile", "XCConfigurationList",
                 "PBXFileSystemSynchronizedBuildFileExceptionSet", "PBXFileSystemSynchronizedGroupBuildPhaseMembershipExceptionSet":
                comment = nil // below, from other objects
            default:
                comment = object.isa.isEmpty ? nil : object.isa
            }
            objects[k].comment = comment
            if object.isa.hasSuffix("BuildPhase") {
                for file in try Self.strings("files", in: node, &source, scratch: &scratch) where phaseOfFile[file] == nil {
                    phaseOfFile[file] = k
                }
            }
            if let list = try str("buildConfigurationList"), ownerOfList[list] == nil { ownerOfList[list] = k }
            if object.isa == "XCConfigurationList" {
                for configuration in try Self.strings("buildConfigurations", in: node, &source, scratch: &scratch)
                where listOfConfiguration[configuration] == nil {
                    listOfConfiguration[configuration] = k
                }
            }
            if object.isa == "PBXFileSystemSynchronizedRootGroup" {
                for set in try Self.strings("exceptions", in: node, &source, scratch: &scratch) where folderOfExceptions[set] == nil {
                    folderOfExceptions[set] = k
                }
            }
            if object.isa.hasSuffix("Target") {
                for phase in try Self.strings("buildPhases", in: node, &source, scratch: &scratch) where targetOfPhase[phase] == nil {
                    targetOfPhase[phase] = k
                }
            }
        }
        let projectName = projectName ?? firstTarget.flatMap { object($0)?.comment } ?? ""
        /// The owner of a configuration list: its `isa` and the name Xcode gives it.
        func owner(ofList list: String) -> (isa: String, name: String)? {
            guard let owner = ownerOfList[list].map({ objects[$0] }) else { return nil }
            return (owner.isa, owner.isa == "PBXProject" ? projectName : owner.comment ?? "")
        }
        for (k, object) in objects.enumerated() {
            let node = object.node
            switch object.isa {
            case "XCBuildConfiguration" where objectVersion >= 110:
                // Xcode 26 names the owner: `Debug configuration for PBXNativeTarget "App"`.
                guard let list = listOfConfiguration[object.id], let owner = owner(ofList: objects[list].id) else { break }
                objects[k].comment = "\(object.comment ?? "") configuration for \(owner.isa) \"\(owner.name)\""
            case "PBXBuildFile":
                var file: String?
                if let ref = try Self.string("fileRef", in: node, &source, scratch: &scratch) {
                    file = self.object(ref)?.comment
                } else if let ref = try Self.string("productRef", in: node, &source, scratch: &scratch) {
                    file = self.object(ref)?.comment
                }
                let phase = phaseOfFile[object.id].flatMap { objects[$0].comment }
                objects[k].comment = "\(file ?? "(null)") in \(phase ?? "(null)")"
            case "XCConfigurationList":
                guard let owner = owner(ofList: object.id) else { break }
                objects[k].comment = "Build configuration list for \(owner.isa) \"\(owner.name)\""
            case "PBXFileSystemSynchronizedBuildFileExceptionSet", "PBXFileSystemSynchronizedGroupBuildPhaseMembershipExceptionSet":
                guard objectVersion >= 77 else {
                    objects[k].comment = object.isa
                    break
                }
                let folder = folderOfExceptions[object.id].flatMap { objects[$0].comment } ?? ""
                if object.isa == "PBXFileSystemSynchronizedBuildFileExceptionSet" {
                    let target = try Self.string("target", in: node, &source, scratch: &scratch).flatMap { self.object($0)?.comment } ?? ""
                    objects[k].comment = "Exceptions for \"\(folder)\" folder in \"\(target)\" target"
                } else {
                    let phaseID = try Self.string("buildPhase", in: node, &source, scratch: &scratch) ?? ""
                    let phase = self.object(phaseID)?.comment ?? ""
                    let target = targetOfPhase[phaseID].flatMap { objects[$0].comment } ?? ""
                    objects[k].comment = "Exceptions for \"\(folder)\" folder in \"\(phase)\" phase from \"\(target)\" target"
                }
            default:
                break
            }
        }
    }

    /// `sentry-cocoa` for `https://github.com/getsentry/sentry-cocoa.git`.
    static func repositoryName(_ url: String) -> String {
        var name = Substring(url)
        while name.hasSuffix("/") { name = name.dropLast() }
        if let slash = name.lastIndex(of: "/") { name = name[name.index(after: slash)...] }
        if name.hasSuffix(".git") { name = name.dropLast(4) }
        return String(name)
    }

    // MARK: - Reading nodes

    /// The text of a string node, nil for other nodes.
    static func text<S: PlistNodes>(_ node: Int, _ source: inout S, scratch: inout [UInt8]) throws -> String? {
        guard case .string(let text) = try source.item(node) else { return nil }
        return text.withUTF8(scratch: &scratch) { String(decoding: $0, as: UTF8.self) }
    }

    /// True when string node `node` holds `key`.
    static func isText<S: PlistNodes>(_ node: Int, _ key: StaticString, _ source: inout S, scratch: inout [UInt8]) throws -> Bool {
        guard case .string(let text) = try source.item(node) else { return false }
        return text.withUTF8(scratch: &scratch) { bytes in
            key.withUTF8Buffer { bytes.elementsEqual($0) }
        }
    }

    /// The value node of `key` in dictionary `node`.
    static func node<S: PlistNodes>(forKey key: StaticString, in node: Int, _ source: inout S, scratch: inout [UInt8]) throws -> Int? {
        guard case .dictionary(let count) = try source.item(node) else { return nil }
        for i in 0..<count where try isText(try source.key(i, of: node), key, &source, scratch: &scratch) {
            return try source.value(i, of: node)
        }
        return nil
    }

    /// The string value of `key` in dictionary `node`.
    static func string<S: PlistNodes>(_ key: StaticString, in node: Int, _ source: inout S, scratch: inout [UInt8]) throws -> String? {
        guard let value = try self.node(forKey: key, in: node, &source, scratch: &scratch) else { return nil }
        return try text(value, &source, scratch: &scratch)
    }

    /// The strings of the array value of `key` in dictionary `node`.
    static func strings<S: PlistNodes>(_ key: StaticString, in node: Int, _ source: inout S, scratch: inout [UInt8]) throws -> [String] {
        guard let array = try self.node(forKey: key, in: node, &source, scratch: &scratch),
              case .array(let count) = try source.item(array) else { return [] }
        var result: [String] = []
        result.reserveCapacity(count)
        for i in 0..<count {
            if let s = try text(try source.element(i, of: array), &source, scratch: &scratch) { result.append(s) }
        }
        return result
    }
}
