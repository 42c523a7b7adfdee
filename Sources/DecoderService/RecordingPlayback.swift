import Decoding
import UtopiaProtocol

/// Plays a recorded trials dataset into a running decoder as an acquisition
/// client and a presentation engine would, so that calibration, incremental
/// prediction, certainty and presses run on real EEG: a DATAHEADER, then
/// DATAPACKETs at the recording's pace (or ``PlaybackSettings/speed`` times
/// faster), with the engine's messages on the same timeline (see
/// ``PlaybackScript``): `Calibration.supervised` with the first trials'
/// STIMULUSEVENTs showing every class on objects 1…n and the cued target's
/// state on object 0, then `Prediction.static` and, once the decoder's fit
/// sent its CERTAINTYTHRESHOLD, the other trials without object 0. A press is
/// the trial's first PREDICTEDTARGETPROB whose certainty (1 − Perr) reaches the
/// threshold in force at the trial's first prediction (as the engine holds
/// it: a refit's threshold that arrives later counts from the next trial);
/// the engine's SELECTION follows it. Every stamp is on the wire
/// clock from ``start(now:)`` advancing with the recording (so `speed` times
/// faster than the clock): the decoder only compares stamps with each other.
/// No sockets: ``RecordingPlayer`` drives it over one; tests may drive it directly.
///
/// ```swift
/// var playback = try RecordingPlayback(dataset: dataset, settings: settings)
/// send(playback.start(now: MonotonicClock.milliseconds()))
/// while !playback.isFinished {
///     for message in received() { try playback.hear(message, now: MonotonicClock.milliseconds()) }
///     send(try playback.advance(now: MonotonicClock.milliseconds()))
/// }
/// print(playback.report.summary)
/// ```
public struct RecordingPlayback: Sendable {
    /// The settings it plays with.
    public let settings: PlaybackSettings
    /// What it measured so far: the trials played, the presses, the decoder's calibration lines.
    public var report: PlaybackReport {
        var report = base
        report.predictionTrials = script.trials.indices.compactMap { rows[$0] }
        return report
    }
    /// True once the last cue went out.
    public private(set) var isFinished = false
    /// The header its stream starts with (stamped at ``start(now:)``).
    public private(set) var header: DataHeader

    private let dataset: TrialsDataset
    private let signal: PlaybackSignal
    private let script: PlaybackScript
    private let period: Double
    private let packetSamples: Int
    private var wireOrigin = 0.0
    private var realOrigin = 0.0
    private var paused = 0.0
    private var nextSample = 0
    private var nextCue = 0
    private var blockedSince: Double?
    private var predictionRequested = false
    private var threshold: Double?
    private var progress: [String] = []
    private var outbox: [UtopiaMessage] = []
    private var base = PlaybackReport()
    /// Per played trial: first and last frame stamps, the report row (prediction trials).
    private var stamps: [(first: Int32, last: Int32)] = []
    private var rows: [Int: PlaybackReport.Trial] = [:]
    private var lastPredictionStamp: [Int: Int32] = [:]

    /// A playback of `dataset`; throws ``PlaybackError/unplayable(_:)`` when
    /// it has fewer than 3 trials, more than 255 classes, channels that do
    /// not fit in a DATAPACKET, or calibration trials outside 2…trials − 1.
    public init(dataset: TrialsDataset, settings: PlaybackSettings) throws(PlaybackError) {
        let h = dataset.header
        guard h.nTrials >= 3 else {
            throw .unplayable("the recording has \(h.nTrials) trial(s): at least 3 are needed (2 to calibrate, 1 to predict)")
        }
        let calibrating = settings.calibrationTrials ?? PlaybackSettings.defaultCalibrationTrials(of: h.nTrials)
        guard calibrating >= 2, calibrating < h.nTrials else {
            throw .unplayable("--calibration-trials \(calibrating): the recording has \(h.nTrials) trials; calibrate on 2…\(h.nTrials - 1) so that at least one is predicted")
        }
        guard h.nClasses <= 255 else { throw .unplayable("the recording has \(h.nClasses) classes: a STIMULUSEVENT carries at most 255 objects") }
        guard h.nChannels <= (65_535 - 8) / 4 else { throw .unplayable("the recording has \(h.nChannels) channels: one sample of them does not fit in a DATAPACKET") }
        guard settings.speed >= 1, settings.speed.isFinite else { throw .unplayable("speed \(settings.speed): must be at least 1") }
        self.dataset = dataset
        self.settings = settings
        signal = PlaybackSignal(dataset)
        period = 1000 / h.fs
        packetSamples = max(1, min((65_535 - 8) / (4 * h.nChannels), Int((settings.packetSeconds * h.fs).rounded())))
        script = PlaybackScript(starts: signal.trialStarts, trialSamples: h.nSamples, fs: h.fs, frameRate: settings.frameRate,
                                calibrating: calibrating, streamEnd: Double(signal.length) * period)
        var labels = (h.channels ?? []).map { $0.replacingOccurrences(of: ", ", with: ",") }
        if labels.count != h.nChannels { labels = [] }
        header = DataHeader(timestamp: 0, channelCount: Int32(h.nChannels), sampleRate: Float(h.fs), labels: labels)
        base.trials = h.nTrials
        base.speed = settings.speed
        base.certainty = settings.certainty
        base.certaintySource = settings.certainty == nil ? "decoder" : "--certainty"
        base.calibrationTrials = script.trials.filter(\.calibrating).map { $0.index + 1 }
    }

