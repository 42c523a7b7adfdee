/// Checks a payload's length, counts and texts against its message type
/// before anything is read from it. Returns the problem as a value rather
/// than throwing, so that a receive loop can drop malformed frames cheaply.
/// Layouts as in Protocols/decoder-bridge-messages.md.
enum UtopiaPayloadValidator {
    /// The reason `p` is not a valid payload of a `type` message of
    /// `version`, or nil when ``UtopiaPayloadReader`` may read it.
    static func problem(
        // Wire boundary: checks a received payload's lengths and text in place, before anything reads it.
        in p: UnsafeRawBufferPointer, of type: UtopiaMessageType, version: UInt8
    ) -> UtopiaDecodingError? {
        let minimum = minimumLength(of: type)
        guard p.count >= minimum else { return .payloadTooShort(type, minimum: minimum, actual: p.count) }
        switch type {
        case .heartbeat:
            return version == 0 ? exactLength(type, 4, p) : invalidText(type, field: "state text", p, from: 4)
        case .stimulusEvent: return objectRecords(type, p, stride: 2)
        case .predictedTargetProb: return exactLength(type, 9, p)
        case .predictedTargetDist: return objectRecords(type, p, stride: 5)
        case .dataPacket: return sampleRows(p)
        case .dataHeader: return invalidText(type, field: "labels", p, from: 12)
        case .newTarget, .reset: return exactLength(type, 4, p)
        case .selection: return exactLength(type, 5, p)
        case .modeChange: return invalidText(type, field: "mode", p, from: 4)
        case .log: return invalidText(type, field: "text", p, from: 4)
        case .signalQuality:
            let byteCount = p.count - 4
            return byteCount % 4 == 0 ? nil : .misalignedValues(type, byteCount: byteCount, stride: 4)
        case .subscribe: return invalidText(type, field: "message ids", p, from: 4)
        case .certaintyThreshold: return exactLength(type, 8, p)
        case .selectionRevised: return exactLength(type, 9, p)
        case .calibrationResult:
            let fitted = p.uint8(at: 4)
            guard fitted <= 1 else { return .invalidFlag(type, field: "fitted", value: fitted) }
            return invalidText(type, field: "summary", p, from: 17)
        }
    }

    /// Bytes of the fixed fields every payload of `type` starts with.
    static func minimumLength(of type: UtopiaMessageType) -> Int {
        switch type {
        case .dataPacket, .certaintyThreshold: return 8
        case .predictedTargetProb, .selectionRevised: return 9
        case .dataHeader: return 12
        case .calibrationResult: return 17
        case .stimulusEvent, .predictedTargetDist, .selection: return 5
        case .heartbeat, .newTarget, .reset, .modeChange, .log, .signalQuality, .subscribe: return 4
        }
    }

    private static func exactLength(
        _ type: UtopiaMessageType, _ expected: Int, _ p: UnsafeRawBufferPointer
    ) -> UtopiaDecodingError? {
        p.count == expected ? nil : .payloadLengthMismatch(type, expected: expected, actual: p.count)
    }

    /// The uint8 count at offset 4 must be followed by exactly that many
    /// records of `stride` bytes.
    private static func objectRecords(
        _ type: UtopiaMessageType, _ p: UnsafeRawBufferPointer, stride: Int
    ) -> UtopiaDecodingError? {
        let count = Int(p.uint8(at: 4))
        let needed = stride * count
        let available = p.count - 5
        guard needed <= available else {
            return .countOverrunsPayload(type, count: count, needed: needed, available: available)
        }
        return exactLength(type, 5 + needed, p)
    }

    /// DATAPACKET: the int32 sample count at offset 4 must divide the
    /// remaining bytes into rows of at least one float32 channel each.
    private static func sampleRows(_ p: UnsafeRawBufferPointer) -> UtopiaDecodingError? {
        let count = Int(p.int32(at: 4))
        guard count >= 0 else { return .negativeCount(.dataPacket, count: count) }
        guard count > 0 else { return exactLength(.dataPacket, 8, p) }
        let body = p.count - 8
        let bytesPerChannel = 4 * count  // one float32 per sample
        guard body >= bytesPerChannel else {
            return .countOverrunsPayload(.dataPacket, count: count, needed: bytesPerChannel, available: body)
        }
        return body % bytesPerChannel == 0
            ? nil : .misalignedValues(.dataPacket, byteCount: body, stride: bytesPerChannel)
    }

    private static func invalidText(
        _ type: UtopiaMessageType, field: String, _ p: UnsafeRawBufferPointer, from offset: Int
    ) -> UtopiaDecodingError? {
        guard let bad = UTF8Validator.firstInvalidIndex(in: UnsafeRawBufferPointer(rebasing: p[offset...]))
        else { return nil }
        return .invalidUTF8(type, field: field, byteOffset: offset + bad)
    }
}
