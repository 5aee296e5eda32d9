import ArchivistCore

/// An `NSColor` in each form AppKit archives it (seen in the real nibs of
/// `../shared/real-world/sparkle`):
/// - `NSColorSpace` 1-5 with the components as a decimal string, NUL-terminated,
///   in `NSRGB`, `NSWhite` or `NSCMYK` (`SUUpdateAlert.nib`: `NSWhite` "0.5\0");
///   alpha is written only when it is not 1;
/// - `NSColorSpace` 6, a catalog colour `NSCatalogName`/`NSColorName`, with the
///   colour it stands for in `NSColor` (`SUUpdateAlert.nib`: System/controlColor);
/// - `NSComponents` (every component and alpha) in `NSCustomColorSpace`, an
///   `NSColorSpace` object (`NSID`, `NSModel`, `NSICC`), with the
///   component-string form kept beside it for old readers (`SUStatus.nib`);
/// - the component-string form alone with `NSCustomColorSpace` naming a
///   predefined space by its `NSID` (Terminal profiles: `NSWhite` "0\0").
package enum ArchivedColor: Equatable, Sendable {
    /// Components and alpha in one of AppKit's numbered colour spaces.
    case components(ColorSpace, [Double])
    /// A named colour of a catalog (`System`/`controlColor`).
    case catalog(catalog: String, name: String)
    /// Components and alpha in a colour space archived with the colour:
    /// its `NSModel` (NSColorSpace.Model: 0 gray, 1 RGB, 2 CMYK, 3 LAB, 4
    /// deviceN, 5 indexed, 6 patterned) and the ICC profile's description when it has one.
    case custom(model: Int?, profile: String?, components: [Double])

    /// `NSColorSpace` values 1-5, with the field and component count each uses.
    package enum ColorSpace: Int, Equatable, Sendable, CaseIterable {
        case calibratedRGB = 1, deviceRGB = 2, calibratedWhite = 3, deviceWhite = 4, deviceCMYK = 5

        /// The field holding the component string.
        var field: String {
            switch self {
            case .calibratedRGB, .deviceRGB: return "NSRGB"
            case .calibratedWhite, .deviceWhite: return "NSWhite"
            case .deviceCMYK: return "NSCMYK"
            }
        }

        /// Components before alpha.
        var count: Int {
            switch self {
            case .calibratedRGB, .deviceRGB: return 3
            case .calibratedWhite, .deviceWhite: return 1
            case .deviceCMYK: return 4
            }
        }

        /// The name shown: `calibratedRGB`, `deviceWhite`, ...
        package var name: String {
            switch self {
            case .calibratedRGB: return "calibratedRGB"
            case .deviceRGB: return "deviceRGB"
            case .calibratedWhite: return "calibratedWhite"
            case .deviceWhite: return "deviceWhite"
            case .deviceCMYK: return "deviceCMYK"
            }
        }
    }

    /// The colour an `NSColor` object archives, or nil for any other shape.
    init?(_ o: ArchivedObject, in graph: ObjectGraph) {
        guard case .inline(.integer(let spaceNumber))? = o["NSColorSpace"], let space = spaceNumber.int64Value else { return nil }
        let componentFields: Set<String> = ["NSRGB", "NSWhite", "NSCMYK"]
        if o["NSComponents"] == nil, Self.namedSpace(o, in: graph) != nil,
           let known = Int(exactly: space).flatMap(ColorSpace.init(rawValue:)),
           AppKitValue.only(o, ["NSColorSpace", known.field, "NSCustomColorSpace"]),
           var components = Self.components(graph.bytes(o[known.field])) {
            // A colour of a predefined space (`NSCustomColorSpace` an
            // NSColorSpace of only `NSID`), its components in the numbered
            // space's field alone, as Terminal's profiles hold `NSWhite = "0\0"`.
            if components.count == known.count { components.append(1) }
            guard components.count == known.count + 1 else { return nil }
            self = .components(known, components)
            return
        }
        if o["NSComponents"] != nil || o["NSCustomColorSpace"] != nil {
            guard AppKitValue.only(o, ["NSColorSpace", "NSComponents", "NSCustomColorSpace"], optional: componentFields),
                  let components = Self.components(graph.bytes(o["NSComponents"])),
                  case .reference(let r)? = o["NSCustomColorSpace"], let colorSpace = graph.object(r),
                  ClassDescription.nsColorSpace.names.contains(colorSpace.className.archived) else { return nil }
            var model: Int?
            if case .inline(.integer(let m))? = colorSpace["NSModel"], let m64 = m.int64Value { model = Int(exactly: m64) }
            self = .custom(model: model, profile: graph.bytes(colorSpace["NSICC"]).flatMap(ICCProfile.description), components: components)
            return
        }
        if space == 6 {
            guard AppKitValue.only(o, ["NSColorSpace", "NSCatalogName", "NSColorName"], optional: ["NSColor"]),
                  let catalog = graph.string(o["NSCatalogName"]), let name = graph.string(o["NSColorName"]) else { return nil }
            self = .catalog(catalog: catalog, name: name)
            return
        }
        guard let known = Int(exactly: space).flatMap(ColorSpace.init(rawValue:)),
              AppKitValue.only(o, ["NSColorSpace", known.field]),
              var components = Self.components(graph.bytes(o[known.field])) else { return nil }
        if components.count == known.count { components.append(1) }
        guard components.count == known.count + 1 else { return nil }
        self = .components(known, components)
    }

    /// The text inside `NSColor(...)`: `calibratedWhite 0.5 1`, `catalog System/controlColor`,
    /// `custom gray 0.6666666667 1`.
    package var text: String {
        switch self {
        case .components(let space, let c):
            return ([space.name] + c.map(AppKitValue.number)).joined(separator: " ")
        case .catalog(let catalog, let name):
            return "catalog \(AppKitValue.word(catalog))/\(AppKitValue.word(name))"
        case .custom(let model, let profile, let c):
            let space = profile.map { PlistValue.quoted($0) } ?? Self.modelName(model)
            return (["custom", space] + c.map(AppKitValue.number)).joined(separator: " ")
        }
    }

    /// The typed fields as a property-list dictionary, for JSON.
    var fields: PlistValue {
        switch self {
        case .components(let space, let c):
            return .dictionary(PlistDictionary([("space", .string(space.name)), ("components", .array(c.map { .double($0) }))]))
        case .catalog(let catalog, let name):
            return .dictionary(PlistDictionary([("catalog", .string(catalog)), ("name", .string(name))]))
        case .custom(let model, let profile, let c):
            var d = PlistDictionary([("space", .string("custom")), ("model", .string(Self.modelName(model)))])
            if let profile { d["profile"] = .string(profile) }
            d["components"] = .array(c.map { .double($0) })
            return .dictionary(d)
        }
    }

    /// The `NSColorSpace` object `NSCustomColorSpace` refers to when it names
    /// a predefined space by `NSID` alone (and maybe `NSModel`), without a profile.
    private static func namedSpace(_ o: ArchivedObject, in graph: ObjectGraph) -> ArchivedObject? {
        guard case .reference(let r)? = o["NSCustomColorSpace"], let space = graph.object(r),
              space.className.archived == ClassDescription.nsColorSpace.name,
              AppKitValue.only(space, ["NSID"], optional: ["NSModel"]),
              case .inline(.integer)? = space["NSID"] else { return nil }
        return space
    }

    /// NSColorSpace.Model's name for an `NSModel` value.
    static func modelName(_ model: Int?) -> String {
        switch model {
        case 0?: return "gray"
        case 1?: return "rgb"
        case 2?: return "cmyk"
        case 3?: return "lab"
        case 4?: return "deviceN"
        case 5?: return "indexed"
        case 6?: return "patterned"
        case let m?: return "model\(m)"
        case nil: return "unknown"
        }
    }

    /// Decimal numbers separated by spaces, the last optionally followed by
    /// NUL (as AppKit writes them); nil when any is not a finite decimal number.
    static func components(_ bytes: [UInt8]?) -> [Double]? {
        guard var bytes, bytes.count <= 1024 else { return nil }
        if bytes.last == 0 { bytes.removeLast() }
        var out: [Double] = []
        for token in bytes.split(separator: UInt8(ascii: " "), omittingEmptySubsequences: true) {
            guard token.allSatisfy({ (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) || $0 == UInt8(ascii: ".") || $0 == UInt8(ascii: "-") || $0 == UInt8(ascii: "e") || $0 == UInt8(ascii: "E") || $0 == UInt8(ascii: "+") }),
                  let d = Double(String(decoding: token, as: UTF8.self)), d.isFinite else { return nil }
            out.append(d)
        }
        return out.isEmpty ? nil : out
    }
}

extension ObjectGraph {
    /// The bytes a field holds: inline data, or a reference to data or an NSData object.
    func bytes(_ field: FieldValue?) -> [UInt8]? {
        switch field {
        case .inline(.data(let b))?: return b
        case .reference(let r)?:
            switch nodes[safe: r] {
            case .value(.data(let b))?: return b
            case .object(let o)?:
                if case .data(let b)? = FoundationValue.interpret(o, in: self) { return b }
                return nil
            default: return nil
            }
        default: return nil
        }
    }
}
