import ArchivistTestSupport
import Foundation
import XCTest

/// Signed profiles (a property list in a CMS SignedData envelope) through
/// the built command: `dump`, `get`, `convert` and `lint` see the property
/// list; `info` shows the signer, the signing time and the profile's
/// fields; nothing strips a signature in place unless asked. The tests sign
/// their own profiles with `openssl cms -sign` and a throw-away
/// certificate (DER, and BER with indefinite lengths); the real profiles in
/// `../shared/real-world/beside` match `openssl cms` and `asn1crypto`. No
/// UDID, team or certificate name of the real files is printed: a mismatch
/// names the file and the field.
extension CLITests {
    /// `openssl` on the PATH, or skip.
    func openSSL() throws -> URL {
        for dir in (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin").split(separator: ":") {
            let url = URL(fileURLWithPath: String(dir)).appendingPathComponent("openssl")
            if FileManager.default.isExecutableFile(atPath: url.path) { return url }
        }
        throw XCTSkip("openssl is not installed")
    }

    /// Runs the command with `ARCHIVIST_NOW` set.
    func run(now: String, _ args: [String]) throws -> Result {
        try run(executable: URL(fileURLWithPath: "/usr/bin/env"), ["ARCHIVIST_NOW=\(now)", Self.productsDirectory.appendingPathComponent("archivist").path] + args)
    }

    /// A throw-away key and self-signed certificate in the scratch folder
    /// (`signer.key`, `signer.pem`, and `signer.der`).
    func makeSigner(_ openssl: URL) throws {
        guard !FileManager.default.fileExists(atPath: work.appendingPathComponent("signer.pem").path) else { return }
        let made = try run(executable: openssl, ["req", "-x509", "-newkey", "rsa:2048", "-nodes", "-keyout", "signer.key", "-out", "signer.pem",
                                                 "-days", "3650", "-subj", "/CN=Example Signer/O=Example Org", "-set_serial", "0x1F2E3D"])
        XCTAssertEqual(made.status, 0, made.stderr)
        XCTAssertEqual(try run(executable: openssl, ["x509", "-in", "signer.pem", "-outform", "DER", "-out", "signer.der"]).status, 0)
    }

    /// The property list of a provisioning profile that embeds the signer's
    /// certificate as its developer certificate.
    func profilePlist(expires: String = "2025-01-01T00:00:00Z") throws -> String {
        try makeSigner(try openSSL())
        let certificate = try Data(contentsOf: work.appendingPathComponent("signer.der")).base64EncodedString()
        return """
            <?xml version="1.0" encoding="UTF-8"?>
            <!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">
            <plist version="1.0">
            <dict>
            \t<key>AppIDName</key>
            \t<string>Example App</string>
            \t<key>CreationDate</key>
            \t<date>2024-01-01T00:00:00Z</date>
            \t<key>DeveloperCertificates</key>
            \t<array>
            \t\t<data>\(certificate)</data>
            \t</array>
            \t<key>Entitlements</key>
            \t<dict>
            \t\t<key>application-identifier</key>
            \t\t<string>ABCDE12345.org.example.app</string>
            \t\t<key>get-task-allow</key>
            \t\t<true/>
            \t</dict>
            \t<key>ExpirationDate</key>
            \t<date>\(expires)</date>
            \t<key>Name</key>
            \t<string>Example Development</string>
            \t<key>ProvisionedDevices</key>
            \t<array>
            \t\t<string>00000000-0000000000000001</string>
            \t\t<string>00000000-0000000000000002</string>
            \t</array>
            \t<key>TeamIdentifier</key>
            \t<array>
            \t\t<string>ABCDE12345</string>
            \t</array>
            \t<key>TeamName</key>
            \t<string>Example Team</string>
            </dict>
            </plist>

            """
    }

    /// Signs `plist` into `name` (`ber`: streamed, with indefinite lengths
    /// and a chunked content).
    @discardableResult
    func signProfile(_ plist: String, into name: String, ber: Bool = false) throws -> String {
        let openssl = try openSSL()
        try makeSigner(openssl)
        make(name + ".inner", plist)
        var args = ["cms", "-sign", "-in", name + ".inner", "-signer", "signer.pem", "-inkey", "signer.key",
                    "-outform", "DER", "-nodetach", "-binary", "-md", "sha256", "-out", name]
        if ber { args.append("-stream") }
        let signed = try run(executable: openssl, args)
        XCTAssertEqual(signed.status, 0, signed.stderr)
        return name
    }