    /// Starts the stream at wire time `now` (ms): the RESET that clears the
    /// decoder's earlier calibrations and the DATAHEADER. At speed 1 the
    /// stamps follow the wire clock; faster, they start in the past, so that
    /// the last one is no later than the clock when the playback ends: a
    /// decoder ignores a STIMULUSEVENT stamped before one it has seen, so
    /// stamps ahead of the clock would make it ignore the engine that comes next.
    public mutating func start(now: Double) -> [UtopiaMessage] {
        realOrigin = now
        wireOrigin = (now - duration * (1 - 1 / settings.speed)).rounded(.down)
        header.timestamp = MonotonicClock.utopiaTimestamp(milliseconds: wireOrigin)
        stamps = script.trials.map { (stamp($0.frames.first ?? 0), stamp($0.frames.last ?? 0)) }
        return [.reset(Reset(timestamp: header.timestamp)), .dataHeader(header)]
    }

    /// Lines for a progress display since the last call: the decoder's
    /// calibration LOG lines and each prediction trial's outcome.
    public mutating func takeProgress() -> [String] {
        defer { progress.removeAll() }
        return progress
    }

    private func stamp(_ time: Double) -> Int32 { MonotonicClock.utopiaTimestamp(milliseconds: wireOrigin + time) }

    /// Milliseconds of recording the playback streams, start to end.
    public var duration: Double { script.cues.last?.time ?? 0 }

    // MARK: The decoder's messages

    /// Takes one message from the decoder at wire time `now` (ms): its LOG
    /// lines, CERTAINTYTHRESHOLD and predictions. Throws when the decoder
    /// says it fitted no model or ignores the streamed EEG.
    public mutating func hear(_ message: UtopiaMessage, now: Double) throws(PlaybackError) {
        switch message {
        case .log(let log):
            let line = log.message
            if line.contains("the simulated amplifier is in use") { throw .simulatedDecoder(endpoint: "the endpoint") }
            if line.contains("STIMULUSEVENT timestamp went back") { throw .laterStamps(seconds: duration * (1 - 1 / settings.speed) / 1000) }
            // What the decoder says of its calibration and its filters (not its per-trial and signal-quality chatter).
            if ["calibration", "cross-validat", "decoding curve", "recommended certainty", "mains"].contains(where: line.contains),
               !line.contains("forgotten") {
                base.calibrationLog.append(line)
                progress.append(line)
            }
            if predictionRequested, threshold == nil,
               ["no model fitted", "calibration failed", "could not be assembled"].contains(where: line.contains) {
                throw .noModel(line)
            }
        case .certaintyThreshold(let t) where predictionRequested && t.threshold.isFinite && (0...1).contains(t.threshold):
            base.decoderThreshold = Double(t.threshold)
            threshold = settings.certainty ?? Double(t.threshold)
            base.certainty = threshold
        case .predictedTargetProb(let p):
            predicted(p, now: now)
        default:
            break
        }
    }

    private mutating func predicted(_ p: PredictedTargetProb, now: Double) {
        guard let threshold else { return }
        guard let k = stamps.indices.last(where: { stamps[$0].first &- p.timestamp <= 0 && p.timestamp &- stamps[$0].last <= 0 }),
              var row = rows[k] else { return }
        let object = Int(p.objID)
        guard object >= 1, object <= dataset.header.nClasses else { return }
        let certainty = 1 - Double(p.errorProbability)
        row.predictions += 1
        row.finalPrediction = object
        row.finalCertainty = certainty
        lastPredictionStamp[k] = p.timestamp
        let held = row.threshold ?? threshold
        row.threshold = held
        if row.pressed == nil, certainty >= held {
            row.pressed = object
            row.seconds = Double(p.timestamp &- stamps[k].first) / 1000
            outbox.append(.selection(Selection(timestamp: p.timestamp, objID: UInt8(object))))
        }
        rows[k] = row
    }

    // MARK: Streaming

