import Foundation

/// A zero-training session replayed offline: the dataset's trials in
/// recorded order, their labels hidden from the decoder, decoded as the
/// live decoder and the engine would in ZeroTrain mode.
///
/// - Trials 1 to ``zeroTrainTrials`` are scored by a ``ZeroTrainingLearner``
///   every ``updateInterval`` (hypothesis scores, calibration-free error
///   probability) and pressed once the certainty reaches
///   ``firstCertainty`` (before the first press) or ``certainty``; each
///   finished trial is learned, and earlier labels revised.
/// - Then the hand-over: the supervised decoder (settings chosen by
///   ``selection`` when set, certainty calibrated, its recommended
///   threshold) is fitted on the learned labels, and every later trial is
///   scored by it. It keeps learning: each later trial it pressed with the
///   decoded class becomes a calibration trial, and the decoder is fitted
///   again after every ``refitEvery`` of them.
///
/// The labels are used only to score what was pressed.
public struct ZeroTrainingEvaluation: Sendable {
    /// Seconds between predictions.
    public var updateInterval = 0.1
    /// Certainty needed for the first press (`certaintyRequiredForFirstZeroTrainClick`).
    public var firstCertainty = 0.99
    /// Certainty needed for later presses before the hand-over (`certaintyRequiredForPress`).
    public var certainty = 0.9
    /// Unsupervised trials before the supervised decoder takes over (`nZeroTrainTrials`).
    public var zeroTrainTrials = 10
    /// Pressed trials after which the supervised decoder is fitted again (0: never).
    public var refitEvery = 10
    /// Mains frequency, or nil to find it in the recording.
    public var lineFrequency: Double? = nil
    /// Re-referencing before the filter.
    public var reference = ChannelReference.asRecorded
    /// Highest sample rate decoded (higher recordings are decimated).
    public var maximumRate = 256.0
    /// Settings selection at each supervised fit; nil fits the default settings.
    public var selection: SettingsSelection? = SettingsSelection()
    /// The supervised decoder's target error rate.
    public var targetErrorRate = 0.05
    /// The false presses per minute its threshold allows while nobody looks.
    public var idlePressesPerMinute = 0.1
    /// Before the hand-over, fit the supervised decoder on the labels learned
    /// so far after every trial and score the next trials with it (true), or
    /// score every trial before the hand-over by hypothesis (false).
    public var interimFits = true
    /// Trial length at which each trial is also classified without a
    /// certainty (the decoding curve's 4 s), to compare with cross-validation.
    public var classificationSeconds = 4.0

    /// The defaults (the engine's defaults for the three ZeroTrain settings).
    public init() {}

