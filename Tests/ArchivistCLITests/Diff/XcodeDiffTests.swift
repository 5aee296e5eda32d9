import Foundation
import XCTest

/// `diff` of two Xcode projects names the changes in Xcode's terms too.
extension CLITests {
    func testXcodeDiffNamesChangesInXcodesTerms() throws {
        make("project.json", #"{"archiveVersion": "1", "classes": {}, "objectVersion": "77", "rootObject": "OBJ_1", "objects": {"OBJ_1": {"isa": "PBXProject", "buildConfigurationList": "OBJ_2", "mainGroup": "OBJ_3", "productRefGroup": "OBJ_5", "targets": ["OBJ_9"]}, "OBJ_2": {"isa": "XCConfigurationList", "buildConfigurations": ["OBJ_11"]}, "OBJ_3": {"isa": "PBXGroup", "children": ["OBJ_4", "OBJ_5"], "sourceTree": "<group>"}, "OBJ_4": {"isa": "PBXFileReference", "path": "App.swift", "sourceTree": "<group>"}, "OBJ_5": {"isa": "PBXGroup", "children": ["OBJ_6"], "name": "Products", "sourceTree": "<group>"}, "OBJ_6": {"isa": "PBXFileReference", "path": "App.app", "sourceTree": "BUILT_PRODUCTS_DIR"}, "OBJ_7": {"isa": "PBXBuildFile", "fileRef": "OBJ_4"}, "OBJ_8": {"isa": "PBXSourcesBuildPhase", "files": ["OBJ_7"]}, "OBJ_9": {"isa": "PBXNativeTarget", "buildConfigurationList": "OBJ_10", "buildPhases": ["OBJ_8"], "name": "App", "productReference": "OBJ_6", "productType": "com.apple.product-type.application"}, "OBJ_10": {"isa": "XCConfigurationList", "buildConfigurations": ["OBJ_12"]}, "OBJ_11": {"isa": "XCBuildConfiguration", "buildSettings": {"SDKROOT": "macosx"}, "name": "Release"}, "OBJ_12": {"isa": "XCBuildConfiguration", "buildSettings": {"MARKETING_VERSION": "1.0", "PRODUCT_NAME": "$(TARGET_NAME)"}, "name": "Release"}}}"#)
        try FileManager.default.createDirectory(at: work.appendingPathComponent("App.xcodeproj"), withIntermediateDirectories: true)
        XCTAssertEqual(try run(["convert", "project.json", "--to", "openstep", "-o", "App.xcodeproj/project.pbxproj"]).status, 0)
        XCTAssertEqual(try run(["convert", "App.xcodeproj/project.pbxproj", "--to", "openstep", "-o", "before.pbxproj"]).status, 0)
        let p = "App.xcodeproj/project.pbxproj"
        for edit in [
            ["set", p, "objects.OBJ_13", #"{"isa": "PBXFileReference", "path": "Networking.swift", "sourceTree": "<group>"}"#, "--type", "json"],
            ["set", p, "objects.OBJ_14", #"{"isa": "PBXBuildFile", "fileRef": "OBJ_13"}"#, "--type", "json"],
            ["set", p, "objects.OBJ_8.files", "OBJ_14", "--type", "string", "--append"],
            ["set", p, "objects.OBJ_12.buildSettings.MARKETING_VERSION", "2.1", "--type", "string"],
            ["remove", p, "objects.OBJ_11.buildSettings.SDKROOT"],
        ] {
            let result = try run(edit)
            XCTAssertEqual(result.status, 0, result.stderr)
        }
        let diff = try run(["diff", "before.pbxproj", p])
        XCTAssertEqual(diff.status, 1)
        let xcode = diff.stdout.split(separator: "\n").filter { $0.hasPrefix("# ") }
        XCTAssertEqual(xcode, [
            "# added file Networking.swift to target App (Sources)",
            "# removed SDKROOT from Release of the project",
            "# set MARKETING_VERSION to 2.1 in Release of target App",
        ], diff.stdout)
        XCTAssertTrue(diff.stdout.contains("~ objects.OBJ_12.buildSettings.MARKETING_VERSION: "), diff.stdout)

        // Removed the other way round; plain property lists get no such lines.
        let back = try run(["diff", p, "before.pbxproj"])
        XCTAssertTrue(back.stdout.contains("# removed file Networking.swift from target App (Sources)\n"), back.stdout)
        make("a.plist", #"{"a": "1"}"#)
        make("b.plist", #"{"a": "2"}"#)
        XCTAssertFalse(try run(["diff", "a.plist", "b.plist"]).stdout.contains("#"))
    }
}
