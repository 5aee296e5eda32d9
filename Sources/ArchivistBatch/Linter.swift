import ArchivistCore
import ArchivistSigned
/// What `lint` checks: that an input reads as a property list, and none of the
/// mistakes Apple's parsers accept silently (duplicate keys, lone surrogates,
/// an encoding declaration that contradicts the bytes); it warns about JSON
/// integers that Apple reads as reals.
package enum Linter {
    /// One problem of one input.
    package struct Finding: Sendable, Equatable {
        /// How bad a finding is.
        package enum Severity: String, Sendable {
            /// The input is invalid, or holds a mistake.
            case error
            /// The input is valid and reads as Apple reads it, but a value
            /// changes (a JSON integer beyond 64 bits becomes a real).
            case warning
        }

        /// The input's name as reported.
        package var path: String
        /// Where in the input.
        package var location: SourceLocation
        /// What is wrong, on one line.
        package var message: String
        /// An error, or only a warning.
        package var severity: Severity = .error

        /// A finding from an error.
        package init(path: String, error: PlistError) {
            self.path = path
            self.location = error.location
            self.message = PlistError.oneLine(error.message)
        }

        /// The line `lint` prints: `PATH:LINE:COL: error: MESSAGE`, or
        /// `PATH: offset N (object I): error: MESSAGE` for binary and archives
        /// (`warning` in place of `error` for a warning).
        package var line: String {
            location.formatted(path: path, severity: severity.rawValue, message: message)
        }

        /// The line Xcode and build logs show in place, as clang and swiftc
        /// print it: `PATH:LINE:COL: error: MESSAGE` (`warning`), at `1:1`
        /// with the place starting the message (`offset N (object I): ...`,
        /// `$objects[I] (KEYPATH): ...`) for a binary plist or an archive, and
        /// for no known place. Control characters are escaped as in `line`.
        package var xcodeLine: String {
            let first = SourceLocation.text(line: 1, column: 1)
            switch location {
            case .text:
                return line
            case .unknown:
                return first.formatted(path: path, severity: severity.rawValue, message: message)
            case .binary, .archive:
                return first.formatted(path: path, severity: severity.rawValue, message: location.shortDescription + ": " + message)
            }
        }

        /// A GitHub Actions annotation: `::error file=PATH,line=L,col=C::MESSAGE`
        /// (`::warning` for a warning; the place inside the file goes in the
        /// message when it is not a line).
        package var githubAnnotation: String {
            func escapeProperty(_ s: String) -> String {
                s.replacingEvery([("%", "%25"), ("\r", "%0D"), ("\n", "%0A"), (":", "%3A"), (",", "%2C")])
            }
            func escapeData(_ s: String) -> String {
                s.replacingEvery([("%", "%25"), ("\r", "%0D"), ("\n", "%0A")])
            }
            let command = severity.rawValue
            switch location {
            case .text(let line, let column):
                return "::\(command) file=\(escapeProperty(path)),line=\(line),col=\(column)::\(escapeData(message))"
            case .unknown:
                return "::\(command) file=\(escapeProperty(path))::\(escapeData(message))"
            case .binary, .archive:
                return "::\(command) file=\(escapeProperty(path))::\(escapeData(location.shortDescription + ": " + message))"
            }
        }
    }

    /// The problems of `bytes` read from `path`; none with severity `.error`
    /// when the input is valid.
    /// A duplicate key's finding points at the repeated key and names the
    /// earlier one (`(see LINE:COL)`).
    ///
    /// `check` runs on a document that reads, for checks that live outside the
    /// core (keyed archives, secure coding, a required format); the errors it
    /// returns, and the one it throws, are more problems.
    package static func findings(in bytes: [UInt8], path: String, options: ReadOptions = ReadOptions(),
                                check: (PlistDocument) throws -> [PlistError] = { _ in [] }) -> [Finding] {
        bytes.withUnsafeBytes { findings(in: $0, path: path, options: options, check: check) }
    }

    /// The problems of an input read in place (a mapped file, say); see
    /// `findings(in:path:options:check:)`. With `inPlace`, a binary property
    /// list that is not a keyed archive is checked where it lies
    /// (`BinaryPlistView`), building no tree and without `check`: the caller
    /// gives it only when `check` needs nothing but the format, which
    /// `requiredFormat` checks on both paths.
    package static func findings(in buffer: UnsafeRawBufferPointer, path: String, options: ReadOptions = ReadOptions(),
                                inPlace: Bool = false, requiredFormat: PlistFormat? = nil,
                                check: (PlistDocument) throws -> [PlistError] = { _ in [] }) -> [Finding] {
        var found: [Finding] = []
        forEachFinding(in: buffer, path: path, options: options, inPlace: inPlace, requiredFormat: requiredFormat,
                       check: { document, emit in for error in try check(document) { emit(error) } }, { found.append($0) })
        return found
    }

    /// `findings(in:path:options:inPlace:requiredFormat:check:)`, each finding
    /// handed to `found` as it is known, in the same order: `check` hands
    /// its problems to the function it is given as it finds them (a problem
    /// it throws comes after them), so that the findings of an input need not
    /// all be held at once.
    package static func forEachFinding(in buffer: UnsafeRawBufferPointer, path: String, options: ReadOptions = ReadOptions(),
                                       inPlace: Bool = false, requiredFormat: PlistFormat? = nil,
                                       check: (PlistDocument, (PlistError) -> Void) throws -> Void,
                                       _ found: (Finding) -> Void) {
        if inPlace, buffer.count <= options.limits.maxInputSize, FormatSniffer.guess(buffer) == .format(.binary) {
            // Archives are checked as archives, from their tree: asked
            // first, so that an archive's view (its tables) is never made.
            if !BinaryPlistView.looksLikeArchive(buffer, limits: options.limits) {
                do {
                    var view = try BinaryPlistView(buffer, limits: options.limits)
                    try view.check()
                    (findings(path: path, diagnostics: view.diagnostics) + formatFindings(.binary, required: requiredFormat, path: path)).forEach(found)
                } catch {
                    found(finding(for: error, path: path))
                }
                return
            }
        }
        let document: PlistDocument
        do {
            document = try SignedPlist.read(buffer, options: options)
        } catch {
            return found(finding(for: error, path: path))
        }
        (findings(path: path, diagnostics: document.diagnostics) + formatFindings(document.format, required: requiredFormat, path: path)).forEach(found)
        do {
            try withoutActuallyEscaping(found) { found in try check(document) { found(Finding(path: path, error: $0)) } }
        } catch {
            found(finding(for: error, path: path))
        }
    }

    /// The findings of a reader's diagnostics, in order.
    private static func findings(path: String, diagnostics: [PlistDiagnostic]) -> [Finding] {
        diagnostics.map { d -> Finding in
            var f = Finding(path: path, error: PlistError(.syntax, d.message, at: d.location))
            f.severity = d.kind.isWarning ? .warning : .error
            if let related = d.related, !related.shortDescription.isEmpty { f.message += " (see \(related.shortDescription))" }
            return f
        }
    }

    /// The finding of an input in a format other than the one required (a repository policy).
    private static func formatFindings(_ format: PlistFormat, required: PlistFormat?, path: String) -> [Finding] {
        guard let required, format != required else { return [] }
        return [Finding(path: path, error: PlistError(.invalidValue, "the file is \(format.rawValue); this check requires \(required.rawValue)"))]
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
