import ArchivistCore

extension ClassDescription {
    /// CloudKit's `CKRecordID`: the record's name (`RecordName`) and its zone
    /// (`ZoneID`, a ``ckRecordZoneID``), as iOS Notes stores them
    /// (`NoteStore.sqlite`): `CKRecordID "TrashFolder-CloudKit" zone CKRecordZoneID "Notes" owner "__defaultOwner__"`,
    /// the zone shown in full where it is first met and as `@N (CKRecordZoneID)` after.
    static let ckRecordID = ClassDescription(
        ["CKRecordID"], framework: .cloudKit,
        fields: [.reference("RecordName", "string"), .reference("ZoneID", "CKRecordZoneID")],
        shape: .scalar, swiftType: "CKRecord.ID", secureCoding: .secureWhenNamed, read: ArchivedLine.recordID,
        examples: [
            // The layout of `ZICCLOUDSYNCINGOBJECT.ZSERVERRECORDDATA` in
            // `real-world/plaso/test_data/ios/NoteStore.sqlite` (a blob column).
            .built("CKRecordID", [("RecordName", .uid(2)), ("ZoneID", .uid(3))],
                   extra: [.string("TrashFolder-CloudKit"),
                           .dictionary(PlistDictionary([("anonymousCKUserID", .uid(0)), ("ownerName", .uid(5)), ("ZoneName", .uid(4)), ("$class", .uid(7))])),
                           .string("Notes"), .string("__defaultOwner__")],
                   classes: [["CKRecordZoneID", "NSObject"]],
                   shows: "CKRecordID \"TrashFolder-CloudKit\" zone CKRecordZoneID \"Notes\" owner \"__defaultOwner__\""),
        ]
    )
}

extension ArchivedLine {
    static func recordID(_ o: ArchivedObject, in graph: ObjectGraph) -> FoundationValue? {
        guard AppKitValue.only(o, ["RecordName", "ZoneID"]), let name = graph.string(o["RecordName"]),
              case .reference(let zone)? = o["ZoneID"], zone != 0 else { return nil }
        var line = ArchivedLine("recordID")
        line.add("recordName", .text(name))
        line.add("zoneID", .object(zone), label: "zone")
        return .line(line)
    }
}
