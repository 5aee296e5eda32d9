import SwiftASN1
import X509

/// RFC 5652 `SignedData`:
///
/// ```
/// SignedData ::= SEQUENCE {
///   version CMSVersion,
///   digestAlgorithms SET OF DigestAlgorithmIdentifier,
///   encapContentInfo EncapsulatedContentInfo,
///   certificates [0] IMPLICIT CertificateSet OPTIONAL,
///   crls [1] IMPLICIT RevocationInfoChoices OPTIONAL,
///   signerInfos SET OF SignerInfo }
/// ```
///
/// The certificates are kept as their DER bytes, read with
/// swift-certificates (`X509.Certificate`) only when asked (`info`): reading
/// a profile's property list does not parse their keys. A certificate
/// choice that is not an X.509 certificate (an attribute certificate,
/// `[1]`..`[3]`) is skipped. CRLs are skipped.
struct CMSSignedData: BERParseable {
    var version: Int
    var digestAlgorithms: [ASN1ObjectIdentifier]
    var encapContentInfo: CMSEncapsulatedContentInfo
    var certificates: [ArraySlice<UInt8>]
    var signerInfos: [CMSSignerInfo]

    init(derEncoded node: ASN1Node) throws { try self.init(berEncoded: node) }

    init(berEncoded node: ASN1Node) throws {
        self = try BER.sequence(node, identifier: .sequence) { nodes in
            let version = try Int(berEncoded: &nodes)
            let digests = try BER.set(of: CMSAlgorithm.self, identifier: .set, nodes: &nodes).map(\.algorithm)
            let encap = try CMSEncapsulatedContentInfo(berEncoded: &nodes)
            let certificates = try BER.optionalImplicitlyTagged(&nodes, tagNumber: 0, tagClass: .contextSpecific) { node in
                try Self.certificates(in: node)
            } ?? []
            _ = BER.optionalImplicitlyTagged(&nodes, tagNumber: 1, tagClass: .contextSpecific) { _ in }
            let signers = try BER.set(of: CMSSignerInfo.self, identifier: .set, nodes: &nodes)
            return CMSSignedData(version: version, digestAlgorithms: digests, encapContentInfo: encap,
                                 certificates: certificates, signerInfos: signers)
        }
    }

    init(version: Int, digestAlgorithms: [ASN1ObjectIdentifier], encapContentInfo: CMSEncapsulatedContentInfo,
         certificates: [ArraySlice<UInt8>], signerInfos: [CMSSignerInfo]) {
        self.version = version
        self.digestAlgorithms = digestAlgorithms
        self.encapContentInfo = encapContentInfo
        self.certificates = certificates
        self.signerInfos = signerInfos
    }

    /// The encoded X.509 certificates of a `CertificateSet` (its `SEQUENCE` members).
    private static func certificates(in node: ASN1Node) throws -> [ArraySlice<UInt8>] {
        guard case .constructed(let children) = node.content else {
            throw ASN1Error.invalidASN1Object(reason: "the certificate set is not constructed")
        }
        return children.filter { $0.identifier == .sequence }.map(\.encodedBytes)
    }
}

/// An `AlgorithmIdentifier` (`SEQUENCE { algorithm OBJECT IDENTIFIER,
/// parameters ANY OPTIONAL }`), of which only the algorithm is kept.
struct CMSAlgorithm: BERParseable {
    var algorithm: ASN1ObjectIdentifier

    init(derEncoded node: ASN1Node) throws { try self.init(berEncoded: node) }

    init(berEncoded node: ASN1Node) throws {
        algorithm = try BER.sequence(node, identifier: .sequence) { nodes in
            let algorithm = try ASN1ObjectIdentifier(berEncoded: &nodes)
            while nodes.next() != nil {}
            return algorithm
        }
    }
}
