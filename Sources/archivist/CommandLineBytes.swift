import ArchivistBatch
import ArchivistCore

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The command line as the system passed it: bytes, not always UTF-8.
///
/// `CommandLine.arguments` decodes each argument as UTF-8 and replaces what
/// is not (`caf\xE9.plist`, a Latin-1 name typed in a shell) with U+FFFD, so
/// the file it names cannot be opened. Each argument is read from the raw
/// `argv` instead, as names found in folders are: a byte that is not part of
/// valid UTF-8 stands as the code point `SystemPath` keeps it in, and `Sys`
/// hands the bytes back to the system when the file is opened or written;
/// messages show it as `\xHH`.
enum CommandLineBytes {
    /// The arguments after the command's name.
    static var arguments: [String] {
        let count = Int(CommandLine.argc)
        guard count > 1 else { return [] }
        var out: [String] = []
        out.reserveCapacity(count - 1)
        for k in 1..<count {
            guard let argument = CommandLine.unsafeArgv[k] else { continue }
            out.append(SystemPath.string(fromBytes: UnsafeRawBufferPointer(start: argument, count: strlen(argument))))
        }
        return out
    }
}
