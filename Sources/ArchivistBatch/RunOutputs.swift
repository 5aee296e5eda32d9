import ArchivistCore
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// What one run may write: the one place every command asks before it writes
/// a file (a result, a backup, a report, a suggested rules file, a stamp).
///
/// The run first names what it reads or keeps (`read(_:as:)`: inputs, rules
/// and configuration files, stores), then claims each output
/// (`claim(_:as:of:)`). A claim is refused when the output is a file the run
/// reads, or another output of the same run (a backup, a result, the
/// report), however the path is spelled: an existing file is compared by
/// device and inode (links followed, so a link or a hard link to an input
/// counts), a file not yet made by its folder's device and inode plus its
/// name. Devices, FIFOs, sockets and descriptors (`/dev/null`,
/// `/dev/stdout`, `-`) are exempt: writing to them replaces nothing. A claim
/// whose folder does not exist is refused too (`no such folder`, as `cp`
/// refuses it), except for results in an output folder, whose subfolders
/// the run makes.
package struct RunOutputs: Sendable {
    /// What a file is to the run.
    package enum Role: Sendable, Equatable {
        /// A file read as input.
        case input
        /// A rules file read (`--rules`).
        case rules
        /// A configuration file read (`--config`).
        case configuration
        /// A store read or changed (`--sqlite`).
        case store
        /// The result of an input (nil: of the run, as `codegen -o`).
        case result(of: String?)
        /// The backup of an input (`--in-place --backup`).
        case backup(of: String)
        /// The run's report (`--report`).
        case report
        /// A suggested rules file (`--suggest-rules -o`).
        case suggestion
        /// The stamp of a clean run (`lint --stamp`).
        case stamp

        /// What the role names in a message: "the backup of a.plist".
        var phrase: String {
            switch self {
            case .input: return "an input"
            case .rules: return "the rules file"
            case .configuration: return "the configuration file"
            case .store: return "the store being read"
            case .result(let input?): return "the result of \(input)"
            case .result(nil): return "the result"
            case .backup(let input): return "the backup of \(input)"
            case .report: return "the report"
            case .suggestion: return "the suggested rules"
            case .stamp: return "the stamp"
            }
        }
    }

    /// Why a claim was refused.
    package enum Refusal: Error, Sendable, Equatable {
        /// The output is a file the run reads or keeps, or another output.
        case conflict(PlistError)
        /// The output's folder does not exist.
        case noSuchFolder(PlistError)

        /// The error, as a command reports it.
        package var error: PlistError {
            switch self {
            case .conflict(let error), .noSuchFolder(let error): return error
            }
        }
    }

    /// A file, however spelled: an existing file's identity, or a file not
    /// yet made as its nearest existing folder's identity and the digest of
    /// the rest of its path below that folder (a run keeps one a result or
    /// backup: a digest is 16 bytes whatever the name's length; two names
    /// with one digest would only refuse a claim, never let one through).
    private enum Key: Hashable, Sendable {
        case file(FileIO.FileIdentity)
        case name(FileIO.FileIdentity, ContentDigest)
    }

    private struct Entry: Sendable {
        var role: Role
        /// The path it was noted or claimed by, for messages; empty for a
        /// result or a backup, whose messages name them by their input
        /// (so a run's many outputs keep no path of their own).
        var path: String

        init(role: Role, path: String) {
            self.role = role
            switch role {
            case .result(_?), .backup: self.path = ""
            default: self.path = path
            }
        }
    }

    /// Everything read or claimed but the inputs.
    private var entries: [Key: Entry] = [:]
    /// The inputs, apart (a batch has one a file, kept for the whole run):
    /// the path each was first read by, by identity. An input is never in
    /// `entries` too; what is there first wins, as if in one table.
    private var inputs: [FileIO.FileIdentity: String] = [:]
    /// Folders already looked up, by path: the identity of the folder, or
    /// of its nearest existing folder and the path from there (a folder the
    /// run makes).
    private var folders: [String: (identity: FileIO.FileIdentity, below: String)] = [:]

    /// Nothing read or claimed yet.
    package init() {}

    /// Notes a file the run reads or keeps (`role` is `.input`, `.rules`,
    /// `.configuration` or `.store`); `identity`, when known, saves looking
    /// it up. Standard input, folders, special files and names with nothing
    /// there are left out (nothing can replace them by rename).
    package mutating func read(_ path: String, as role: Role, identity: FileIO.FileIdentity? = nil) {
        guard path != "-" else { return }
        var st = stat()
        let id: FileIO.FileIdentity
        if let identity {
            id = identity
        } else {
            guard Sys.stat(path, &st) == 0, (st.st_mode & S_IFMT) == S_IFREG else { return }
            id = FileIO.FileIdentity(device: UInt64(truncatingIfNeeded: st.st_dev), inode: UInt64(truncatingIfNeeded: st.st_ino))
        }
        if role == .input {
            if inputs[id] == nil { inputs[id] = path }
        } else if inputs[id] == nil, entries[.file(id)] == nil {
            entries[.file(id)] = Entry(role: role, path: path)
        }
    }

    /// The path the file `identity` was first read by as an input, if it was.
    package func firstInput(_ identity: FileIO.FileIdentity) -> String? {
        inputs[identity]
    }

    /// What `key` is to the run so far: what was noted or claimed first.
    private func entry(_ key: Key) -> Entry? {
        if let entry = entries[key] { return entry }
        guard case .file(let id) = key, let path = inputs[id] else { return nil }
        return Entry(role: .input, path: path)
    }

    /// Claims `path` for an output of `role`; throws a `Refusal` when it is
    /// something the run reads or keeps, or another output of the run (see
    /// the type). `inPlaceOf` is the input an in-place result replaces: that
    /// input (and only it) may be the destination (`claimInPlace` does the
    /// same from the input's identity). `makesFolders` lets the
    /// folders above `path` be missing (results in an output folder, which
    /// the run makes); otherwise a missing folder is refused. Special files
    /// and `-` are always granted. Returns true when a file is at `path`
    /// already (so the caller need not look again).
    @discardableResult
    package mutating func claim(_ path: String, as role: Role, inPlaceOf input: String? = nil, makesFolders: Bool = false) throws -> Bool {
        guard path != "-", let key = try key(for: path, makesFolders: makesFolders) else { return path != "-" }
        if let other = entry(key) {
            if input != nil, other.role == .input { return true }
            throw Refusal.conflict(PlistError(.io, Self.message(path, role, other)))
        }
        entries[key] = Entry(role: role, path: path)
        if case .file = key { return true }
        return false
    }

    /// Claims an input for its own in-place result, by the identity it was
    /// noted with (no look-up): refused when the file is also something the
    /// run reads or keeps other than an input (the rules file).
    package func claimInPlace(_ path: String, identity: FileIO.FileIdentity) throws {
        guard let other = entry(.file(identity)), other.role != .input else { return }
        throw Refusal.conflict(PlistError(.io, Self.message(path, .result(of: path), other)))
    }

    /// The message of a refused claim; the two a batch has always given
    /// (a result over an input, a result over another) are kept as they were.
    private static func message(_ path: String, _ role: Role, _ other: Entry) -> String {
        switch (role, other.role) {
        case (.result(_?), .input):
            return "refusing to overwrite the input \(other.path) (only in-place conversion replaces inputs)"
        case (.result(_?), .result(let input?)):
            return "refusing to overwrite \(path), the result of \(input)"
        case (.result, .store):
            return "\(path) is the store being read; choose another destination"
        case (_, .input):
            return "refusing to write \(role.phrase) to \(path): it is the input \(other.path) (an output never replaces what the run reads or keeps)"
        case (_, .result), (_, .backup), (_, .report), (_, .suggestion), (_, .stamp):
            return "refusing to write \(role.phrase) to \(path): it is \(other.role.phrase) (an output never replaces what the run reads or keeps)"
        default:
            return "refusing to write \(role.phrase) to \(path): it is \(other.role.phrase) \(other.path) (an output never replaces what the run reads or keeps)"
        }
    }

    /// What identifies the file `path` writes to; nil for a special file
    /// (written directly, nothing replaced).
    private mutating func key(for path: String, makesFolders: Bool) throws -> Key? {
        let target: String
        do {
            switch try FileIO.destination(path) {
            case .special:
                return nil
            case .file(_, let existing?):
                return .file(FileIO.FileIdentity(device: existing.device, inode: existing.inode))
            case .file(let resolved, nil):
                target = resolved
            }
        } catch let error as PlistError {
            throw Refusal.noSuchFolder(error)
        }
        var (folder, name) = FileIO.split(target)
        var rest = name
        var missing: [(folder: String, below: String)] = []
        while true {
            if let known = folders[folder] { return remember(missing, known, rest) }
            var st = stat()
            if Sys.stat(folder, &st) == 0 {
                guard (st.st_mode & S_IFMT) == S_IFDIR else {
                    throw Refusal.noSuchFolder(PlistError(.io, "cannot write \(path): \(folder) is not a folder"))
                }
                let identity = FileIO.FileIdentity(device: UInt64(truncatingIfNeeded: st.st_dev), inode: UInt64(truncatingIfNeeded: st.st_ino))
                folders[folder] = (identity, "")
                return remember(missing, (identity, ""), rest)
            }
            guard makesFolders, folder != "/", folder != "." else {
                throw Refusal.noSuchFolder(PlistError(.io, "cannot write \(path): no such folder \(folder)"))
            }
            let child = folder
            (folder, name) = FileIO.split(folder)
            missing.append((child, name))
            rest = name + "/" + rest
        }
    }

    /// The key of `rest` below the folder `found` stands for; notes the
    /// missing folders met on the way (each the one after it, child first)
    /// so that their next files are keyed without looking again.
    private mutating func remember(_ missing: [(folder: String, below: String)], _ found: (identity: FileIO.FileIdentity, below: String),
                                   _ rest: String) -> Key {
        var below = found.below
        for step in missing.reversed() {
            below = below.isEmpty ? step.below : below + "/" + step.below
            folders[step.folder] = (found.identity, below)
        }
        return .name(found.identity, ContentDigest(found.below.isEmpty ? rest : found.below + "/" + rest))
    }
}
