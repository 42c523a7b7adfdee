/// Little-endian appends for building Utopia frames byte by byte, without
/// intermediate arrays.
extension Array where Element == UInt8 {
    @inline(__always)
    mutating func appendLittleEndian(_ value: UInt16) {
        append(UInt8(truncatingIfNeeded: value))
        append(UInt8(truncatingIfNeeded: value &>> 8))
    }

    @inline(__always)
    mutating func appendLittleEndian(_ value: UInt32) {
        append(UInt8(truncatingIfNeeded: value))
        append(UInt8(truncatingIfNeeded: value &>> 8))
        append(UInt8(truncatingIfNeeded: value &>> 16))
        append(UInt8(truncatingIfNeeded: value &>> 24))
    }

    @inline(__always)
    mutating func appendLittleEndian(_ value: Int32) {
        appendLittleEndian(UInt32(bitPattern: value))
    }

    @inline(__always)
    mutating func appendLittleEndian(_ value: Float) {
        appendLittleEndian(value.bitPattern)
    }

    /// Appends every float of `values` as float32 little-endian; one copy on
    /// little-endian hosts.
    @inline(__always)
    mutating func appendLittleEndian(_ values: [Float]) {
        #if _endian(little)
        // Wire boundary: the values' little-endian bytes are appended as they are laid out in memory.
        values.withUnsafeBytes { append(contentsOf: $0) }
        #else
        for value in values { appendLittleEndian(value) }
        #endif
    }

    /// Grows capacity geometrically so that `extra` more bytes fit, so that
    /// appending many messages to one buffer stays linear.
    @inline(__always)
    mutating func reserveGeometrically(extra: Int) {
        let needed = count + extra
        if needed > capacity { reserveCapacity(Swift.max(needed, capacity &* 2)) }
    }
}
