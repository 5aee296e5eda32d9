/// plutil's spellings (`plutil -convert xml1 FILE`, `-p`, `-extract`,
/// `-replace`, `-insert`, `-remove`, `-lint`, `-type`) answered with the
/// archivist command that does the same, instead of "Unknown option"; so is
/// plutil's `-convert FORMAT` after archivist's `convert`.
enum PlutilHabits {
    /// The plutil option a command line used and the archivist command line
    /// that does the same, or nil when it uses none of plutil's verbs.
    static func suggestion(for arguments: [String]) -> (option: String, command: String)? {
        guard let verb = arguments.first else { return nil }
        if verb == "convert", let k = arguments.firstIndex(of: "-convert") {
            // `archivist convert F -convert xml1`: archivist's command with plutil's flag.
            let format = arguments.indices.contains(k + 1) ? arguments[k + 1] : "FORMAT"
            let others = arguments[1..<k] + arguments[min(k + 2, arguments.count)...]
            return ("-convert", (["archivist", "convert"] + others.map(quoted) + ["--to", quoted(format)]).joined(separator: " "))
        }
        return plutilLine(arguments).map { (verb, $0) }
    }

    /// A shell word: as it is when plain, else in single quotes.
    private static func quoted(_ s: String) -> String {
        s.allSatisfy { $0.isLetter || $0.isNumber || "._-/+:@,".contains($0) } && !s.isEmpty ? s : "'" + s.split(separator: "'", omittingEmptySubsequences: false).joined(separator: "'\\''") + "'"
    }

    /// The archivist command line for a plutil one (`-convert xml1 FILE`),
    /// or nil when the first argument is not one of plutil's verbs.
    private static func plutilLine(_ arguments: [String]) -> String? {
        /// `dir/Info.plist` as `dir/Info.EXT`.
        func sourceFile(_ path: String, _ ext: String) -> String {
            let slash = path.lastIndex(of: "/").map { path.index(after: $0) } ?? path.startIndex
            let base = path[slash...].lastIndex(of: ".").flatMap { $0 == slash ? nil : path[..<$0] } ?? path[...]
            return base + "." + ext
        }
        guard let verb = arguments.first else { return nil }
        var rest = Array(arguments.dropFirst())
        var output: String?
        var pretty = false
        var expect: String?
        var appendFlag = false
        var silent = false
        var noNewline = false
        var valueType: String?
        var k = 0
        var operands: [String] = []
        while k < rest.count {
            let a = rest[k]
            switch a {
            case "-o" where k + 1 < rest.count:
                output = rest[k + 1]
                k += 1
            case "-e" where k + 1 < rest.count:
                k += 1  // an extension for results: archivist names them by format
            case "-r":
                pretty = true
            case "-s":
                silent = true
            case "-n":
                noNewline = true
            case "-expect" where k + 1 < rest.count:
                expect = rest[k + 1]
                k += 1
            case "-append":
                appendFlag = true
            case "-bool", "-integer", "-float", "-string", "-date", "-data", "-xml", "-json", "-dictionary", "-array":
                valueType = String(a.dropFirst())
            default:
                operands.append(a)
            }
            k += 1
        }
        rest = operands
        func files(_ list: ArraySlice<String>) -> String {
            list.isEmpty ? "FILE" : list.map(quoted).joined(separator: " ")
        }
        let typeOption = valueType.map { " --type \($0 == "float" ? "real" : $0)" } ?? " --type TYPE"
        switch verb {
        case "-convert":
            let format = rest.first ?? "FORMAT"
            // plutil writes swift and objc source beside the input, as NAME.swift or NAME.m.
            let sourceExtension = ["swift": "swift", "objc": "m"][format]
            let beside = sourceExtension.flatMap { ext in rest.dropFirst().first.map { " -o \(quoted(sourceFile($0, ext)))" } }
            let destination = output.map { " -o \(quoted($0))" } ?? beside ?? " --in-place"
            return "archivist convert \(files(rest.dropFirst())) --to \(format)\(destination)\(pretty && format == "json" ? " --pretty" : "")"
        case "-p":
            return "archivist dump \(files(rest[...]))"
        case "-lint":
            return "archivist lint \(silent ? "--quiet " : "")\(files(rest[...]))"
        case "-extract":
            let keyPath = rest.first.map(quoted) ?? "KEYPATH"
            let format = rest.dropFirst().first
            let to = format.map { $0 == "raw" ? "" : " --to \($0)" } ?? ""
            return "archivist get \(files(rest.dropFirst(2))) \(keyPath)\(to)\(expect.map { " --expect \($0)" } ?? "")\(noNewline ? " -n" : "")"
        case "-type":
            return "archivist get \(files(rest.dropFirst())) \(rest.first.map(quoted) ?? "KEYPATH") --type"
        case "-replace", "-insert":
            let keyPath = rest.first.map(quoted) ?? "KEYPATH"
            let empty = valueType == "dictionary" || valueType == "array"
            let value = empty ? "" : " " + (rest.dropFirst().first.map(quoted) ?? "VALUE")
            let fileList = files(rest.dropFirst(empty ? 1 : 2))
            return "archivist set \(fileList) \(keyPath)\(value)\(typeOption)\(appendFlag ? " --append" : "")"
        case "-remove":
            return "archivist remove \(files(rest.dropFirst())) \(rest.first.map(quoted) ?? "KEYPATH")"
        case "-help":
            return "archivist --help"
        default:
            return nil
        }
    }
}
