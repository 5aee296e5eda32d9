import ArchivistArchive
import ArchivistBatch
import ArchivistCore
import ArgumentParser
import Dispatch

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Runs a batch for `convert` and `migrate`: plans the items, runs them on
/// the jobs, prints each item's lines in item order, a progress bar on a
/// terminal, and the summary; writes the JSON report.
struct BatchSession {
    let options: BatchOptions
    let items: [BatchItem]
    /// True when the batch reaches beyond one named file (a summary is printed).
    let isBatch: Bool
    /// The results, put in place together (one flush to disk) a chunk of
    /// `commitChunk` items at a time and when the run ends.
    let writes = WriteBatch()
    /// How many items' results are put in place together: what is kept of
    /// the staged files while they wait stays bounded however large the batch.
    static let commitChunk = 1000
    /// Folders that could not be listed and files that could not be named,
    /// met while planning: the run fails after doing the rest.
    let unreadable: [FileIO.WalkProblem]

    /// Plans the items of `inputs`; with `output`, its folder and the
    /// backups of an in-place run are no inputs. What the folder walks
    /// left out is reported now.
    init(inputs: [String], options: BatchOptions, output: OutputOptions? = nil) throws {
        self.options = options
        var selection = options.selection
        selection.outputFolder = output?.outputDir
        selection.backupSuffix = output?.inPlace == true ? output?.backup : nil
        var problems: [FileIO.WalkProblem] = []
        items = try failing(at: nil) { try BatchPlan.items(inputs, selection: selection) { problems.append($0) } }
        for problem in problems { Console.error(FolderOptions.line(for: problem)) }
        unreadable = problems.filter(\.isError)
        isBatch = items.count > 1 || items.contains { $0.isFound } || options.report != nil || options.shard != nil || items.isEmpty
        if items.isEmpty, options.shard == nil {
            // Only folders give no items (a named file is always one).
            let filtered = !options.folders.include.isEmpty || !options.folders.exclude.isEmpty
            let what = filtered ? "no files that --include and --exclude take" : "no files"
            let hint = options.recursive ? "" : " (without -r only the files directly inside are taken)"
            for input in inputs { Console.error("\(input): warning: \(what) found in this folder\(hint)") }
        }
    }

    /// The converter for the planned items: checks that the output target can
    /// take them (status 64 if not) and creates the output folder. `reading`
    /// holds what the run reads besides its inputs (a rules file); the
    /// converter claims each item's result and backup there (see
    /// `RunOutputs`), and the report is claimed after them: a report that
    /// would replace an input, a result, a backup or a rules file is a usage
    /// error (status 64), before anything is written.
    func converter(format: PlistFormat?, output: OutputOptions, writeOptions: WriteOptions, readOptions: ReadOptions,
                   reading: RunOutputs = RunOutputs(), prepared: Bool = true) throws -> BatchConverter {
        if !items.isEmpty, let problem = output.target.usageProblem(inputs: items.map(\.source)) {
            Console.error("Error: " + problem.prefix(1).uppercased() + problem.dropFirst() + ".")
            throw ExitCode.validationFailure
        }
        let converter = BatchConverter(items: items, format: format, target: output.target, backupSuffix: output.backup,
                                       readOptions: readOptions, writeOptions: writeOptions, staging: writes,
                                       followLinks: options.folders.followLinks, outputs: reading)
        if let report = options.report {
            var plan = converter.outputs
            // The report may be in the output folder, which the run makes.
            let inOutputFolder = output.outputDir.map { dir -> Bool in
                let root = dir.hasSuffix("/") ? String(dir.dropLast()) : dir
                return report.hasPrefix(root + "/")
            } ?? false
            try claimOutput(report, as: .report, in: &plan, makesFolders: inOutputFolder)
        }
        if prepared { try prepare(converter) }
        return converter
    }

    /// Makes what a converter writes into (its output folder); done by
    /// `converter(...)` unless it is asked for unprepared.
    func prepare(_ converter: BatchConverter) throws {
        try failing(at: nil) {
            try converter.prepare()
        }
    }

