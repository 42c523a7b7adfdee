import DecoderService
import Decoding
import Foundation

/// What a calibration dataset shows when the reference decoder is fitted
/// on it again, as the live decoder did (``CalibrationJob``): the settings
/// it chooses, its decoding curve (5 chronological folds of those
/// settings, ``CalibrationJob/crossValidation(of:lengths:)``, read out every
/// half second and at the whole trial) and the response kernels of the
/// model fitted on every trial, per event over the lag after the stimulus.
///
/// ```swift
/// let figures = try CalibrationFigures(dataset: TrialsDataset.read(from: saved))
/// for row in figures.curve { print(row.seconds, row.accuracy) }
/// print(figures.eventLabels, figures.lagMilliseconds(0))
/// ```
public struct CalibrationFigures: Sendable {
    /// Trials, classes, channels and rate of the dataset.
    public var trials: Int, classes: Int, channels: Int, sampleRate: Double
    /// Seconds per trial.
    public var trialSeconds: Double
    /// What the settings selection chose.
    public var chosen: FitCandidate
    /// The decoding curve; empty with fewer than 5 trials (``curveProblem`` says so).
    public var curve: [EvaluationRow]
    /// Why there is no curve, when there is none.
    public var curveProblem: String?
    /// The model's responses, per event, one value per lag sample.
    public var kernels: [[Double]]
    /// The events' names (`rise`, `fall`, or flash lengths).
    public var eventLabels: [String]
    /// Where the kernels start after the stimulus, in seconds.
    public var kernelStart: Double
    /// The measured onset of the response, in seconds.
    public var responseLatency: Double
    /// Chance accuracy: one over the classes a trial was scored against.
    public var chance: Double { classes > 0 ? 1 / Double(classes) : 0 }

    /// Fits and cross-validates `dataset` with the live decoder's settings
    /// (`settings`; its calibration folder is ignored: nothing is saved).
    public init(dataset: TrialsDataset, settings: DecoderServerSettings = DecoderServerSettings()) throws {
        var settings = settings
        settings.calibrationFolder = nil
        let h = dataset.header
        let job = CalibrationJob(dataset: dataset, settings: settings)
        let outcome = try job.chooseSettings()
        let trials = job.trialsToFit(lowPass: outcome.chosen.lowPass)
        let model = try ReconvolutionCCA.fit(trials: trials, labels: dataset.labels.map(Int.init),
                                             codes: (0..<h.nClasses).map { dataset.stimulus(ofClass: $0) },
                                             sampleRate: h.fs, settings: outcome.chosen.settings)
        (self.trials, classes, channels, sampleRate) = (h.nTrials, h.nClasses, h.nChannels, h.fs)
        trialSeconds = Double(h.nSamples) / h.fs
        chosen = outcome.chosen
        kernels = model.kernels
        eventLabels = model.encoder.labels
        kernelStart = model.latency
        responseLatency = model.responseLatency
        if h.nTrials >= 5 {
            let whole = (trialSeconds * 10).rounded(.down) / 10
            let lengths = stride(from: 0.5, to: whole - 0.05, by: 0.5).map { $0 } + [whole]
            curve = try job.crossValidation(of: outcome.chosen, lengths: lengths).rows
            curveProblem = nil
        } else {
            curve = []
            curveProblem = "a decoding curve needs at least 5 calibration trials (5 folds), this calibration has \(h.nTrials)"
        }
    }

    /// The lag of kernel sample `index` after the stimulus, in milliseconds.
    public func lagMilliseconds(_ index: Int) -> Double { (kernelStart + Double(index) / sampleRate) * 1000 }
}
