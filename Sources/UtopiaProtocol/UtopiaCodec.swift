/// The Utopia wire format: each message is `uint8 id, uint8 version,
/// uint16 little-endian payload length, payload`, byte-compatible with the
/// MindAffect `utopiaclient.py` classes. A ZeroMQ frame carries one message
/// or several concatenated ones.
///
/// Size policy: a payload holds at most ``maximumPayloadLength`` (65,535)
/// bytes. `encodeChecked` throws ``UtopiaEncodingError`` for a message that
/// does not fit or cannot be represented; the non-throwing `encode` functions
/// write nothing for such a message (never a truncated frame) and say so in
/// their result. Decoding checks every length before reading and throws
/// ``UtopiaDecodingError``; it never traps on malformed input.
///
/// ```swift
/// let bytes = UtopiaCodec.encode(.newTarget(NewTarget(timestamp: 5555)))
/// ```
public enum UtopiaCodec {
    /// Bytes before the payload: id, version, uint16 payload length.
    ///
    /// ```swift
    /// let payloadBytes = frame.count - UtopiaCodec.headerLength
    /// ```
    public static let headerLength = 4

    /// The largest payload the uint16 length field can describe: 65,535 bytes
    /// (so one message is at most 65,539 bytes with its header).
    ///
    /// ```swift
    /// let fits = payload.count <= UtopiaCodec.maximumPayloadLength
    /// ```
    public static let maximumPayloadLength = Int(UInt16.max)

    // MARK: Encoding

    /// One framed message, or an empty array when the message cannot be
    /// encoded (see ``encodeChecked(_:)`` for the reason).
    ///
    /// ```swift
    /// let frame = UtopiaCodec.encode(.selection(Selection(timestamp: 6666, objID: 9)))
    /// ```
    public static func encode(_ message: UtopiaMessage) -> [UInt8] {
        var buffer = [UInt8]()
        encode(message, into: &buffer)
        return buffer
    }

    /// Appends one framed message to `buffer`, writing the bytes directly.
    /// Returns false, and leaves `buffer` unchanged, when the message cannot
    /// be encoded (too large or inconsistent; ``encodeChecked(_:into:)`` says why).
    ///
    /// ```swift
    /// var out = [UInt8](); out.reserveCapacity(64)
    /// UtopiaCodec.encode(.heartbeat(Heartbeat(timestamp: 1)), into: &out)
    /// ```
    @discardableResult
    public static func encode(_ message: UtopiaMessage, into buffer: inout [UInt8]) -> Bool {
        do {
            try encodeChecked(message, into: &buffer)
            return true
        } catch {
            return false
        }
    }

    /// One framed message, or the reason it cannot be put on the wire.
    ///
    /// ```swift
    /// let frame = try UtopiaCodec.encodeChecked(.log(Log(timestamp: 9, message: "done")))
    /// ```
    public static func encodeChecked(_ message: UtopiaMessage) throws(UtopiaEncodingError) -> [UInt8] {
        var buffer = [UInt8]()
        try encodeChecked(message, into: &buffer)
        return buffer
    }

    /// Appends one framed message to `buffer`, or throws (leaving `buffer`
    /// unchanged) when the payload would exceed ``maximumPayloadLength`` or the
    /// message's fields are inconsistent.
    ///
    /// ```swift
    /// try UtopiaCodec.encodeChecked(.reset(Reset(timestamp: 7777)), into: &out)
    /// ```
    public static func encodeChecked(
        _ message: UtopiaMessage, into buffer: inout [UInt8]
    ) throws(UtopiaEncodingError) {
        let length = try UtopiaPayloadWriter.payloadLength(of: message)
        buffer.reserveGeometrically(extra: headerLength + length)
        buffer.append(message.messageID)
        buffer.append(UtopiaPayloadWriter.version(of: message))
        buffer.appendLittleEndian(UInt16(truncatingIfNeeded: length))
        UtopiaPayloadWriter.writePayload(of: message, into: &buffer)
    }

    // MARK: Decoding

    /// Every message of a frame holding one or several concatenated messages.
    /// Throws on the first malformed message; an empty frame is an error.
    ///
    /// ```swift
    /// let messages = try UtopiaCodec.decode(frame: receivedBytes)
    /// ```
    public static func decode(frame: [UInt8]) throws(UtopiaDecodingError) -> [UtopiaMessage] {
        let result = frame.withUnsafeBytes { raw in
            Result { () throws(UtopiaDecodingError) in try decode(frame: raw) }
        }
        return try result.get()
    }

    /// Every message of a frame given as raw bytes (for example a ZeroMQ
    /// message's data, without copying it).
    ///
    /// ```swift
    /// let messages = try UtopiaCodec.decode(frame: UnsafeRawBufferPointer(start: data, count: size))
    /// ```
    public static func decode(frame: UnsafeRawBufferPointer) throws(UtopiaDecodingError) -> [UtopiaMessage] {
        var messages = [UtopiaMessage]()
        var offset = 0
        repeat {
            let (message, byteCount) = try decodeMessage(in: frame, at: offset)
            messages.append(message)
            offset += byteCount
        } while offset < frame.count
        return messages
    }

    /// The first message in `bytes` and how many bytes it took; bytes after
    /// it are not examined. Error offsets count from the start of `bytes`.
    ///
    /// ```swift
    /// let (message, used) = try UtopiaCodec.decodeOne(raw)
    /// ```
    public static func decodeOne(
        _ bytes: UnsafeRawBufferPointer
    ) throws(UtopiaDecodingError) -> (message: UtopiaMessage, byteCount: Int) {
        let (message, byteCount) = try decodeMessage(in: bytes, at: 0)
        return (message, byteCount)
    }

    /// The first message in `bytes` and how many bytes it took; slice the
    /// rest with `bytes.dropFirst(byteCount)` to continue.
    ///
    /// ```swift
    /// let (message, used) = try UtopiaCodec.decodeOne(frame[...])
    /// ```
    public static func decodeOne(
        _ bytes: ArraySlice<UInt8>
    ) throws(UtopiaDecodingError) -> (message: UtopiaMessage, byteCount: Int) {
        let result = bytes.withUnsafeBytes { raw in
            Result { () throws(UtopiaDecodingError) in try decodeOne(raw) }
        }
        return try result.get()
    }

    /// Reads the header at `offset`, checks it against the frame, then
    /// decodes the payload. Offsets in errors count from the frame start.
    private static func decodeMessage(
        in frame: UnsafeRawBufferPointer, at offset: Int
    ) throws(UtopiaDecodingError) -> (UtopiaMessage, Int) {
        let available = frame.count - offset
        guard available >= headerLength else {
            if offset > 0 { throw .trailingBytes(offset: offset, count: available) }
            throw available == 0 ? .emptyFrame : .truncatedHeader(available: available)
        }
        let id = frame.uint8(at: offset)
        let version = frame.uint8(at: offset + 1)
        let length = Int(frame.uint16(at: offset + 2))
        guard length <= available - headerLength else {
            throw .payloadBeyondFrame(
                messageID: id, offset: offset, declaredLength: length, available: available - headerLength)
        }
        guard let type = UtopiaMessageType(rawValue: id) else { throw .unknownMessageID(id, offset: offset) }
        guard version <= type.latestVersion else { throw .unsupportedVersion(type, version: version) }
        let start = offset + headerLength
        let payload = UnsafeRawBufferPointer(rebasing: frame[start..<(start + length)])
        let message = try UtopiaPayloadDecoder.decode(type, version: version, payload: payload)
        return (message, headerLength + length)
    }
}
