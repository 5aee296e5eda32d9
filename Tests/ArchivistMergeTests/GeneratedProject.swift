import ArchivistCore

/// An Xcode project of `files` source files in one target, as a value: the
/// shape of a real project (groups, build files, a sources phase, build
/// configurations), large enough to measure a merge of a 10 MB
/// `project.pbxproj` (40,000 files write about 10 MB of OpenStep).
enum GeneratedProject {
    static let root = "0000000000000000000000R0", group = "0000000000000000000000G0", target = "0000000000000000000000T0"
    static let phase = "0000000000000000000000P0", configurations = "0000000000000000000000L0", debug = "0000000000000000000000C0"

    static func id(_ kind: Character, _ n: Int) -> String {
        let digits = String(n, radix: 16, uppercase: true)
        return String(repeating: "0", count: 23 - digits.count) + digits + String(kind)
    }

    /// The project with files `0..<files`, plus `extra` (named by number), and build settings.
    static func value(files: Int, extra: [Int] = [], settings: [(String, String)] = []) -> PlistValue {
        var objects: [(String, PlistValue)] = []
        var children: [PlistValue] = [], buildFiles: [PlistValue] = []
        for n in Array(0..<files) + extra {
            let ref = id("F", n), build = id("B", n)
            objects.append((ref, dict([("isa", "PBXFileReference"), ("lastKnownFileType", "sourcecode.swift"),
                                       ("path", "Source\(n).swift"), ("sourceTree", "<group>")])))
            objects.append((build, dict([("isa", "PBXBuildFile"), ("fileRef", ref)])))
            children.append(.string(ref))
            buildFiles.append(.string(build))
        }
        var buildSettings: [(String, PlistValue)] = [("PRODUCT_NAME", .string("$(TARGET_NAME)")), ("SWIFT_VERSION", .string("5.0"))]
        for (k, v) in settings { buildSettings.append((k, .string(v))) }
        objects.append((group, .dictionary(PlistDictionary([("isa", .string("PBXGroup")), ("children", .array(children)), ("sourceTree", .string("<group>"))]))))
        objects.append((phase, .dictionary(PlistDictionary([("isa", .string("PBXSourcesBuildPhase")), ("buildActionMask", .string("2147483647")),
                                                            ("files", .array(buildFiles)), ("runOnlyForDeploymentPostprocessing", .string("0"))]))))
        objects.append((debug, .dictionary(PlistDictionary([("isa", .string("XCBuildConfiguration")), ("buildSettings", .dictionary(PlistDictionary(buildSettings))),
                                                            ("name", .string("Debug"))]))))
        objects.append((configurations, .dictionary(PlistDictionary([("isa", .string("XCConfigurationList")), ("buildConfigurations", .array([.string(debug)])),
                                                                     ("defaultConfigurationName", .string("Debug"))]))))
        objects.append((target, .dictionary(PlistDictionary([("isa", .string("PBXNativeTarget")), ("buildConfigurationList", .string(configurations)),
                                                             ("buildPhases", .array([.string(phase)])), ("name", .string("App"))]))))
        objects.append((root, .dictionary(PlistDictionary([("isa", .string("PBXProject")), ("mainGroup", .string(group)),
                                                           ("targets", .array([.string(target)]))]))))
        return .dictionary(PlistDictionary([
            ("archiveVersion", .string("1")), ("classes", .dictionary(PlistDictionary())), ("objectVersion", .string("77")),
            ("objects", .dictionary(PlistDictionary(objects))), ("rootObject", .string(root)),
        ]))
    }

    private static func dict(_ pairs: [(String, String)]) -> PlistValue {
        .dictionary(PlistDictionary(pairs.map { ($0.0, .string($0.1)) }))
    }

    /// How many values `v` holds, itself included.
    static func count(_ v: PlistValue) -> Int {
        switch v {
        case .array(let items): return 1 + items.reduce(0) { $0 + count($1) }
        case .dictionary(let d): return 1 + d.values.reduce(0) { $0 + count($1) }
        default: return 1
        }
    }
}
