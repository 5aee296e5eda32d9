import ArchivistCore
import SwiftASN1
import X509

/// A CMS (PKCS #7) `SignedData` envelope, as signed profiles wrap their
/// property list (`.mobileprovision`, `.provisionprofile`, signed
/// `.mobileconfig`): the content it encapsulates, the certificates it
/// carries and its signers. DER or BER (indefinite lengths, chunked octet
/// strings), parsed with swift-asn1 into the CMS types of `CMS/`, the
/// certificates read with swift-certificates.
///
/// The signature is parsed, not verified: nothing here checks it against
/// the content or the certificates against a root.
package struct SignedEnvelope {
    /// One signer, with the certificate its identifier names when the
    /// envelope carries it.
    package struct Signer {
        /// The signing certificate's subject (nil when the envelope does not carry it).
        package var subject: String?
        /// The issuer and serial number the signer names, or its subject key identifier (hex).
        package var issuer: String?
        package var serial: String?
        package var subjectKeyIdentifier: String?
        /// The `signingTime` signed attribute.
        package var signingTime: PlistDate?
        /// The digest algorithm's name (`sha256`) or, when unknown, its OID.
        package var digest: String
    }

    /// The encapsulated content (the property list of a signed profile).
    package let content: [UInt8]
    /// The certificates the envelope carries, in order, as DER.
    package let certificateBytes: [ArraySlice<UInt8>]
    private let signerInfos: [CMSSignerInfo]

    /// The certificates the envelope carries, in order, read with
    /// swift-certificates. Throws a `PlistError` (`.corrupt`) for one that
    /// is not a certificate.
    package func certificates() throws -> [Certificate] {
        do {
            return try certificateBytes.map { try Certificate(derEncoded: $0) }
        } catch let error as ASN1Error {
            throw Self.corrupt("a certificate: " + Self.describe(error))
        } catch {
            throw Self.corrupt("a certificate: \(error)")
        }
    }

    /// The signers, in order, each with the certificate it names.
    package func signers() throws -> [Signer] {
        let certificates = try certificates()
        return signerInfos.map { Self.signer($0, certificates: certificates) }
    }

    /// Reads an envelope. Throws a `PlistError` (`.corrupt`) naming what is
    /// wrong when the bytes are not a `SignedData` with content;
    /// `.limitExceeded` above `limits.maxInputSize`.
    package init(_ buffer: UnsafeRawBufferPointer, limits: Limits = Limits()) throws {
        guard buffer.count <= limits.maxInputSize else {
            throw PlistError(.limitExceeded, "input of \(buffer.count) bytes exceeds the limit of \(limits.maxInputSize)")
        }
        let info: CMSContentInfo
        do {
            info = try CMSContentInfo(berEncoded: BER.parse(Array(buffer)))
        } catch let error as ASN1Error {
            throw Self.corrupt(Self.describe(error))
        } catch let error as PlistError {
            throw error
        } catch {
            throw Self.corrupt("\(error)")
        }
        let signed = info.signedData
        guard let content = signed.encapContentInfo.eContent else {
            throw Self.corrupt("the signed data has no content (a detached signature)")
        }
        self.content = Array(content.bytes)
        certificateBytes = signed.certificates
        signerInfos = signed.signerInfos
    }

    /// Reads an envelope's bytes.
    package init(_ bytes: [UInt8], limits: Limits = Limits()) throws {
        self = try bytes.withUnsafeBytes { try SignedEnvelope($0, limits: limits) }
    }

    private static func signer(_ info: CMSSignerInfo, certificates: [Certificate]) -> Signer {
        var signer = Signer(digest: algorithmName(info.digestAlgorithm))
        signer.signingTime = info.signingTime.map { PlistDate(secondsSinceReferenceDate: $0.secondsSinceReferenceDate) }
        switch info.identifier {
        case .issuerAndSerialNumber(let issuer, let serial):
            signer.issuer = issuer.description
            signer.serial = Self.hex(serial)
            signer.subject = certificates.first { $0.issuer == issuer && $0.serialNumber == serial }?.subject.description
        case .subjectKeyIdentifier(let key):
            signer.subjectKeyIdentifier = Self.hex(key, trimmingZeros: false)
            signer.subject = certificates.first {
                (try? $0.extensions.subjectKeyIdentifier)??.keyIdentifier.elementsEqual(key) == true
            }?.subject.description
        }
        return signer
    }

    /// A serial number as one hexadecimal number (`1A2B`, as `openssl x509
    /// -serial` prints it), without leading zeros.
    package static func hex(_ serial: Certificate.SerialNumber) -> String { hex(Array(serial.bytes)) }

    /// Bytes in uppercase hexadecimal, two digits each; `trimmingZeros`: as
    /// a number, without leading zeros.
    static func hex(_ bytes: [UInt8], trimmingZeros: Bool = true) -> String {
        let digits = Array("0123456789ABCDEF")
        var text = ""
        for byte in bytes { text.append(digits[Int(byte >> 4)]); text.append(digits[Int(byte & 0x0F)]) }
        guard trimmingZeros else { return text }
        let trimmed = text.drop { $0 == "0" }
        return trimmed.isEmpty ? "0" : String(trimmed)
    }

    /// A digest algorithm's usual name.
    static func algorithmName(_ oid: ASN1ObjectIdentifier) -> String {
        switch oid.description {
        case "1.3.14.3.2.26": return "sha1"
        case "2.16.840.1.101.3.4.2.1": return "sha256"
        case "2.16.840.1.101.3.4.2.2": return "sha384"
        case "2.16.840.1.101.3.4.2.3": return "sha512"
        case "1.2.840.113549.2.5": return "md5"
        default: return oid.description
        }
    }

    static func corrupt(_ message: String) -> PlistError {
        PlistError(.corrupt, "CMS signed envelope: \(message)", at: .binary(offset: 0, object: nil))
    }

    /// swift-asn1's error (`ASN1Error.CODE: REASON FILE:LINE`) as its
    /// code and reason, without the library's source location.
    static func describe(_ error: ASN1Error) -> String {
        var text = Substring(String(describing: error))
        if text.hasPrefix("ASN1Error.") { text = text.dropFirst("ASN1Error.".count) }
        if let space = text.lastIndex(of: " "), text[text.index(after: space)...].contains(".swift:") { text = text[..<space] }
        return String(text)
    }
}