    func testASignedProfileReadsAsItsPropertyList() throws {
        for ber in [false, true] {
            let file = try signProfile(try profilePlist(), into: ber ? "ber.mobileprovision" : "der.mobileprovision", ber: ber)
            let bytes = try Data(contentsOf: work.appendingPathComponent(file))
            XCTAssertEqual(Array(bytes.prefix(2)), ber ? [0x30, 0x80] : [0x30, 0x82], file)
            let dump = try run(["dump", file])
            XCTAssertEqual(dump.status, 0, dump.stderr)
            XCTAssertTrue(dump.stdout.contains("\"TeamName\" => \"Example Team\""), dump.stdout)
            XCTAssertEqual(try run(["get", file, "Entitlements.application-identifier"]).stdout, "ABCDE12345.org.example.app\n")
            XCTAssertEqual(try run(["get", file, "ProvisionedDevices.1"]).stdout, "00000000-0000000000000002\n")
            let json = try run(["dump", "--json", file])
            XCTAssertEqual(json.status, 0, json.stderr)
            let parsed = try JSONSerialization.jsonObject(with: json.output) as? [String: Any]
            XCTAssertEqual(parsed?["Name"] as? String, "Example Development")
            XCTAssertEqual(try run(now: "2024-06-01T00:00:00Z", ["lint", file]).stdout, "\(file): OK\n")
            let info = try run(now: "2024-06-01T00:00:00Z", ["info", file])
            XCTAssertEqual(info.status, 0, info.stderr)
            let lines = info.stdout.split(separator: "\n").map(String.init)
            XCTAssertEqual(lines.first, file)
            XCTAssertEqual(lines.dropFirst().first, "  kind: a CMS (PKCS #7) signed envelope, \(bytes.count) bytes, holding a property list")
            for expected in [
                "  signed: CMS SignedData, 1 certificate(s), 1 signer(s); the signature is parsed, not verified",
                "    signer: O=Example Org,CN=Example Signer",
                "      issuer: O=Example Org,CN=Example Signer, serial 1F2E3D",
                "  provisioning profile:", "    name: Example Development", "    team: Example Team", "    team ID: ABCDE12345",
                "    app ID: ABCDE12345.org.example.app", "    expires: 2025-01-01T00:00:00Z (not expired)", "    devices: 2",
                "    entitlements: 2", "      get-task-allow = true",
                "    developer certificate: O=Example Org,CN=Example Signer",
            ] {
                XCTAssertTrue(lines.contains(expected), "\(expected) not in\n\(info.stdout)")
            }
            XCTAssertTrue(lines.contains { $0.hasPrefix("      signing time: 20") && $0.hasSuffix("Z, digest sha256") }, info.stdout)
            XCTAssertTrue(lines.contains { $0.hasPrefix("      serial 1F2E3D, valid 20") }, info.stdout)
            // The signature's time is today's: openssl wrote it.
            let infoJSON = try run(now: "2026-06-01T00:00:00Z", ["info", "--json", file])
            guard let entry = (try JSONSerialization.jsonObject(with: infoJSON.output) as? [[String: Any]])?.first,
                  let profile = entry["profile"] as? [String: Any], let signed = entry["signed"] as? [String: Any] else {
                return XCTFail(infoJSON.stdout)
            }
            XCTAssertEqual(entry["format"] as? String, "xml")
            XCTAssertEqual(profile["expired"] as? Bool, true)
            XCTAssertEqual(profile["devices"] as? Int, 2)
            XCTAssertEqual(signed["verified"] as? Bool, false)
            XCTAssertEqual((signed["signers"] as? [[String: Any]])?.first?["serial"] as? String, "1F2E3D")
        }
    }

