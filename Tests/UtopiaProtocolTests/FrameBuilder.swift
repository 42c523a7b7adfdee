import UtopiaProtocol

/// Hand-built frames for tests: header plus payload, fields little-endian.
enum FrameBuilder {
    /// A message header for `id` (an ASCII letter) whose length field is the payload's size,
    /// unless `declaredLength` overrides it.
    static func frame(
        _ id: Unicode.Scalar, version: UInt8 = 0, declaredLength: Int? = nil, _ payload: [UInt8]
    ) -> [UInt8] {
        let length = UInt16(truncatingIfNeeded: declaredLength ?? payload.count)
        return [UInt8(id.value), version, UInt8(length & 0xFF), UInt8(length >> 8)] + payload
    }

    static func int32(_ value: Int32) -> [UInt8] {
        let bits = UInt32(bitPattern: value)
        return (0..<4).map { UInt8(truncatingIfNeeded: bits >> (8 * $0)) }
    }

    static func float32(_ value: Float) -> [UInt8] {
        int32(Int32(bitPattern: value.bitPattern))
    }
}
