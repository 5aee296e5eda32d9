import ArgumentParser

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// `--color auto|always|never`: whether results on standard output are
/// coloured (`dump`, `lint`, `diff`).
enum ColorChoice: String, CaseIterable, ExpressibleByArgument {
    case auto, always, never

    /// The option's help, the same on every command.
    static let help = ArgumentHelp("Colour results.", valueName: "WHEN")

    static var allValueDescriptions: [String: String] {
        ["auto": "on a terminal, unless NO_COLOR is set or TERM is dumb", "always": "always", "never": "never"]
    }

    /// True when colour is used: always, never, or (auto) when standard
    /// output is a terminal, `NO_COLOR` is unset or empty (no-color.org) and
    /// `TERM` is not `dumb`.
    var enabled: Bool {
        switch self {
        case .always: return true
        case .never: return false
        case .auto:
            func environment(_ name: String) -> String? { getenv(name).map { String(cString: $0) } }
            return isatty(STDOUT_FILENO) == 1 && (environment("NO_COLOR") ?? "").isEmpty && environment("TERM") != "dumb"
        }
    }
}

/// The colour of a whole result line (an SGR code): `lint`'s OK, error and
/// warning lines, `diff`'s added, removed and changed ones.
enum LineColor: String {
    case green = "32", red = "31", yellow = "33"
}
