// The benchmark suite's Swift side (run by tools/bench/run):
//
//   bench-foundation gen DIR [--small]       write the workload inputs into DIR (W3 and W4
//                                             in two shapes each: w3.archive and w3b.archive,
//                                             w4/ and w4b/)
//   bench-foundation parse FILE...            Foundation: PropertyListSerialization read
//   bench-foundation convert FMT OUT FILE...  Foundation: read, write FMT (xml|binary) to OUT
//                                             (`-` is standard output, else a folder)
//   bench-foundation unarchive FILE           Foundation: NSKeyedUnarchiver decodes W3 (either shape)
//   bench-foundation rearchive FILE OUT       Foundation: decodes W3 (either shape) and archives it again into OUT
//   bench-foundation copy FILE...             floor: read each file once and copy it in memory;
//                                             prints `inprocess SECONDS`
//   bench-foundation beside KIND ROUNDS FILE...  Archivist: read the files (dsstore: DSStoreReader;
//                                             signed: SignedPlist, envelope and property list;
//                                             cookies: BinaryCookiesReader; bookmark: BookmarkFileReader and
//                                             Bookmark.decode)
//                                             ROUNDS times in memory; prints `inprocess SECONDS`
//
// Inputs are deterministic (a fixed-seed generator), so two runs measure the same bytes.
import ArchivistArchive
import ArchivistBatch
import ArchivistCore
import ArchivistSigned
import Foundation

struct BenchError: Error, CustomStringConvertible {
    var description: String
}

func fail(_ message: String) -> Never {
    FileHandle.standardError.write(Data("bench-foundation: \(message)\n".utf8))
    exit(2)
}

/// A fixed-seed generator (SplitMix64), so inputs are identical on every run.
struct Seeded {
    var state: UInt64
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
    mutating func below(_ n: Int) -> Int { Int(next() % UInt64(n)) }
    mutating func unit() -> Double { Double(next() >> 11) / Double(1 << 53) }
}

let words = ["alpha", "bravo", "charlie", "delta", "echo", "foxtrot", "golf", "hotel", "india", "juliett",
             "kilo", "lima", "mike", "november", "oscar", "papa", "quebec", "romeo", "sierra", "tango"]
let accented = ["Zürich", "Łódź", "Ålesund", "São Paulo", "Kraków", "Malmö", "Tōkyō", "Αθήνα", "Київ", "東京", "서울", "😀 smile"]

// MARK: - W1/W2: an array of dictionaries

func record(_ i: Int, _ rng: inout Seeded) -> PlistValue {
    var d = PlistDictionary(minimumCapacity: 10)
    d.appendUnchecked(key: "id", value: .int(Int64(i)))
    d.appendUnchecked(key: "name", value: .string("item-\(i) \(words[rng.below(words.count)]) \(words[rng.below(words.count)])"))
    d.appendUnchecked(key: "city", value: .string("\(accented[rng.below(accented.count)]) \(i)"))
    d.appendUnchecked(key: "score", value: .double((rng.unit() * 1_000_000).rounded() / 1000))
    d.appendUnchecked(key: "created", value: .date(PlistDate(secondsSinceReferenceDate: Double(600_000_000 + rng.below(100_000_000)))))
    var blob = [UInt8](repeating: 0, count: 8 + rng.below(40))
    for k in blob.indices { blob[k] = UInt8(truncatingIfNeeded: rng.next()) }
    d.appendUnchecked(key: "blob", value: .data(blob))
    d.appendUnchecked(key: "active", value: .bool(rng.below(2) == 0))
    d.appendUnchecked(key: "count", value: .int(Int64(rng.below(1000))))
    d.appendUnchecked(key: "tags", value: .array((0..<(1 + rng.below(3))).map { _ in .string(words[rng.below(words.count)]) }))
    d.appendUnchecked(key: "point", value: .array([.double(Double(rng.below(10000)) / 8), .double(Double(rng.below(10000)) / 8)]))
    return .dictionary(d)
}

func bigTree(records: Int) -> PlistValue {
    var rng = Seeded(state: 1)
    return .array((0..<records).map { record($0, &rng) })
}

