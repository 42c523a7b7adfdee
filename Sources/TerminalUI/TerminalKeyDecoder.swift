/// Puts the bytes of a raw-mode terminal back together into keys: arrow
/// sequences (`ESC [ A`…`D`, `ESC O A`…`D`) become arrows, other control
/// sequences (`ESC [ 5 ~`, function keys) are swallowed whole, and Esc
/// followed by anything that cannot start a sequence is a lone Esc.
///
/// A lone Esc followed by nothing stays pending, since the next byte may
/// still be `[`: call ``flush()`` when no more bytes are coming for now
/// (``TerminalRunner`` hands a scene every byte read before it draws, so a
/// scene can flush when it draws).
///
/// ```swift
/// var decoder = TerminalKeyDecoder()
/// var keys: [TerminalKey] = []
/// for byte in [0x1B, 0x5B, 0x42, 0x6A] as [UInt8] { keys += decoder.feed(byte) }   // [.down, .byte(0x6A)]
/// if let escape = decoder.flush() { keys.append(escape) }                           // nothing pending
/// ```
public struct TerminalKeyDecoder: Sendable {
    /// Where in a sequence the decoder is.
    private enum State: Sendable {
        case idle
        /// After ESC.
        case escape
        /// After `ESC [`, with the parameter and intermediate bytes seen so far.
        case controlSequence(length: Int)
        /// After `ESC O`.
        case singleShift
    }

    /// A control sequence longer than this is dropped: a stuck sequence cannot swallow the keyboard.
    static let longestSequence = 16

    private var state = State.idle

    /// True while an ESC waits for the byte that says whether it starts a sequence.
    public var isEscapePending: Bool {
        if case .escape = state { return true }
        return false
    }

    /// Creates a decoder with nothing pending.
    public init() {}

    /// Takes one byte; returns the keys it completes (none, one, or a lone
    /// Esc and the byte after it).
    public mutating func feed(_ byte: UInt8) -> [TerminalKey] {
        switch state {
        case .idle:
            if byte == 0x1B {
                state = .escape
                return []
            }
            return [.byte(byte)]
        case .escape:
            switch byte {
            case UInt8(ascii: "["):
                state = .controlSequence(length: 0)
                return []
            case UInt8(ascii: "O"):
                state = .singleShift
                return []
            case 0x1B:
                return [.escape]
            default:
                state = .idle
                return [.escape, .byte(byte)]
            }
        case .controlSequence(let length):
            switch byte {
            case 0x20...0x3F:
                state = length + 1 < Self.longestSequence ? .controlSequence(length: length + 1) : .idle
                return []
            case 0x40...0x7E:
                state = .idle
                return length == 0 ? Self.arrow(byte).map { [$0] } ?? [] : []
            default:
                // Not part of a sequence: the sequence was cut off; the byte is a key of its own.
                state = .idle
                return feed(byte)
            }
        case .singleShift:
            state = .idle
            return Self.arrow(byte).map { [$0] } ?? []
        }
    }

    /// Ends a pending lone ESC: returns ``TerminalKey/escape`` if one was
    /// waiting, nil otherwise. A sequence already under way (`ESC [` read)
    /// keeps waiting for its final byte.
    public mutating func flush() -> TerminalKey? {
        guard case .escape = state else { return nil }
        state = .idle
        return .escape
    }

    /// The arrow a final byte `A`…`D` stands for.
    private static func arrow(_ final: UInt8) -> TerminalKey? {
        switch final {
        case UInt8(ascii: "A"): return .up
        case UInt8(ascii: "B"): return .down
        case UInt8(ascii: "C"): return .right
        case UInt8(ascii: "D"): return .left
        default: return nil
        }
    }
}
