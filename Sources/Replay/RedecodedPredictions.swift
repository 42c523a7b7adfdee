import DecoderService
import Foundation
import NoiseTagging
import UtopiaProtocol

/// The decoder's messages for a re-decode: the reference decoder re-run on
/// the EEG and engine messages the recording's `decoder-input.csv` holds
/// (see ``Redecoder``), its predictions (PREDICTEDTARGETPROB and
/// PREDICTEDTARGETDIST) and threshold advice in place of the logged ones;
/// every other logged message (heartbeats, mode confirmations, log lines,
/// signal quality) stays as it was.
public struct RedecodedPredictions: Sendable {
    /// The messages to feed the engine, in time order.
    public let incoming: [RecordingScript.Message]
    /// The re-decode itself: its calibrations and log lines.
    public let redecoding: Redecoding
    /// What the report should say of the re-decode, each a sentence: a
    /// decoder input cut off, or ending before the trials do; the threshold
    /// it recommends; prediction trials with no calibration fitted before them.
    public let notes: [String]

    /// The ids replaced by the re-decode: P, F, T.
    static let replaced: Set<Character> = ["P", "F", "T"]

    /// Re-decodes `script`'s recorded decoder input. Throws a
    /// ``RecordingReadError`` when the recording has no `decoder-input.csv`,
    /// one without a record, or a row of it that cannot be read.
    public init(script: RecordingScript, settings: DecoderServerSettings) throws(RecordingReadError) {
        let url = script.folder.appendingPathComponent(DecoderInputFile.name)
        guard FileManager.default.fileExists(atPath: url.path) else {
            throw RecordingReadError(file: DecoderInputFile.name, line: 0,
                                     reason: "missing: this recording holds no decoder input to re-decode (an embedded reference decoder writes it)")
        }
        let records: [DecoderInputRecord]
        do {
            records = try DecoderInputFile.read(from: url)
        } catch {
            switch error {
            case .badRow(_, let line, let reason): throw RecordingReadError(file: DecoderInputFile.name, line: line, reason: reason)
            case .unreadable(_, let reason): throw RecordingReadError(file: DecoderInputFile.name, line: 0, reason: reason)
            }
        }
        guard !records.isEmpty else {
            throw RecordingReadError(file: DecoderInputFile.name, line: 0,
                                     reason: "holds no record: there is no decoder input to re-decode (the embedded decoder heard nothing, or the file was emptied)")
        }
        redecoding = Redecoder(settings: settings).run(records)
        notes = Self.notes(script: script, records: records, redecoding: redecoding,
                           cutOff: RecordingFileReader(url).endsWithPartialLine)
        var merged = script.incoming.filter { !Self.replaced.contains($0.id) }
        for redecoded in redecoding.messages {
            let bytes = UtopiaCodec.encode(redecoded.message)
            let id = Character(Unicode.Scalar(bytes[0]))
            guard Self.replaced.contains(id) else { continue }
            merged.append(RecordingScript.Message(time: redecoded.time, id: id, bytes: bytes, line: 0))
        }
        // Stable by time: at equal times the logged messages stay first.
        incoming = merged.enumerated().sorted { ($0.element.time, $0.offset) < ($1.element.time, $1.offset) }.map(\.element)
    }

    /// The notes on a re-decode of `script` from `records`.
    static func notes(script: RecordingScript, records: [DecoderInputRecord], redecoding: Redecoding, cutOff: Bool) -> [String] {
        func seconds(_ t: Double) -> String { String(format: "%.3f s", t) }
        var notes: [String] = []
        let inputEnd = records.last?.time ?? -.infinity
        if cutOff { notes.append("\(DecoderInputFile.name): the last line was cut off (a recording cut short); re-decoded up to \(seconds(inputEnd))") }
        if let late = script.starts.first(where: { $0.time > inputEnd + 1 }) {
            let after = script.starts.filter { $0.time > inputEnd + 1 }.count
            notes.append("\(DecoderInputFile.name) ends at \(seconds(inputEnd)), before trial \(late.value.trial) (at \(seconds(late.time))): the re-decoded decoder heard nothing of the last \(after) trial\(after == 1 ? "" : "s"), which get no predictions")
        }
        for message in redecoding.messages {
            guard case .certaintyThreshold(let advice) = message.message else { continue }
            notes.append("the re-decoded decoder recommends certaintyRequiredForPress \(advice.threshold) at \(seconds(message.time)) (unless the recording's app set the threshold)")
        }
        if !redecoding.calibrations.contains(where: { $0.decoder != nil }),
           let first = script.starts.first(where: { !$0.value.mode.isTraining && $0.value.mode != .zeroTrain }) {
            let reason = redecoding.calibrations.last.map { ": \($0.summary)" } ?? " (no calibration ended in the decoder input)"
            notes.append("the re-decode fitted no calibration\(reason); prediction trials from trial \(first.value.trial) get no predictions")
        }
        return notes
    }
}
