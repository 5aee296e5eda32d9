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

    /// `App` for `.../App.xcodeproj/project.pbxproj`. Asked of every file a
    /// batch writes, so it looks at the path's last bytes first and splits
    /// nothing.
    package static func fromPath(_ path: String) -> String? {
        var path = path
        return path.withUTF8 { bytes -> String? in
            let slash = UInt8(ascii: "/")
            var end = bytes.count
            while end > 0, bytes[end - 1] == slash { end -= 1 }  // `a/project.pbxproj/` names the same file
            let file = fileName.count, folderSuffix = xcodeprojSuffix.count
            // At least "X.xcodeproj/project.pbxproj".
            guard end >= file + 1 + folderSuffix + 1 else { return nil }
            let fileStart = end - file
            guard bytes[fileStart - 1] == slash,
                  UnsafeBufferPointer(rebasing: bytes[fileStart..<end]).elementsEqual(fileName) else { return nil }
            var folderEnd = fileStart - 1
            while folderEnd > 0, bytes[folderEnd - 1] == slash { folderEnd -= 1 }
            guard folderEnd >= folderSuffix + 1 else { return nil }
            let nameEnd = folderEnd - folderSuffix
            guard UnsafeBufferPointer(rebasing: bytes[nameEnd..<folderEnd]).elementsEqual(xcodeprojSuffix) else { return nil }
            var nameStart = nameEnd
            while nameStart > 0, bytes[nameStart - 1] != slash { nameStart -= 1 }
            guard nameStart < nameEnd else { return nil }
            return String(decoding: UnsafeBufferPointer(rebasing: bytes[nameStart..<nameEnd]), as: UTF8.self)
        }
    }

    private static let fileName: [UInt8] = Array("project.pbxproj".utf8)
    private static let xcodeprojSuffix: [UInt8] = Array(".xcodeproj".utf8)
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
