/// A date: seconds since 2001-01-01T00:00:00Z (Core Foundation's absolute time),
/// with sub-second precision kept.
public struct PlistDate: Sendable, Hashable, CustomStringConvertible {
    /// Seconds since 2001-01-01T00:00:00Z; negative before it.
    public let secondsSinceReferenceDate: Double

    /// The date that many seconds after (or before) 2001-01-01T00:00:00Z.
    ///
    /// - Parameter secondsSinceReferenceDate: Seconds since 2001-01-01 00:00:00 UTC.
    @inlinable public init(secondsSinceReferenceDate: Double) {
        self.secondsSinceReferenceDate = secondsSinceReferenceDate
    }

    /// Seconds between 1970-01-01 and 2001-01-01.
    public static let secondsFrom1970To2001: Double = 978_307_200

    /// The same instant as seconds since 1970-01-01T00:00:00Z.
    public var secondsSince1970: Double { secondsSinceReferenceDate + Self.secondsFrom1970To2001 }

    /// ISO 8601 in UTC, whole seconds floored, as Foundation writes `<date>`.
    public var description: String { ISO8601.format(self) }
}
