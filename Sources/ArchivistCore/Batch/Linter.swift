/// What `lint` checks: that an input reads as a property list, and none of the
/// mistakes Apple's parsers accept silently (duplicate keys, lone surrogates,
/// an encoding declaration that contradicts the bytes).
public enum Linter {
    /// The files a lint of `path` covers: the files below a folder (recursively,
    /// sorted, hidden entries skipped), otherwise the path itself.
    public static func files(for path: String) throws -> [String] {
        path != "-" && FileIO.isDirectory(path) ? try FileIO.files(under: path) : [path]
    }

    /// The problems of `bytes` read from `path`, one line each as `lint` prints
    /// them (`PATH:LINE:COL: error: MESSAGE`, or `PATH: offset N: error: MESSAGE`
    /// for binary); empty when the input is valid. A duplicate key's line points
    /// at the repeated key and names the earlier one (`(see LINE:COL)`).
    ///
    /// `check` runs on a document that reads, for checks that live outside the
    /// core (keyed archives, secure coding); the errors it returns, and the one
    /// it throws, are more problems.
    public static func problems(in bytes: [UInt8], path: String, options: ReadOptions = ReadOptions(),
                                check: (PlistDocument) throws -> [PlistError] = { _ in [] }) -> [String] {
        let document: PlistDocument
        do {
            document = try PropertyList.read(bytes, options: options)
        } catch {
            return [line(for: error, path: path)]
        }
        var lines = document.diagnostics.map { $0.formatted(path: path) }
        do {
            lines += try check(document).map { $0.formatted(path: path) }
        } catch {
            lines.append(line(for: error, path: path))
        }
        return lines
    }

    private static func line(for error: any Error, path: String) -> String {
        (error as? PlistError)?.formatted(path: path) ?? "\(path): error: \(error)"
    }
}
