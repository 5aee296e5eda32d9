import ArchivistArchive
import ArchivistBatch
import ArchivistCore
import ArgumentParser

/// `archivist codegen`: the Swift code a migration moves to.
struct Codegen: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "codegen",
        _superCommandName: Archivist.name,
        abstract: "Write the Swift code for the migrated archives: NSSecureCoding classes, allowlists, a Core Data transformer, Codable structs.",
        discussion: """
            Reads keyed archives (files, property lists holding them, folders searched \
            recursively) and the rules file, migrates them in memory as migrate would, and prints \
            Swift source for the app's new code.

            --secure-coding: each custom class after the migration (renamed as the rules say), \
            with supportsSecureCoding, init?(coder:) reading every field with \
            decodeObject(of:forKey:) and the classes it needs (boxed numbers as NSNumber; \
            primitives the rules keep inline with decodeInteger, decodeDouble, decodeFloat or \
            decodeBool), encode(with:) to match, and the function registerArchivedClassNames.

            --allowed-classes: the classes for unarchivedObject(ofClasses:from:).

            --transformer NAME: an NSSecureUnarchiveFromDataTransformer subclass for a Core Data \
            Transformable attribute, with its registration (behind #if canImport(CoreData): Apple \
            platforms only).

            --upgrade: one file for the app that upgrades its users' version-1 archives where they \
            are: version 2's classes (as --secure-coding), a reader of version 1's shape for every \
            class whose archived shape the rules change, their conversion, and upgradeArchive(_:) \
            taking version 1 or version 2 data to version 2 (version 2 unchanged; anything else \
            throws), upgradeDefaults(_:forKey:) and upgradeFiles(in:named:).
            Plain Foundation; the inputs are version-1 archives.
            With --transformer NAME, the transformer's reverseTransformedValue reads version 1 \
            blobs too.
            With --codable, version 2 is the Codable structs (as --codable writes them) and \
            upgradeArchive(_:) returns the bytes JSONEncoder writes for the root, or \
            PropertyListEncoder's with --encoding binary|xml; every class is read by a reader of \
            version 1 and converted to its struct.

            --codable: the Codable structs of schema --swift, with CodingKeys wherever a rule \
            renamed a key.
            It declares types named as the classes, so it is generated on its own; the other three \
            combine.

            Examples:
              archivist codegen Data.plist --rules rules.json --secure-coding
              archivist codegen Contacts/ --rules r.json --transformer ContactTransformer
              archivist codegen --sqlite Model.sqlite --table ZEMPLOYEEENTITY \\
                --column ZCONTACT --rules r.json --secure-coding
              archivist codegen computer.plist --rules rules.json --codable \\
                -o Models.swift
              archivist codegen 1.scarycreature --rules rules.json --upgrade \\
                -o Upgrade.swift
              archivist codegen computer.plist --rules rules.json --upgrade \\
                --codable --encoding json
            """
    )

    @Argument(help: ArgumentHelp("Keyed archives, property lists holding them, or folders of them.", valueName: "INPUT"))
    var inputs: [String] = []

    @OptionGroup var store: StoreRowOptions

    @Option(help: ArgumentHelp("The rules file of the migration (the one migrate and convert --to codable-json read).", valueName: "RULES"))
    var rules: String?

    @Flag(name: .customLong("secure-coding"), help: "The custom classes adopting NSSecureCoding.")
    var secureCoding = false

    @Flag(name: .customLong("allowed-classes"), help: "The classes for unarchivedObject(ofClasses:from:).")
    var allowedClasses = false

    @Option(help: ArgumentHelp("An NSSecureUnarchiveFromDataTransformer subclass of this name.", valueName: "NAME"))
    var transformer: String?

    @Flag(help: "The Codable structs, with CodingKeys for renamed keys.")
    var codable = false

    @Flag(help: "Code for the app that upgrades version-1 archives to version 2 on the device.")
    var upgrade = false

    /// What `--upgrade --codable` encodes version 2 with.
    enum UpgradeEncoding: String, CaseIterable, ExpressibleByArgument {
        case json, binary, xml

        static var allValueDescriptions: [String: String] {
            ["json": "JSONEncoder's", "binary": "PropertyListEncoder's, binary", "xml": "PropertyListEncoder's, XML"]
        }
    }

    @Option(help: ArgumentHelp("With --upgrade --codable: the encoding of version 2.", valueName: "ENCODING"))
    var encoding: UpgradeEncoding?

    @Option(name: [.short, .customLong("output")], help: ArgumentHelp("Write the source to FILE instead of standard output.", valueName: "FILE"))
    var output: String?

    func validate() throws {
        try store.validate(requireColumn: true)
        if inputs.isEmpty, !store.isSet { throw ValidationError("Name the archives to read: files, folders or --sqlite STORE --table T --column C.") }
        let archiveKinds = secureCoding || allowedClasses || transformer != nil
        guard archiveKinds || codable || upgrade else {
            throw ValidationError("Say what to generate: --secure-coding, --allowed-classes, --transformer NAME, --codable or --upgrade.")
        }
        if upgrade, secureCoding || allowedClasses {
            throw ValidationError("--upgrade writes version 2's classes itself: generate it without --secure-coding or --allowed-classes (--transformer NAME adds a transformer that reads version 1 too).")
        }
        if upgrade, codable, transformer != nil {
            throw ValidationError("--upgrade --codable upgrades to Codable data, which a Core Data transformer does not read: leave out --transformer.")
        }
        if encoding != nil, !(upgrade && codable) {
            throw ValidationError("--encoding goes with --upgrade --codable.")
        }
        if codable, archiveKinds, !upgrade {
            throw ValidationError("--codable declares types named as the classes: generate it on its own, without --secure-coding, --allowed-classes or --transformer.")
        }
        if let transformer, !SwiftCodegen.isTypeName(transformer) {
            throw ValidationError("--transformer needs a Swift type name, such as ContactTransformer; got \"\(transformer)\".")
        }
    }

    func run() throws {
        let (ruleSet, documents, unreadable) = try ArchiveInputs.readWithRules(inputs, store: store, rulesPath: rules)
        if let output {
            // Never over what was read: a named input, a file found in an
            // input folder, the rules file, the store.
            var plan = RunOutputs()
            for input in inputs { plan.read(input, as: .input) }
            for document in documents { plan.read(document.label, as: .input) }
            if let rules { plan.read(rules, as: .rules) }
            if let path = store.database.sqlite { plan.read(path, as: .store) }
            try claimOutput(output, as: .result(of: nil), in: &plan)
        }
        var failed = unreadable
        var source = ""
        if upgrade {
            var codegen = UpgradeCodegen(rules: ruleSet, codable: codable ? upgradeEncoding : nil)
            failed = try Self.addEach(documents) { try codegen.add($0) } || failed
            for warning in codegen.warnings { Console.error("warning: \(warning)") }
            source = try failing(at: nil) { try codegen.source(transformer: transformer) }
        } else if codable {
            let (schema, unschematic) = try ArchiveInputs.schema(of: documents, rules: ruleSet)
            failed = failed || unschematic
            source = schema.swift(codingKeysForRenames: true)
        } else {
            var codegen = SwiftCodegen(rules: ruleSet)
            failed = try Self.addEach(documents) { try codegen.add($0) } || failed
            if secureCoding { for warning in codegen.warnings { Console.error("warning: \(warning)") } }
            var parts: [String] = []
            if secureCoding { parts.append(codegen.secureCodingSource) }
            if allowedClasses { parts.append(codegen.allowedClassesSource) }
            if let transformer { parts.append(try codegen.transformerSource(named: transformer)) }
            source = parts.joined(separator: "\n")
        }
        if failed { throw ExitCode.failure }
        if let output, output != "-" {
            let notes = try failing(at: output) {
                try FileIO.writeAtomically(Array(source.utf8), to: output)
            }
            notes.forEach(Console.error)
        } else {
            Console.text(source)
        }
    }

    /// The encoding `--upgrade --codable` writes (JSON unless `--encoding` says otherwise).
    private var upgradeEncoding: CodableEncoding {
        switch encoding ?? .json {
        case .json: return .json(sortedKeys: false)
        case .binary: return .propertyList(.binary)
        case .xml: return .propertyList(.xml)
        }
    }

    /// Adds each input with `add`, printing the error of each it refuses;
    /// true when one was refused.
    private static func addEach(_ documents: [(label: String, tree: PlistTree)], _ add: (PlistTree) throws -> Void) rethrows -> Bool {
        var failed = false
        for document in documents {
            do {
                try add(document.tree)
            } catch let error as PlistError {
                Console.error(error.hinted(path: document.label))
                failed = true
            }
        }
        return failed
    }
}