    /// Sends what is due at wire time `now` (ms): EEG packets, the engine's
    /// messages, a SELECTION after each press. Waits (returns only what the
    /// decoder's messages caused) at the end of calibration until the
    /// decoder's threshold arrives, and at the end of each prediction trial
    /// until its prediction on the whole trial arrives (at most
    /// ``PlaybackSettings/settleTimeout``); the recording's timeline resumes
    /// where it stopped. Throws ``PlaybackError/fitTimeout(seconds:)`` when
    /// the fit takes longer than ``PlaybackSettings/fitTimeout``.
    public mutating func advance(now: Double) throws(PlaybackError) -> [UtopiaMessage] {
        var out = outbox
        outbox.removeAll()
        guard !isFinished else { return out }
        if let since = blockedSince {
            guard try barrierPassed(now: now, since: since) else { return out }
            paused = now - realOrigin - script.cues[nextCue].time / settings.speed     // resume the timeline where it stopped
            blockedSince = nil
            passed(script.cues[nextCue].cue)
            nextCue += 1
        }
        let due = (now - realOrigin - paused) * settings.speed
        while true {
            let cueTime = nextCue < script.cues.count ? script.cues[nextCue].time : .infinity
            let packetTime = nextPacketTime
            if packetTime <= cueTime, packetTime <= due {
                out.append(packet())
                continue
            }
            guard nextCue < script.cues.count, cueTime <= due else { break }
            let (time, cue) = script.cues[nextCue]
            switch cue {
            case .mode(let text):
                out.append(.modeChange(ModeChange(timestamp: stamp(time), newMode: text)))
                if DecoderMode(modeText: text) == .prediction { predictionRequested = true }
            case .newTarget(let k):
                out.append(.newTarget(NewTarget(timestamp: stamp(time))))
                let trial = script.trials[k]
                if !trial.calibrating {
                    rows[k] = PlaybackReport.Trial(trial: trial.index + 1, target: Int(dataset.labels[trial.index]) + 1,
                                                   pressed: nil, seconds: nil, predictions: 0)
                }
            case .frame(let k, let i):
                out.append(.stimulusEvent(event(k, i, time: time)))
            case .awaitFit, .settle:
                while nextPacketTime <= time + 2 * Double(packetSamples) * period { out.append(packet()) }
                guard try barrierPassed(now: now, since: now) else {
                    blockedSince = now
                    return out
                }
                passed(cue)
            case .end:
                isFinished = true
                nextCue += 1
                return out
            }
            nextCue += 1
        }
        return out
    }

    /// The recording time of the next packet's last sample; infinity when the signal is all sent.
    private var nextPacketTime: Double {
        nextSample < signal.length ? Double(min(nextSample + packetSamples, signal.length) - 1) * period : .infinity
    }

    /// The next packet, stamped at its last sample's time rounded up (the
    /// engine's events are rounded down, so that a trial's first event is
    /// never after the sample it lights).
    private mutating func packet() -> UtopiaMessage {
        let end = min(nextSample + packetSamples, signal.length)
        let rows = signal.rows(nextSample..<end)
        let time = Double(end - 1) * period
        nextSample = end
        return .dataPacket(DataPacket(timestamp: MonotonicClock.utopiaTimestamp(milliseconds: (wireOrigin + time).rounded(.up)), samples: rows))
    }

    /// Frame `i` of played trial `k`: every class on objects 1…n, and in calibration the target's state on object 0.
    private func event(_ k: Int, _ i: Int, time: Double) -> StimulusEvent {
        let trial = script.trials[k]
        let n = dataset.header.nSamples, s = trial.frameSamples[i]
        var ids: [UInt8] = [], states: [UInt8] = []
        if trial.calibrating {
            ids.append(0)
            states.append(dataset.stimulus[Int(dataset.labels[trial.index]) * n + s])
        }
        for c in 0..<dataset.header.nClasses {
            ids.append(UInt8(c + 1))
            states.append(dataset.stimulus[c * n + s])
        }
        return StimulusEvent(timestamp: stamp(time), objIDs: ids, objStates: states)
    }

    private func barrierPassed(now: Double, since: Double) throws(PlaybackError) -> Bool {
        switch script.cues[nextCue].cue {
        case .awaitFit:
            if threshold != nil { return true }
            if now - since > settings.fitTimeout * 1000 { throw .fitTimeout(seconds: settings.fitTimeout) }
            return false
        case .settle(let k):
            return rows[k]?.pressed != nil || lastPredictionStamp[k] == stamps[k].last || now - since > settings.settleTimeout * 1000
        default:
            return true
        }
    }

    private mutating func passed(_ cue: PlaybackScript.Cue) {
        if case .settle(let k) = cue, let row = rows[k] { progress.append(row.line) }
    }
}