/// A small plist for W4: a dictionary of 5 to 40 mixed entries.
func smallTree(_ n: Int, _ rng: inout Seeded) -> PlistValue {
    var d = PlistDictionary()
    d.appendUnchecked(key: "CFBundleIdentifier", value: .string("org.example.bench.\(n)"))
    for k in 0..<(5 + rng.below(36)) {
        let key = "\(words[rng.below(words.count)])-\(k)"
        switch rng.below(6) {
        case 0: d.appendUnchecked(key: key, value: .string("\(accented[rng.below(accented.count)]) \(n)-\(k)"))
        case 1: d.appendUnchecked(key: key, value: .int(Int64(rng.below(1 << 20)) - 1000))
        case 2: d.appendUnchecked(key: key, value: .double(rng.unit() * 100))
        case 3: d.appendUnchecked(key: key, value: .bool(rng.below(2) == 0))
        case 4: d.appendUnchecked(key: key, value: .date(PlistDate(secondsSinceReferenceDate: Double(rng.below(700_000_000)))))
        default: d.appendUnchecked(key: key, value: .array([.string(words[rng.below(words.count)]), .int(Int64(k)), .data([UInt8(n & 0xFF), 1, 2, 3])]))
        }
    }
    return .dictionary(d)
}

/// A plist for W4b: a dictionary of `entries` mixed entries (0.8-22 KB a file).
func mediumTree(_ n: Int, entries: Int, _ rng: inout Seeded) -> PlistValue {
    var d = PlistDictionary(minimumCapacity: entries + 1)
    d.appendUnchecked(key: "CFBundleIdentifier", value: .string("org.example.bench.b\(n)"))
    for k in 0..<entries {
        let key = "\(words[rng.below(words.count)])-\(k)"
        switch rng.below(7) {
        case 0: d.appendUnchecked(key: key, value: .string("\(accented[rng.below(accented.count)]) \(words[rng.below(words.count)]) \(n)-\(k)"))
        case 1: d.appendUnchecked(key: key, value: .int(Int64(rng.below(1 << 30)) - 1000))
        case 2: d.appendUnchecked(key: key, value: .double(rng.unit() * 1000))
        case 3: d.appendUnchecked(key: key, value: .bool(rng.below(2) == 0))
        case 4: d.appendUnchecked(key: key, value: .date(PlistDate(secondsSinceReferenceDate: Double(rng.below(700_000_000)))))
        case 5:
            var inner = PlistDictionary(minimumCapacity: 3)
            inner.appendUnchecked(key: "name", value: .string(words[rng.below(words.count)]))
            inner.appendUnchecked(key: "x", value: .double(Double(rng.below(10000)) / 8))
            inner.appendUnchecked(key: "y", value: .double(Double(rng.below(10000)) / 8))
            d.appendUnchecked(key: key, value: .dictionary(inner))
        default: d.appendUnchecked(key: key, value: .array([.string(words[rng.below(words.count)]), .int(Int64(k)), .data([UInt8(n & 0xFF), 1, 2, 3])]))
        }
    }
    return .dictionary(d)
}

// MARK: - W3: a keyed archive written by NSKeyedArchiver

final class BenchOwner: NSObject, NSCoding {
    let name: String, id: Int
    init(name: String, id: Int) { self.name = name; self.id = id }
    func encode(with coder: NSCoder) {
        coder.encode(name as NSString, forKey: "name")
        coder.encode(id, forKey: "id")
    }
    init?(coder: NSCoder) {
        guard let name = coder.decodeObject(forKey: "name") as? String else { return nil }
        self.name = name
        id = coder.decodeInteger(forKey: "id")
    }
}

final class BenchItem: NSObject, NSCoding {
    let name: String, note: String, index: Int, score: Double, flag: Bool, owner: BenchOwner
    init(name: String, note: String, index: Int, score: Double, flag: Bool, owner: BenchOwner) {
        self.name = name; self.note = note; self.index = index; self.score = score; self.flag = flag; self.owner = owner
    }
    func encode(with coder: NSCoder) {
        coder.encode(name as NSString, forKey: "name")
        coder.encode(note as NSString, forKey: "note")
        coder.encode(index, forKey: "index")
        coder.encode(score, forKey: "score")
        coder.encode(flag, forKey: "flag")
        coder.encode(owner, forKey: "owner")
    }
    init?(coder: NSCoder) {
        guard let name = coder.decodeObject(forKey: "name") as? String,
              let note = coder.decodeObject(forKey: "note") as? String,
              let owner = coder.decodeObject(forKey: "owner") as? BenchOwner else { return nil }
        self.name = name; self.note = note; self.owner = owner
        index = coder.decodeInteger(forKey: "index")
        score = coder.decodeDouble(forKey: "score")
        flag = coder.decodeBool(forKey: "flag")
    }
}

