import ArchivistBatch
import ArchivistCore

/// Prints lint results as text lines, GitHub annotations, Xcode's
/// `PATH:LINE:COL: error:` lines or one JSON report.
struct LintReporter {
    let format: Lint.OutputFormat
    let quiet: Bool
    /// Text lines in colour (`--color`): OK green, errors red, warnings yellow.
    let color: Bool
    /// True once any input had a problem or could not be read.
    private(set) var invalid = false
    private var report: [PlistValue] = []

    init(format: Lint.OutputFormat, quiet: Bool, color: Bool = false) {
        self.format = format
        self.quiet = quiet
        self.color = color
    }

    /// Whether the input being reported has an error so far.
    private var inputInvalid = false
    /// The JSON problems of the input being reported.
    private var problems: [PlistValue] = []

    /// One finding of the input being reported, printed at once (kept for
    /// the JSON report); `add` ends the input.
    mutating func found(_ f: Linter.Finding) {
        if f.severity == .error { inputInvalid = true }
        switch format {
        case .text: Console.output(f.line, color: color ? (f.severity == .error ? .red : .yellow) : nil)
        case .github: Console.output(f.githubAnnotation)
        case .xcode: Console.output(f.xcodeLine)
        case .json: problems.append(Self.json(f))
        }
    }

    /// One checked input: its last `findings` (after those given to `found`).
    /// Warnings are printed too, and leave the input valid.
    mutating func add(_ path: String, _ findings: [Linter.Finding]) {
        for f in findings { found(f) }
        let valid = !inputInvalid
        if !valid { invalid = true }
        switch format {
        case .text:
            if valid, !quiet { Console.output("\(path): OK", color: color ? .green : nil) }
        case .github, .xcode:
            break
        case .json:
            report.append(.dictionary(PlistDictionary([
                ("path", .string(path)), ("valid", .bool(valid)),
                ("problems", .array(problems)),
            ])))
        }
        inputInvalid = false
        problems = []
    }

    /// An input that could not be read (already reported on standard error).
    mutating func failedToRead(_ path: String, _ error: PlistError) {
        invalid = true
        if format == .json {
            report.append(.dictionary(PlistDictionary([
                ("path", .string(path)), ("valid", .bool(false)),
                ("problems", .array([Self.json(Linter.Finding(path: path, error: error))])),
            ])))
        }
    }

    /// Prints the JSON report, for that format.
    func finish() {
        guard format == .json else { return }
        let bytes = (try? PropertyList.write(.array(report), as: .json, options: WriteOptions(keepKeyOrder: true, pretty: true))) ?? Array("[]".utf8)
        Console.document(bytes)
    }

    private static func json(_ f: Linter.Finding) -> PlistValue {
        var d = PlistDictionary()
        switch f.location {
        case .unknown: break
        case .text(let line, let column):
            d["line"] = .int(Int64(line))
            d["column"] = .int(Int64(column))
        case .binary(let offset, let object):
            d["offset"] = .int(Int64(offset))
            if let object { d["object"] = .int(Int64(object)) }
        case .archive(let object, let keyPath):
            if let object { d["object"] = .int(Int64(object)) }
            d["keyPath"] = .string(keyPath)
        }
        d["message"] = .string(f.message)
        d["severity"] = .string(f.severity.rawValue)
        return .dictionary(d)
    }
}