    func testLintWarnsOfAnExpiredProfileAgainstTheNowTestsSet() throws {
        let file = try signProfile(try profilePlist(expires: "2025-01-01T00:00:00Z"), into: "old.mobileprovision")
        let before = try run(now: "2024-12-31T23:59:59Z", ["lint", file])
        XCTAssertEqual(before.stdout, "\(file): OK\n")
        let after = try run(now: "2025-01-01T00:00:01Z", ["lint", file])
        XCTAssertEqual(after.status, 0, after.stdout)
        XCTAssertEqual(after.stdout, "\(file): warning: the provisioning profile expired on 2025-01-01T00:00:00Z (now is 2025-01-01T00:00:01Z)\n\(file): OK\n")
        XCTAssertTrue(try run(now: "2025-06-01T00:00:00Z", ["info", file]).stdout.contains("    expires: 2025-01-01T00:00:00Z (expired)\n"))
        let bad = try run(now: "next tuesday", ["lint", file])
        XCTAssertEqual(bad.status, 1)
        XCTAssertTrue(bad.stdout.contains("ARCHIVIST_NOW=next tuesday is not an ISO 8601 date"), bad.stdout)
    }

    /// `convert -o` writes the property list and says the signature is not
    /// kept; `--in-place`, `set` and `remove` refuse a signed file (which
    /// stays as it was) unless `--strip-signature` asks for exactly that.
    func testNothingStripsASignatureUnlessAsked() throws {
        let file = try signProfile(try profilePlist(), into: "app.mobileprovision")
        let signed = try Data(contentsOf: work.appendingPathComponent(file))
        let converted = try run(["convert", "--to", "xml1", "-o", "inner.plist", file])
        XCTAssertEqual(converted.status, 0, converted.stderr)
        XCTAssertEqual(converted.stderr, "\(file): warning: the CMS signature cannot be kept: the result is the signed property list alone\n")
        XCTAssertEqual(try run(["get", "inner.plist", "TeamName"]).stdout, "Example Team\n")
        for args in [["convert", "--to", "xml1", "--in-place", file], ["set", "--type", "string", file, "Name", "x"], ["remove", file, "Name"]] {
            let refused = try run(args)
            XCTAssertNotEqual(refused.status, 0, args.joined(separator: " "))
            XCTAssertTrue(refused.stderr.contains("a CMS (PKCS #7) signed envelope: ") && refused.stderr.contains("would strip its signature; give --strip-signature"),
                          refused.stderr)
            XCTAssertEqual(try Data(contentsOf: work.appendingPathComponent(file)), signed, args.joined(separator: " "))
        }
        let edited = try run(["set", "--type", "string", file, "Name", "x", "-o", "edited.plist"])
        XCTAssertEqual(edited.status, 0, edited.stderr)
        XCTAssertEqual(try run(["get", "edited.plist", "Name"]).stdout, "x\n")
        let stripped = try run(["set", "--strip-signature", "--type", "string", file, "Name", "Renamed"])
        XCTAssertEqual(stripped.status, 0, stripped.stderr)
        XCTAssertEqual(try run(["get", file, "Name"]).stdout, "Renamed\n")
        XCTAssertEqual(try run(["info", file]).stdout.split(separator: "\n").dropFirst().first, "  format: xml, \(try Data(contentsOf: work.appendingPathComponent(file)).count) bytes")
        let other = try signProfile(try profilePlist(), into: "other.mobileprovision")
        let inPlace = try run(["convert", "--strip-signature", "--to", "binary", "--in-place", other])
        XCTAssertEqual(inPlace.status, 0, inPlace.stderr)
        XCTAssertEqual(try run(["info", other]).stdout.split(separator: "\n").dropFirst().first?.hasPrefix("  format: binary (bplist00)"), true)
    }

