extension UtopiaPayloadWriter {
    /// The bytes of a framed STIMULUSEVENT (header, timestamp, object count,
    /// the (object ID, state) pairs), after checking it can be encoded: the
    /// ID and state counts agree and are at most 255, so at most 519 bytes.
    static func framedLength(of event: StimulusEvent) throws(UtopiaEncodingError) -> Int {
        try checkObjects(.stimulusEvent, ids: event.objIDs.count, values: event.objStates.count)
        return UtopiaCodec.headerLength + 5 + 2 * event.objIDs.count
    }

    /// Writes a framed STIMULUSEVENT at `frame`, which has room for
    /// `framedLength(of:)` bytes (call that first). The engine sends one
    /// every flicker frame, so this writes the bytes in place rather than
    /// appending them one by one.
    // Wire boundary: writes a STIMULUSEVENT frame into memory the caller sized with framedLength.
    static func writeFramed(_ event: StimulusEvent, to frame: UnsafeMutableRawPointer) {
        let objects = event.objIDs.count
        let payloadLength = 5 + 2 * objects
        let timestamp = UInt32(bitPattern: event.timestamp)
        let bytes = frame.assumingMemoryBound(to: UInt8.self)
        bytes[0] = UtopiaMessageType.stimulusEvent.rawValue
        bytes[1] = 0
        bytes[2] = UInt8(truncatingIfNeeded: payloadLength)
        bytes[3] = UInt8(truncatingIfNeeded: payloadLength &>> 8)
        bytes[4] = UInt8(truncatingIfNeeded: timestamp)
        bytes[5] = UInt8(truncatingIfNeeded: timestamp &>> 8)
        bytes[6] = UInt8(truncatingIfNeeded: timestamp &>> 16)
        bytes[7] = UInt8(truncatingIfNeeded: timestamp &>> 24)
        bytes[8] = UInt8(truncatingIfNeeded: objects)
        // Wire boundary: the ids and states are copied pairwise into the frame.
        event.objIDs.withUnsafeBufferPointer { ids in
            event.objStates.withUnsafeBufferPointer { states in
                for object in 0..<objects {
                    bytes[9 &+ 2 &* object] = ids[object]
                    bytes[10 &+ 2 &* object] = states[object]
                }
            }
        }
    }

    /// Appends a framed STIMULUSEVENT to `buffer` in one copy, or throws and
    /// leaves `buffer` unchanged.
    static func appendFramed(_ event: StimulusEvent, into buffer: inout [UInt8]) throws(UtopiaEncodingError) {
        let frameLength = try framedLength(of: event)
        buffer.reserveGeometrically(extra: frameLength)
        // Wire boundary: the frame is built on the stack, then appended in one copy.
        withUnsafeTemporaryAllocation(byteCount: frameLength, alignment: 1) { frame in
            writeFramed(event, to: frame.baseAddress!)
            buffer.append(contentsOf: UnsafeRawBufferPointer(frame))
        }
    }
}
