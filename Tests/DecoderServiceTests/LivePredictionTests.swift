@testable import DecoderService
import Decoding
import Testing
import UtopiaProtocol

/// Live prediction scores the EEG of the band its model was fitted in: the
/// live decoder keeps every band a calibration may choose, filtered
/// continuously, and a model fitted on 3-30 Hz trials must read the 3-30 Hz
/// stream, not the high-pass-only one.
@Suite struct LivePredictionTests {
    static let rate = 240.0
    static let frames = 180                       // 3 s at 60 Hz, 4 samples per frame

    /// Three objects' codes, one bit per frame, from a fixed xorshift sequence.
    static let codes: [[UInt8]] = {
        var x: UInt64 = 0x9E37_79B9_7F4A_7C15
        return (0..<3).map { _ in
            (0..<frames).map { _ in
                x ^= x << 13; x ^= x >> 7; x ^= x << 17
                return UInt8(x & 1)
            }
        }
    }()

    /// A code per sample (each frame's bit held for its 4 samples).
    static func perSample(_ code: [UInt8]) -> [UInt8] { code.flatMap { Array(repeating: $0, count: 4) } }

    /// Four channels of the response to `code` (its states 10 samples later,
    /// smoothed), each with its own gain and a little deterministic noise.
    static func eeg(respondingTo code: [UInt8], seed: UInt64) -> [[Double]] {
        let states = perSample(code).map(Double.init)
        let response = states.indices.map { i in (0..<6).reduce(0.0) { $0 + (i - 10 - $1 >= 0 ? states[i - 10 - $1] : 0) } / 6 }
        var x = seed | 1
        return [1.0, -0.5, 0.8, 0.3].map { gain in
            response.map { r in
                x ^= x << 13; x ^= x >> 7; x ^= x << 17
                return gain * r + 0.3 * (Double(x % 1000) / 1000 - 0.5)
            }
        }
    }

    @Test func aModelFittedInTheLowPassedBandScoresThatBand() throws {
        // Calibration: twelve trials, four per object, as if filtered 3-30 Hz.
        let labels = (0..<12).map { $0 % 3 }
        let trials = labels.enumerated().map { Self.eeg(respondingTo: Self.codes[$1], seed: UInt64($0 + 1)) }
        let decoder = try CalibratedDecoder.fit(trials: trials, labels: labels, codes: Self.codes.map(Self.perSample),
                                                sampleRate: Self.rate, lowPass: 30)
        #expect(decoder.lowPass == 30)

        // Live: the user looks at object 2. The 3-30 Hz stream holds the response to
        // its code; the high-pass-only stream, as a wrong read would see it, object 3's.
        var history = SampleHistory(channels: 4, bands: [nil, 30])
        let times = (0..<(Self.frames * 4)).map { Double($0) * 1000 / Self.rate }
        history.append(times: times, raw: Self.eeg(respondingTo: Self.codes[1], seed: 99),
                       filtered: [Self.eeg(respondingTo: Self.codes[2], seed: 98), Self.eeg(respondingTo: Self.codes[1], seed: 99)])
        let (trial, timeline) = Self.shownTrial()
        var prediction = LivePrediction(interval: 0.1)
        prediction.startTrial(model: decoder)
        var outbox = DecoderOutbox(now: 3_000)
        prediction.update(trial: trial, history: history, sampleRate: Self.rate, timeline: timeline, into: &outbox)
        let predicted = outbox.take().compactMap { if case .predictedTargetProb(let p) = $0 { return p.objID } else { return nil } }
        #expect(predicted == [2])
    }

