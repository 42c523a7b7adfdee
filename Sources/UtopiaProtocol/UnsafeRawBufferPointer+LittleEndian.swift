/// Little-endian reads at byte offsets. Callers check bounds first: these
/// functions are only called after the payload length has been validated.
// Wire boundary: little-endian reads from a received frame's bytes, bounds checked by the validator first.
extension UnsafeRawBufferPointer {
    @inline(__always)
    func uint8(at offset: Int) -> UInt8 {
        self[offset]
    }

    @inline(__always)
    func uint16(at offset: Int) -> UInt16 {
        UInt16(littleEndian: loadUnaligned(fromByteOffset: offset, as: UInt16.self))
    }

    @inline(__always)
    func int32(at offset: Int) -> Int32 {
        Int32(littleEndian: loadUnaligned(fromByteOffset: offset, as: Int32.self))
    }

    @inline(__always)
    func float32(at offset: Int) -> Float {
        Float(bitPattern: UInt32(littleEndian: loadUnaligned(fromByteOffset: offset, as: UInt32.self)))
    }

    /// `count` bytes starting at `offset`, `stride` bytes apart.
    func uint8s(at offset: Int, count: Int, stride: Int) -> [UInt8] {
        // Wire boundary: one bulk copy of a payload's byte array into a new array.
        [UInt8](unsafeUninitializedCapacity: count) { values, initialized in
            for index in 0..<count { values[index] = self[offset + stride * index] }
            initialized = count
        }
    }

    /// `count` float32 values starting at `offset`, `stride` bytes apart.
    func float32s(at offset: Int, count: Int, stride: Int = 4) -> [Float] {
        // Wire boundary: one bulk copy of a payload's float32 samples into a new array.
        [Float](unsafeUninitializedCapacity: count) { values, initialized in
            for index in 0..<count { values[index] = float32(at: offset + stride * index) }
            initialized = count
        }
    }
}
