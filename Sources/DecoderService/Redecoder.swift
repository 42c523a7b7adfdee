import Foundation
import UtopiaProtocol

/// Runs the reference decoder again, offline, on what a live decoder
/// consumed (its ``DecoderInputRecord``s, as `decoder-input.csv` holds
/// them): a fresh ``LiveDecoder`` without a simulated amplifier (the
/// recorded DATAPACKETs are the EEG) and without a calibration folder
/// takes each record with ``LiveDecoder/receive(_:now:)`` at its recorded
/// time; ``LiveDecoder/advance(now:)`` runs every ``advanceInterval`` of
/// recorded time from the first record on (at each scheduled time before
/// the next record, then through ``tail`` after the last); a calibration
/// job is fitted at once, on the calling thread, and adopted at the same
/// time. Nothing depends on the machine or the wall clock (the fit's
/// duration is left out of its LOG line), so the same records and settings
/// give the same ``Redecoding``, bit for bit. Different settings (another
/// `predictionInterval`, `targetErrorRate`, mains frequency) show what the
/// decoder would have said with them.
///
/// ```swift
/// let folder = URL(fileURLWithPath: "recordings/2019-09-23 09.44.45 +0000 App started")
/// let records = try DecoderInputFile.read(from: folder.appendingPathComponent(DecoderInputFile.name))
/// var settings = try DecoderServerSettings(contentsOf: URL(fileURLWithPath: "decoder.json"))
/// settings.targetErrorRate = 0.02
/// let redecoding = Redecoder(settings: settings).run(records)
/// for (time, prediction) in redecoding.predictions { print(time, prediction.objID, prediction.errorProbability) }
/// ```
public struct Redecoder: Sendable {
    /// The settings the decoder runs with: those given, without simulation or calibration folder.
    public let settings: DecoderServerSettings
    /// Seconds of recorded time between two ``LiveDecoder/advance(now:)`` calls (default 0.01).
    public var advanceInterval = 0.01
    /// Seconds the schedule runs on after the last record (default 0: it
    /// stops at the last record). A fit still waiting for EEG gives up after
    /// 3 s, so 3.1 lets a recording that ends with a calibration be fitted.
    public var tail = 0.0

    /// A re-decoder with `settings`; `settings.simulation` and
    /// `settings.calibrationFolder` are ignored.
    public init(settings: DecoderServerSettings = DecoderServerSettings()) {
        var settings = settings
        settings.simulation = nil
        settings.calibrationFolder = nil
        self.settings = settings
    }

    /// Runs a fresh decoder over `records` (in time order, as recorded).
    public func run(_ records: [DecoderInputRecord]) -> Redecoding {
        var result = Redecoding()
        guard let first = records.first else { return result }
        let origin = first.wireMilliseconds
        let step = max(advanceInterval, 0.000_001) * 1000
        var decoder = LiveDecoder(settings: settings, now: origin)
        var tick = 0
        var nextAdvance: Double { origin + Double(tick) * step }

        func keep(_ messages: [UtopiaMessage], at now: Double) {
            let time = DecoderInputRecord.seconds(wireMilliseconds: now)
            for message in messages { result.messages.append(RedecodedMessage(time: time, message: message)) }
        }
        func advance(to now: Double) {
            keep(decoder.advance(now: now), at: now)
            if let job = decoder.takeCalibrationJob() {
                let outcome = job.run(measuringFitTime: false)
                result.calibrations.append(outcome)
                keep(decoder.adopt(outcome, now: now), at: now)
            }
        }

        for record in records {
            let now = record.wireMilliseconds
            while nextAdvance < now {
                advance(to: nextAdvance)
                tick += 1
            }
            guard let message = record.message else {
                result.undecodableRecords += 1
                continue
            }
            keep(decoder.receive(message, now: now), at: now)
        }
        let end = (records.last?.wireMilliseconds ?? origin) + max(0, tail) * 1000
        while nextAdvance <= end {
            advance(to: nextAdvance)
            tick += 1
        }
        return result
    }

    /// Reads `decoder-input.csv` at `url` and runs a fresh decoder over it.
    public func run(contentsOf url: URL) throws(DecoderInputFileError) -> Redecoding {
        run(try DecoderInputFile.read(from: url))
    }
}
