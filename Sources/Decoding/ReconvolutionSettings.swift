/// Parameters of a reconvolution CCA fit.
///
/// ```swift
/// var settings = ReconvolutionSettings()
/// settings.encodingLength = 0.3
/// settings.fixedLatency = 0.04   // skip the latency search
/// ```
public struct ReconvolutionSettings: Sendable, Equatable, Codable {
    /// How the stimulus becomes events.
    public var event: EventDefinition = .risingFallingEdges
    /// Seconds of response modelled after each event.
    public var encodingLength = 0.3
    /// Shrinkage of the EEG covariance (0…1), pyntbci's `gamma_x`.
    public var gammaX = 0.0
    /// Shrinkage of the structure-matrix covariance (0…1), pyntbci's `gamma_m`.
    public var gammaM = 0.01
    /// The longest stimulus-to-response latency searched, in seconds.
    public var maximumLatency = 0.25
    /// Use this latency (seconds) instead of estimating one.
    public var fixedLatency: Double? = nil
    /// Seconds of past samples the temporal whitening filter
    /// (``PredictionErrorFilter``) predicts from; 0 scores the filtered EEG
    /// as it is, as pyntbci's rCCA does.
    public var whiteningLength = 0.08
    /// Weight (0…1) of the calibration's own average response in the
    /// template of a code shown exactly as in calibration: that code's
    /// spatially filtered calibration trials, averaged, and blended at equal
    /// power with the reconvolution template. 0 scores the reconvolution
    /// template alone, as pyntbci's rCCA does; a code calibration never
    /// showed (or showed at another phase) always gets it alone.
    public var templateBlend = 0.0

    /// The defaults: rising and falling edges, 0.3 s responses, latency
    /// estimated up to 0.25 s, 0.08 s whitening, no averaged responses.
    public init() {}
}
