import SwiftASN1

extension ASN1ObjectIdentifier {
    /// `id-data` (1.2.840.113549.1.7.1): the content type of a plain octet string.
    static let cmsData: ASN1ObjectIdentifier = [1, 2, 840, 113549, 1, 7, 1]
    /// `id-signedData` (1.2.840.113549.1.7.2).
    static let cmsSignedData: ASN1ObjectIdentifier = [1, 2, 840, 113549, 1, 7, 2]
    /// `id-signingTime` (1.2.840.113549.1.9.5), a signed attribute.
    static let cmsSigningTime: ASN1ObjectIdentifier = [1, 2, 840, 113549, 1, 9, 5]
}

/// RFC 5652 `ContentInfo` whose content is `SignedData`:
///
/// ```
/// ContentInfo ::= SEQUENCE {
///   contentType ContentType,
///   content [0] EXPLICIT ANY DEFINED BY contentType }
/// ```
///
/// Parsed from BER (DER is BER), as swift-certificates' internal CMS types
/// are: swift-asn1 builds the node tree (bounded depth), these types take
/// it apart. Only what the envelope's reader needs is kept.
struct CMSContentInfo: BERParseable {
    var contentType: ASN1ObjectIdentifier
    var signedData: CMSSignedData

    init(derEncoded node: ASN1Node) throws { try self.init(berEncoded: node) }

    init(berEncoded node: ASN1Node) throws {
        self = try BER.sequence(node, identifier: .sequence) { nodes in
            let contentType = try ASN1ObjectIdentifier(berEncoded: &nodes)
            guard contentType == .cmsSignedData else {
                throw ASN1Error.invalidASN1Object(reason: "the content type is \(contentType), not signed data (1.2.840.113549.1.7.2)")
            }
            let signedData = try BER.explicitlyTagged(&nodes, tagNumber: 0, tagClass: .contextSpecific) { node in
                try CMSSignedData(berEncoded: node)
            }
            return CMSContentInfo(contentType: contentType, signedData: signedData)
        }
    }

    init(contentType: ASN1ObjectIdentifier, signedData: CMSSignedData) {
        self.contentType = contentType
        self.signedData = signedData
    }
}