    /// Runs `work` on every item; returns true when none failed.
    func run(_ work: @escaping @Sendable (Int) -> BatchOutcome) throws -> Bool {
        BatchInterrupt.install()
        let started = Clock.now()
        let runner = BatchRunner(count: items.count, jobs: options.jobCount, failFast: options.failFast)
        let progress = Progress(total: items.count, enabled: isBatch && isatty(STDERR_FILENO) == 1, started: started)
        let verbose = options.folders.verbose
        // What the summary needs of each item is kept compactly (its status
        // and bytes written, for a result that cannot be put in place); the
        // whole outcomes only for --report.
        let tally = Locked(Tally(keepsOutcomes: options.report != nil))
        let ran = runner.run(work) { index, outcome in
            progress.clear()
            for line in outcome.stdoutLines { Console.output(line) }
            for line in outcome.stderrLines { Console.error(line) }
            if verbose, outcome.status == .skipped {
                Console.error(FolderOptions.skippedLine(outcome.item.source, reason: outcome.errors.first?.message ?? "not a property list"))
            }
            progress.show(done: index + 1)
            tally.withLock { $0.add(outcome) }
            // Every chunk of items reported, their results in place with one flush.
            if (index + 1) % Self.commitChunk == 0 { commit(through: index, into: tally) }
        }
        progress.clear()
        // The rest in place with one flush; a result that could not be put
        // there makes its item fail. The items that ran are the first ones
        // (they are taken in order), so an item's index is its outcome's.
        commit(through: .max, into: tally)
        let total = tally.withLock { $0 }
        var counts = total.counts
        counts[.failed, default: 0] += unreadable.count
        let seconds = Clock.now() - started
        if isBatch {
            var summary = "\(counts[.converted] ?? 0) converted, \(counts[.unchanged] ?? 0) unchanged, \(counts[.skipped] ?? 0) skipped, \(counts[.failed] ?? 0) failed"
            summary += "; \(Self.size(total.bytesIn)) read, \(Self.size(total.bytesOut)) written in \(Self.decimal(seconds, 2)) s"
            if runner.stoppedEarly {
                let why = BatchInterrupt.isRequested ? "interrupted" : "stopped at the first failure"
                summary += "; \(why): \(items.count - ran) not started"
            }
            Console.error(summary)
        }
        if let path = options.report { try writeReport(total.outcomes, notStarted: Array(items[ran...]), to: path) }
        if let status = BatchInterrupt.exitStatus { throw ExitCode(status) }
        return (counts[.failed] ?? 0) == 0 && !runner.stoppedEarly
    }

    /// Puts the staged results of the items up to `last` in place (all of
    /// them are reported: in `tally`); an item whose result could not be put
    /// there fails.
    private func commit(through last: Int, into tally: Locked<Tally>) {
        for failure in writes.commit(through: last) {
            let k = failure.item
            guard k >= 0, k < items.count else { continue }
            Console.error(failure.error.hinted(path: items[k].source))
            tally.withLock { $0.fail(k, failure.error) }
        }
    }

    /// The summary of the outcomes reported so far: counts and bytes, each
    /// item's status and bytes written (9 bytes an item), and the outcomes
    /// themselves only for a report.
    struct Tally {
        let keepsOutcomes: Bool
        var counts: [BatchOutcome.Status: Int] = [:]
        var bytesIn = 0, bytesOut = 0
        var statuses: [BatchOutcome.Status] = []
        var written: [Int] = []
        var outcomes: [BatchOutcome] = []

        mutating func add(_ outcome: BatchOutcome) {
            counts[outcome.status, default: 0] += 1
            bytesIn += outcome.bytesIn
            bytesOut += outcome.bytesOut
            statuses.append(outcome.status)
            written.append(outcome.bytesOut)
            if keepsOutcomes { outcomes.append(outcome) }
        }

        /// Item `k` failed after all: its result could not be put in place.
        mutating func fail(_ k: Int, _ error: PlistError) {
            guard statuses.indices.contains(k) else { return }
            counts[statuses[k], default: 0] -= 1
            counts[.failed, default: 0] += 1
            statuses[k] = .failed
            bytesOut -= written[k]
            written[k] = 0
            if outcomes.indices.contains(k) {
                outcomes[k].status = .failed
                outcomes[k].errors.append(error)
                outcomes[k].bytesOut = 0
            }
        }
    }

    private func writeReport(_ outcomes: [BatchOutcome], notStarted: [BatchItem], to path: String) throws {
        var entries: [PlistValue] = []
        for o in outcomes {
            var d = PlistDictionary([("path", .string(o.item.source)), ("status", .string(o.status.rawValue))])
            if let destination = o.destination { d["destination"] = .string(destination) }
            if !o.errors.isEmpty { d["errors"] = .array(o.errors.map { .string($0.hinted(path: o.item.source)) }) }
            entries.append(.dictionary(d))
        }
        for problem in unreadable {
            entries.append(.dictionary(PlistDictionary([("path", .string(problem.path)), ("status", .string("failed")),
                                                        ("errors", .array([.string(FolderOptions.line(for: problem))]))])))
        }
        for item in notStarted {
            entries.append(.dictionary(PlistDictionary([("path", .string(item.source)), ("status", .string("skipped")),
                                                        ("errors", .array([.string("not started: the run stopped early")]))])))
        }
        let notes = try failing(at: path) {
            try FileIO.writeAtomically(try PropertyList.write(.array(entries), as: .json, options: WriteOptions(keepKeyOrder: true, pretty: true)), to: path)
        }
        notes.forEach(Console.error)
    }

