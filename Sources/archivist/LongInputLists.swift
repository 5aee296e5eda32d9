import ArchivistCore
import ArgumentParser

/// Long input lists (`archivist convert *.plist ...`, a pre-commit hook's
/// `archivist lint FILE...`) without ArgumentParser's quadratic cost: its
/// parsing time grows with the square of the number of positional values
/// (2,000 inputs cost over 0.3 s, more than linting them). For a command line
/// of `convert`, `lint` or `migrate` with many inputs, ArgumentParser parses it
/// with the first input only; the other inputs are then appended in their order
/// and the command validated again, so usage errors are the same. Which words
/// are options, and which of them take a value, comes from the command's own
/// definition (its `--experimental-dump-help` description), so no list is kept
/// by hand. Any other command line is parsed as usual.
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
        guard let command = LongInputLists.commands.first(where: { $0.name == arguments.first }),
              let (reduced, extra) = LongInputLists.split(arguments, options: command.type.optionTable()),
              var parsed = (try? parseAsRoot(reduced)) as? any LongInputListCommand else {
            runAndEnd(arguments)  // the usual path parses the whole line and reports any error
        }
        parsed.inputs += extra
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

extension LongInputListCommand {
    /// The command's option names as typed (`--to`, `-o`), from its definition.
    static func optionTable() -> LongInputLists.OptionTable? {
        LongInputLists.OptionTable(dumpedHelp: Array(_dumpHelp().utf8))
    }
}

enum LongInputLists {
    /// The commands that take long input lists, by name.
    static let commands: [(name: String, type: any LongInputListCommand.Type)] = [
        ("convert", Convert.self), ("lint", Lint.self), ("migrate", Migrate.self),
    ]
    /// Below this many inputs ArgumentParser's own parsing is cheap enough.
    static let threshold = 16

    /// A command's named arguments: flags, and options that take one value.
    struct OptionTable: Equatable {
        var flags: Set<String> = []
        var valueOptions: Set<String> = []

        /// Reads ArgumentParser's JSON description of a command (`_dumpHelp()`);
        /// nil when it cannot be read or has an argument this fast path does not
        /// handle (an option taking several values, or the rest of the line).
        init?(dumpedHelp: [UInt8]) {
            guard case .dictionary(let root)? = try? PropertyList.read(dumpedHelp, options: ReadOptions()).tree.value,
                  case .dictionary(let command)? = root["command"],
                  case .array(let arguments)? = command["arguments"] else { return nil }
            for case .dictionary(let argument) in arguments {
                guard case .string(let kind)? = argument["kind"] else { return nil }
                let strategy = argument["parsingStrategy"]?.stringValue ?? "default"
                var names: [String] = []
                if case .array(let list)? = argument["names"] {
                    for case .dictionary(let name) in list {
                        guard let text = name["name"]?.stringValue, let style = name["kind"]?.stringValue else { return nil }
                        switch style {
                        case "long": names.append("--" + text)
                        case "short", "longWithSingleDash": names.append("-" + text)
                        default: return nil
                        }
                    }
                }
                switch kind {
                case "flag": flags.formUnion(names)
                case "option":
                    guard strategy == "default" || strategy == "scanningForValue" || strategy == "unconditional" else { return nil }
                    valueOptions.formUnion(names)
                case "positional":
                    guard strategy == "default" else { return nil }
                default: return nil
                }
            }
        }

        init(flags: Set<String>, valueOptions: Set<String>) {
            self.flags = flags
            self.valueOptions = valueOptions
        }
    }

    /// The arguments with every input but the first removed, and the removed
    /// inputs in order; nil when the line is short or has anything but the
    /// command's own flags and options (help, `--`, unknown options).
    /// `options` is only worked out for a long line: describing the command
    /// costs more than linting a few files.
    static func split(_ arguments: [String], options table: @autoclosure () -> OptionTable?) -> ([String], [String])? {
        guard arguments.count > threshold, let options = table(), let name = arguments.first else { return nil }
        var kept = [name]
        var extra: [String] = []
        var sawInput = false
        var k = 1
        while k < arguments.count {
            let a = arguments[k]
            if a.hasPrefix("-"), a != "-" {
                if options.flags.contains(a) {
                    kept.append(a)
                } else if options.valueOptions.contains(a) {
                    guard k + 1 < arguments.count else { return nil }
                    kept.append(a)
                    kept.append(arguments[k + 1])
                    k += 1
                } else if let eq = a.firstIndex(of: "="), options.valueOptions.contains(String(a[..<eq])) {
                    kept.append(a)
                } else {
                    return nil
                }
            } else if sawInput {
                extra.append(a)
            } else {
                kept.append(a)
                sawInput = true
            }
            k += 1
        }
        return extra.count >= threshold ? (kept, extra) : nil
    }
}