final class BenchGroup: NSObject, NSCoding {
    let title: String, items: [BenchItem]
    init(title: String, items: [BenchItem]) { self.title = title; self.items = items }
    func encode(with coder: NSCoder) {
        coder.encode(title as NSString, forKey: "title")
        coder.encode(items as NSArray, forKey: "items")
    }
    init?(coder: NSCoder) {
        guard let title = coder.decodeObject(forKey: "title") as? String,
              let items = coder.decodeObject(forKey: "items") as? [BenchItem] else { return nil }
        self.title = title; self.items = items
    }
}

final class BenchLibrary: NSObject, NSCoding {
    let groups: [BenchGroup], owners: [BenchOwner]
    init(groups: [BenchGroup], owners: [BenchOwner]) { self.groups = groups; self.owners = owners }
    func encode(with coder: NSCoder) {
        coder.encode(groups as NSArray, forKey: "groups")
        coder.encode(owners as NSArray, forKey: "owners")
    }
    init?(coder: NSCoder) {
        guard let groups = coder.decodeObject(forKey: "groups") as? [BenchGroup],
              let owners = coder.decodeObject(forKey: "owners") as? [BenchOwner] else { return nil }
        self.groups = groups; self.owners = owners
    }
    var itemCount: Int { groups.reduce(0) { $0 + $1.items.count } }
}

/// What the decoded root of either W3 shape holds, for checking a decode.
protocol BenchRoot: NSObject {
    var itemCount: Int { get }
}

extension BenchLibrary: BenchRoot {}

// MARK: - W3b: more objects per byte (dates, points, owners, tags)

/// An item of W3b: a name, a note, an index, a flag, a date (an NSDate object),
/// a point (two inline reals), an owner and tags shared with other entries.
final class BenchEntry: NSObject, NSCoding {
    let name: String, note: String, index: Int, flag: Bool, date: Date
    let x: Double, y: Double, owner: BenchOwner, tags: NSArray
    init(name: String, note: String, index: Int, flag: Bool, date: Date, x: Double, y: Double, owner: BenchOwner, tags: NSArray) {
        self.name = name; self.note = note; self.index = index; self.flag = flag; self.date = date
        self.x = x; self.y = y; self.owner = owner; self.tags = tags
    }
    func encode(with coder: NSCoder) {
        coder.encode(name as NSString, forKey: "name")
        coder.encode(note as NSString, forKey: "note")
        coder.encode(index, forKey: "index")
        coder.encode(flag, forKey: "flag")
        coder.encode(date as NSDate, forKey: "date")
        coder.encode(x, forKey: "point.x")
        coder.encode(y, forKey: "point.y")
        coder.encode(owner, forKey: "owner")
        coder.encode(tags, forKey: "tags")
    }
    init?(coder: NSCoder) {
        guard let name = coder.decodeObject(forKey: "name") as? String,
              let note = coder.decodeObject(forKey: "note") as? String,
              let date = coder.decodeObject(forKey: "date") as? Date,
              let owner = coder.decodeObject(forKey: "owner") as? BenchOwner,
              let tags = coder.decodeObject(forKey: "tags") as? NSArray else { return nil }
        self.name = name; self.note = note; self.date = date; self.owner = owner; self.tags = tags
        index = coder.decodeInteger(forKey: "index")
        flag = coder.decodeBool(forKey: "flag")
        x = coder.decodeDouble(forKey: "point.x")
        y = coder.decodeDouble(forKey: "point.y")
    }
}

