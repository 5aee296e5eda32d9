/// What a writer could not keep of the values it wrote, counted as it
/// writes (no pass of its own). Only the XML writer loses anything a reader
/// would see: its dates are whole seconds (floored, as CoreFoundation
/// writes them), its reals are text read back as 64-bit reals (a binary
/// plist's 32-bit real keeps its value but not its width), and it writes
/// every zero as `0.0` (the sign of a negative zero is lost).
package struct WriteLosses: Sendable, Equatable {
    /// Dates with a fraction of a second.
    package var subSecondDates = 0
    /// 32-bit reals.
    package var narrowReals = 0
    /// Negative zeros.
    package var negativeZeros = 0

    /// Nothing lost.
    package init() {}

    /// True when nothing was lost.
    package var isEmpty: Bool { subSecondDates == 0 && narrowReals == 0 && negativeZeros == 0 }

    /// One sentence naming what was lost, for a warning.
    package var sentence: String {
        var parts: [String] = []
        func count(_ n: Int, _ one: String, _ many: String) -> String { n == 1 ? "1 \(one)" : "\(n) \(many)" }
        if subSecondDates > 0 {
            parts.append(count(subSecondDates, "date loses its", "dates lose their") + " fraction of a second (XML dates are whole seconds)")
        }
        if narrowReals > 0 {
            parts.append(count(narrowReals, "32-bit real is", "32-bit reals are") + " kept as 64-bit (the same value, not the same width)")
        }
        if negativeZeros > 0 { parts.append(count(negativeZeros, "negative zero becomes", "negative zeros become") + " 0.0") }
        return "XML keeps less than the original held: " + parts.joined(separator: "; ")
    }
}
