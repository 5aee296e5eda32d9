import Foundation
import XCTest

/// What `docs/guide/convert.md` says about using `--to objc`'s literal, done
/// as it says: its commands run with the built `archivist`, its `objc` blocks
/// written to the files they name, and the result compiled with clang
/// against GNUstep's Foundation (Debian: `gobjc` for the Objective-C runtime's
/// headers, `libgnustep-base-dev`; clang comes with the Swift toolchain):
/// the function form as plain Objective-C, linked and run; the `.mm` file as
/// Objective-C++ (compiled only: GNUstep's runtime on Linux runs C++
/// initialisers before it registers the classes, as the guide says); and the
/// literal alone as plain Objective-C at file scope, which must fail as the
/// guide says.
extension CLITests {
    /// The guide's section, its commands and its `objc` blocks by file name.
    private func objectiveCGuide() throws -> (commands: [String], files: [(name: String, text: String)]) {
        let text = try String(contentsOf: Self.packageRoot.appendingPathComponent("docs/guide/convert.md"), encoding: .utf8)
        guard let start = text.range(of: "#### Using the Objective-C literal") else { throw UpgradeBench.Failure(description: "convert.md has no section on the Objective-C literal") }
        let section = String(text[start.upperBound...]).components(separatedBy: "\n### ").first ?? ""
        let commands = GuideExample.blocks(in: section).flatMap(\.commands).map(\.command)
        var files: [(String, String)] = []
        var current: [String]?
        for line in section.components(separatedBy: "\n") {
            if current == nil, line == "```objc" {
                current = []
            } else if let lines = current, line == "```" {
                guard let first = lines.first, first.hasPrefix("// ") else { throw UpgradeBench.Failure(description: "an objc block does not start with its file name") }
                files.append((String(first.dropFirst(3)), lines.joined(separator: "\n") + "\n"))
                current = nil
            } else if current != nil {
                current?.append(line)
            }
        }
        return (commands, files)
    }

    /// clang, and the flags that compile against GNUstep's Foundation; skips
    /// with the reason when something is missing.
    private func gnustepCompiler(in folder: URL) throws -> (clang: String, flags: [String], libraries: [String]) {
        func output(_ command: String) throws -> String? {
            let lines = try runShell("command -v \(command.split(separator: " ")[0]) >/dev/null 2>&1 && \(command)", in: folder)
            return lines.isEmpty ? nil : lines.joined(separator: " ")
        }
        guard let clang = try output("command -v clang") else { throw XCTSkip("clang is not on PATH (it comes with the Swift toolchain)") }
        guard let objcFlags = try output("gnustep-config --objc-flags"), let libraries = try output("gnustep-config --base-libs") else {
            throw XCTSkip("GNUstep is not installed (Debian: apt-get install gobjc libgnustep-base-dev)")
        }
        guard let gccInclude = try output("gcc -print-file-name=include"),
              FileManager.default.fileExists(atPath: gccInclude + "/objc/objc.h") else {
            throw XCTSkip("the Objective-C runtime's headers are not installed (Debian: apt-get install gobjc)")
        }
        // GNUstep's objc.h (GCC's runtime) defines YES as (BOOL)1, which clang's @YES
        // cannot box; Apple's objc.h defines it as __objc_yes under clang. The prefix
        // header gives clang Apple's definitions; the guide's own #import then does nothing.
        try Data("""
            #import <Foundation/Foundation.h>
            #undef YES
            #define YES __objc_yes
            #undef NO
            #define NO __objc_no

            """.utf8).write(to: folder.appendingPathComponent("apple-booleans.h"))
        let flags = objcFlags.split(separator: " ").map(String.init).filter { $0 != "-MMD" && $0 != "-MP" }
            + ["-I" + gccInclude, "-include", "apple-booleans.h", "-Wno-error"]
        return (clang, flags, libraries.split(separator: " ").map(String.init))
    }

    func testTheGuidesObjectiveCLiteralCompilesAsItSays() throws {
        let guide = try objectiveCGuide()
        XCTAssertEqual(guide.files.map(\.name), ["Defaults.h", "DefaultsDictionary.m"])
        XCTAssertTrue(guide.commands.contains { $0.contains("--to objc") }, "\(guide.commands)")
        let folder = try makeExampleFolder()
        let compiler = try gnustepCompiler(in: folder)
        for command in guide.commands {
            let output = try runShell(command + "; echo \"exit $?\"", in: folder)
            XCTAssertEqual(output.last, "exit 0", "$ \(command)\n\(output.joined(separator: "\n"))")
        }
        for file in guide.files {
            try Data(file.text.utf8).write(to: folder.appendingPathComponent(file.name))
        }
        try Data("""
            #import <Foundation/Foundation.h>

            NSDictionary *DefaultsDictionary(void);

            int main(void) {
                @autoreleasepool {
                    NSDictionary *defaults = DefaultsDictionary();
                    printf("name=%s on=%d sizes=%lu second=%g\\n", [[defaults objectForKey:@"name"] UTF8String],
                           [[defaults objectForKey:@"on"] boolValue], (unsigned long)[[defaults objectForKey:@"sizes"] count],
                           [[[defaults objectForKey:@"sizes"] objectAtIndex:1] doubleValue]);
                }
                return 0;
            }

            """.utf8).write(to: folder.appendingPathComponent("main.m"))
        func clang(_ args: [String]) throws -> [String] {
            let quoted = ([compiler.clang] + args).map { "'" + $0.replacingOccurrences(of: "'", with: "'\\''") + "'" }.joined(separator: " ")
            return try runShell(quoted + " 2>&1; echo \"exit $?\"", in: folder)
        }
        // The function form: plain Objective-C, linked and run.
        let built = try clang(["-x", "objective-c"] + compiler.flags + ["DefaultsDictionary.m", "main.m", "-o", "defaults"] + compiler.libraries)
        XCTAssertEqual(built.last, "exit 0", built.joined(separator: "\n"))
        let ran = try runShell("./defaults", in: folder)
        XCTAssertEqual(ran.filter { $0.hasPrefix("name=") }, ["name=Café on=1 sizes=2 second=2.5"], ran.joined(separator: "\n"))
        // The Objective-C++ file, compiled.
        let mm = try clang(["-x", "objective-c++"] + compiler.flags + ["-c", "Defaults.mm", "-o", "Defaults.o"])
        XCTAssertEqual(mm.last, "exit 0", mm.joined(separator: "\n"))
        // plutil's form alone as plain Objective-C: the error the guide names.
        let plain = try clang(["-x", "objective-c"] + compiler.flags + ["-fsyntax-only", "Defaults.m"])
        XCTAssertNotEqual(plain.last, "exit 0", plain.joined(separator: "\n"))
        XCTAssertTrue(plain.contains { $0.contains("initializer element is not a compile-time constant") }, plain.joined(separator: "\n"))
    }
}
