import UtopiaProtocol

/// One input the live decoder consumed: the Utopia message as one frame
/// (``UtopiaCodec/encode(_:)``) and the time it was consumed. A
/// ``LiveDecoder`` started with `recordingInput: true` keeps one for the
/// DATAHEADER its EEG started with, every DATAHEADER/DATAPACKET it took
/// (the simulated amplifier's too), and every STIMULUSEVENT, NEWTARGET,
/// MODECHANGE and RESET, in the order it consumed them; a ``Redecoder``
/// feeds them to a fresh decoder again. `decoder-input.csv` holds them
/// one per line (``DecoderInputFile``).
///
/// ```swift
/// var decoder = LiveDecoder(settings: settings, now: MonotonicClock.milliseconds(), recordingInput: true)
/// _ = decoder.receive(.newTarget(NewTarget(timestamp: 5)), now: MonotonicClock.milliseconds())
/// for record in decoder.takeInputRecords() {
///     print(record.time, record.message.map { "\($0.messageType)" } ?? "undecodable")
/// }
/// ```
public struct DecoderInputRecord: Equatable, Sendable {
    /// Engine-clock seconds (wire milliseconds / 1000, in whole
    /// microseconds, so that six decimals read back exactly).
    public var time: Double
    /// The message as one Utopia frame: header and payload.
    public var bytes: [UInt8]

    /// A record from its parts.
    public init(time: Double, bytes: [UInt8]) {
        self.time = time
        self.bytes = bytes
    }

    /// `message` consumed at wire time `milliseconds`; nil when the codec
    /// cannot encode it (a payload over 65,535 bytes).
    public init?(_ message: UtopiaMessage, wireMilliseconds milliseconds: Double) {
        let bytes = UtopiaCodec.encode(message)
        guard !bytes.isEmpty else { return nil }
        self.init(time: Self.seconds(wireMilliseconds: milliseconds), bytes: bytes)
    }

    /// The wire time of ``time``, ms (whole microseconds).
    public var wireMilliseconds: Double { (time * 1e6).rounded() / 1000 }

    /// The message id byte (`E` STIMULUSEVENT, `D` DATAPACKET, …); 0 for no bytes.
    public var messageID: UInt8 { bytes.first ?? 0 }

    /// The message the bytes hold; nil unless they are exactly one valid Utopia message.
    public var message: UtopiaMessage? {
        guard let messages = try? UtopiaCodec.decode(frame: bytes), messages.count == 1 else { return nil }
        return messages[0]
    }

    /// Engine seconds of wire time `milliseconds`, cut to whole microseconds.
    public static func seconds(wireMilliseconds milliseconds: Double) -> Double {
        (milliseconds * 1000).rounded(.down) / 1e6
    }
}