final class BenchSection: NSObject, NSCoding {
    let title: String, entries: [BenchEntry]
    init(title: String, entries: [BenchEntry]) { self.title = title; self.entries = entries }
    func encode(with coder: NSCoder) {
        coder.encode(title as NSString, forKey: "title")
        coder.encode(entries as NSArray, forKey: "entries")
    }
    init?(coder: NSCoder) {
        guard let title = coder.decodeObject(forKey: "title") as? String,
              let entries = coder.decodeObject(forKey: "entries") as? [BenchEntry] else { return nil }
        self.title = title; self.entries = entries
    }
}

final class BenchCatalog: NSObject, NSCoding, BenchRoot {
    let sections: [BenchSection], owners: [BenchOwner]
    init(sections: [BenchSection], owners: [BenchOwner]) { self.sections = sections; self.owners = owners }
    func encode(with coder: NSCoder) {
        coder.encode(sections as NSArray, forKey: "sections")
        coder.encode(owners as NSArray, forKey: "owners")
    }
    init?(coder: NSCoder) {
        guard let sections = coder.decodeObject(forKey: "sections") as? [BenchSection],
              let owners = coder.decodeObject(forKey: "owners") as? [BenchOwner] else { return nil }
        self.sections = sections; self.owners = owners
    }
    var itemCount: Int { sections.reduce(0) { $0 + $1.entries.count } }
}

/// W3b: `sections` sections (1,000: ~22 MB, ~210,000 objects) of 2 to 102
/// entries. Lengths repeat every 101 sections, and the entries share 24 tag
/// arrays: Linux's NSKeyedArchiver compares arrays of one length with each
/// other (see `library(groups:)`), which stays cheap with ~10 arrays a length.
func catalog(sections: Int) -> BenchCatalog {
    var rng = Seeded(state: 5)
    let owners = (0..<200).map { BenchOwner(name: "owner \($0) \(accented[$0 % accented.count])", id: $0) }
    let tagPool: [NSArray] = (0..<24).map { k in (0...(k % 4)).map { words[(k * 7 + $0 * 3) % words.count] as NSString } as NSArray }
    var index = 0
    var list: [BenchSection] = []
    for s in 0..<sections {
        var entries: [BenchEntry] = []
        for _ in 0..<(2 + s % 101) {
            let note = "note \(index) \(words[rng.below(words.count)]) \(accented[rng.below(accented.count)])"
            entries.append(BenchEntry(name: "entry-\(index)", note: note, index: index, flag: rng.below(2) == 0,
                                      date: Date(timeIntervalSinceReferenceDate: Double(600_000_000 + rng.below(100_000_000)) + rng.unit()),
                                      x: Double(rng.below(100_000)) / 8, y: Double(rng.below(100_000)) / 8,
                                      owner: owners[rng.below(owners.count)], tags: tagPool[rng.below(tagPool.count)]))
            index += 1
        }
        list.append(BenchSection(title: "section \(s)", entries: entries))
    }
    return BenchCatalog(sections: list, owners: owners)
}

let benchClasses: [(AnyClass, String)] = [
    (BenchOwner.self, "BenchOwner"), (BenchItem.self, "BenchItem"),
    (BenchGroup.self, "BenchGroup"), (BenchLibrary.self, "BenchLibrary"),
    (BenchEntry.self, "BenchEntry"), (BenchSection.self, "BenchSection"), (BenchCatalog.self, "BenchCatalog"),
]

/// `groups` groups holding 1, 2, ... `groups` items: every items array has its own
/// length, because Linux's NSKeyedArchiver uniques objects by hash and an NSArray's
/// hash is its count (equal-length arrays would make archiving quadratic).
func library(groups: Int) -> BenchLibrary {
    var rng = Seeded(state: 3)
    let owners = (0..<100).map { BenchOwner(name: "owner \($0) \(accented[$0 % accented.count])", id: $0) }
    var index = 0
    var list: [BenchGroup] = []
    for g in 0..<groups {
        var items: [BenchItem] = []
        for _ in 0...g {
            let note = rng.below(4) == 0 ? "note \(index) \(accented[rng.below(accented.count)])" : "note \(index) \(words[rng.below(words.count)])"
            items.append(BenchItem(name: "item-\(index)", note: note, index: index, score: rng.unit() * 100,
                                   flag: rng.below(2) == 0, owner: owners[rng.below(owners.count)]))
            index += 1
        }
        list.append(BenchGroup(title: "group \(g)", items: items))
    }
    return BenchLibrary(groups: list, owners: owners)
}

