/// The name of an Xcode project, which the file itself does not store:
/// Xcode takes it from the `.xcodeproj` folder and writes it only in a
/// comment (`Build configuration list for PBXProject "Name"`). A project
/// read keeps the name its comment gives; one without (converted from XML,
/// JSON or binary) takes its folder's.
package enum XcodeProjectName {
    private static let header: [UInt8] = Array("// !$*UTF8*$!".utf8)
    private static let marker: [UInt8] = Array("/* Build configuration list for PBXProject \"".utf8)

    /// The name in the comment of a project's text, when it is an Xcode
    /// project file that holds one.
    package static func inComments(_ text: UnsafeBufferPointer<UInt8>) -> String? {
        guard text.starts(with: header), let first = marker.first, text.count >= marker.count else { return nil }
        var i = 0
        let last = text.count - marker.count
        while i <= last {
            if text[i] == first, text[i..<(i + marker.count)].elementsEqual(marker) {
                let start = i + marker.count
                var end = start
                while end < text.count, text[end] != UInt8(ascii: "\""), text[end] != 0x0A { end += 1 }
                guard end < text.count, text[end] == UInt8(ascii: "\"") else { return nil }
                return String(decoding: UnsafeBufferPointer(rebasing: text[start..<end]), as: UTF8.self)
            }
            i += 1
        }
        return nil
    }

    /// `App` for `.../App.xcodeproj/project.pbxproj`.
    package static func fromPath(_ path: String) -> String? {
        let parts = path.split(separator: "/")
        guard parts.count >= 2, parts[parts.count - 1] == "project.pbxproj" else { return nil }
        let folder = parts[parts.count - 2]
        guard folder.hasSuffix(".xcodeproj"), folder.count > 10 else { return nil }
        return String(folder.dropLast(10))
    }
}

extension PlistDocument {
    /// `options` for writing this document back: an Xcode project keeps the
    /// name its comments gave it (or that of its folder, `path`), a strings
    /// file its comments and encoding.
    package func writeOptions(_ options: WriteOptions, path: String? = nil) -> WriteOptions {
        var options = options
        if options.xcodeProjectName == nil {
            options.xcodeProjectName = xcodeProjectName ?? path.flatMap(XcodeProjectName.fromPath)
        }
        if options.stringsTemplate == nil { options.stringsTemplate = stringsTemplate }
        return options
    }
}
