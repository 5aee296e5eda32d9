import SwiftASN1

/// RFC 5652 `EncapsulatedContentInfo`:
///
/// ```
/// EncapsulatedContentInfo ::= SEQUENCE {
///   eContentType ContentType,
///   eContent [0] EXPLICIT OCTET STRING OPTIONAL }
/// ```
///
/// In BER the octet string may be constructed (chunks, as `openssl cms
/// -sign -stream` writes it): swift-asn1 joins the chunks.
struct CMSEncapsulatedContentInfo: BERParseable {
    var eContentType: ASN1ObjectIdentifier
    var eContent: ASN1OctetString?

    init(derEncoded node: ASN1Node) throws { try self.init(berEncoded: node) }

    init(berEncoded node: ASN1Node) throws {
        self = try BER.sequence(node, identifier: .sequence) { nodes in
            let type = try ASN1ObjectIdentifier(berEncoded: &nodes)
            let content = try BER.optionalExplicitlyTagged(&nodes, tagNumber: 0, tagClass: .contextSpecific) { node in
                try ASN1OctetString(berEncoded: node)
            }
            return CMSEncapsulatedContentInfo(eContentType: type, eContent: content)
        }
    }

    init(eContentType: ASN1ObjectIdentifier, eContent: ASN1OctetString?) {
        self.eContentType = eContentType
        self.eContent = eContent
    }
}
