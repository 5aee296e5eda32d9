import ArchivistCore
/// What `lint` checks: that an input reads as a property list, and none of the
/// mistakes Apple's parsers accept silently (duplicate keys, lone surrogates,
/// an encoding declaration that contradicts the bytes).
package enum Linter {
    /// One problem of one input.
    package struct Finding: Sendable, Equatable {
        /// The input's name as reported.
        package var path: String
        /// Where in the input.
        package var location: SourceLocation
        /// What is wrong, on one line.
        package var message: String

        /// A finding from an error.
        package init(path: String, error: PlistError) {
            self.path = path
            self.location = error.location
            self.message = PlistError.oneLine(error.message)
        }

        /// The line `lint` prints: `PATH:LINE:COL: error: MESSAGE`, or
        /// `PATH: offset N (object I): error: MESSAGE` for binary and archives.
        package var line: String {
            location.formatted(path: path, severity: "error", message: message)
        }

        /// A GitHub Actions annotation: `::error file=PATH,line=L,col=C::MESSAGE`
        /// (the place inside the file goes in the message when it is not a line).
        package var githubAnnotation: String {
            func escapeProperty(_ s: String) -> String {
                s.replacingEvery([("%", "%25"), ("\r", "%0D"), ("\n", "%0A"), (":", "%3A"), (",", "%2C")])
            }
            func escapeData(_ s: String) -> String {
                s.replacingEvery([("%", "%25"), ("\r", "%0D"), ("\n", "%0A")])
            }
            switch location {
            case .text(let line, let column):
                return "::error file=\(escapeProperty(path)),line=\(line),col=\(column)::\(escapeData(message))"
            case .unknown:
                return "::error file=\(escapeProperty(path))::\(escapeData(message))"
            case .binary, .archive:
                return "::error file=\(escapeProperty(path))::\(escapeData(location.shortDescription + ": " + message))"
            }
        }
    }

    /// The problems of `bytes` read from `path`; empty when the input is valid.
    /// A duplicate key's finding points at the repeated key and names the
    /// earlier one (`(see LINE:COL)`).
    ///
    /// `check` runs on a document that reads, for checks that live outside the
    /// core (keyed archives, secure coding, a required format); the errors it
    /// returns, and the one it throws, are more problems.
    package static func findings(in bytes: [UInt8], path: String, options: ReadOptions = ReadOptions(),
                                check: (PlistDocument) throws -> [PlistError] = { _ in [] }) -> [Finding] {
        let document: PlistDocument
        do {
            document = try PropertyList.read(bytes, options: options)
        } catch {
            return [finding(for: error, path: path)]
        }
        var found = document.diagnostics.map { d -> Finding in
            var f = Finding(path: path, error: PlistError(.syntax, d.message, at: d.location))
            if let related = d.related, !related.shortDescription.isEmpty { f.message += " (see \(related.shortDescription))" }
            return f
        }
        do {
            found += try check(document).map { Finding(path: path, error: $0) }
        } catch {
            found.append(finding(for: error, path: path))
        }
        return found
    }

    private static func finding(for error: any Error, path: String) -> Finding {
        Finding(path: path, error: (error as? PlistError) ?? PlistError(.io, "\(error)"))
    }
}

extension String {
    /// The string with each pair's first text replaced by its second, in one pass.
    func replacingEvery(_ pairs: [(Character, String)]) -> String {
        var out = ""
        out.reserveCapacity(utf8.count)
        for c in self {
            if let r = pairs.first(where: { $0.0 == c }) { out += r.1 } else { out.append(c) }
        }
        return out
    }
}
