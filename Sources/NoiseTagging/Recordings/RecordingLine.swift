import Foundation
import UtopiaProtocol

/// Formats the engine's CSV lines as bytes, fast enough for the frame loop
/// (no `String(format:)`, no Foundation formatters). Every line ends with `\n`.
public enum RecordingLine {
    /// A `frames.csv` line: `index,deadline,time,wall_time,missed,trial,phase,states`.
    /// Engine times have 6 decimals, wall time 3; `phase` is `c`, `p`, `f` or
    /// empty; `states` is empty, `<n>b<hex>` (n states of 0/1, four per hex
    /// digit, first state in the top bit, zero padded) or `<n>v<hex>` (two hex
    /// digits per state, when any state exceeds 1).
    public static func frame(_ record: FrameRecord, wallTime: Double) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(64 + record.states.count / 2)
        appendInt(record.index, to: &out)
        out.append(comma)
        appendFixed(record.deadline, decimals: 6, to: &out)
        out.append(comma)
        appendFixed(record.time, decimals: 6, to: &out)
        out.append(comma)
        appendFixed(wallTime, decimals: 3, to: &out)
        out.append(comma)
        out.append(record.missed ? UInt8(ascii: "1") : UInt8(ascii: "0"))
        out.append(comma)
        if let trial = record.trial { appendInt(trial, to: &out) }
        out.append(comma)
        switch record.phase {
        case .cue?: out.append(UInt8(ascii: "c"))
        case .pause?: out.append(UInt8(ascii: "p"))
        case .flicker?: out.append(UInt8(ascii: "f"))
        case nil: break
        }
        out.append(comma)
        appendStates(record.states, to: &out)
        out.append(newline)
        return out
    }

    /// A `decoder.csv` line: `time,wall_time,direction,id,hex`; `id` is the
    /// message's ASCII letter, `hex` the bytes that crossed the link
    /// (``DecoderTraffic/bytes``).
    public static func decoder(_ traffic: DecoderTraffic, wallTime: Double) -> [UInt8] {
        let bytes = traffic.bytes
        var out: [UInt8] = []
        out.reserveCapacity(40 + bytes.count * 2)
        appendFixed(traffic.time, decimals: 6, to: &out)
        out.append(comma)
        appendFixed(wallTime, decimals: 3, to: &out)
        out.append(comma)
        out.append(contentsOf: traffic.direction.rawValue.utf8)
        out.append(comma)
        let id = traffic.message.messageID
        if id > 32, id < 127, id != comma, id != UInt8(ascii: "\"") { out.append(id) } else { Hex.append(byte: id, to: &out) }
        out.append(comma)
        Hex.append(bytes, to: &out)
        out.append(newline)
        return out
    }

    /// A `presses.csv` line: `time,wall_time,trial,control,object_id,source,certainty,target`.
    public static func press(_ press: NoiseTagEvent.Press, time: Double, wallTime: Double) -> [UInt8] {
        var out: [UInt8] = []
        appendFixed(time, decimals: 6, to: &out)
        out.append(comma)
        appendFixed(wallTime, decimals: 3, to: &out)
        out.append(comma)
        if let trial = press.trial { appendInt(trial, to: &out) }
        out.append(comma)
        out.append(contentsOf: CSVRow.escaped(press.control).utf8)
        out.append(comma)
        if let id = press.objectID { appendInt(id, to: &out) }
        out.append(comma)
        out.append(contentsOf: press.source.rawValue.utf8)
        out.append(comma)
        // In full (shortest round-trip digits): six decimals rounded 0.9999069 up to a threshold it did not reach.
        if let certainty = press.certainty { out.append(contentsOf: "\(certainty)".utf8) }
        out.append(comma)
        if let target = press.target { out.append(contentsOf: CSVRow.escaped(target).utf8) }
        out.append(newline)
        return out
    }

    // MARK: Pieces

    static let comma = UInt8(ascii: ",")
    static let newline = UInt8(ascii: "\n")

    /// `value` with exactly `decimals` decimals (0…9), rounded half away from zero; `nan` when not finite.
    public static func appendFixed(_ value: Double, decimals: Int, to out: inout [UInt8]) {
        let places = min(max(decimals, 0), 9)
        var scale: UInt = 1
        for _ in 0..<places { scale *= 10 }
        let scaled = (value * Double(scale)).rounded()
        guard scaled.isFinite, abs(scaled) < 9e18 else {
            out.append(contentsOf: "nan".utf8)
            return
        }
        if scaled < 0 { out.append(UInt8(ascii: "-")) }
        let n = UInt(abs(scaled))
        appendDigits(n / scale, minimumCount: 1, to: &out)
        guard places > 0 else { return }
        out.append(UInt8(ascii: "."))
        appendDigits(n % scale, minimumCount: places, to: &out)
    }

    /// A decimal integer.
    public static func appendInt(_ value: Int, to out: inout [UInt8]) {
        if value < 0 { out.append(UInt8(ascii: "-")) }
        appendDigits(value.magnitude, minimumCount: 1, to: &out)
    }

    /// `value` in decimal, left-padded with zeros to `minimumCount` digits:
    /// the room is made once and the digits stored into it from the right.
    private static func appendDigits(_ value: UInt, minimumCount: Int, to out: inout [UInt8]) {
        var count = 1
        var rest = value / 10
        while rest > 0 { count += 1; rest /= 10 }
        count = max(count, minimumCount)
        let start = out.count
        out.append(contentsOf: repeatElement(UInt8(ascii: "0"), count: count))
        var remaining = value, index = start + count - 1
        while remaining > 0 {
            out[index] = UInt8(ascii: "0") &+ UInt8(truncatingIfNeeded: remaining % 10)
            remaining /= 10
            index -= 1
        }
    }

    /// The `states` cell: empty, `<n>b<hex>` for 0/1 states, else `<n>v<hex>`.
    public static func appendStates(_ states: [UInt8], to out: inout [UInt8]) {
        guard !states.isEmpty else { return }
        appendInt(states.count, to: &out)
        if states.allSatisfy({ $0 <= 1 }) {
            out.append(UInt8(ascii: "b"))
            var index = 0
            while index < states.count {
                var nibble: UInt8 = 0
                for bit in 0..<4 where index + bit < states.count && states[index + bit] != 0 {
                    nibble |= 8 >> UInt8(bit)
                }
                out.append(Hex.digit(nibble))
                index += 4
            }
        } else {
            out.append(UInt8(ascii: "v"))
            Hex.append(states, to: &out)
        }
    }

    /// The bytes a `decoder.csv` `hex` cell holds (two hex digits a byte,
    /// either case); nil for an odd length or a character that is not a hex digit.
    public static func bytes(hex: Substring) -> [UInt8]? { Hex.bytes(hex.utf8) }

    /// Decodes a `states` cell back into states; nil when malformed.
    public static func states(from cell: String) -> [UInt8]? {
        if cell.isEmpty { return [] }
        guard let marker = cell.firstIndex(where: { $0 == "b" || $0 == "v" }),
              let count = Int(cell[..<marker]), count > 0 else { return nil }
        let hex = Array(cell[cell.index(after: marker)...].utf8)
        if cell[marker] == "b" {
            guard hex.count == (count + 3) / 4 else { return nil }
            var states: [UInt8] = []
            for c in hex {
                guard let nibble = Hex.value(c) else { return nil }
                for bit in 0..<4 where states.count < count { states.append((nibble >> UInt8(3 - bit)) & 1) }
            }
            return states
        }
        guard hex.count == count * 2 else { return nil }
        return Hex.bytes(hex)
    }
}
