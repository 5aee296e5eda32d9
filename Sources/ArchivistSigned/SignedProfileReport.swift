import ArchivistCore
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import X509

/// What `info` shows of a signed file beyond its property list: the
/// envelope (signers, signing times, certificates) and, for a provisioning
/// profile, the team, app ID, entitlements, expiry (and whether it has
/// passed, against `now`), device count and each embedded developer
/// certificate. As a dictionary (for `--json`) and as text lines.
package struct SignedProfileReport {
    /// The environment variable that sets "now" for expiry (ISO 8601,
    /// `2026-01-01T00:00:00Z`): what tests and reproducible runs set.
    package static let nowVariable = "ARCHIVIST_NOW"

    /// `ARCHIVIST_NOW` when it is set to an ISO 8601 date, else the clock.
    /// Throws when it is set to something else.
    package static func now(environment: [String: String] = ProcessInfo.processInfo.environment) throws -> PlistDate {
        guard let text = environment[nowVariable] else {
            return PlistDate(secondsSinceReferenceDate: Date().timeIntervalSinceReferenceDate)
        }
        guard let date = ISO8601.parse(Array(text.utf8)) else {
            throw PlistError(.invalidValue, "\(nowVariable)=\(text) is not an ISO 8601 date (2026-01-01T00:00:00Z)")
        }
        return date
    }

    /// The envelope's part: `verified` (always false: parsed, not verified),
    /// `certificates`, `signers`.
    package let envelope: PlistDictionary
    /// The provisioning profile's part, nil when the content is not one.
    package let profile: PlistDictionary?

    /// Throws a `PlistError` when a certificate of the envelope cannot be read.
    package init(_ envelope: SignedEnvelope, content: PlistValue, now: PlistDate) throws {
        var e = PlistDictionary()
        e["verified"] = .bool(false)
        e["certificates"] = .int(Int64(envelope.certificateBytes.count))
        e["signers"] = .array(try envelope.signers().map { s in
            var d = PlistDictionary()
            if let v = s.subject { d["subject"] = .string(v) }
            if let v = s.issuer { d["issuer"] = .string(v) }
            if let v = s.serial { d["serial"] = .string(v) }
            if let v = s.subjectKeyIdentifier { d["subjectKeyIdentifier"] = .string(v) }
            if let v = s.signingTime { d["signingTime"] = .date(v) }
            d["digest"] = .string(s.digest)
            return .dictionary(d)
        })
        self.envelope = e
        profile = Self.profile(content, now: now)
    }

    /// True when the content is a provisioning profile whose `ExpirationDate` is before `now`.
    package static func expired(_ content: PlistValue, now: PlistDate) -> PlistDate? {
        guard case .dictionary(let root) = content, case .date(let expires)? = root["ExpirationDate"],
              expires.secondsSinceReferenceDate < now.secondsSinceReferenceDate else { return nil }
        return expires
    }

    private static func profile(_ content: PlistValue, now: PlistDate) -> PlistDictionary? {
        guard case .dictionary(let root) = content,
              root["ExpirationDate"] != nil || root["DeveloperCertificates"] != nil || root["ProvisionedDevices"] != nil else { return nil }
        var p = PlistDictionary()
        if case .string(let v)? = root["Name"] { p["name"] = .string(v) }
        if case .string(let v)? = root["TeamName"] { p["team"] = .string(v) }
        if case .array(let ids)? = root["TeamIdentifier"], case .string(let v)? = ids.first { p["teamIdentifier"] = .string(v) }
        let entitlements: PlistDictionary? = { if case .dictionary(let d)? = root["Entitlements"] { return d } else { return nil } }()
        if case .string(let v)? = entitlements?["application-identifier"] ?? entitlements?["com.apple.application-identifier"] {
            p["appID"] = .string(v)
        }
        if case .string(let v)? = root["AppIDName"] { p["appIDName"] = .string(v) }
        if case .array(let v)? = root["Platform"] { p["platforms"] = .array(v) }
        if case .date(let v)? = root["CreationDate"] { p["created"] = .date(v) }
        if case .date(let v)? = root["ExpirationDate"] {
            p["expires"] = .date(v)
            p["expired"] = .bool(v.secondsSinceReferenceDate < now.secondsSinceReferenceDate)
        }
        if case .array(let v)? = root["ProvisionedDevices"] { p["devices"] = .int(Int64(v.count)) }
        if root["ProvisionsAllDevices"] == .bool(true) { p["allDevices"] = .bool(true) }
        if let entitlements { p["entitlements"] = .dictionary(entitlements) }
        if case .array(let certificates)? = root["DeveloperCertificates"] {
            p["developerCertificates"] = .array(certificates.map { value in
                guard case .data(let bytes) = value, let c = try? Certificate(derEncoded: bytes) else {
                    return .dictionary(PlistDictionary([("error", .string("not an X.509 certificate"))]))
                }
                return .dictionary(PlistDictionary([
                    ("subject", .string(c.subject.description)), ("serial", .string(SignedEnvelope.hex(c.serialNumber))),
                    ("notBefore", .date(PlistDate(secondsSinceReferenceDate: c.notValidBefore.timeIntervalSinceReferenceDate))),
                    ("notAfter", .date(PlistDate(secondsSinceReferenceDate: c.notValidAfter.timeIntervalSinceReferenceDate))),
                ]))
            })
        }
        return p
    }

    /// The report as `info` prints it, after the property list's lines.
    package var lines: [String] {
        var out: [String] = []
        func str(_ v: PlistValue?) -> String {
            switch v {
            case .string(let s)?: return s
            case .date(let d)?: return d.description
            case .integer(let i)?: return i.description
            case .bool(let b)?: return b ? "yes" : "no"
            default: return "?"
            }
        }
        let signers = envelope["signers"]?.arrayValue ?? []
        out.append("signed: CMS SignedData, \(str(envelope["certificates"])) certificate(s), \(signers.count) signer(s); the signature is parsed, not verified")
        for case .dictionary(let s) in signers {
            let who = s["subject"].map(str) ?? s["subjectKeyIdentifier"].map { "key \(str($0))" } ?? "issuer \(str(s["issuer"]))"
            out.append("  signer: \(who)")
            if s["issuer"] != nil { out.append("    issuer: \(str(s["issuer"])), serial \(str(s["serial"]))") }
            out.append("    signing time: \(s["signingTime"].map(str) ?? "none"), digest \(str(s["digest"]))")
        }
        guard let p = profile else { return out }
        out.append("provisioning profile:")
        for (key, label) in [("name", "name"), ("team", "team"), ("teamIdentifier", "team ID"), ("appID", "app ID"), ("appIDName", "app ID name"), ("created", "created")] {
            if let v = p[key] { out.append("  \(label): \(str(v))") }
        }
        if let v = p["expires"] { out.append("  expires: \(str(v))\(p["expired"] == .bool(true) ? " (expired)" : " (not expired)")") }
        if p["allDevices"] == .bool(true) { out.append("  devices: all") } else { out.append("  devices: \(p["devices"].map(str) ?? "0")") }
        if case .dictionary(let e)? = p["entitlements"] {
            out.append("  entitlements: \(e.count)")
            for (key, value) in e { out.append("    \(key) = \(Self.short(value))") }
        }
        for case .dictionary(let c) in p["developerCertificates"]?.arrayValue ?? [] {
            if let error = c["error"] { out.append("  developer certificate: \(str(error))"); continue }
            out.append("  developer certificate: \(str(c["subject"]))")
            out.append("    serial \(str(c["serial"])), valid \(str(c["notBefore"])) to \(str(c["notAfter"]))")
        }
        return out
    }

    /// A value on one line: scalars as they are, arrays and dictionaries by count.
    static func short(_ value: PlistValue) -> String {
        switch value {
        case .string(let s): return s
        case .bool(let b): return b ? "true" : "false"
        case .integer(let i): return i.description
        case .date(let d): return d.description
        case .array(let a): return "[" + a.map(short).joined(separator: ", ") + "]"
        case .dictionary(let d): return "{\(d.count) keys}"
        case .data(let b): return "<\(b.count) bytes>"
        default: return "?"
        }
    }
}
