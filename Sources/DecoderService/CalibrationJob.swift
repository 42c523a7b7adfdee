import Decoding
import Foundation

/// A calibration to fit: the trials dataset the live decoder collected and
/// its settings. ``run()`` saves the dataset (when a folder is set), fits a
/// ``CalibratedDecoder``, cross-validates it for the LOG lines, and never
/// throws: failures become LOG lines. It is a value, so it runs on any thread.
///
/// ```swift
/// if let job = decoder.takeCalibrationJob() {
///     let outcome = job.run()                      // on a worker thread
///     replies += decoder.adopt(outcome, now: MonotonicClock.milliseconds())
/// }
/// ```
public struct CalibrationJob: Sendable {
    /// The calibration trials, raw, with one class per distinct stimulus sequence shown.
    public let dataset: TrialsDataset
    /// The decoder's settings (target error rate, mains, prediction interval, where to save).
    public let settings: DecoderServerSettings
    /// For each trial, the classes on screen in it (nil: every class in every trial).
    public let trialClasses: [[Int]]?
    /// Per band (by its low-pass edge, nil for none), the trials as the
    /// live decoder's continuous filter for that band gave them (trials ×
    /// channels × samples), which the fit uses; nil: each raw trial is
    /// preprocessed on its own, primed on its first sample, in every band
    /// of ``FitCandidate/standardBands``.
    public let filteredTrials: [Double?: [[[Double]]]]?

    /// A job for `dataset`; `trialClasses` names the classes each trial
    /// showed, so that certainty is calibrated as live trials score (only
    /// the codes on screen). `filteredTrials`, when given, are the same
    /// trials already preprocessed, per band, by the filters live scoring
    /// uses: the model is then fitted on exactly the signal it will score,
    /// without the filters' start-up at each trial's first sample.
    public init(dataset: TrialsDataset, settings: DecoderServerSettings, trialClasses: [[Int]]? = nil,
                filteredTrials: [Double?: [[[Double]]]]? = nil) {
        precondition(filteredTrials.map { !$0.isEmpty && $0.values.allSatisfy { $0.count == dataset.header.nTrials } } ?? true,
                     "a band at least, each with one filtered trial per dataset trial")
        self.dataset = dataset
        self.settings = settings
        self.trialClasses = trialClasses
        self.filteredTrials = filteredTrials
    }

    /// Saves, fits and cross-validates. With `measuringFitTime` false the
    /// calibration LOG line leaves out "fitted in … s", the one part that
    /// depends on the machine: a ``Redecoder`` runs it so, and without a
    /// calibration folder, to give the same lines every time.
    ///
    /// ```swift
    /// let outcome = job.run()
    /// outcome.log.forEach { print($0) }
    /// let repeatable = job.run(measuringFitTime: false)
    /// ```
    public func run(measuringFitTime: Bool = true) -> CalibrationOutcome {
        var lines: [String] = []
        let h = dataset.header
        if let folder = settings.calibrationFolder {
            let url = folder.appendingPathComponent("calibration-" + Self.folderStamp() + "-\(h.nTrials)trials", isDirectory: true)
            do {
                try dataset.write(to: url)
                lines.append("calibration saved: \(url.path)")
            } catch let error as DatasetError {
                lines.append("calibration not saved: \(error)")      // names the folder or file and the reason
            } catch {
                lines.append("calibration not saved to \(url.path): \(error.localizedDescription)")
            }
        }
        guard Set(dataset.labels).count >= 2 else {
            let reason = "calibration has one class only (every trial cued the same code): no model fitted"
            lines.append(reason)
            return CalibrationOutcome(decoder: nil, log: lines, trials: h.nTrials, summary: reason)
        }
        let codes = (0..<h.nClasses).map { dataset.stimulus(ofClass: $0) }
        let labels = dataset.labels.map(Int.init)
        let fitted: CalibratedDecoder
        let clock = ContinuousClock()
        let started = clock.now
        var chosen = FitCandidate()
        do {
            let outcome = try chooseSettings()
            chosen = outcome.chosen
            fitted = try CalibratedDecoder.fit(trials: trialsToFit(lowPass: chosen.lowPass), labels: labels, codes: codes,
                                               sampleRate: h.fs, settings: chosen.settings,
                                               targetErrorRate: settings.targetErrorRate,
                                               idlePressesPerMinute: settings.idlePressesPerMinute,
                                               updateInterval: settings.predictionInterval, trialClasses: trialClasses,
                                               lowPass: chosen.lowPass)
            if !outcome.rankings.isEmpty { lines.append("calibration chose " + outcome.summary) }
        } catch {
            let reason = "calibration failed: \(error)"
            lines.append(reason)
            return CalibrationOutcome(decoder: nil, log: lines, trials: h.nTrials, summary: reason)
        }
        let elapsed = clock.now - started
        let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
        lines.append(String(format: "calibration: %d trials of %.1f s, %d classes; latency %.0f ms",
                            h.nTrials, Double(h.nSamples) / h.fs, h.nClasses, fitted.model.responseLatency * 1000)
                     + (measuringFitTime ? String(format: "; fitted in %.2f s", seconds) : ""))
        let validation = crossValidation(chosen)
        lines += validation.lines
        lines.append("recommended certaintyRequiredForPress \(CertaintyText.format(fitted.recommendedCertainty))"
                     + String(format: " (target error rate %.0f %%, %g idle presses a minute)", settings.targetErrorRate * 100, settings.idlePressesPerMinute))
        return CalibrationOutcome(decoder: fitted, log: lines, trials: h.nTrials, accuracy: validation.full?.accuracy,
                                  accuracySeconds: validation.full?.seconds, summary: chosen.summary)
    }


