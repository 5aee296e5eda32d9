/// A count with its noun, in the singular for one: `1 key`, `2 keys`,
/// `0 property lists`. Every message that counts things says it this way.
package func counted(_ count: Int, _ singular: String, _ plural: String? = nil) -> String {
    "\(count) \(count == 1 ? singular : plural ?? singular + "s")"
}
