import ArchivistBatch
import ArchivistCore
import ArchivistMerge
import ArgumentParser

/// `archivist merge`: a three-way merge of property lists by key, and git's merge driver.
struct Merge: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "merge",
        _superCommandName: Archivist.name,
        abstract: "Merge two changed versions of a property list or Xcode project by key.",
        discussion: """
            BASE is the common ancestor of OURS and THEIRS; the result is in OURS' format (an \
            Xcode project, a .strings file, UTF-16 text, JSON on several lines stay so), on \
            standard output or in -o FILE.
            Dictionaries merge by key: what only one side changed takes that side, what both \
            changed alike is taken once.
            In an Xcode project, arrays of object IDs (a phase's files, a group's children, \
            targets, build phases) keep both sides' additions and removals in order; other arrays \
            merge as sequences, edits that do not overlap combined.
            A conflict is where both sides changed the same key path differently (or the same \
            stretch of an array).
            Text results then hold one git-style marker block per conflict ('<<<<<<< ours: \
            KEYPATH', '=======', '>>>>>>> theirs: KEYPATH'), every other line merged; a binary \
            result holds OURS' side there.
            Each conflict is named by key path on standard error.
            Never a silent wrong merge: a result without conflicts is read back before it is \
            written, and an Xcode project's references are checked (an object one side removed \
            that the other still uses, a build file in two build phases or none is a conflict).
            With --git, the arguments are git's %O %A %B %P: the result replaces %A (OURS), as a \
            merge driver does (docs/guide/merging.md):
              git config merge.plist.driver 'archivist merge --git %O %A %B %P'
              echo '*.pbxproj merge=plist' >> .gitattributes
            Exit status: 0 merged, 1 conflicts, 2 an input could not be read (or the result not \
            written), 64 usage error.

            Examples:
              archivist merge Base.plist Ours.plist Theirs.plist -o Info.plist
              archivist merge --git %O %A %B %P   (in git's merge.plist.driver)
            """
    )

    @Argument(help: ArgumentHelp("The common ancestor.", valueName: "BASE"))
    var base: String

    @Argument(help: ArgumentHelp("Our version (its format is the result's).", valueName: "OURS"))
    var ours: String

    @Argument(help: ArgumentHelp("Their version.", valueName: "THEIRS"))
    var theirs: String

    @Argument(help: ArgumentHelp("With --git: the file's name in the repository (git's %P), for messages.", valueName: "NAME"))
    var name: String?

    @Flag(help: "Be git's merge driver: write the result over OURS (git's %A).")
    var git = false

    @Option(name: [.short, .customLong("output")], help: ArgumentHelp("Write the result here instead of standard output.", valueName: "FILE"))
    var output: String?

    func validate() throws {
        if git, output != nil { throw ValidationError("--git writes the result over OURS; it takes no -o.") }
        if name != nil, !git { throw ValidationError("NAME goes with --git (git's %P).") }
    }

    /// Could not read an input, or not write the result.
    static let couldNotMerge = ExitCode(2)

    func run() throws {
        Console.outputFailureStatus = Self.couldNotMerge.rawValue
        if let output {
            var plan = RunOutputs()
            for input in [base, ours, theirs] { plan.read(input, as: .input) }
            try claimOutput(output, as: .result(of: ours), in: &plan)
        }
        let shown = name ?? ours
        let baseDocument = try Self.read(base)
        let oursInput = try Self.input(ours)
        let oursDocument = try Self.read(ours, oursInput)
        let theirsDocument = try Self.read(theirs)
        let format = oursDocument.format
        let layout = oursInput.withUnsafeBytes { TextLayout(of: $0, format: format) }

        let merge = PlistMerge(base: baseDocument.tree.value, ours: oursDocument.tree.value, theirs: theirsDocument.tree.value)
        guard let merged = merge.merged else {
            Console.error("\(shown): error: the merge leaves nothing (one side removed the whole property list)")
            throw Self.couldNotMerge
        }
        let bytes: [UInt8]
        do {
            let write = { (value: PlistValue) throws -> [UInt8] in
                layout.shape(try PropertyList.write(value, as: format, options: layout.options))
            }
            if merge.conflicts.isEmpty || format == .binary {
                bytes = layout.encode(try write(merged))
                // Read back: what is written must be the merge.
                let back = try PropertyList.read(bytes).tree.value
                guard back == merged else {
                    throw PlistError(.unsupported, "the merged result did not read back as the merge (\(format.rawValue) cannot hold it); nothing written")
                }
            } else {
                bytes = layout.encode(try ConflictMarkers.render(merged, conflicts: merge.conflicts, write: write))
            }
        } catch let error as PlistError {
            Console.error("\(shown): error: \(PlistError.oneLine(error.message))")
            throw Self.couldNotMerge
        }
        for conflict in merge.conflicts {
            Console.error("\(shown): conflict: \(conflict.path): \(conflict.reason)")
        }
        if !merge.conflicts.isEmpty, format == .binary {
            Console.error("\(shown): the result holds OURS' side of \(merge.conflicts.count == 1 ? "the conflict" : "the \(merge.conflicts.count) conflicts") (binary has no conflict markers)")
        }
        do {
            if git {
                _ = try FileIO.writeAtomically(bytes, to: ours, unchanged: FileIO.Precondition(path: ours, input: oursInput))
            } else {
                Console.flush()
                _ = try FileIO.writeAtomically(bytes, to: output ?? "-")
            }
        } catch let error as PlistError {
            Console.error(error.formatted(path: git ? ours : output ?? "standard output"))
            throw Self.couldNotMerge
        }
        if !merge.conflicts.isEmpty { throw ExitCode.failure }
    }

    private static func input(_ path: String) throws -> InputBytes {
        do {
            return try FileIO.input(path)
        } catch let error as PlistError {
            Console.error(error.hinted(path: path))
            throw couldNotMerge
        }
    }

    private static func read(_ path: String, _ given: InputBytes? = nil) throws -> PlistDocument {
        let input = try given ?? Self.input(path)
        do {
            return try input.withUnsafeBytes { try PropertyList.read($0) }
        } catch let error as PlistError {
            Console.error(error.hinted(path: path))
            throw couldNotMerge
        }
    }
}