    /// The trials the fit uses in the band with low-pass edge `lowPass`:
    /// ``filteredTrials``' band, or else each raw trial preprocessed on its
    /// own (primed on its first sample) with the decoder's filter for it.
    public func trialsToFit(lowPass: Double?) -> [[[Double]]] {
        if let filtered = filteredTrials?[lowPass] { return filtered }
        let h = dataset.header
        return dataset.preprocessedTrials(Preprocessor(sampleRate: h.fs, channels: h.nChannels, lineFrequency: settings.lineFrequency,
                                                       lowPass: lowPass, reference: settings.reference))
    }

    /// The bands a calibration chooses among: those of ``filteredTrials``
    /// (the live filters), or every band of ``FitCandidate/standardBands``.
    public var bands: [Double?] {
        guard let filteredTrials else { return FitCandidate.standardBands }
        return FitCandidate.standardBands.filter { filteredTrials[$0] != nil }
    }

    /// Chooses the model's settings as ``run()`` does: by cross-validation
    /// on the calibration trials (``trialsToFit(lowPass:)``) among the
    /// candidates of the bands the live decoder filters (``bands``), since
    /// that is the signal scored live. Averaged responses
    /// (``ReconvolutionSettings/templateBlend``) are candidates too when the
    /// calibration has more than ``SettingsSelection/fewestTrialsToBlend``
    /// trials, as in ``OfflineEvaluation``: a live
    /// trial blends in the average of the calibration code each object's
    /// states so far are the start of
    /// (``ReconvolutionCCA/averagedResponse(shownSoFar:)``).
    ///
    /// ```swift
    /// let chosen = try job.chooseSettings().chosen
    /// let model = try ReconvolutionCCA.fit(trials: job.trialsToFit(lowPass: chosen.lowPass), labels: labels, codes: codes,
    ///                                      sampleRate: 250, settings: chosen.settings)
    /// ```
    public func chooseSettings() throws -> SettingsSelection.Outcome {
        let h = dataset.header
        try Preprocessor.check(sampleRate: h.fs)
        let bands = self.bands
        var selection = SettingsSelection()
        selection.candidates = selection.candidates.filter {
            bands.contains($0.lowPass)
        }
        return try selection.select(labels: dataset.labels.map(Int.init), codes: (0..<h.nClasses).map { dataset.stimulus(ofClass: $0) },
                                    sampleRate: h.fs) { trialsToFit(lowPass: $0) }
    }

    /// The cross-validation ``run()`` logs: `chosen`'s settings in 5
    /// chronological folds (``OfflineEvaluation``) on the trials the fit
    /// uses (``filteredTrials``, the live filters' output, where given),
    /// read out at `lengths` (nil: 0.5, 1, 2 and 4 s where shorter than the
    /// trials, and the whole trial). Needs at least 5 trials.
    public func crossValidation(of chosen: FitCandidate, lengths: [Double]? = nil) throws -> EvaluationReport {
        let h = dataset.header
        var evaluation = OfflineEvaluation()
        evaluation.folds = 5
        evaluation.lineFrequency = settings.lineFrequency
        evaluation.reference = settings.reference
        evaluation.targetErrorRate = settings.targetErrorRate
        evaluation.idlePressesPerMinute = settings.idlePressesPerMinute
        evaluation.updateInterval = settings.predictionInterval
        evaluation.candidate = chosen
        evaluation.preprocessed = filteredTrials
        let seconds = (Double(h.nSamples) / h.fs * 1000).rounded(.down) / 1000
        evaluation.lengths = lengths ?? ([0.5, 1, 2, 4].filter { $0 < seconds - 0.05 } + [seconds])
        return try evaluation.run(dataset)
    }

    /// Cross-validated accuracy and decoding curve of the chosen settings
    /// (5 chronological folds), as LOG lines, and the whole trial's row.
    private func crossValidation(_ chosen: FitCandidate) -> (lines: [String], full: (accuracy: Double, seconds: Double)?) {
        let h = dataset.header
        guard h.nTrials >= 5 else { return (["cross-validation needs at least 5 trials, \(h.nTrials) collected"], nil) }
        do {
            let report = try crossValidation(of: chosen)
            var lines: [String] = []
            if let full = report.rows.last {
                lines.append(String(format: "cross-validated accuracy %.0f %% at %.1f s (%d trials, 5 folds)",
                                    full.accuracy * 100, full.seconds, h.nTrials))
            }
            lines.append("decoding curve: " + report.rows.map { String(format: "%.1f s %.0f %%", $0.seconds, $0.accuracy * 100) }
                .joined(separator: ", "))
            return (lines, report.rows.last.map { ($0.accuracy, $0.seconds) })
        } catch {
            return (["cross-validation failed: \(error)"], nil)
        }
    }

    private static func folderStamp() -> String {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.dateFormat = "yyyyMMdd-HHmmss-SSS"
        return formatter.string(from: Date())
    }
}