    /// A model whose band the live decoder does not filter predicts nothing
    /// rather than scoring another band's EEG, and says so once a trial.
    @Test func aModelWhoseBandIsNotFilteredLivePredictsNothingAndSaysWhy() throws {
        let labels = (0..<12).map { $0 % 3 }
        let trials = labels.enumerated().map { Self.eeg(respondingTo: Self.codes[$1], seed: UInt64($0 + 1)) }
        let decoder = try CalibratedDecoder.fit(trials: trials, labels: labels, codes: Self.codes.map(Self.perSample),
                                                sampleRate: Self.rate, lowPass: 45)
        var history = SampleHistory(channels: 4, bands: [nil, 30])
        let eeg = Self.eeg(respondingTo: Self.codes[1], seed: 99)
        history.append(times: (0..<(Self.frames * 4)).map { Double($0) * 1000 / Self.rate }, raw: eeg, filtered: [eeg, eeg])
        let (trial, timeline) = Self.shownTrial()
        var prediction = LivePrediction(interval: 0.1)
        prediction.startTrial(model: decoder)
        var messages: [UtopiaMessage] = []
        for now in [3_000.0, 3_200] {
            var outbox = DecoderOutbox(now: now)
            prediction.update(trial: trial, history: history, sampleRate: Self.rate, timeline: timeline, into: &outbox)
            messages += outbox.take()
        }
        let logs = messages.compactMap { if case .log(let l) = $0 { return l.message } else { return nil } }
        #expect(logs.count == 1 && logs[0].contains("low-pass 45.0 Hz") && logs[0].contains("not filtered live"), "\(logs)")
        #expect(!messages.contains { if case .predictedTargetProb = $0 { return true } else { return false } })
    }

    /// A live calibration weighs averaged responses only beyond
    /// `fewestTrialsToBlend` trials, as each fold of `decoder evaluate` does
    /// (the rule is the selection's): on fewer, each average rests on two or
    /// three trials and the selection on leave-one-out.
    @Test func aSmallLiveCalibrationLeavesTheAveragedResponsesOut() throws {
        func rankings(trials count: Int) throws -> [SettingsSelection.Ranking] {
            let labels = (0..<count).map { $0 % 3 }
            let trials = labels.enumerated().map { Self.eeg(respondingTo: Self.codes[$1], seed: UInt64($0 + 1)) }
            let header = DatasetHeader(fs: Self.rate, nTrials: count, nChannels: 4, nSamples: Self.frames * 4, nClasses: 3)
            let dataset = try TrialsDataset(header: header, data: trials.flatMap { $0.flatMap { $0.map(Float.init) } },
                                            labels: labels.map(Int32.init), stimulus: Self.codes.flatMap(Self.perSample))
            return try CalibrationJob(dataset: dataset, settings: DecoderServerSettings(), filteredTrials: [nil: trials])
                .chooseSettings().rankings
        }
        let small = try rankings(trials: SettingsSelection().fewestTrialsToBlend)
        #expect(!small.isEmpty && small.allSatisfy { $0.candidate.settings.templateBlend == 0 })
        let larger = try rankings(trials: SettingsSelection().fewestTrialsToBlend + 1)
        #expect(larger.contains { $0.candidate.settings.templateBlend > 0 })
    }

    /// A calibration chooses its band on the live filters' trials, and the
    /// decoder it fits carries that band for scoring: here only the 3-30 Hz
    /// trials hold the responses (the high-pass-only ones hold none).
    @Test func theCalibrationsDecoderCarriesTheBandItChose() throws {
        let labels = (0..<12).map { $0 % 3 }
        let lowPassed = labels.enumerated().map { Self.eeg(respondingTo: Self.codes[$1], seed: UInt64($0 + 1)) }
        let silent = [UInt8](repeating: 0, count: Self.frames)
        let highPassed = labels.indices.map { Self.eeg(respondingTo: silent, seed: UInt64($0 + 50)) }
        let n = Self.frames * 4
        let header = DatasetHeader(fs: Self.rate, nTrials: 12, nChannels: 4, nSamples: n, nClasses: 3)
        let dataset = try TrialsDataset(header: header, data: lowPassed.flatMap { $0.flatMap { $0.map(Float.init) } },
                                        labels: labels.map(Int32.init), stimulus: Self.codes.flatMap(Self.perSample))
        let job = CalibrationJob(dataset: dataset, settings: DecoderServerSettings(), filteredTrials: [nil: highPassed, 30: lowPassed])
        #expect(job.bands == [nil, 30])
        let outcome = job.run(measuringFitTime: false)
        let decoder = try #require(outcome.decoder, "\(outcome.log)")
        #expect(decoder.lowPass == 30, "\(outcome.summary)")
        #expect(outcome.summary.contains("3-30 Hz"))
    }

