import Foundation
import Testing
import UtopiaProtocol

/// A seeded fuzz run of 1,000,000 frames (random, and mutated reference
/// vectors) in 8 shards that Swift Testing runs in parallel. Each frame must
/// either decode or be rejected with a `UtopiaDecodingError` (a crash or an
/// over-read fails the run); a frame that decodes must re-encode to exactly
/// its own bytes.
@Suite("Fuzzing the decoder")
struct UtopiaFuzzTests {
    static let shardCount = 8
    static let framesPerShard = 125_000

    /// The reference vectors plus a few valid frames they lack (empty texts and arrays, the extension).
    static func validFrames() throws -> [[UInt8]] {
        let extras: [UtopiaMessage] = [
            .certaintyThreshold(CertaintyThreshold(timestamp: 77, threshold: 0.9)),
            .selectionRevised(SelectionRevised(timestamp: 78, trialStamp: 70, objID: 2)),
            .calibrationResult(CalibrationResult(timestamp: 79, fitted: true, trials: 10, accuracy: 0.9, seconds: 4, summary: "refe")),
            .heartbeat(Heartbeat(timestamp: 1, stateMessage: "")),
            .dataPacket(DataPacket(timestamp: 2, samples: [])),
            .dataHeader(DataHeader(timestamp: 3, channelCount: 0, sampleRate: 100, labels: [])),
            .signalQuality(SignalQuality(timestamp: 4, quality: [])),
            .predictedTargetDist(PredictedTargetDist(timestamp: 5, objIDs: [], probabilities: [])),
        ]
        return try UtopiaFixture.loadAll().map(\.bytes) + extras.map { UtopiaCodec.encode($0) }
    }

    @Test(arguments: 0..<shardCount)
    func everyFrameDecodesOrThrows(shard: Int) throws {
        var mutator = FrameMutator(validFrames: try Self.validFrames(), seed: 0x5EED_0000 + UInt64(shard))
        var frame = [UInt8]()
        var reencoded = [UInt8]()
        var tally = FuzzTally()
        for iteration in 0..<Self.framesPerShard {
            let kind = mutator.next(into: &frame)
            let outcome = UtopiaCodec.decodeResult(frame: frame)
            switch outcome {
            case .success(let messages):
                reencoded.removeAll(keepingCapacity: true)
                for message in messages { try UtopiaCodec.encodeChecked(message, into: &reencoded) }
                let same = sameBytes(reencoded, frame)
                tally.decoded(kind: kind, roundTrips: same)
                if !same && tally.mismatches == 1 {
                    Issue.record("shard \(shard) frame \(iteration) does not re-encode to itself: \(frame)")
                }
            case .failure(let error):
                tally.threw(error, kind: kind)
            }
            // The throwing entry point must agree; sampled, as each throw is
            // costly under Swift Testing (it records a backtrace per throw).
            if iteration % 64 == 0 && !throwingDecodeAgrees(frame, outcome) {
                tally.disagreed()
            }
        }
        #expect(tally.total == Self.framesPerShard)
        #expect(tally.mismatches == 0)
        #expect(tally.disagreements == 0)
        // Every way of making frames yields both valid and malformed ones, and
        // every error the decoder has was met: the fuzzing reaches all checks.
        for kind in FrameMutator.Kind.allCases where kind != .truncation {
            #expect(tally.decodedByKind[kind.rawValue] > 0, "\(kind) never decoded")
        }
        for kind in FrameMutator.Kind.allCases {
            #expect(tally.thrownByKind[kind.rawValue] > 0, "\(kind) never threw")
        }
        #expect(tally.errorCases.count == FuzzTally.errorCaseCount, "errors met: \(tally.errorCases.sorted())")
    }
}

/// Whether `decode(frame:)` throws the same error, or decodes as many messages, as `decodeResult`.
private func throwingDecodeAgrees(_ frame: [UInt8], _ outcome: Result<[UtopiaMessage], UtopiaDecodingError>) -> Bool {
    do {
        let messages = try UtopiaCodec.decode(frame: frame)
        if case .success(let expected) = outcome { return messages.count == expected.count }
        return false
    } catch {
        return outcome == .failure(error)
    }
}

/// Byte equality without the generic element-by-element `==` of a debug build.
private func sameBytes(_ a: [UInt8], _ b: [UInt8]) -> Bool {
    guard a.count == b.count else { return false }
    guard !a.isEmpty else { return true }
    return a.withUnsafeBytes { x in b.withUnsafeBytes { y in memcmp(x.baseAddress!, y.baseAddress!, x.count) == 0 } }
}

/// Counts of a fuzz shard's outcomes.
struct FuzzTally {
    static let errorCaseCount = 13
    private(set) var decodedByKind = [Int](repeating: 0, count: FrameMutator.Kind.allCases.count)
    private(set) var thrownByKind = [Int](repeating: 0, count: FrameMutator.Kind.allCases.count)
    private(set) var mismatches = 0
    private(set) var disagreements = 0
    private(set) var errorCases = Set<Int>()

    var total: Int { decodedByKind.reduce(0, +) + thrownByKind.reduce(0, +) }

    mutating func decoded(kind: FrameMutator.Kind, roundTrips: Bool) {
        decodedByKind[kind.rawValue] += 1
        if !roundTrips { mismatches += 1 }
    }

    mutating func disagreed() { disagreements += 1 }

    mutating func threw(_ error: UtopiaDecodingError, kind: FrameMutator.Kind) {
        thrownByKind[kind.rawValue] += 1
        errorCases.insert(Self.caseIndex(error))
    }

    private static func caseIndex(_ error: UtopiaDecodingError) -> Int {
        switch error {
        case .emptyFrame: return 0
        case .truncatedHeader: return 1
        case .trailingBytes: return 2
        case .payloadBeyondFrame: return 3
        case .unknownMessageID: return 4
        case .unsupportedVersion: return 5
        case .payloadTooShort: return 6
        case .payloadLengthMismatch: return 7
        case .countOverrunsPayload: return 8
        case .negativeCount: return 9
        case .misalignedValues: return 10
        case .invalidUTF8: return 11
        case .invalidFlag: return 12
        }
    }
}
