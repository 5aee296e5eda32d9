import ArchivistArchive
import ArchivistCore
import ArgumentParser

/// `archivist lint`: checks that files are well-formed property lists.
struct Lint: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Check property lists; print PATH: OK or located errors.",
        discussion: """
            Prints 'PATH: OK' for each valid file, and for an invalid one every problem as
            'PATH:LINE:COL: error: MESSAGE' (XML, JSON, OpenStep) or
            'PATH: offset N (object I): error: MESSAGE' (binary). Duplicate dictionary
            keys, lone UTF-16 surrogates and XML encoding declarations that contradict
            the bytes, which Apple's parsers accept silently, are errors here. A keyed
            archive (NSKeyedArchiver) is also checked as an archive: $archiver, $version,
            $top, $objects, UIDs in range and class dictionaries; its errors name the
            $objects index and the key path that leads there.
            With --secure, keyed archives (and archives nested in data values) are also
            checked against a secure-coding policy, as NSKeyedUnarchiver's
            unarchivedObject(ofClasses:from:) would apply it: every object's class (or a
            superclass) must be one of Foundation's secure classes or allowed by --allow
            or the rules file's allowedClasses, and no custom object may hold an inline
            integer, real or boolean that decodeObject(of:forKey:) cannot read (unless the
            rules say "box": false for that key or "boxPrimitives": false). Folders are searched
            recursively in sorted order, hidden entries skipped. Files that cannot be
            read are reported on standard error.
            Exit status: 0 when every file is valid, 1 when any is not, 64 for usage errors.

            Examples:
              archivist lint Info.plist
              archivist lint --quiet Resources/ Settings.bundle/
              archivist lint --secure --allow MyApp.Document Documents/
              archivist lint --secure --rules migration.json Data.plist
            """
    )

    @Argument(help: ArgumentHelp("Files or folders to check ('-' reads standard input).", valueName: "PATH"))
    var paths: [String]

    @Flag(name: [.short, .long], help: "Print nothing for valid files.")
    var quiet = false

    @Flag(help: "Also check keyed archives against a secure-coding policy.")
    var secure = false

    @Option(help: ArgumentHelp("With --secure, take the allowed classes and key settings from a migration rules file.", valueName: "RULES"))
    var rules: String?

    @Option(name: .customLong("allow"), help: ArgumentHelp("With --secure, allow a class (repeat, or separate with commas); mangled or readable names.", valueName: "CLASS"))
    var allow: [String] = []

    func validate() throws {
        if !secure, rules != nil || !allow.isEmpty {
            throw ValidationError("--rules and --allow go with --secure.")
        }
    }

    func run() throws {
        let policy = try securePolicy()
        var invalid = false
        for path in paths {
            do {
                for file in try Linter.files(for: path) where !check(file, policy: policy) { invalid = true }
            } catch let error as PlistError {
                Console.error(error.formatted(path: path))
                invalid = true
            }
        }
        if invalid { throw ExitCode.failure }
    }

    /// Checks one file and prints the verdict; true when it is valid.
    /// The policy of --secure, or nil without it.
    private func securePolicy() throws -> SecurePolicy? {
        guard secure else { return nil }
        let allowed = allow.flatMap { $0.split(separator: ",").map { String($0.filter { $0 != " " }) } }.filter { !$0.isEmpty }
        guard let rules else { return SecurePolicy(allowing: allowed) }
        var loaded = try RulesFile.load(rules)
        loaded.allowedClasses += allowed
        return SecurePolicy(rules: loaded)
    }

    private func check(_ path: String, policy: SecurePolicy?) -> Bool {
        let bytes: [UInt8]
        do {
            bytes = try FileIO.read(path)
        } catch let error as PlistError {
            Console.error(error.formatted(path: path))
            return false
        } catch {
            Console.error("\(path): error: \(error)")
            return false
        }
        let problems = Linter.problems(in: bytes, path: path) { document -> [PlistError] in
            if KeyedArchive.looksLikeArchive(document.value) { _ = try KeyedArchive(document.value) }
            guard let policy else { return [] }
            return try SecureCodingCheck.errors(in: document.value, policy: policy)
        }
        if problems.isEmpty {
            if !quiet { Console.output("\(path): OK") }
            return true
        }
        for line in problems { Console.output(line) }
        return false
    }
}