    static func size(_ bytes: Int) -> String {
        if bytes < 1024 { return "\(bytes) B" }
        if bytes < 1024 * 1024 { return decimal(Double(bytes) / 1024, 1) + " KB" }
        return decimal(Double(bytes) / 1_048_576, 1) + " MB"
    }

    static func decimal(_ value: Double, _ places: Int) -> String {
        var scale = 1.0
        for _ in 0..<places { scale *= 10 }
        let n = Int((value * scale).rounded())
        let whole = n / Int(scale), fraction = n % Int(scale)
        let text = String(fraction)
        return "\(whole)." + String(repeating: "0", count: max(0, places - text.count)) + text
    }
}

extension BatchSession {
    /// Runs one item's conversion (or migration) and turns what happened into
    /// an outcome, the same way for `convert` and `migrate`: warnings and
    /// errors as lines; a file found in a folder that is no property list
    /// (not of the family by name or first bytes, see `BatchPlan.readsInWalk`;
    /// read anyway unless `filtered`), or
    /// that holds no keyed archive where one is needed (`PlistError.Kind.noArchive`),
    /// skipped; a result a secure decoder would refuse, not written.
    static func outcome(_ item: BatchItem, filtered: Bool = true, _ convert: ((PlistDiagnostic) -> Void) throws -> BatchConverter.Written) -> BatchOutcome {
        var outcome = BatchOutcome(item: item, status: .failed)
        // Its name and first bytes tell whether a file found in a folder is of
        // the family; a name of the family needs no read of the first bytes.
        if filtered, item.isFound, !BatchPlan.hasPlistExtension(item.source),
           let head = FileIO.head(item, count: 1024), !BatchPlan.readsInWalk(item.source, head) {
            outcome.status = .skipped
            outcome.errors = [PlistError(.unsupported, "not a property list")]
            return outcome
        }
        do {
            let result = try convert { outcome.stderrLines.append($0.formatted(path: item.source, severity: "warning")) }
            outcome.status = result.status == .converted ? .converted : .unchanged
            outcome.stderrLines += result.notes
            outcome.destination = result.destination
            outcome.bytesIn = result.bytesIn
            outcome.bytesOut = result.status == .converted ? result.bytesOut : 0
        } catch {
            let errors = (error as? MigrationRefused)?.errors ?? [(error as? PlistError) ?? PlistError(.invalidValue, "\(error)")]
            if item.isFound {
                if let first = errors.first, first.kind == .noArchive {
                    outcome.status = .skipped
                    outcome.errors = [first]
                    return outcome
                }
            }
            outcome.errors = errors
            outcome.stderrLines += errors.map { $0.hinted(path: item.source) }
            if error is MigrationRefused {
                outcome.stderrLines.append("\(item.source): error: not written: a secure decoder would still refuse the result")
            }
        }
        return outcome
    }
}

/// Seconds on a monotonic clock.
enum Clock {
    static func now() -> Double {
        var ts = timespec()
        clock_gettime(CLOCK_MONOTONIC, &ts)
        return Double(ts.tv_sec) + Double(ts.tv_nsec) / 1e9
    }
}

/// A one-line progress bar on standard error: files done, rate, time left.
/// The runner reports items one at a time, but from whichever job finished
/// them, so what it remembers between draws is kept locked.
final class Progress: Sendable {
    let total: Int
    let enabled: Bool
    let started: Double
    private let drawing = Locked((lastDraw: 0.0, drawn: false))

    init(total: Int, enabled: Bool, started: Double) {
        self.total = total
        self.enabled = enabled
        self.started = started
    }

    func show(done: Int) {
        guard enabled else { return }
        drawing.withLock { drawing in
            let now = Clock.now()
            guard now - drawing.lastDraw > 0.1 || done == total else { return }
            drawing.lastDraw = now
            let elapsed = max(now - started, 0.001)
            let rate = Double(done) / elapsed
            let eta = rate > 0 ? Double(total - done) / rate : 0
            let width = 30
            let filled = total > 0 ? width * done / total : width
            let bar = String(repeating: "=", count: filled) + String(repeating: " ", count: width - filled)
            let line = "\r[\(bar)] \(done)/\(total) \(Int(rate)) files/s ETA \(Int(eta.rounded())) s "
            write(STDERR_FILENO, line, line.utf8.count)
            drawing.drawn = true
        }
    }

    func clear() {
        guard enabled else { return }
        drawing.withLock { drawing in
            guard drawing.drawn else { return }
            let blank = "\r" + String(repeating: " ", count: 72) + "\r"
            write(STDERR_FILENO, blank, blank.utf8.count)
            drawing.drawn = false
        }
    }
}