func archive(_ root: NSObject) -> Data {
    let archiver = NSKeyedArchiver(requiringSecureCoding: false)
    for pair in benchClasses { archiver.setClassName(pair.1, for: pair.0) }
    archiver.encode(root, forKey: NSKeyedArchiveRootObjectKey)
    archiver.finishEncoding()
    return archiver.encodedData
}

func unarchive(_ data: Data) throws -> any BenchRoot {
    let unarchiver = try NSKeyedUnarchiver(forReadingFrom: data)
    unarchiver.requiresSecureCoding = false
    for pair in benchClasses { unarchiver.setClass(pair.0, forClassName: pair.1) }
    guard let root = unarchiver.decodeObject(forKey: NSKeyedArchiveRootObjectKey) as? any BenchRoot else {
        throw BenchError(description: "the archive does not decode to a BenchLibrary or a BenchCatalog")
    }
    return root
}

// MARK: - Commands

func write(_ bytes: [UInt8], _ path: String) throws {
    try Data(bytes).write(to: URL(fileURLWithPath: path))
}

func generate(_ dir: String, small: Bool) throws {
    let fm = FileManager.default
    try fm.createDirectory(atPath: dir, withIntermediateDirectories: true)
    let tree = bigTree(records: small ? 2_000 : 100_000)
    try write(try PropertyList.write(tree, as: .binary), "\(dir)/w1.bplist")
    try write(try PropertyList.write(tree, as: .xml), "\(dir)/w2.plist")

    let root = library(groups: small ? 40 : 365)
    let data = archive(root)
    let back = try unarchive(data)
    guard back.itemCount == root.itemCount else {
        throw BenchError(description: "W3 decodes to \(back.itemCount) items, not \(root.itemCount)")
    }
    try data.write(to: URL(fileURLWithPath: "\(dir)/w3.archive"))

    let w4 = "\(dir)/w4"
    try fm.createDirectory(atPath: w4, withIntermediateDirectories: true)
    var rng = Seeded(state: 4)
    let files = small ? 100 : 2_000
    for n in 0..<files {
        let tree = smallTree(n, &rng)
        if n % 2 == 0 {
            try write(try PropertyList.write(tree, as: .xml), String(format: "%@/f%04d.plist", w4, n))
        } else {
            try write(try PropertyList.write(tree, as: .binary), String(format: "%@/f%04d.bplist", w4, n))
        }
    }
    print("items \(root.itemCount) w3 \(data.count) bytes")

    // The second shapes (issue 38): W3b, more objects per byte, and W4b,
    // 2,000 files of 0.8-22 KB (~19 MB in all).
    let second = catalog(sections: small ? 60 : 1_000)
    let dataB = archive(second)
    guard try unarchive(dataB).itemCount == second.itemCount else {
        throw BenchError(description: "W3b does not decode to its \(second.itemCount) entries")
    }
    try dataB.write(to: URL(fileURLWithPath: "\(dir)/w3b.archive"))
    let w4b = "\(dir)/w4b"
    try fm.createDirectory(atPath: w4b, withIntermediateDirectories: true)
    var rngB = Seeded(state: 6)
    var bytesB = 0
    for n in 0..<files {
        // 0.8 to 22 KB: XML takes about 80 bytes an entry, binary about 34.
        let tree = mediumTree(n, entries: n % 2 == 0 ? 10 + rngB.below(264) : 25 + rngB.below(420), &rngB)
        let bytes = try PropertyList.write(tree, as: n % 2 == 0 ? .xml : .binary)
        bytesB += bytes.count
        try write(bytes, String(format: n % 2 == 0 ? "%@/f%04d.plist" : "%@/f%04d.bplist", w4b, n))
    }
    print("entries \(second.itemCount) w3b \(dataB.count) bytes, w4b \(files) files \(bytesB) bytes")
}

func read(_ path: String) throws -> Data {
    try Data(contentsOf: URL(fileURLWithPath: path))
}

func parse(_ paths: [String]) throws {
    var count = 0
    for path in paths {
        let value = try PropertyListSerialization.propertyList(from: try read(path), options: [], format: nil)
        if value is [Any] || value is [String: Any] { count += 1 }
    }
    guard count == paths.count else { throw BenchError(description: "a file did not read as a container") }
}

