import Codes
import UtopiaProtocol

/// Makes fuzz frames: random bytes, or valid frames with bits flipped, cut
/// short, length fields corrupted, concatenated, bytes edited, or ids swapped.
struct FrameMutator {
    enum Kind: Int, CaseIterable {
        case random, bitFlips, truncation, lengthCorruption, concatenation, byteEdits, idSwap
    }

    private let valid: [[UInt8]]
    private var rng: SeededGenerator
    private static let ids = UtopiaMessageType.allCases.map(\.rawValue)
    private static let kindCount = Kind.allCases.count

    init(validFrames: [[UInt8]], seed: UInt64) {
        valid = validFrames
        rng = SeededGenerator(seed: seed)
    }

    /// Replaces `frame`'s contents with the next fuzz frame; returns how it was made.
    mutating func next(into frame: inout [UInt8]) -> Kind {
        frame.removeAll(keepingCapacity: true)
        let kind = Kind(rawValue: rng.below(Self.kindCount))!
        switch kind {
        case .random: randomFrame(into: &frame)
        case .bitFlips:
            frame.append(contentsOf: pick())
            flipBits(in: &frame, count: 1 + rng.below(4))
        case .truncation:
            let source = pick()
            frame.append(contentsOf: source[..<rng.below(source.count)])
        case .lengthCorruption:
            frame.append(contentsOf: pick())
            corruptLength(in: &frame, at: 0)
        case .concatenation:
            var starts = [Int]()
            for _ in 0..<(2 + rng.below(3)) {
                starts.append(frame.count)
                frame.append(contentsOf: pick())
            }
            switch rng.below(4) {
            case 0: flipBits(in: &frame, count: 1)
            case 1: frame.removeLast(1 + rng.below(Swift.min(frame.count, 6)))
            case 2: corruptLength(in: &frame, at: starts[rng.below(starts.count)])
            default: break
            }
        case .byteEdits:
            frame.append(contentsOf: pick())
            for _ in 0..<(1 + rng.below(3)) { editByte(in: &frame) }
        case .idSwap:
            frame.append(contentsOf: pick())
            frame[0] = Self.ids[rng.below(Self.ids.count)]
            if rng.below(4) == 0 { frame[1] = UInt8(rng.below(3)) }
        }
        return kind
    }

    private mutating func pick() -> [UInt8] { valid[rng.below(valid.count)] }

    /// Random bytes; half the time under a plausible header (known id, small
    /// version, length within the frame) so that payload decoders are reached.
    private mutating func randomFrame(into frame: inout [UInt8]) {
        let count = rng.below(48)
        for _ in 0..<count { frame.append(rng.byte()) }
        guard count >= 4, rng.below(2) == 0 else { return }
        frame[0] = Self.ids[rng.below(Self.ids.count)]
        frame[1] = UInt8(rng.below(3))
        let length = rng.below(count - 3)
        frame[2] = UInt8(length)
        frame[3] = 0
    }

    private mutating func flipBits(in frame: inout [UInt8], count: Int) {
        guard !frame.isEmpty else { return }
        for _ in 0..<count { frame[rng.below(frame.count)] ^= 1 << UInt8(rng.below(8)) }
    }

    private mutating func corruptLength(in frame: inout [UInt8], at start: Int) {
        guard frame.count >= start + 4 else { return }
        let old = Int(frame[start + 2]) | Int(frame[start + 3]) << 8
        let new: Int
        switch rng.below(3) {
        case 0: new = rng.below(65_536)
        case 1: new = old + rng.below(17) - 8
        default: new = 0
        }
        frame[start + 2] = UInt8(truncatingIfNeeded: new)
        frame[start + 3] = UInt8(truncatingIfNeeded: new >> 8)
    }

    private mutating func editByte(in frame: inout [UInt8]) {
        let position = rng.below(frame.count + 1)
        switch rng.below(3) {
        case 0: frame.insert(rng.byte(), at: position)
        case 1 where position < frame.count: frame.remove(at: position)
        default: if position < frame.count { frame[position] = rng.byte() }
        }
    }
}
