import ArchivistArchive
import ArchivistBatch
import ArchivistCore
import ArgumentParser

/// `archivist diff`: a structural diff of two files.
struct Diff: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "diff",
        _superCommandName: Archivist.name,
        abstract: "Compare two property lists or archives by structure.",
        discussion: """
            The files may be in any formats: an XML and a binary plist of the same tree are equal.
            Each difference is a line: '+ PATH: TYPE VALUE' (added), '- PATH: TYPE VALUE' \
            (removed) or '~ PATH: OLD -> NEW' (changed), with key paths as get takes them.
            Two Xcode projects are also compared in Xcode's terms, after a blank line: \
            '# added file Networking.swift to target App (Sources)', targets added or removed, \
            build settings set or removed in a configuration.
            Keyed archives (and NSArchiver typedstreams, read as the keyed archives they hold) are \
            compared as object graphs ($top.root.field...), so an object stored at another \
            $objects index is not a change, while what migrate changes is: a class renamed ('~ \
            root: class A -> B'), a key renamed or removed, an inline primitive boxed ('~ \
            root.Rating: inline real 3.5 -> NSNumber 3.5').
            Property lists in data are compared by content.
            A real stored in 32 bits on one side and 64 on the other is no change when it is the \
            same number as a 32-bit float: one note on standard error says so.
            Exit status, as diff(1), cmp and git use it: 0 when equal, 1 when different, 2 when \
            they could not be compared (a file cannot be read or is not a property list), 64 for \
            usage errors.

            Examples:
              archivist diff Info.plist Info-new.plist
              archivist diff --json old/Data.plist new/Data.plist
            """
    )

    @Argument(help: ArgumentHelp("The first file.", valueName: "A"))
    var a: String

    @Argument(help: ArgumentHelp("The second file.", valueName: "B"))
    var b: String

    @Flag(help: "Print JSON: [{\"change\", \"path\", \"old\", \"new\", \"oldType\", \"newType\"}].")
    var json = false

    @Option(help: ColorChoice.help)
    var color: ColorChoice = .auto

    func run() throws {
        Console.stopsAtFailedOutput = true
        // Status 1 means the files differ: a failed write is "could not compare".
        Console.outputFailureStatus = Self.couldNotCompare.rawValue
        let diff: PlistDiff
        var xcode: [String] = []
        var current = a
        do {
            // A typedstream is compared as the keyed archive it reads as.
            let first = try DocumentReading.read(file: a).tree
            current = b
            let second = try DocumentReading.read(file: b).tree
            current = a
            diff = try PlistDiff(first, second)
            xcode = try XcodeProjectChanges.describe(first, second) ?? []
        } catch let error as PlistError {
            Console.error(error.hinted(path: current))
            throw Self.couldNotCompare
        }
        if json {
            let entries: [PlistValue] = diff.changes.map { c in
                var d = PlistDictionary([("change", .string(c.kind.rawValue)), ("path", .string(c.path))])
                if let old = c.old { d["old"] = Self.jsonable(old); d["oldType"] = .string(c.oldType ?? old.typeName) }
                if let new = c.new { d["new"] = Self.jsonable(new); d["newType"] = .string(c.newType ?? new.typeName) }
                return .dictionary(d)
            }
            let bytes = try PropertyList.write(.array(entries), as: .json, options: WriteOptions(keepKeyOrder: true, pretty: true))
            Console.document(bytes)
        } else {
            // In colour as git diff shows them: added green, removed red, changed yellow.
            let painted = color.enabled
            for (line, change) in zip(diff.lines, diff.changes) {
                let shade: LineColor = change.kind == .added ? .green : change.kind == .removed ? .red : .yellow
                Console.output(line, color: painted ? shade : nil)
            }
            // Two Xcode projects: the changes in Xcode's terms too.
            if !xcode.isEmpty, !diff.changes.isEmpty {
                Console.output("")
                xcode.forEach { Console.output("# \($0)", color: nil) }
            }
        }
        if let note = Self.widthNote(diff.widthChanges) { Console.error(note) }
        if !diff.changes.isEmpty { throw ExitCode.failure }
    }

    /// The one note for reals that only changed width (a 32-bit real
    /// written back as 64-bit, the same number as a 32-bit float), which are
    /// not changes; nil when there are none.
    static func widthNote(_ paths: [String]) -> String? {
        guard let first = paths.first else { return nil }
        let place = first.isEmpty ? "(top level)" : first
        let more = paths.count > 1 ? " and \(paths.count - 1) more" : ""
        let what = paths.count == 1
            ? "a real differs only in width (32-bit on one side, 64-bit on the other) but is the same number as a 32-bit float: not a change"
            : "\(paths.count) reals differ only in width (32-bit on one side, 64-bit on the other) but are the same numbers as 32-bit floats: not changes"
        return "note: \(what) (\(place)\(more))"
    }

    /// The exit status for "could not compare", as diff(1), cmp and git use it.
    static let couldNotCompare = ExitCode(2)

    /// A value JSON can hold: dates, data and UIDs as the JSON writer spells them; NaN as text.
    static func jsonable(_ v: PlistValue) -> PlistValue {
        if case .real(let r) = v, !r.value.isFinite { return .string("\(r.value)") }
        if case .array(let items) = v { return .array(items.map(jsonable)) }
        if case .dictionary(let d) = v {
            var out = PlistDictionary(minimumCapacity: d.count)
            for (k, item) in d { out.appendUnchecked(key: k, value: jsonable(item)) }
            return .dictionary(out)
        }
        return v
    }
}
