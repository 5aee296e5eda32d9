import ArchivistCore
import ArchivistSigned

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
/// Converts the items of a batch to one format (or each in its own) and one
/// output target, never overwriting an input (unless converting in place) or
/// another item's result. Destinations are settled up front, in item order,
/// so results do not depend on the order (or parallelism) in which items run;
/// converting one item touches no shared state.
package struct BatchConverter: Sendable {
    /// The format every result is written in; nil keeps each input's format.
    package let format: PlistFormat?
    /// Where results go.
    package let target: OutputTarget
    /// With in-place conversion, the suffix of a copy of each original kept
    /// beside it (`Data.plist.bak`); nil keeps none.
    package let backupSuffix: String?
    /// Options for reading each input.
    package let readOptions: ReadOptions
    /// Options for writing each result.
    package let writeOptions: WriteOptions
    /// The items, in order.
    package let items: [BatchItem]
    /// Item `index`'s destination (`-` for standard output): derived from
    /// the item when asked (a batch keeps no list of them).
    package func destination(of index: Int) -> String {
        target.destination(for: items[index], format: format)
    }
    /// Where results are staged to be put in place together
    /// (`WriteBatch.commit()`); nil writes each result in place as it is
    /// converted, flushed to disk on its own.
    package let staging: WriteBatch?
    /// Items that may not be written, with why (a destination taken by an
    /// earlier item, or an input that only in-place conversion may replace).
    private let refusals: [Int: PlistError]
    /// In-place items whose result or backup `RunOutputs` refused (the input
    /// is the rules file, the backup's name another input): refused only
    /// when there is something to write, so a file a migration skips (a
    /// rules file in the folder, holding no archive) is still skipped.
    private let writeRefusals: [Int: PlistError]
    /// In-place items that name a file an earlier item names too (a link to
    /// it, or a hard link): it is converted once, by the earlier item.
    private let sameFiles: [Int: String]
    /// Items whose destination did not exist when the batch was planned:
    /// there is nothing to compare the result with or to take permissions from.
    private let absentDestinations: Set<Int>
    /// Folders of destinations already made or found, so each is checked once.
    private let folders = Locked(Set<String>())
    /// Whether an in-place result that loses something of its input (see
    /// `WriteLosses`: XML's whole-second dates, 32-bit reals) says so (`--quiet` turns it off).
    package var warnsOfLosses = true
    /// Whether `--in-place` may write a signed profile's property list over
    /// it, dropping the CMS signature (`--strip-signature`); else it is refused.
    package var stripsSignatures = false
    /// What the run reads and writes once the items' inputs, results and
    /// backups are in it: a command claims its report here.
    package let outputs: RunOutputs
    /// The output folder of a `.directory` target: results are written
    /// below it through descriptors (see `OutputFolder`).
    private let outputFolder: OutputFolder?

    /// What converting one item did.
    package enum Status: Sendable, Equatable {
        /// The result was written.
        case converted
        /// Nothing needed writing: the destination already holds the result,
        /// or the transform found nothing to change in an input converted in place.
        case unchanged
    }

    /// What a transform makes of a document read from an item.
    package enum Transformed: Sendable {
        /// The document as read, written in the batch's format (from its
        /// compact tree, never through a `PlistValue`).
        case document
        /// A new value to write (edited as a `PlistValue`).
        case value(PlistValue)
        /// A new tree to write (as a migration builds it).
        case tree(PlistTree)
        /// A result that writes itself in a format to a sink, with no tree
        /// built for it (a migrated archive written from the tree read).
        case written(@Sendable (PlistFormat, WriteOptions, ByteSink, inout WriteLosses) throws -> Void)
        /// Nothing needs to change: an input converted in place to its own
        /// format is left alone; any other item is written as read.
        case nothingToChange
    }

    /// What converting one item did, with its sizes.
    package struct Written: Sendable, Equatable {
        /// Converted or unchanged.
        package var status: Status
        /// Where the result went.
        package var destination: String
        /// Bytes read.
        package var bytesIn: Int
        /// Bytes of the result.
        package var bytesOut: Int
        /// What writing the result did not keep, as lines to print
        /// (`FileIO.StagedFile.warningLines`).
        package var notes: [String] = []
    }

    /// A batch over items.
    /// `followLinks` lets a result in an output folder be written through a
    /// symbolic link already there (otherwise that item is refused).
    /// `outputs` holds what the run reads besides the items (a rules file);
    /// every input, result and backup is noted or claimed there, and an item
    /// whose result or backup is refused (`RunOutputs`) is refused.
    package init(items: [BatchItem], format: PlistFormat?, target: OutputTarget, backupSuffix: String? = nil,
                readOptions: ReadOptions = ReadOptions(), writeOptions: WriteOptions = WriteOptions(), staging: WriteBatch? = nil,
                followLinks: Bool = false, outputs: RunOutputs = RunOutputs()) {
        self.items = items
        self.staging = staging
        self.format = format
        self.target = target
        self.backupSuffix = backupSuffix
        self.readOptions = readOptions
        self.writeOptions = writeOptions
        var plan = outputs
        for item in items where item.source != "-" {
            plan.read(item.source, as: .input, identity: item.identity ?? FileIO.identity(of: item.source))
        }
        var refusals: [Int: PlistError] = [:]
        var writeRefusals: [Int: PlistError] = [:]
        var absent = Set<Int>()
        var sameFiles: [Int: String] = [:]
        let inFolder: Bool
        if case .directory = target { inFolder = true } else { inFolder = false }
        for (i, item) in items.enumerated() {
            let destination = target.destination(for: item, format: format)
            guard destination != "-" else { continue }
            if target == .inPlace {
                // Only a regular file is replaced in place (never a device,
                // a pipe or the link that names one, such as /dev/stdin);
                // a file reached again by another name (a link) once.
                if let problem = FileIO.inPlaceProblem(item.source) {
                    refusals[i] = PlistError(.io, problem)
                    continue
                }
                let id = item.identity ?? FileIO.identity(of: item.source)
                if let id, let first = plan.firstInput(id), first != item.source {
                    sameFiles[i] = first
                    continue
                }
                do {
                    if let id {
                        try plan.claimInPlace(item.source, identity: id)
                    } else {
                        try plan.claim(destination, as: .result(of: item.source), inPlaceOf: item.source)
                    }
                    if let backupSuffix { try plan.claim(item.source + backupSuffix, as: .backup(of: item.source)) }
                } catch let refusal as RunOutputs.Refusal {
                    writeRefusals[i] = refusal.error
                } catch {
                    writeRefusals[i] = PlistError(.io, "\(error)")
                }
                continue
            }
            let exists: Bool
            do {
                // One lstat for the usual new destination (the folder is looked up once).
                exists = try plan.claim(destination, as: .result(of: item.source), makesFolders: inFolder)
            } catch let refusal as RunOutputs.Refusal {
                refusals[i] = refusal.error
                continue
            } catch {
                refusals[i] = PlistError(.io, "\(error)")
                continue
            }
            if !exists {
                absent.insert(i)
            } else if inFolder, case .special? = try? FileIO.destination(destination), !FileIO.isSymbolicLink(destination) {
                // A FIFO, device or socket planted in the output folder would hold the batch (or take its result).
                refusals[i] = PlistError(.io, "refusing to write into \(destination) in the output folder: not a regular file (a FIFO, device or socket)")
            } else if inFolder, !followLinks, FileIO.isSymbolicLink(destination) {
                // A link planted in the output folder would aim the result anywhere.
                refusals[i] = PlistError(.io, "refusing to write through the symbolic link \(destination) in the output folder (remove it, or give --follow-links)")
            }
        }
        if case .directory(let dir) = target {
            outputFolder = OutputFolder(path: dir, followLinks: followLinks)
        } else {
            outputFolder = nil
        }
        self.refusals = refusals
        self.writeRefusals = writeRefusals
        self.sameFiles = sameFiles
        absentDestinations = absent
        self.outputs = plan
    }

    /// A batch over named files (`-` for standard input).
    package init(inputs: [String], format: PlistFormat?, target: OutputTarget, backupSuffix: String? = nil,
                readOptions: ReadOptions = ReadOptions(), writeOptions: WriteOptions = WriteOptions()) {
        self.init(items: inputs.map { BatchItem(source: $0) }, format: format, target: target, backupSuffix: backupSuffix,
                  readOptions: readOptions, writeOptions: writeOptions)
    }

    /// Creates the output folder (and its parents) when the target is a folder.
    package func prepare() throws {
        try outputFolder?.prepare()
    }

    /// Converts the first item whose source is `input`.
    @discardableResult
    package func convert(_ input: String, bytes: [UInt8]? = nil, warn: (PlistDiagnostic) -> Void = { _ in },
                        transform: ((PlistDocument) throws -> Transformed)? = nil) throws -> Written {
        guard let index = items.firstIndex(where: { $0.source == input }) else {
            throw PlistError(.io, "\(input) is not an input of this batch")
        }
        return try convert(index, bytes: bytes, warn: warn, transform: transform)
    }

    /// Puts a staged file of item `index` in place: with the batch's other
    /// results at the end when it has `staging`, else now, flushed on its own.
    private func place(_ staged: FileIO.StagedFile, item index: Int, after backup: FileIO.StagedFile? = nil) throws {
        if let staging {
            staging.add(staged, item: index)
        } else {
            do {
                try FileIO.place(staged)
            } catch {
                // A backup stays only with its result in place (see `WriteBatch.commit()`).
                if let backup { FileIO.withdraw(backup) }
                throw error
            }
            try FileIO.flushFolder(of: staged)
        }
    }

    /// Reads item `index`, converts it and writes the result atomically
    /// (staged in `staging` when there is one). The
    /// input's diagnostics (duplicate keys and the like) go to `warn` as soon
    /// as it is read; they do not stop the conversion. `transform` says what
    /// to write (nil: the document as read, which a binary plist converted
    /// to XML or JSON is without ever building its tree; `.nothingToChange`
    /// leaves an input converted in place alone). `bytes`, when given, are the input's content read earlier
    /// (standard input can be read only once); `ahead`, the item as `read`
    /// read it earlier (then nothing is read or parsed again, and the
    /// in-place check is against what was read then). Throws a `PlistError`: located
    /// in the input when it is malformed or cannot be written in the format,
    /// `.io` when a file cannot be read or written or the destination is
    /// protected; or whatever `transform` throws. On error nothing is written
    /// and the destination is as it was.
    package func convert(_ index: Int, bytes: [UInt8]? = nil, readAhead ahead: ReadItem? = nil, warn: (PlistDiagnostic) -> Void = { _ in },
                        transform: ((PlistDocument) throws -> Transformed)? = nil) throws -> Written {
        let destination = self.destination(of: index)
        if let refusal = refusals[index] { throw refusal }
        if sameFiles[index] != nil { return Written(status: .unchanged, destination: destination, bytesIn: 0, bytesOut: 0) }
        let read: ReadItem
        if let ahead {
            read = ahead
        } else {
            // The input (a mapping of a large file) lives only in this block:
            // once read, the tree holds what it needs.
            let input = try bytes.map { InputBytes($0) } ?? FileIO.input(items[index], maxSize: readOptions.limits.maxInputSize)
            try refuseReadOnlyInPlace(input)
            let original = self.original(of: index, input)
            if transform == nil, let format, format == .xml || format == .json,
               input.withUnsafeBytes({ FormatSniffer.guess($0) == .format(.binary) }) {
                // A binary plist as read, to text: written as it is read in
                // place, object by object, with no tree (a file larger than
                // memory converts).
                return try input.withUnsafeBytes { buffer in
                    var view = try BinaryPlistView(buffer, limits: readOptions.limits)
                    let options = writeOptions
                    var losses = WriteLosses()
                    let written = try deliver(index, bytesIn: input.count, original: original) { out in
                        try PropertyList.write(&view, as: format, options: options, into: out, losses: &losses)
                    }
                    view.diagnostics.forEach(warn)
                    return noting(losses, of: index, in: written)
                }
            }
            read = try ReadItem(input, original: original, options: readOptions)
        }
        let document = read.document, bytesIn = read.bytesIn, original = read.original
        document.diagnostics.forEach(warn)
        let signed = read.signed
        let format = self.format ?? document.format
        let tree: PlistTree
        var writes: (@Sendable (PlistFormat, WriteOptions, ByteSink, inout WriteLosses) throws -> Void)?
        switch try transform?(document) ?? .document {
        case .nothingToChange where target == .inPlace && format == document.format:
            return Written(status: .unchanged, destination: destination, bytesIn: bytesIn, bytesOut: bytesIn)
        case .document, .nothingToChange:
            tree = document.tree
        case .value(let value):
            tree = try PlistTree(value, limits: .writing)
        case .tree(let built):
            tree = built
        case .written(let write):
            tree = document.tree
            writes = write
        }
        let options = document.writeOptions(writeOptions, path: items[index].source)
        var losses = WriteLosses()
        let written = try deliver(index, bytesIn: bytesIn, original: original) { out in
            if let writes {
                try writes(format, options, out, &losses)
            } else {
                try tree.withView { try PropertyList.write(&$0, as: format, options: options, into: out, losses: &losses) }
            }
        }
        var result = noting(losses, of: index, in: written)
        if signed, result.status == .converted {
            result.notes.append("\(items[index].source): warning: the CMS signature cannot be kept: the result is the signed property list alone")
        }
        return result
    }

    /// `written` with a warning of what its result lost (`WriteLosses`),
    /// when it replaced its input in place (the original is gone) and
    /// `warnsOfLosses`: once per file, naming every kind lost.
    private func noting(_ losses: WriteLosses, of index: Int, in written: Written) -> Written {
        guard warnsOfLosses, target == .inPlace, written.status == .converted, !losses.isEmpty else { return written }
        var noted = written
        noted.notes.append("\(items[index].source): warning: \(losses.sentence)")
        return noted
    }

    /// Writes item `index`'s result, which `contents` streams into a sink a
    /// buffer at a time (never built whole in memory): to standard output,
    /// or to a temporary file that replaces the destination (with the batch,
    /// or now) unless the destination already holds the same bytes.
    /// `original` is the input an in-place result replaces (and its bytes,
    /// kept as a backup).
    private func deliver(_ index: Int, bytesIn: Int, original: Original?, contents: (ByteSink) throws -> Void) throws -> Written {
        if let refusal = writeRefusals[index] { throw refusal }
        let item = items[index]
        let destination = self.destination(of: index)
        if destination == "-" {
            let out = FileIO.streamingSink(fd: STDOUT_FILENO, name: "standard output")
            try contents(out)
            try out.finish()
            return Written(status: .converted, destination: destination, bytesIn: bytesIn, bytesOut: out.byteCount)
        }
        let absent = absentDestinations.contains(index)
        var size = 0
        func write(_ out: ByteSink) throws {
            try contents(out)
            size = out.byteCount
        }
        // Where the result is staged and renamed: a file found in a folder
        // and converted in place, in its folder entered from the folder
        // walked (no link followed); a result in an output folder, below it
        // the same way; anything else by its path, as named.
        let staged: FileIO.StagedFile
        var original = original
        var inputFolder: (folder: Folder, name: String)?
        if target == .inPlace, let anchor = item.anchor {
            let (folder, name) = try anchor.place()
            inputFolder = (folder, name)
            original?.file.location = FileIO.Location(folder: folder, name: name)
            staged = try FileIO.stage(in: folder, name: name, path: destination, flush: staging == nil, unchanged: original?.file,
                                      linkRefusal: FileIO.notWalkedFile(destination).message, streaming: write)
        } else if let outputFolder, let relative = outputFolder.relative(destination) {
            staged = try outputFolder.stage(relative, flush: staging == nil, knownAbsent: absent, streaming: write)
        } else {
            if let slash = destination.utf8.lastIndex(of: UInt8(ascii: "/")), slash != destination.startIndex {
                let folder = String(destination[..<slash])
                if !folders.withLock({ $0.contains(folder) }) {
                    try FileIO.createDirectories(folder)
                    folders.withLock { _ = $0.insert(folder) }
                }
            }
            staged = try FileIO.stage(for: destination, flush: staging == nil, knownAbsent: absent, unchanged: original?.file, streaming: write)
        }
        if !absent, FileIO.hasSameContentsAsItsDestination(staged) {
            FileIO.discard(staged)
            return Written(status: .unchanged, destination: destination, bytesIn: bytesIn, bytesOut: size)
        }
        var notes = staged.warningLines
        var backup: FileIO.StagedFile?
        if let original, let bytes = original.bytes, let suffix = backupSuffix {
            do {
                let made: FileIO.StagedFile
                if let anchor = item.anchor, let relative = item.relative {
                    // Beside the name the walk found (a link to a file inside
                    // keeps its backup beside the link), in its folder entered
                    // from the folder walked.
                    let named = FileIO.Anchor(root: anchor.root, file: relative)
                    let (folder, name) = try inputFolder.flatMap { relative == anchor.file ? $0 : nil } ?? named.place()
                    made = try FileIO.stage(bytes, in: folder, name: name + suffix, path: item.source + suffix,
                                            flush: staging == nil, backupOf: original.file)
                } else {
                    made = try FileIO.stage(bytes, for: item.source + suffix, flush: staging == nil, backupOf: original.file)
                }
                notes += made.warningLines
                try place(made, item: index)
                backup = made
            } catch {
                FileIO.discard(staged)
                throw error
            }
        }
        try place(staged, item: index, after: backup)
        return Written(status: .converted, destination: destination, bytesIn: bytesIn, bytesOut: size, notes: notes)
    }

    /// An input converted in place: the file as read, and its bytes when a
    /// backup keeps them.
    fileprivate struct Original: Sendable {
        var file: FileIO.Precondition
        var bytes: [UInt8]?
    }

    /// What an in-place result of item `index` checks before it replaces the
    /// input (and a backup copies): the input as read; nil for other targets
    /// and standard input.
    fileprivate func original(of index: Int, _ input: InputBytes) -> Original? {
        let source = items[index].source
        guard target == .inPlace, source != "-" else { return nil }
        return FileIO.Precondition(path: source, input: input).map { Original(file: $0, bytes: backupSuffix != nil ? input.array : nil) }
    }

    /// An item read and parsed ahead of its conversion (`migrate` reads every
    /// input to check its rules first): converting it with `readAhead`
    /// reads and parses nothing again.
    package struct ReadItem: Sendable {
        /// The document read.
        package let document: PlistDocument
        /// The size of the input read.
        package let bytesIn: Int
        /// True when the input is a signed profile (its document is the property list inside).
        package let signed: Bool
        fileprivate let original: Original?

        fileprivate init(_ input: InputBytes, original: Original?, options: ReadOptions) throws {
            let isSigned = input.withUnsafeBytes { SignedPlist.isSigned($0) }
            signed = isSigned
            document = try input.withUnsafeBytes { try SignedPlist.read($0, signed: isSigned, options: input.readOptions(options)) }
            bytesIn = input.count
            self.original = original
        }
    }

    /// Throws when converting in place would write a property list over a
    /// format Archivist reads but does not write (a binary cookie store, a
    /// bookmark file: `FormatSniffer.Kind.isRead`).
    private func refuseReadOnlyInPlace(_ input: InputBytes) throws {
        guard target == .inPlace, let kind = input.withUnsafeBytes({ FormatSniffer.kind($0) }) else { return }
        if kind == .signedEnvelope, !stripsSignatures {
            throw PlistError(.unsupported, "a CMS (PKCS #7) signed envelope: converting it in place would strip its signature; "
                             + "give --strip-signature to do that, or -o to write the property list to another file")
        }
        guard kind.isRead else { return }
        throw PlistError(.unsupported, "\(kind.name) is read-only: Archivist does not write it; convert it to another file, not in place")
    }

    /// Reads and parses item `index` (`bytes`: its content read earlier, as
    /// for standard input), for `convert(_:readAhead:)`. Throws as reading
    /// in `convert` does.
    package func read(_ index: Int, bytes: [UInt8]? = nil) throws -> ReadItem {
        let input = try bytes.map { InputBytes($0) } ?? FileIO.input(items[index], maxSize: readOptions.limits.maxInputSize)
        try refuseReadOnlyInPlace(input)
        return try ReadItem(input, original: original(of: index, input), options: readOptions)
    }
}
