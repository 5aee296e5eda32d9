import ArchivistCore
import ArgumentParser

/// Long input lists (`archivist convert *.plist ...`, a pre-commit hook's
/// `archivist lint FILE...`) without ArgumentParser's quadratic cost: its
/// parsing time grows with the square of the number of positional values
/// (2,000 inputs cost over 0.3 s, more than linting them). For a command line
/// of `convert`, `lint` or `migrate` with many inputs, ArgumentParser parses it
/// with every word that could be an option or an option's value, and the first
/// input; the other inputs are then put back in their places and the command
/// validated again, so usage errors are the same. A word that neither starts
/// with `-` nor follows one is an input: every option of these commands takes
/// exactly one value, the next word (`testLongInputCommandsTakeOneValuePerOption`
/// holds them to it), so ArgumentParser itself decides every word that could
/// be a value, and no list of options is kept. Any other command line is
/// parsed as usual.
extension Archivist {
    static func main() {
        Console.start()
        // Names that are not UTF-8 keep their bytes (see CommandLineBytes).
        let arguments = CommandLineBytes.arguments
        if let (option, command) = PlutilHabits.suggestion(for: arguments) {
            Console.error("Error: Unknown option '\(option)' (archivist does not take plutil's options)")
            Console.error("did you mean: \(command)")
            exit(withError: ExitCode.validationFailure)
        }
        if let lines = UnknownSubcommand.message(for: arguments) {
            for line in lines { Console.error(line) }
            exit(withError: ExitCode.validationFailure)
        }
        if arguments.count <= LongInputLists.threshold + 1, var parsed = ChosenSubcommand.parse(arguments) {
            do {
                try parsed.run()
            } catch {
                end(error)
            }
            end(nil)
        }
        guard LongInputLists.commands.contains(where: { $0 == arguments.first }),
              let split = LongInputLists.split(arguments),
              var parsed = (try? parseAsRoot(split.kept)) as? any LongInputListCommand,
              let inputs = split.inputs(parsed: parsed.inputs) else {
            runAndEnd(arguments)  // the usual path parses the whole line and reports any error
        }
        parsed.inputs = inputs
        guard (try? parsed.validate()) != nil else {
            runAndEnd(arguments)
        }
        do {
            try parsed.run()
        } catch {
            end(error)
        }
        end(nil)
    }
}

/// A command whose inputs are its one repeating positional argument.
protocol LongInputListCommand: ParsableCommand {
    var inputs: [String] { get set }
}

extension Convert: LongInputListCommand {}
extension Migrate: LongInputListCommand {}
extension Lint: LongInputListCommand {
    var inputs: [String] {
        get { paths }
        set { paths = newValue }
    }
}

enum LongInputLists {
    /// The commands that take long input lists, by name.
    static let commands = ["convert", "lint", "migrate"]
    /// Below this many inputs ArgumentParser's own parsing is cheap enough.
    static let threshold = 16

    /// A long line cut for ArgumentParser: the words it is to parse, and the
    /// inputs left out, each with its place in the line.
    struct Split {
        /// The command's name, every word starting with `-` (but `-` itself),
        /// every word right after one, and the first other word.
        var kept: [String]
        /// The words of `kept` that may be inputs (all but the options), with their places.
        var candidates: [(at: Int, word: String)]
        /// The words that can only be inputs, with their places.
        var extra: [(at: Int, word: String)]

        /// Every input of the line in its order: those ArgumentParser found
        /// among `kept` (`parsed`, a subsequence of `candidates`) and `extra`;
        /// nil when a candidate's text occurs twice, so that which of them
        /// was a value is not known from the text.
        func inputs(parsed: [String]) -> [String]? {
            var seen = Set<String>()
            for candidate in candidates where !seen.insert(candidate.word).inserted { return nil }
            var found: [(at: Int, word: String)] = []
            var j = 0
            for input in parsed {
                while j < candidates.count, candidates[j].word != input { j += 1 }
                guard j < candidates.count else { return nil }
                found.append(candidates[j])
                j += 1
            }
            var inputs: [String] = []
            inputs.reserveCapacity(found.count + extra.count)
            var a = 0, b = 0
            while a < found.count || b < extra.count {
                if b == extra.count || (a < found.count && found[a].at < extra[b].at) {
                    inputs.append(found[a].word)
                    a += 1
                } else {
                    inputs.append(extra[b].word)
                    b += 1
                }
            }
            return inputs
        }
    }

    /// The line cut for ArgumentParser; nil when it is short, holds `--`
    /// (after which every word is an input), or leaves fewer than
    /// `threshold` inputs out. Every option of these commands takes one
    /// value, the word after it, so a word that neither starts with `-` nor
    /// follows such a word is an input, whatever the options are.
    static func split(_ arguments: [String]) -> Split? {
        guard arguments.count > threshold, let name = arguments.first else { return nil }
        var split = Split(kept: [name], candidates: [], extra: [])
        var sawInput = false
        var afterOption = false
        for k in 1..<arguments.count {
            let a = arguments[k]
            if a == "--" { return nil }
            if a.hasPrefix("-"), a != "-" {
                split.kept.append(a)
                afterOption = true
            } else if afterOption || !sawInput {
                // A value or an input: ArgumentParser decides.
                split.kept.append(a)
                split.candidates.append((k, a))
                if !afterOption { sawInput = true }
                afterOption = false
            } else {
                split.extra.append((k, a))
            }
        }
        return split.extra.count >= threshold ? split : nil
    }
}
