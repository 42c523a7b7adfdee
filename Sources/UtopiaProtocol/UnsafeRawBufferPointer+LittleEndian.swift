/// Little-endian reads at byte offsets. Callers check bounds first: these
/// functions are only called after the payload length has been validated.
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

    /// `count` float32 values starting at `offset`.
    func float32s(at offset: Int, count: Int) -> [Float] {
        [Float](unsafeUninitializedCapacity: count) { values, initialized in
            for index in 0..<count { values[index] = float32(at: offset + 4 * index) }
            initialized = count
        }
    }
}