    /// Broken envelopes fail with a located, bounded error, never a crash:
    /// truncated at every length class, another content type, no content,
    /// garbage for certificates, a content that is not a property list,
    /// nesting past swift-asn1's depth limit.
    func testHostileEnvelopesAreRefusedCleanly() throws {
        let file = try signProfile(try profilePlist(), into: "good.mobileprovision")
        let good = [UInt8](try Data(contentsOf: work.appendingPathComponent(file)))
        let oid: [UInt8] = [0x06, 0x09, 0x2A, 0x86, 0x48, 0x86, 0xF7, 0x0D, 0x01, 0x07, 0x02]
        var cases: [(String, [UInt8])] = []
        for cut in [13, 40, good.count / 2, good.count - 1] { cases.append(("truncated-\(cut)", Array(good.prefix(cut)))) }
        var flipped = good
        flipped[1] ^= 0x7F
        cases.append(("flipped", flipped))
        // SignedData with an empty SEQUENCE for content.
        cases.append(("empty", [0x30, 0x11] + oid + [0xA0, 0x04, 0x30, 0x02, 0x30, 0x00]))
        // Deep indefinite nesting inside [0].
        let deep = Array(repeating: [UInt8]([0x30, 0x80]), count: 200).flatMap { $0 }
        cases.append(("deep", [0x30, 0x80] + oid + [0xA0, 0x80] + deep + [UInt8](repeating: 0, count: 404)))
        for (name, bytes) in cases {
            try Data(bytes).write(to: work.appendingPathComponent(name + ".mobileprovision"))
            for command in [["dump"], ["info"], ["lint"], ["get", "--type"]] {
                var args = command + [name + ".mobileprovision"]
                if command.first == "get" { args.append("Name") }
                let r = try run(args)
                XCTAssertNotEqual(r.status, 0, "\(name): \(args)")
                XCTAssertLessThan(r.status, 64 + 10, "\(name): \(args)")
                let message = r.stderr + r.stdout
                XCTAssertTrue(message.contains("\(name).mobileprovision") && message.contains("error: "), "\(name) \(args): \(message)")
            }
        }
        // A signed file whose content is not a property list says so.
        let notPlist = try signProfile("just text, not a plist {", into: "text.mobileprovision")
        let r = try run(["dump", notPlist])
        XCTAssertEqual(r.status, 1)
        XCTAssertTrue(r.stderr.contains("in the signed content: "), r.stderr)
    }

    /// What asn1crypto reads of an envelope (certificate count, each
    /// signer's digest, serial and signing time) and of its content
    /// (plistlib: a provisioning profile's expiry, devices, team ID, app ID
    /// and each developer certificate's serial and validity).
    private static let cmsOracle = """
        import sys, json, plistlib
        from asn1crypto import cms, x509
        t = lambda d: d.strftime('%Y-%m-%dT%H:%M:%SZ')
        sd = cms.ContentInfo.load(open(sys.argv[1], 'rb').read())['content']
        out = {'certificates': len(sd['certificates'] or []), 'signers': []}
        for si in sd['signer_infos']:
            d = {'digest': si['digest_algorithm']['algorithm'].native}
            if si['sid'].name == 'issuer_and_serial_number': d['serial'] = '%X' % si['sid'].chosen['serial_number'].native
            for a in (si['signed_attrs'] or []):
                if a['type'].native == 'signing_time': d['signingTime'] = t(a['values'][0].native)
            out['signers'].append(d)
        p = plistlib.loads(sd['encap_content_info']['content'].native)
        if 'ExpirationDate' in p:
            e = p.get('Entitlements', {})
            out['profile'] = {'expires': t(p['ExpirationDate']), 'devices': len(p.get('ProvisionedDevices', [])),
                              'teamIdentifier': (p.get('TeamIdentifier') or [None])[0],
                              'appID': e.get('application-identifier', e.get('com.apple.application-identifier')),
                              'entitlements': len(e),
                              'developerCertificates': [
                                  {'serial': '%X' % c.serial_number, 'notBefore': t(c.not_valid_before), 'notAfter': t(c.not_valid_after)}
                                  for c in (x509.Certificate.load(b) for b in p.get('DeveloperCertificates', []))]}
        print(json.dumps(out))
        """

