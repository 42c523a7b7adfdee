/// One way to fit the reference decoder that ``SettingsSelection`` weighs
/// against the others: the preprocessing band and the reconvolution
/// settings (event definition, response window and its latency handling,
/// temporal whitening).
///
/// ```swift
/// let candidate = FitCandidate(lowPass: 30, settings: ReconvolutionSettings())
/// print(candidate.summary)   // "refe, latency estimated + 0.30 s, whitening 0.08 s, 3-30 Hz"
/// ```
public struct FitCandidate: Sendable, Equatable, Codable {
    /// The low-pass edge in Hz (nil: the high-pass and notch only).
    public var lowPass: Double?
    /// The model's settings.
    public var settings: ReconvolutionSettings

    /// A candidate from its band and settings.
    public init(lowPass: Double? = nil, settings: ReconvolutionSettings = ReconvolutionSettings()) {
        self.lowPass = lowPass
        self.settings = settings
    }

    /// One line naming every choice, for reports and LOG lines.
    public var summary: String {
        let latency = settings.fixedLatency.map { String(format: "latency %.0f ms", $0 * 1000) } ?? "latency estimated"
        let whitening = settings.whiteningLength > 0 ? String(format: "whitening %.2f s", settings.whiteningLength) : "no whitening"
        let band = lowPass.map { String(format: "3-%g Hz", $0) } ?? "3 Hz high-pass"
        return "\(settings.event.rawValue), \(latency) + \(String(format: "%.2f", settings.encodingLength)) s, \(whitening), \(band)"
    }

    /// The candidates a calibration chooses among: both event definitions;
    /// the response from an estimated latency for 0.3 s, or from the
    /// stimulus for 0.3 or 0.5 s (the latency inside the response, as
    /// pyntbci's rCCA has it); whitening 0.08 s or none; the band from 3 Hz
    /// with or without a 30 Hz low-pass. The defaults' candidate comes first,
    /// so it wins ties.
    public static let standardGrid: [FitCandidate] = {
        var grid: [FitCandidate] = []
        for lowPass in [nil, 30.0] as [Double?] {
            for event in [EventDefinition.risingFallingEdges, .duration] {
                for (latency, length) in [(nil, 0.3), (0.0, 0.3), (0.0, 0.5)] as [(Double?, Double)] {
                    for whitening in [ReconvolutionSettings().whiteningLength, 0] {
                        var s = ReconvolutionSettings()
                        s.event = event
                        s.fixedLatency = latency
                        s.encodingLength = length
                        s.whiteningLength = whitening
                        grid.append(FitCandidate(lowPass: lowPass, settings: s))
                    }
                }
            }
        }
        return grid
    }()
}
