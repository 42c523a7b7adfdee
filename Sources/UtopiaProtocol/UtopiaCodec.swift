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
public enum UtopiaCodec {
    /// Bytes before the payload: id, version, uint16 payload length.
    public static let headerLength = 4

    /// The largest payload the uint16 length field can describe: 65,535 bytes
    /// (so one message is at most 65,539 bytes with its header).
    public static let maximumPayloadLength = Int(UInt16.max)

    /// One framed message, or an empty array when the message cannot be
    /// encoded (see ``encodeChecked(_:)`` for the reason).
    public static func encode(_ message: UtopiaMessage) -> [UInt8] {
        var buffer = [UInt8]()
        encode(message, into: &buffer)
        return buffer
    }

    /// Appends one framed message to `buffer`, writing the bytes directly.
    /// Returns false, and leaves `buffer` unchanged, when the message cannot
    /// be encoded (too large or inconsistent; ``encodeChecked(_:into:)`` says why).
    @discardableResult
    public static func encode(_ message: UtopiaMessage, into buffer: inout [UInt8]) -> Bool {
        do {
            try encodeChecked(message, into: &buffer)
            return true
        } catch {
            return false
        }
    }

    /// Writes one framed message at the start of `destination` and returns
    /// its length in bytes; nil when the message cannot be encoded (see
    /// ``encodeChecked(_:)``) or does not fit. A STIMULUSEVENT is written in
    /// place with no allocation, so a sender that reuses one buffer (at most
    /// 65,539 bytes are ever needed) encodes a flicker frame without any.
    // Wire boundary: writes a frame into a buffer the caller owns; refuses one that is too small.
    public static func encode(_ message: UtopiaMessage, into destination: UnsafeMutableRawBufferPointer) -> Int? {
        if case .stimulusEvent(let event) = message {
            guard let length = try? UtopiaPayloadWriter.framedLength(of: event), length <= destination.count,
                  let start = destination.baseAddress else { return nil }
            UtopiaPayloadWriter.writeFramed(event, to: start)
            return length
        }
        var frame: [UInt8] = []
        guard encode(message, into: &frame), frame.count <= destination.count else { return nil }
        destination.copyBytes(from: frame)
        return frame.count
    }

    public static func encodeChecked(_ message: UtopiaMessage) throws(UtopiaEncodingError) -> [UInt8] {
        var buffer = [UInt8]()
        try encodeChecked(message, into: &buffer)
        return buffer
    }

    /// Appends one framed message to `buffer`, or throws (leaving `buffer`
    /// unchanged) when the payload would exceed ``maximumPayloadLength`` or the
    /// message's fields are inconsistent.
    public static func encodeChecked(
        _ message: UtopiaMessage, into buffer: inout [UInt8]
    ) throws(UtopiaEncodingError) {
        if case .stimulusEvent(let event) = message {
            // Every flicker frame sends one: written whole, in one copy.
            try UtopiaPayloadWriter.appendFramed(event, into: &buffer)
            return
        }
        let length = try UtopiaPayloadWriter.payloadLength(of: message)
        buffer.reserveGeometrically(extra: headerLength + length)
        buffer.append(message.messageID)
        buffer.append(UtopiaPayloadWriter.version(of: message))
        buffer.appendLittleEndian(UInt16(truncatingIfNeeded: length))
        UtopiaPayloadWriter.writePayload(of: message, into: &buffer)
    }
}
