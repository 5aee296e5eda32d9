/// A floating-point value and the width it was stored in.
public struct PlistReal: Sendable, CustomStringConvertible {
    /// How many bits the value occupied in its source (binary plists have both).
    public enum Width: Sendable, Hashable {
        /// IEEE 754 single precision (4 bytes).
        case bits32
        /// IEEE 754 double precision (8 bytes).
        case bits64
    }

    /// The value, widened to `Double` when it was 32-bit.
    public let value: Double
    /// The width it was stored in.
    public let width: Width

    /// A real of the given width (64-bit unless said).
    ///
    /// - Parameters:
    ///   - value: The value.
    ///   - width: The width a binary plist stores it in.
    @inlinable public init(_ value: Double, width: Width = .bits64) {
        self.value = value
        self.width = width
    }

    /// A 32-bit real, widened exactly to `Double`.
    ///
    /// - Parameter float: The 32-bit value.
    @inlinable public init(float: Float) {
        self.value = Double(float)
        self.width = .bits32
    }

    /// Swift's shortest round-tripping form of the value.
    public var description: String { value.description }
}

extension PlistReal: Equatable {
    /// Equal values are equal whatever their width; NaN equals NaN so that
    /// round trips compare true.
    @inlinable public static func == (lhs: PlistReal, rhs: PlistReal) -> Bool {
        lhs.value == rhs.value || (lhs.value.isNaN && rhs.value.isNaN)
    }
}