    /// A whole trial of the three codes' frames as the engine shows them, and
    /// the prediction trial over them, opened at 0.
    static func shownTrial() -> (trial: LiveTrial, timeline: StimulusTimeline) {
        var timeline = StimulusTimeline()
        for f in 0..<frames {
            timeline.receive(StimulusEvent(timestamp: Int32(Double(f) * 1000 / 60), objIDs: [1, 2, 3], objStates: codes.map { $0[f] }))
        }
        var trial = LiveTrial(mode: .prediction, newTargetStamp: 0)
        trial.start = 0
        trial.lastEvent = Double(frames - 1) * 1000 / 60
        trial.objectIDs = [1, 2, 3]
        return (trial, timeline)
    }

    /// One live trial of `eeg` (the high-pass band) scored as it arrives,
    /// 0.1 s at a time with the frames shown so far: `opening` is the model
    /// in force when the trial opened, `arrivals[block]` a fit that arrives
    /// just before that update. With `lastPredictionAt` (ms) the previous
    /// trial's last prediction went out then, and the interval holds this
    /// trial's first back. Its predictions, in order.
    static func predictions(eeg: [[Double]], opening: CalibratedDecoder?, arrivals: [Int: CalibratedDecoder] = [:],
                            lastPredictionAt: Double? = nil) -> [PredictedTargetProb] {
        var history = SampleHistory(channels: 4, bands: [nil, 30])
        var timeline = StimulusTimeline()
        var trial = LiveTrial(mode: .prediction, newTargetStamp: 0)
        trial.start = 0
        trial.objectIDs = [1, 2, 3]
        var prediction = LivePrediction(interval: 0.1)
        if let lastPredictionAt {
            var outbox = DecoderOutbox(now: lastPredictionAt)
            prediction.announce(scores: [0, 1], errorProbability: 0.5, objects: [1, 2], stamp: -1, sharpness: 20, into: &outbox)
        }
        prediction.startTrial(model: opening)
        var predicted: [PredictedTargetProb] = []
        for block in 0..<(frames / 6) {
            for f in (block * 6)..<(block * 6 + 6) {
                timeline.receive(StimulusEvent(timestamp: Int32(Double(f) * 1000 / 60), objIDs: [1, 2, 3], objStates: codes.map { $0[f] }))
            }
            trial.lastEvent = Double(block * 6 + 5) * 1000 / 60
            let samples = (block * 24)..<(block * 24 + 24)
            let chunk = eeg.map { Array($0[samples]) }
            history.append(times: samples.map { Double($0) * 1000 / rate }, raw: chunk, filtered: [chunk, chunk])
            if let fit = arrivals[block] { prediction.modelArrived(fit) }
            var outbox = DecoderOutbox(now: Double(block + 1) * 100)
            prediction.update(trial: trial, history: history, sampleRate: rate, timeline: timeline, into: &outbox)
            for message in outbox.take() { if case .predictedTargetProb(let p) = message { predicted.append(p) } }
        }
        return predicted
    }

    /// The object `decoder` predicts at the end of one live trial of `eeg`.
    static func prediction(of decoder: CalibratedDecoder, eeg: [[Double]]) -> Int8? {
        predictions(eeg: eeg, opening: decoder).last?.objID
    }

    /// A fit that arrives during a prediction trial, after the trial's first
    /// prediction, scores the next one: the trial goes on with the model it
    /// opened with, or, when it opened without one, the first to arrive. Its
    /// certainties stay on the scale of the threshold the engine holds it to
    /// from its first prediction, and its scores on one spatial filter. Here
    /// the later fit is on other electrodes' gains and half the trials, so
    /// its scores and certainties differ.
    @Test func aFitArrivingDuringATrialScoresTheNextTrial() throws {
        let (first, later, live) = try Self.twoFits()
        let alone = Self.predictions(eeg: live, opening: first)
        #expect(alone.count >= 20 && alone.last?.objID == 2)
        #expect(Self.predictions(eeg: live, opening: first, arrivals: [10: later]) == alone)
        #expect(Self.predictions(eeg: live, opening: nil, arrivals: [0: first, 10: later]) == alone)
        // The later fit on its own says otherwise: the pin is what keeps the trial the first fit's.
        #expect(Self.predictions(eeg: live, opening: later) != alone)
    }

