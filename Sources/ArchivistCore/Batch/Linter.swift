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
    /// at the repeated key and names the first one (`(see LINE:COL)`).
    public static func problems(in bytes: [UInt8], path: String, options: ReadOptions = ReadOptions()) -> [String] {
        let document: PlistDocument
        do {
            document = try PropertyList.read(bytes, options: options)
        } catch let error as PlistError {
            return [error.formatted(path: path)]
        } catch {
            return ["\(path): error: \(error)"]
        }
        return document.diagnostics.map { $0.formatted(path: path) }
    }
}
