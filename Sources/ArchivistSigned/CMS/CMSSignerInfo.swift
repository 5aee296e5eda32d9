import SwiftASN1
import X509

/// RFC 5652 `SignerInfo`:
///
/// ```
/// SignerInfo ::= SEQUENCE {
///   version CMSVersion,
///   sid SignerIdentifier,
///   digestAlgorithm DigestAlgorithmIdentifier,
///   signedAttrs [0] IMPLICIT SignedAttributes OPTIONAL,
///   signatureAlgorithm SignatureAlgorithmIdentifier,
///   signature SignatureValue,
///   unsignedAttrs [1] IMPLICIT UnsignedAttributes OPTIONAL }
///
/// SignerIdentifier ::= CHOICE {
///   issuerAndSerialNumber IssuerAndSerialNumber,
///   subjectKeyIdentifier [0] SubjectKeyIdentifier }
/// ```
///
/// Of the signed attributes only the signing time is kept. The signature
/// is read, not verified.
struct CMSSignerInfo: BERParseable {
    enum Identifier {
        case issuerAndSerialNumber(issuer: DistinguishedName, serial: Certificate.SerialNumber)
        case subjectKeyIdentifier([UInt8])
    }

    var version: Int
    var identifier: Identifier
    var digestAlgorithm: ASN1ObjectIdentifier
    var signatureAlgorithm: ASN1ObjectIdentifier
    /// The `signingTime` signed attribute, when there is one.
    var signingTime: CMSTime?

    init(derEncoded node: ASN1Node) throws { try self.init(berEncoded: node) }

    init(berEncoded node: ASN1Node) throws {
        self = try BER.sequence(node, identifier: .sequence) { nodes in
            let version = try Int(berEncoded: &nodes)
            guard let sidNode = nodes.next() else { throw ASN1Error.invalidASN1Object(reason: "a signer has no identifier") }
            let identifier: Identifier
            switch sidNode.identifier {
            case .sequence:
                identifier = try BER.sequence(sidNode, identifier: .sequence) { nodes in
                    // The plain (not implicitly tagged) parser, as swift-certificates' own workaround calls it.
                    let name: (inout ASN1NodeCollection.Iterator) throws -> DistinguishedName = DistinguishedName.init(derEncoded:)
                    let issuer = try name(&nodes)
                    let serial = try ArraySlice<UInt8>(berEncoded: &nodes)
                    return .issuerAndSerialNumber(issuer: issuer, serial: Certificate.SerialNumber(bytes: serial))
                }
            case ASN1Identifier(tagWithNumber: 0, tagClass: .contextSpecific):
                let key = try ASN1OctetString(berEncoded: sidNode, withIdentifier: ASN1Identifier(tagWithNumber: 0, tagClass: .contextSpecific))
                identifier = .subjectKeyIdentifier(Array(key.bytes))
            default:
                throw ASN1Error.unexpectedFieldType(sidNode.identifier)
            }
            let digest = try CMSAlgorithm(berEncoded: &nodes).algorithm
            var signingTime: CMSTime?
            let attributes = try BER.optionalImplicitlyTagged(&nodes, tagNumber: 0, tagClass: .contextSpecific) { node in
                try BER.set(of: CMSAttribute.self, identifier: ASN1Identifier(tagWithNumber: 0, tagClass: .contextSpecific), rootNode: node)
            }
            for attribute in attributes ?? [] where attribute.type == .cmsSigningTime {
                signingTime = attribute.values.first.flatMap { CMSTime($0) }
            }
            let signatureAlgorithm = try CMSAlgorithm(berEncoded: &nodes).algorithm
            _ = try ASN1OctetString(berEncoded: &nodes)
            _ = BER.optionalImplicitlyTagged(&nodes, tagNumber: 1, tagClass: .contextSpecific) { _ in }
            return CMSSignerInfo(version: version, identifier: identifier, digestAlgorithm: digest,
                                 signatureAlgorithm: signatureAlgorithm, signingTime: signingTime)
        }
    }

    init(version: Int, identifier: Identifier, digestAlgorithm: ASN1ObjectIdentifier,
         signatureAlgorithm: ASN1ObjectIdentifier, signingTime: CMSTime?) {
        self.version = version
        self.identifier = identifier
        self.digestAlgorithm = digestAlgorithm
        self.signatureAlgorithm = signatureAlgorithm
        self.signingTime = signingTime
    }
}

/// RFC 5652 `Attribute` (`SEQUENCE { attrType OBJECT IDENTIFIER, attrValues
/// SET OF AttributeValue }`), its values kept as nodes.
struct CMSAttribute: BERParseable {
    var type: ASN1ObjectIdentifier
    var values: [ASN1Node]

    init(derEncoded node: ASN1Node) throws { try self.init(berEncoded: node) }

    init(berEncoded node: ASN1Node) throws {
        self = try BER.sequence(node, identifier: .sequence) { nodes in
            let type = try ASN1ObjectIdentifier(berEncoded: &nodes)
            guard let set = nodes.next(), set.identifier == .set, case .constructed(let children) = set.content else {
                throw ASN1Error.invalidASN1Object(reason: "an attribute has no set of values")
            }
            return CMSAttribute(type: type, values: Array(children))
        }
    }

    init(type: ASN1ObjectIdentifier, values: [ASN1Node]) {
        self.type = type
        self.values = values
    }
}

/// A `Time` (`UTCTime` or `GeneralizedTime`) as seconds since 1 January
/// 2001 UTC, the reference date of property-list dates.
struct CMSTime {
    var secondsSinceReferenceDate: Double

    init?(_ node: ASN1Node) {
        if let t = try? UTCTime(berEncoded: node) {
            secondsSinceReferenceDate = Self.seconds(t.year, t.month, t.day, t.hours, t.minutes, Double(t.seconds))
        } else if let t = try? GeneralizedTime(berEncoded: node) {
            secondsSinceReferenceDate = Self.seconds(t.year, t.month, t.day, t.hours, t.minutes, Double(t.seconds) + t.fractionalSeconds)
        } else {
            return nil
        }
    }

    /// Seconds from 2001-01-01T00:00:00Z to a UTC civil time (the proleptic
    /// Gregorian calendar; swift-asn1 has checked the fields' ranges).
    static func seconds(_ year: Int, _ month: Int, _ day: Int, _ hours: Int, _ minutes: Int, _ seconds: Double) -> Double {
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yoe = y - era * 400
        let doy = (153 * (month > 2 ? month - 3 : month + 9) + 2) / 5 + day - 1
        let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy
        let days1970 = era * 146_097 + doe - 719_468
        let days2001 = days1970 - 11_323
        return Double(days2001 * 86_400 + hours * 3_600 + minutes * 60) + seconds
    }
}