func convert(_ format: String, _ out: String, _ paths: [String]) throws {
    let fmt: PropertyListSerialization.PropertyListFormat
    switch format {
    case "xml": fmt = .xml
    case "binary": fmt = .binary
    default: throw BenchError(description: "unknown format \(format) (xml or binary)")
    }
    for path in paths {
        let value = try PropertyListSerialization.propertyList(from: try read(path), options: [], format: nil)
        let data = try PropertyListSerialization.data(fromPropertyList: value, format: fmt, options: 0)
        if out == "-" {
            FileHandle.standardOutput.write(data)
        } else {
            let name = URL(fileURLWithPath: path).deletingPathExtension().lastPathComponent
            try data.write(to: URL(fileURLWithPath: "\(out)/\(name).plist"))
        }
    }
}

/// The floor: one read of each file and one copy of its bytes in memory, timed in-process.
func copy(_ paths: [String]) throws {
    let start = DispatchTime.now().uptimeNanoseconds
    var total = 0
    for path in paths {
        let bytes = try FileIO.read(path)
        let copied = bytes.withUnsafeBufferPointer { src in
            [UInt8](unsafeUninitializedCapacity: src.count) { dst, n in
                if let from = src.baseAddress, let to = dst.baseAddress { memcpy(to, from, src.count) }
                n = src.count
            }
        }
        total += Int(copied.last ?? 0) + copied.count
    }
    let seconds = Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
    print("inprocess \(seconds) bytes \(total)")
}

/// The entries of a document's top container.
func entries(_ document: PlistDocument) -> Int { document.tree.count(of: document.tree.root) }

/// The readers of the formats beside property lists, timed in-process over
/// files already in memory (as tools/bench/peers/beside_peer.py times its oracle).
func beside(_ kind: String, rounds: Int, _ paths: [String]) throws {
    let files = try paths.map { try FileIO.read($0) }
    var values = 0
    let start = DispatchTime.now().uptimeNanoseconds
    for _ in 0..<rounds {
        for bytes in files {
            switch kind {
            case "dsstore": values += entries(try DSStoreReader.read(bytes))
            case "cookies": values += entries(try BinaryCookiesReader.read(bytes))
            case "bookmark":
                // The file's bookmark data (a Finder alias file's unwrapped), decoded as dump decodes it.
                let document = try bytes.withUnsafeBytes { try BookmarkFileReader.read($0) }
                values += document.tree.data(at: document.tree.root).flatMap(Bookmark.decode)?.tables.count ?? 0
            default: values += entries(try SignedPlist.read(bytes))
            }
        }
    }
    let seconds = Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
    print("inprocess \(seconds) values \(values)")
}

let args = Array(CommandLine.arguments.dropFirst())
do {
    switch args.first {
    case "gen":
        guard args.count >= 2 else { fail("usage: gen DIR [--small]") }
        try generate(args[1], small: args.contains("--small"))
    case "parse":
        try parse(Array(args.dropFirst()))
    case "convert":
        guard args.count >= 4 else { fail("usage: convert xml|binary OUT FILE...") }
        try convert(args[1], args[2], Array(args.dropFirst(3)))
    case "unarchive":
        guard args.count == 2 else { fail("usage: unarchive FILE") }
        let root = try unarchive(try read(args[1]))
        print("items \(root.itemCount)")
    case "rearchive":
        // What an app does to migrate without Archivist: decode the whole
        // graph and archive it again.
        guard args.count == 3 else { fail("usage: rearchive FILE OUT") }
        let root = try unarchive(try read(args[1]))
        try write([UInt8](archive(root)), args[2])
        print("items \(root.itemCount)")
    case "copy":
        try copy(Array(args.dropFirst()))
    case "beside":
        guard args.count >= 4, ["dsstore", "signed", "cookies", "bookmark"].contains(args[1]), let rounds = Int(args[2]) else {
            fail("usage: beside dsstore|signed|cookies|bookmark ROUNDS FILE...")
        }
        try beside(args[1], rounds: rounds, Array(args.dropFirst(3)))
    default:
        fail("usage: gen | parse | convert | unarchive | rearchive | copy (see the comment at the top of main.swift)")
    }
} catch {
    fail("\(error)")
}
