extension UtopiaPayloadWriter {
    /// Appends one whole framed STIMULUSEVENT: header, timestamp, object
    /// count and the (object ID, state) pairs. The engine sends one every
    /// flicker frame, so the frame (at most 519 bytes) is assembled on the
    /// stack and appended with one copy instead of byte by byte.
    ///
    /// Throws, leaving `buffer` unchanged, when the ID and state counts
    /// differ or exceed 255.
    static func appendFramed(_ event: StimulusEvent, into buffer: inout [UInt8]) throws(UtopiaEncodingError) {
        let objects = event.objIDs.count
        try checkObjects(.stimulusEvent, ids: objects, values: event.objStates.count)
        let payloadLength = 5 + 2 * objects
        let frameLength = UtopiaCodec.headerLength + payloadLength
        buffer.reserveGeometrically(extra: frameLength)
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: frameLength) { frame in
            let timestamp = UInt32(bitPattern: event.timestamp)
            frame[0] = UtopiaMessageType.stimulusEvent.rawValue
            frame[1] = 0
            frame[2] = UInt8(truncatingIfNeeded: payloadLength)
            frame[3] = UInt8(truncatingIfNeeded: payloadLength &>> 8)
            frame[4] = UInt8(truncatingIfNeeded: timestamp)
            frame[5] = UInt8(truncatingIfNeeded: timestamp &>> 8)
            frame[6] = UInt8(truncatingIfNeeded: timestamp &>> 16)
            frame[7] = UInt8(truncatingIfNeeded: timestamp &>> 24)
            frame[8] = UInt8(truncatingIfNeeded: objects)
            event.objIDs.withUnsafeBufferPointer { ids in
                event.objStates.withUnsafeBufferPointer { states in
                    for object in 0..<objects {
                        frame[9 &+ 2 &* object] = ids[object]
                        frame[10 &+ 2 &* object] = states[object]
                    }
                }
            }
            buffer.append(contentsOf: UnsafeBufferPointer(frame))
        }
    }
}