    /// Each real signed profile dumps, dumps as JSON, lints and reports its
    /// kind; its property list is what `openssl cms` extracts, and its
    /// envelope and profile fields are what asn1crypto and plistlib read.
    func testRealSignedProfilesMatchTheirOracles() throws {
        let root = TestPaths.realWorld.appendingPathComponent("beside")
        guard let text = try? String(contentsOf: root.appendingPathComponent("MANIFEST.tsv"), encoding: .utf8) else {
            throw XCTSkip("no ../shared/real-world/beside/MANIFEST.tsv")
        }
        let rows = text.split(separator: "\n").dropFirst().compactMap { row -> String? in
            let cols = row.split(separator: "\t", omittingEmptySubsequences: false).map(String.init)
            guard cols.count >= 3, cols[1] == "cms-plist", cols[2] == "yes" else { return nil }
            return root.appendingPathComponent(cols[0]).path
        }
        XCTAssertGreaterThanOrEqual(rows.count, 5)
        let openssl = try openSSL()
        let python = try pythonOracle(importing: "asn1crypto", package: "asn1crypto")
        for path in rows {
            let dump = try run(["dump", path])
            XCTAssertEqual(dump.status, 0, path + ": " + dump.stderr)
            XCTAssertTrue(dump.stdout.hasPrefix("{\n  \""), path)
            let lint = try run(now: "2000-01-01T00:00:00Z", ["lint", path])
            XCTAssertEqual(lint.stdout, "\(path): OK\n", path)
            let info = try run(["info", "--json", path])
            XCTAssertEqual(info.status, 0, path + ": " + info.stderr)
            guard let entry = (try? JSONSerialization.jsonObject(with: info.output) as? [[String: Any]])?.first,
                  let signed = entry["signed"] as? [String: Any] else { XCTFail("\(path): no info"); continue }
            XCTAssertEqual(entry["kind"] as? String, "a CMS (PKCS #7) signed envelope", path)
            // The property list: openssl's extraction, read by Archivist, is the same document.
            let extracted = work.appendingPathComponent("extracted.plist").path
            let cms = try run(executable: openssl, ["cms", "-verify", "-noverify", "-nosigs", "-inform", "DER", "-in", path, "-out", extracted])
            XCTAssertEqual(cms.status, 0, path + ": " + cms.stderr)
            let ours = try run(["dump", "--json", path]), theirs = try run(["dump", "--json", extracted])
            XCTAssertEqual(ours.status, 0, path)
            XCTAssertTrue(ours.output == theirs.output, "\(path): the property list differs from openssl's")
            // The envelope and profile fields: asn1crypto's and plistlib's.
            let oracle = try run(executable: python, ["-c", Self.cmsOracle, path])
            XCTAssertEqual(oracle.status, 0, path + ": " + oracle.stderr)
            guard let expected = try? JSONSerialization.jsonObject(with: oracle.output) as? [String: Any] else { XCTFail(path); continue }
            XCTAssertEqual(signed["certificates"] as? Int, expected["certificates"] as? Int, "\(path): certificates")
            let ourSigners = signed["signers"] as? [[String: Any]] ?? [], theirSigners = expected["signers"] as? [[String: Any]] ?? []
            XCTAssertEqual(ourSigners.count, theirSigners.count, "\(path): signers")
            for (a, b) in zip(ourSigners, theirSigners) {
                for key in ["digest", "serial", "signingTime"] { XCTAssertEqual(a[key] as? String, b[key] as? String, "\(path): signer \(key)") }
                XCTAssertNotNil(a["subject"] as? String, "\(path): the signer's certificate is in the envelope")
            }
            guard let theirProfile = expected["profile"] as? [String: Any] else { continue }
            guard let profile = entry["profile"] as? [String: Any] else { XCTFail("\(path): no profile"); continue }
            for key in ["expires", "teamIdentifier", "appID"] { XCTAssertEqual(profile[key] as? String, theirProfile[key] as? String, "\(path): \(key)") }
            XCTAssertEqual(profile["devices"] as? Int ?? 0, theirProfile["devices"] as? Int, "\(path): devices")
            XCTAssertEqual((profile["entitlements"] as? [String: Any])?.count, theirProfile["entitlements"] as? Int, "\(path): entitlements")
            let ourCertificates = profile["developerCertificates"] as? [[String: Any]] ?? []
            let theirCertificates = theirProfile["developerCertificates"] as? [[String: Any]] ?? []
            XCTAssertEqual(ourCertificates.count, theirCertificates.count, "\(path): developer certificates")
            for (a, b) in zip(ourCertificates, theirCertificates) {
                for key in ["serial", "notBefore", "notAfter"] { XCTAssertEqual(a[key] as? String, b[key] as? String, "\(path): developer certificate \(key)") }
                XCTAssertNotNil(a["subject"] as? String, path)
            }
            XCTAssertEqual(profile["expired"] as? Bool, true, "\(path): expired by today")
        }
    }
}
