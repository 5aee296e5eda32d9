import ArchivistArchive
import ArchivistBatch
import ArchivistCore
import ArgumentParser
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A lint configuration file (`lint --config archivist.json`): the settings a
/// target or repository keeps beside its files, as the build tool plugin
/// reads them.
///
/// ```json
/// {"secure": true, "allowedClasses": ["App.Note"], "rules": "rules.json",
///  "requireFormat": "xml", "exclude": ["Generated/*", "*.nib"]}
/// ```
///
/// Every key is optional; any other key is an error. Relative paths (`rules`,
/// and the `exclude` globs) are taken from the file's folder. The command
/// line wins: `--rules`, `--allow` and `--require-format` replace the file's
/// value, `--secure` turns the check on when the file does not.
struct LintConfig: Equatable {
    /// The keys a configuration may hold, in the order help lists them.
    static let keys = ["secure", "allowedClasses", "rules", "requireFormat", "exclude"]
    /// A configuration larger than this is refused (it is a few lines).
    static let maxFileSize = 1 << 20
    /// At most this many allowed classes or exclude globs.
    static let maxListCount = 10_000

    /// `"secure"`: check keyed archives against a secure-coding policy.
    var secure: Bool?
    /// `"allowedClasses"`: classes the secure-coding policy allows, as `--allow`.
    var allowedClasses: [String]?
    /// `"rules"`: a migration rules file, its path resolved against `folder`.
    var rules: String?
    /// `"requireFormat"`: the one format files must be in.
    var requireFormat: PlistFormat?
    /// `"exclude"`: globs of files not to check, named or found in a folder:
    /// a glob without `/` matches a file's name, one with `/` its path
    /// relative to `folder`.
    var exclude: [String] = []
    /// The absolute folder the file lies in.
    var folder: String

    /// The configuration in the file at `path`; prints the problem as
    /// `PATH: error: MESSAGE` and exits with status 64 when the file cannot be
    /// read or holds anything but the keys above with values of their types.
    static func load(_ path: String) throws -> LintConfig {
        do {
            let bytes = try FileIO.read(path, maxSize: maxFileSize)
            return try LintConfig(bytes: bytes, folder: Self.folder(of: Self.absolute(path)))
        } catch let error as PlistError {
            Console.error(error.hinted(path: path))
            throw ExitCode.validationFailure
        }
    }

    /// The configuration a file's bytes hold; `folder` resolves its relative paths.
    init(bytes: [UInt8], folder: String) throws {
        self.folder = folder
        let value = try PropertyList.read(bytes).tree.value
        guard case .dictionary(let top) = value else {
            throw PlistError(.invalidValue, "the configuration is \(value.aTypeName), not an object")
        }
        for (key, _) in top where !Self.keys.contains(key) {
            let hint = NearMiss.best(for: key, among: Self.keys).map { " (did you mean \"\($0)\"?)" } ?? ""
            throw PlistError(.invalidValue, "unknown key \"\(key)\"\(hint); a configuration takes \(Self.keys.joined(separator: ", "))")
        }
        if let v = top["secure"] {
            guard case .bool(let b) = v else { throw Self.fail("secure", "is \(v.aTypeName), not true or false") }
            secure = b
        }
        if let v = top["allowedClasses"] { allowedClasses = try Self.strings(v, key: "allowedClasses") }
        if let v = top["rules"] { rules = Self.resolve(try Self.string(v, key: "rules"), against: folder) }
        if let v = top["requireFormat"] {
            let name = try Self.string(v, key: "requireFormat")
            guard let format = PlistFormat(name: name) else {
                throw Self.fail("requireFormat", "\"\(name)\" is not a format; expected xml, binary, json or openstep")
            }
            requireFormat = format
        }
        if let v = top["exclude"] { exclude = try Self.strings(v, key: "exclude") }
    }

    /// True when an `exclude` glob matches the file at `path` (as named on
    /// the command line or found in a folder).
    func excludes(_ path: String) -> Bool {
        guard !exclude.isEmpty, path != "-" else { return false }
        let full = Self.absolute(path)
        let prefix = folder.hasSuffix("/") ? folder : folder + "/"
        let relative = full.hasPrefix(prefix) ? String(full.dropFirst(prefix.count)) : full
        return exclude.contains { BatchSelection.matches($0, relative: relative) }
    }

    /// `path` made absolute against the working folder, with `.` and `..`
    /// steps and repeated slashes taken out (by name; links are not followed).
    static func absolute(_ path: String) -> String {
        var full = path
        if !path.hasPrefix("/"), let cwd = getcwd(nil, 0) {
            full = String(cString: cwd) + "/" + path
            free(cwd)
        }
        var parts: [Substring] = []
        for part in full.split(separator: "/", omittingEmptySubsequences: true) {
            if part == "." { continue }
            if part == ".." {
                _ = parts.popLast()
            } else {
                parts.append(part)
            }
        }
        return "/" + parts.joined(separator: "/")
    }

    /// The folder an absolute, normalised path lies in.
    static func folder(of path: String) -> String {
        guard let slash = path.lastIndex(of: "/"), slash != path.startIndex else { return "/" }
        return String(path[..<slash])
    }

    /// A path of the file taken from its folder, unless it is absolute.
    private static func resolve(_ path: String, against folder: String) -> String {
        path.hasPrefix("/") ? path : (folder.hasSuffix("/") ? folder : folder + "/") + path
    }

    private static func fail(_ key: String, _ message: String) -> PlistError {
        PlistError(.invalidValue, "\(key): \(message)")
    }

    private static func string(_ value: PlistValue, key: String) throws -> String {
        guard case .string(let s) = value, !s.isEmpty else {
            throw fail(key, value.stringValue == nil ? "is \(value.aTypeName), not a string" : "is empty")
        }
        return s
    }

    private static func strings(_ value: PlistValue, key: String) throws -> [String] {
        guard case .array(let items) = value else { throw fail(key, "is \(value.aTypeName), not an array of strings") }
        guard items.count <= maxListCount else { throw fail(key, "holds more than \(maxListCount) entries") }
        return try items.enumerated().map { i, item in try string(item, key: "\(key)[\(i)]") }
    }
}
