/// An integer of a property list: the whole signed 64-bit range plus the unsigned
/// values above `Int64.max` that binary plists store in 16-byte integers.
///
/// The representation is normalised: a value that fits in `Int64` is always
/// held as signed, so two equal numbers are always `==`.
public struct PlistInteger: Hashable, Sendable, CustomStringConvertible {
    /// The two's-complement bits of the value.
    public let bitPattern: UInt64
    /// True when the value is above `Int64.max` and `bitPattern` reads as unsigned.
    public let isUnsignedBeyondInt64: Bool

    /// A signed value.
    ///
    /// - Parameter value: The signed value.
    @inlinable public init(_ value: Int64) {
        bitPattern = UInt64(bitPattern: value)
        isUnsignedBeyondInt64 = false
    }

    /// An unsigned value; values up to `Int64.max` are held as signed.
    ///
    /// - Parameter value: The unsigned value (above `Int64.max` it stays unsigned).
    @inlinable public init(_ value: UInt64) {
        bitPattern = value
        isUnsignedBeyondInt64 = value > UInt64(Int64.max)
    }

    /// The value as `Int64`, or nil when it is above `Int64.max`.
    @inlinable public var int64Value: Int64? {
        isUnsignedBeyondInt64 ? nil : Int64(bitPattern: bitPattern)
    }

    /// The value as `UInt64`, or nil when it is negative.
    @inlinable public var uint64Value: UInt64? {
        if isUnsignedBeyondInt64 { return bitPattern }
        let s = Int64(bitPattern: bitPattern)
        return s < 0 ? nil : UInt64(s)
    }

    /// True for values below zero.
    @inlinable public var isNegative: Bool {
        !isUnsignedBeyondInt64 && Int64(bitPattern: bitPattern) < 0
    }

    /// The value as a Double (rounded for magnitudes above 2^53).
    public var doubleValue: Double {
        isUnsignedBeyondInt64 ? Double(bitPattern) : Double(Int64(bitPattern: bitPattern))
    }

    /// Plain decimal, unsigned above `Int64.max` (as CoreFoundation prints it).
    public var description: String {
        isUnsignedBeyondInt64 ? String(bitPattern) : String(Int64(bitPattern: bitPattern))
    }
}
