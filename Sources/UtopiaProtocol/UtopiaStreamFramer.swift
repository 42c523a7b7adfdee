/// Cuts a byte stream (a Utopia hub's TCP connection) into Utopia messages:
/// bytes go in as they arrive, in pieces of any size; each complete message
/// comes out with the exact bytes that carried it. A message whose header
/// is sound but whose payload does not decode is rejected on its own (the
/// stream stays in step); a header that cannot be trusted — an unknown id,
/// or a length beyond ``maximumPayloadLength`` — means the stream is lost:
/// nothing after it can be framed, and the connection should be dropped.
///
/// ```swift
/// var framer = UtopiaStreamFramer()
/// framer.append(bytesJustRead)
/// while let item = framer.next() {
///     switch item {
///     case .message(let message, _): handle(message)
///     case .rejected(let bytes, let error): report("\(bytes.count) bytes rejected: \(error)")
///     case .lost(let reason): dropConnection(reason); break
///     }
/// }
/// ```
public struct UtopiaStreamFramer: Sendable {
    /// The largest payload accepted, bytes (the protocol's own limit is 65,535).
    public let maximumPayloadLength: Int
    private var buffer: [UInt8] = []
    private var start = 0
    private var lost: String?

    /// What ``next()`` found.
    public enum Item: Equatable, Sendable {
        /// A whole message and its bytes (header and payload).
        case message(UtopiaMessage, [UInt8])
        /// A message whose payload did not decode; the stream goes on after it.
        case rejected([UInt8], UtopiaDecodingError)
        /// The stream cannot be framed any more, and why.
        case lost(String)
    }

    /// A framer accepting payloads up to `maximumPayloadLength` bytes.
    public init(maximumPayloadLength: Int = UtopiaCodec.maximumPayloadLength) {
        self.maximumPayloadLength = min(max(0, maximumPayloadLength), UtopiaCodec.maximumPayloadLength)
    }

    /// Bytes waiting for the rest of their message.
    public var pendingByteCount: Int { buffer.count - start }

    /// Adds bytes read from the stream.
    public mutating func append(_ bytes: some Collection<UInt8>) {
        guard lost == nil else { return }
        if start > 0, start >= buffer.count / 2 {
            buffer.removeFirst(start)
            start = 0
        }
        buffer.append(contentsOf: bytes)
    }

    /// The next complete item, or nil until more bytes arrive. After
    /// ``Item/lost(_:)`` it returns that item again and never frames more.
    public mutating func next() -> Item? {
        if let lost { return .lost(lost) }
        let available = buffer.count - start
        guard available >= UtopiaCodec.headerLength else { return nil }
        let id = buffer[start]
        guard UtopiaMessageType(rawValue: id) != nil else {
            let hex = String(id, radix: 16, uppercase: true)
            return lose("unknown message id 0x\(id < 16 ? "0" : "")\(hex) at a message boundary")
        }
        let length = Int(buffer[start + 2]) | Int(buffer[start + 3]) << 8
        guard length <= maximumPayloadLength else {
            return lose("a \(UtopiaMessageType(rawValue: id)!.name) header declares \(length) payload bytes, more than the \(maximumPayloadLength) accepted")
        }
        let total = UtopiaCodec.headerLength + length
        guard available >= total else { return nil }
        let bytes = Array(buffer[start ..< start + total])
        start += total
        if start == buffer.count {
            buffer.removeAll(keepingCapacity: true)
            start = 0
        }
        switch UtopiaCodec.decodeResult(frame: bytes) {
        case .success(let messages): return .message(messages[0], bytes)   // exactly one: the bytes are one header's length
        case .failure(let error): return .rejected(bytes, error)
        }
    }

    private mutating func lose(_ reason: String) -> Item {
        lost = reason
        buffer = []
        start = 0
        return .lost(reason)
    }
}