    /// A fit that arrives before the trial's first prediction went out
    /// scores the whole trial, from its start, though the trial was already
    /// being scored by the model it opened with: the engine, which has heard
    /// nothing of the trial yet, holds it to the new fit's threshold.
    @Test func aFitArrivingBeforeATrialsFirstPredictionScoresThatTrial() throws {
        let (first, later, live) = try Self.twoFits()
        // The previous trial's last prediction 50 ms before this one's first update: the first goes out at the second.
        let held = Self.predictions(eeg: live, opening: first, lastPredictionAt: 50)
        let laterAlone = Self.predictions(eeg: live, opening: later, lastPredictionAt: 50)
        #expect(held != laterAlone)
        #expect(Self.predictions(eeg: live, opening: first, arrivals: [1: later], lastPredictionAt: 50) == laterAlone)
        #expect(Self.predictions(eeg: live, opening: first, arrivals: [2: later], lastPredictionAt: 50) == held,
                "one update later the first prediction is out")
    }

    /// Two fits of the same three codes, the later on other electrodes'
    /// gains and half the trials, and a live trial looking at object 2.
    static func twoFits() throws -> (first: CalibratedDecoder, later: CalibratedDecoder, live: [[Double]]) {
        let labels = (0..<12).map { $0 % 3 }
        let trials = labels.enumerated().map { Self.eeg(respondingTo: Self.codes[$1], seed: UInt64($0 + 1)) }
        let first = try CalibratedDecoder.fit(trials: trials, labels: labels, codes: Self.codes.map(Self.perSample), sampleRate: Self.rate)
        let flipped = trials.prefix(6).map { trial in zip(trial, [1.0, 1.0, -1.0, 1.0]).map { c, s in c.map { $0 * s } } }
        let later = try CalibratedDecoder.fit(trials: flipped, labels: Array(labels.prefix(6)), codes: Self.codes.map(Self.perSample),
                                              sampleRate: Self.rate)
        return (first, later, Self.eeg(respondingTo: Self.codes[1], seed: 99))
    }

    /// A model that blends in its calibration's averaged responses blends
    /// them live too: each object's code that the live trial shows (at the
    /// frames' own phase against the samples) finds the average of the
    /// calibration trials that showed it. Here each object's response also
    /// carries a waveform of its own that only that average holds; the live
    /// EEG holds object 2's waveform and a weaker response to object 3's
    /// flashes.
    @Test func aBlendingModelBlendsTheAveragedResponsesLive() throws {
        let n = Self.frames * 4
        var g: UInt64 = 0x2545_F491_4F6C_DD1D
        let own = (0..<3).map { _ -> [Double] in
            var y = 0.0
            return (0..<n).map { _ in
                g ^= g << 13; g ^= g >> 7; g ^= g << 17
                y = 0.8 * y + (Double(g % 1000) / 1000 - 0.5)
                return y
            }
        }
        func adding(_ k: Int, to eeg: [[Double]]) -> [[Double]] {
            zip(eeg, [1.0, -0.5, 0.8, 0.3]).map { channel, gain in zip(channel, own[k]).map { $0 + gain * $1 } }
        }
        let labels = (0..<12).map { $0 % 3 }
        let trials = labels.enumerated().map { adding($1, to: Self.eeg(respondingTo: Self.codes[$1], seed: UInt64($0 + 1))) }
        var settings = ReconvolutionSettings()
        settings.templateBlend = 0.5
        let blending = try CalibratedDecoder.fit(trials: trials, labels: labels, codes: Self.codes.map(Self.perSample),
                                                 sampleRate: Self.rate, settings: settings)
        #expect(blending.model.averagedResponses.count == 3)
        settings.templateBlend = 0
        let plain = try CalibratedDecoder.fit(trials: trials, labels: labels, codes: Self.codes.map(Self.perSample),
                                              sampleRate: Self.rate, settings: settings)
        let live = adding(1, to: Self.eeg(respondingTo: Self.codes[2], seed: 77).map { $0.map { 0.4 * $0 } })
        #expect(Self.prediction(of: blending, eeg: live) == 2)
        #expect(Self.prediction(of: plain, eeg: live) == 3, "the event responses alone see object 3's flashes only")
    }

}