    /// Replays `recorded` (at least 2 trials). The hand-over comes with the
    /// first supervised fit that succeeds once `zeroTrainTrials` trials are
    /// learned: while the learned labels hold too little to fit (one class,
    /// or folds without two classes), the learner learns and decodes on, and
    /// the outcome's `fitProblems` says so. Throws when the dataset cannot be
    /// preprocessed or a supervised fit fails for another reason.
    public func run(_ recorded: TrialsDataset) throws -> ZeroTrainingOutcome {
        let dataset = try recorded.decimated(toAtMost: maximumRate)
        let h = dataset.header
        try Preprocessor.check(sampleRate: h.fs)
        guard h.nTrials >= 2 else { throw ReconvolutionError.notEnoughData("\(h.nTrials) trial(s)") }
        let mains = OfflineEvaluation.mains(lineFrequency, of: dataset)
        var bands: [Double?: [[[Double]]]] = [:]
        func trials(lowPass: Double?) -> [[[Double]]] {
            if let done = bands[lowPass] { return done }
            let preprocessor = Preprocessor(sampleRate: h.fs, channels: h.nChannels, lineFrequency: mains.frequency,
                                            lowPass: lowPass, harmonics: mains.harmonics, reference: reference)
            bands[lowPass] = dataset.preprocessedTrials(preprocessor)
            return bands[lowPass]!
        }
        let eeg = trials(lowPass: nil)
        let targets = dataset.labels.map(Int.init)
        let codes = (0..<h.nClasses).map { dataset.stimulus(ofClass: $0) }
        let chunk = max(1, Int((updateInterval * h.fs).rounded()))
        let n = h.nSamples
        var learner = ZeroTrainingLearner(sampleRate: h.fs, channels: h.nChannels)
        var results: [ZeroTrainingOutcome.Trial] = []
        var pressedOnce = false
        var supervised: CalibratedDecoder?
        var calibration: [(trial: Int, label: Int)] = []
        var sinceFit = 0
        var revisions = 0
        var handedOver = false
        var fitProblems: [String] = []
        let clock = ContinuousClock()
        var learnTime = Duration.zero

        /// Fits the supervised decoder on `calibration`; false, with the reason
        /// kept for after trial `trial`, when the labels hold too little to fit.
        /// True when `labels` can be fitted at all: two trials, two classes.
        func fittable(_ labels: [Int]) -> Bool { labels.count >= 2 && Set(labels).count >= 2 }
        func fitSupervised(selecting: Bool, after trial: Int) throws -> Bool {
            let labels = calibration.map(\.label)
            guard fittable(labels) else {
                fitProblems.append("after trial \(trial): no supervised fit, \(calibration.count) labelled trial(s) of \(Set(labels).count) class(es)")
                return false
            }
            do { return try fit(labels: labels, selecting: selecting) } catch ReconvolutionError.notEnoughData(let reason) {
                fitProblems.append("after trial \(trial): no supervised fit on \(calibration.count) labelled trials: \(reason)")
                return false
            }
        }
        func fit(labels: [Int], selecting: Bool) throws -> Bool {
            var candidate = FitCandidate(lowPass: nil, settings: ReconvolutionSettings())
            if let selection, selecting {
                let indices = calibration.map(\.trial)
                candidate = try selection.select(labels: labels, codes: codes, sampleRate: h.fs) { band in
                    let all = trials(lowPass: band)
                    return indices.map { all[$0] }
                }.chosen
            }
            let all = trials(lowPass: candidate.lowPass)
            supervised = try CalibratedDecoder.fit(
                trials: calibration.map { all[$0.trial] }, labels: labels, codes: codes, sampleRate: h.fs,
                settings: candidate.settings, targetErrorRate: targetErrorRate, idlePressesPerMinute: idlePressesPerMinute,
                updateInterval: updateInterval, lowPass: candidate.lowPass)
            sinceFit = 0
            return true
        }

        let classifyAt = min(n, max(1, Int((classificationSeconds * h.fs).rounded())))
        for i in 0..<h.nTrials {
            var selected: Int?, seconds: Double?
            var position = 0
            let classified: Int?
            if let decoder = supervised {
                var scorer = decoder.scorer(for: codes)
                scorer.append(trials(lowPass: decoder.lowPass)[i].map { Array($0[0..<classifyAt]) })
                let scores = scorer.scores()
                classified = scores.indices.max { scores[$0] < scores[$1] }
            } else {
                let scores = learner.hypothesisScores(eeg[i].map { Array($0[0..<classifyAt]) }, codes: codes)
                classified = scores.indices.max { scores[$0] < scores[$1] }
            }
            let required = pressedOnce ? (supervised?.recommendedCertainty ?? certainty) : firstCertainty
            if let decoder = supervised {
                let trial = trials(lowPass: decoder.lowPass)[i]
                var scorer = decoder.scorer(for: codes)
                while position < n, selected == nil {
                    let end = min(position + chunk, n)
                    scorer.append(trial.map { Array($0[position..<end]) })
                    position = end
                    let scores = scorer.scores()
                    let perr = decoder.certainty.errorProbability(scores: scores, seconds: Double(position) / h.fs)
                    if 1 - perr >= required {
                        selected = scores.indices.max { scores[$0] < scores[$1] }
                        seconds = Double(position) / h.fs
                    }
                }
            } else {
                while position < n, selected == nil {
                    position = min(position + chunk, n)
                    guard Double(position) / h.fs >= ZeroTrainingLearner.minimumSeconds else { continue }
                    let scores = learner.hypothesisScores(eeg[i].map { Array($0[0..<position]) }, codes: codes)
                    if 1 - ZeroTrainingLearner.errorProbability(scores: scores) >= firstCertainty {
                        selected = scores.indices.max { scores[$0] < scores[$1] }
                        seconds = Double(position) / h.fs
                    }
                }
            }
            if selected != nil { pressedOnce = true }
            let phase: ZeroTrainingOutcome.Phase = handedOver ? .supervised : .zeroTraining
            if phase == .zeroTraining {
                let start = clock.now
                revisions += learner.add(eeg[i], codes: codes).count
                learnTime += clock.now - start
                calibration = learner.labels.enumerated().map { ($0.offset, $0.element) }
                if learner.trials.count >= zeroTrainTrials {
                    handedOver = try fitSupervised(selecting: true, after: i + 1)
                } else if interimFits, fittable(calibration.map(\.label)) {
                    _ = try? fit(labels: calibration.map(\.label), selecting: false)
                }
            } else if let selected, refitEvery > 0 {
                calibration.append((i, selected))
                sinceFit += 1
                if sinceFit >= refitEvery { _ = try fitSupervised(selecting: true, after: i + 1) }
            }
            results.append(.init(trial: i + 1, target: targets[i], selected: selected, seconds: seconds, phase: phase,
                                  classified: classified))
        }
        return ZeroTrainingOutcome(trials: results, learnedLabels: learner.labels, revisions: revisions, fitProblems: fitProblems,
                                   learnSeconds: Double(learnTime.components.seconds) + Double(learnTime.components.attoseconds) * 1e-18)
    }
}
