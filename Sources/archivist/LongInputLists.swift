import ArchivistCore
import ArgumentParser

/// Long input lists (`archivist convert *.plist ...`) without ArgumentParser's
/// quadratic cost: its parsing time grows with the square of the number of
/// positional values (2,000 inputs cost more than a second, far more than
/// converting them). For a `convert` command line made only of inputs and the
/// options below, ArgumentParser parses it with the first input only; the other
/// inputs are then appended in their order and the command validated again, so
/// usage errors are the same. Any other command line is parsed as usual.
extension Archivist {
    static func main() {
        // A one-shot command: the OS frees the largest tree at exit, faster than
        // freeing it node by node (see ProcessLifetime).
        ProcessLifetime.keepLargestTreeUntilExit()
        let arguments = Array(CommandLine.arguments.dropFirst())
        guard let (reduced, extra) = LongInputLists.split(arguments), !extra.isEmpty else {
            main(nil)
            return
        }
        guard var convert = (try? parseAsRoot(reduced)) as? Convert else {
            main(nil)  // the usual path parses the whole line and reports any error
            return
        }
        convert.inputs += extra
        guard (try? convert.validate()) != nil else {
            main(nil)
            return
        }
        do {
            try convert.run()
        } catch {
            exit(withError: error)
        }
    }
}

enum LongInputLists {
    /// Options of `convert` that take a value, and its flags.
    static let valueOptions: Set<String> = ["--to", "-o", "--output", "--output-dir"]
    static let flags: Set<String> = ["--in-place", "--keep-key-order", "--pretty"]
    /// Below this many inputs ArgumentParser's own parsing is cheap enough.
    static let threshold = 16

    /// The arguments with every input but the first removed, and the removed
    /// inputs in order; nil when the command line is not a plain `convert`.
    static func split(_ arguments: [String]) -> ([String], [String])? {
        guard arguments.first == "convert" else { return nil }
        var kept = ["convert"]
        var extra: [String] = []
        var sawInput = false
        var k = 1
        while k < arguments.count {
            let a = arguments[k]
            if a.hasPrefix("-"), a != "-" {
                if flags.contains(a) {
                    kept.append(a)
                } else if valueOptions.contains(a) {
                    guard k + 1 < arguments.count else { return nil }
                    kept.append(a)
                    kept.append(arguments[k + 1])
                    k += 1
                } else if let eq = a.firstIndex(of: "="), valueOptions.contains(String(a[..<eq])) {
                    kept.append(a)
                } else {
                    return nil  // anything else (help, --, unknown options): parse as usual
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
