import Foundation

/// Scenario 4, version 1: a contact as the app archived it with the
/// deprecated `archivedData(withRootObject:)` into a Core Data store's blob
/// column (its archived class name is `NSStringFromClass(ContactV1.self)`).
public final class ContactV1: NSObject, NSCoding {
    public let tel: String, fax: String, email: String

    public init(tel: String, fax: String, email: String) {
        self.tel = tel
        self.fax = fax
        self.email = email
    }

    public func encode(with coder: NSCoder) {
        coder.encode(tel, forKey: "tel")
        coder.encode(fax, forKey: "fax")
        coder.encode(email, forKey: "email")
    }

    public init?(coder: NSCoder) { nil }
}
