import ArchivistCore

extension ClassDescription {
    /// CloudKit's `CKRecordZoneID`: the zone's name (`ZoneName`) and owner
    /// (`ownerName`), and `anonymousCKUserID` (nil unless the zone is shared
    /// anonymously), as iOS Notes stores them (`NoteStore.sqlite`):
    /// `CKRecordZoneID "Notes" owner "__defaultOwner__"`.
    static let ckRecordZoneID = ClassDescription(
        ["CKRecordZoneID"], framework: .cloudKit,
        fields: [.reference("ZoneName", "string"), .reference("ownerName", "string"), .reference("anonymousCKUserID", "string", optional: true)],
        shape: .scalar, swiftType: "CKRecordZone.ID", secureCoding: .secureWhenNamed, read: ArchivedLine.recordZoneID,
        examples: [
            // The layout of `ZICCLOUDSYNCINGOBJECT.ZSERVERRECORDDATA` in
            // `real-world/plaso/test_data/ios/NoteStore.sqlite` (a blob column).
            .built("CKRecordZoneID", [("anonymousCKUserID", .uid(0)), ("ownerName", .uid(3)), ("ZoneName", .uid(2))],
                   extra: [.string("Notes"), .string("__defaultOwner__")], shows: "CKRecordZoneID \"Notes\" owner \"__defaultOwner__\""),
        ]
    )
}

extension ArchivedLine {
    static func recordZoneID(_ o: ArchivedObject, in graph: ObjectGraph) -> FoundationValue? {
        guard AppKitValue.only(o, ["ZoneName", "ownerName"], optional: ["anonymousCKUserID"]),
              let zone = graph.string(o["ZoneName"]), let owner = graph.string(o["ownerName"]),
              let anonymous = optionalString(o["anonymousCKUserID"], in: graph) else { return nil }
        var line = ArchivedLine("zoneID")
        line.add("zoneName", .text(zone))
        line.add("ownerName", .text(owner), label: "owner")
        if let anonymous { line.add("anonymousCKUserID", .text(anonymous), label: "anonymous user") }
        return .line(line)
    }
}
