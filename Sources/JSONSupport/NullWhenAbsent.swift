/// An optional field whose JSON key is always written: nil as `null`.
///
/// Swift's synthesised `Encodable` leaves out the key of a nil optional. The
/// reports this package prints as JSON (recording summaries, playback and
/// zero-training results, benchmark results) promise every key, so a script
/// reads `"pressed": null` rather than guessing why a key is missing. Mark
/// the optional properties and keep the synthesised coding:
///
/// ```swift
/// struct Trial: Codable {
///     var target: Int
///     @NullWhenAbsent var pressed: Int?
/// }
/// ```
///
/// Decoding accepts the key as `null` or missing (see the
/// `KeyedDecodingContainer` extension), so older files still read.
@propertyWrapper
public struct NullWhenAbsent<Value> {
    /// The value; nil is written as `null`.
    public var wrappedValue: Value?

    /// Wraps `wrappedValue`.
    public init(wrappedValue: Value?) { self.wrappedValue = wrappedValue }
}

extension NullWhenAbsent: Encodable where Value: Encodable {
    /// Writes the value, or `null`.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        if let wrappedValue { try container.encode(wrappedValue) } else { try container.encodeNil() }
    }
}

extension NullWhenAbsent: Decodable where Value: Decodable {
    /// Reads the value, or nil for `null`.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        wrappedValue = container.decodeNil() ? nil : try container.decode(Value.self)
    }
}

extension NullWhenAbsent: Equatable where Value: Equatable {}
extension NullWhenAbsent: Hashable where Value: Hashable {}
extension NullWhenAbsent: Sendable where Value: Sendable {}

extension KeyedDecodingContainer {
    /// A missing key reads as nil, as it would for a plain optional.
    public func decode<Value: Decodable>(_ type: NullWhenAbsent<Value>.Type, forKey key: Key) throws -> NullWhenAbsent<Value> {
        try decodeIfPresent(type, forKey: key) ?? NullWhenAbsent(wrappedValue: nil)
    }
}
