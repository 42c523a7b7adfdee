extension UtopiaCodec {
    /// Every message of a frame holding one or several concatenated messages.
    /// Throws on the first malformed message; an empty frame is an error.
    public static func decode(frame: [UInt8]) throws(UtopiaDecodingError) -> [UtopiaMessage] {
        try decodeResult(frame: frame).get()
    }

    /// Every message of a frame given as raw bytes (for example a ZeroMQ
    /// message's data, without copying it).
    // Wire boundary: decodes a frame in the buffer it arrived in (a ZeroMQ message or a socket read).
    public static func decode(frame: UnsafeRawBufferPointer) throws(UtopiaDecodingError) -> [UtopiaMessage] {
        try decodeResult(frame: frame).get()
    }

    /// Like `decode(frame:)` but returns the error as a value: for
    /// receive loops that drop and count malformed frames. Nothing is thrown
    /// on the way, which also keeps it cheap under test runners that record
    /// a backtrace for every thrown error.
    public static func decodeResult(frame: [UInt8]) -> Result<[UtopiaMessage], UtopiaDecodingError> {
        // Wire boundary: the array's bytes are read in place by the decoder.
        frame.withUnsafeBytes { decodeResult(frame: $0) }
    }

    /// Like `decode(frame:)` on raw bytes, but returns the error as a value.
    // Wire boundary: the decoder reads the frame in place; every read is checked against its length.
    public static func decodeResult(frame: UnsafeRawBufferPointer) -> Result<[UtopiaMessage], UtopiaDecodingError> {
        var messages = [UtopiaMessage]()
        var offset = 0
        repeat {
            switch decodeMessage(in: frame, at: offset) {
            case .success(let decoded):
                messages.append(decoded.message)
                offset += decoded.byteCount
            case .failure(let error):
                return .failure(error)
            }
        } while offset < frame.count
        return .success(messages)
    }

    /// The first message in `bytes` and how many bytes it took; bytes after
    /// it are not examined. Error offsets count from the start of `bytes`.
    public static func decodeOne(
        _ bytes: UnsafeRawBufferPointer
    ) throws(UtopiaDecodingError) -> (message: UtopiaMessage, byteCount: Int) {
        try decodeMessage(in: bytes, at: 0).get()
    }

    /// The first message in `bytes` and how many bytes it took; slice the
    /// rest with `bytes.dropFirst(byteCount)` to continue.
    public static func decodeOne(
        _ bytes: ArraySlice<UInt8>
    ) throws(UtopiaDecodingError) -> (message: UtopiaMessage, byteCount: Int) {
        // Wire boundary: the array's bytes are read in place by the decoder.
        try bytes.withUnsafeBytes { decodeMessage(in: $0, at: 0) }.get()
    }

    /// Reads the header at `offset`, checks it against the frame and the
    /// payload against its type, then reads the message. Offsets in errors
    /// count from the frame start.
    private static func decodeMessage(
        in frame: UnsafeRawBufferPointer, at offset: Int
    ) -> Result<(message: UtopiaMessage, byteCount: Int), UtopiaDecodingError> {
        let available = frame.count - offset
        guard available >= headerLength else {
            if offset > 0 { return .failure(.trailingBytes(offset: offset, count: available)) }
            return .failure(available == 0 ? .emptyFrame : .truncatedHeader(available: available))
        }
        let id = frame.uint8(at: offset)
        let version = frame.uint8(at: offset + 1)
        let length = Int(frame.uint16(at: offset + 2))
        guard length <= available - headerLength else {
            return .failure(.payloadBeyondFrame(
                messageID: id, offset: offset, declaredLength: length, available: available - headerLength))
        }
        guard let type = UtopiaMessageType(rawValue: id) else {
            return .failure(.unknownMessageID(id, offset: offset))
        }
        guard version <= type.latestVersion else { return .failure(.unsupportedVersion(type, version: version)) }
        let start = offset + headerLength
        // Wire boundary: the payload is a checked slice of the frame, not a copy.
        let payload = UnsafeRawBufferPointer(rebasing: frame[start..<(start + length)])
        if let problem = UtopiaPayloadValidator.problem(in: payload, of: type, version: version) {
            return .failure(problem)
        }
        let message = UtopiaPayloadReader.message(from: payload, of: type, version: version)
        return .success((message, headerLength + length))
    }
}
