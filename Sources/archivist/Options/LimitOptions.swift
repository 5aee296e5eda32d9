import ArchivistCore
import ArgumentParser

/// The readers' limits, for inputs that need more (or, in a hook, less).
struct LimitOptions: ParsableArguments {
    @Option(name: .customLong("max-depth"), parsing: .unconditional, help: ArgumentHelp("Deepest nesting of containers read (default 512).", valueName: "N"))
    var maxDepth: Int?

    @Option(name: .customLong("max-objects"), parsing: .unconditional, help: ArgumentHelp("Most values one input may expand to, shared ones counted each time (default 10000000).", valueName: "N"))
    var maxObjects: Int?

    @Option(name: .customLong("max-shared-expansion"), parsing: .unconditional, help: ArgumentHelp("Most bytes of strings and data that a binary plist's shared values may add where they are used again (default 1073741824).", valueName: "BYTES"))
    var maxSharedExpansion: Int?

    @Option(name: .customLong("max-input-size"), parsing: .unconditional, help: ArgumentHelp("Largest input in bytes (default 4294967296).", valueName: "BYTES"))
    var maxInputSize: Int?

    @Option(name: .customLong("max-value-length"), parsing: .unconditional, help: ArgumentHelp("Longest string or data value in bytes (default 2147483648).", valueName: "BYTES"))
    var maxValueLength: Int?

    func validate() throws {
        for (name, value) in [("--max-depth", maxDepth), ("--max-objects", maxObjects), ("--max-shared-expansion", maxSharedExpansion), ("--max-input-size", maxInputSize), ("--max-value-length", maxValueLength)] {
            if let value, value < 1 { throw ValidationError("\(name) takes a number of at least 1.") }
        }
    }

    /// The read options these limits give.
    var readOptions: ReadOptions {
        var limits = Limits()
        if let maxDepth { limits.maxDepth = maxDepth }
        if let maxObjects { limits.maxObjects = maxObjects }
        if let maxSharedExpansion { limits.maxSharedExpansion = maxSharedExpansion }
        if let maxInputSize { limits.maxInputSize = maxInputSize }
        if let maxValueLength { limits.maxValueLength = maxValueLength }
        return ReadOptions(limits: limits)
    }
}
