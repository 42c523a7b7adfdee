/// One way to fit the reference decoder that ``SettingsSelection`` weighs
/// against the others: the preprocessing band and the reconvolution
/// settings (event definition, response window and its latency handling,
/// temporal whitening).
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
        let blend = settings.templateBlend > 0 ? String(format: ", averaged responses %.2f", settings.templateBlend) : ""
        return "\(settings.event.rawValue), \(latency) + \(String(format: "%.2f", settings.encodingLength)) s, \(whitening), \(band)\(blend)"
    }

    /// The bands of the standard grid, by low-pass edge: none (the 3 Hz
    /// high-pass and notch only), then 30 Hz. The live decoder filters its
    /// EEG continuously for each, so that a calibration can choose either.
    public static let standardBands: [Double?] = [nil, 30]

    /// The candidates a calibration chooses among, simplest first (the
    /// order ``SettingsSelection`` prefers among candidates within one
    /// standard error of the best): the reconvolution templates alone before
    /// templates half from the calibration's averaged responses; no
    /// whitening before whitening 0.08 s; `refe` (two events) before
    /// `duration` (one per flash length); the response from the stimulus for
    /// 0.3 s, then 0.5 s (the latency inside the response, as pyntbci's rCCA
    /// has it), then from an estimated latency for 0.3 s; the band from 3 Hz
    /// without, then with, a 30 Hz low-pass.
    public static let standardGrid: [FitCandidate] = {
        let windows: [(latency: Double?, length: Double)] = [(0, 0.3), (0, 0.5), (nil, 0.3)]
        var grid: [FitCandidate] = []
        for blend in [0, 0.5] {
            for whitening in [0, ReconvolutionSettings().whiteningLength] {
                for event in [EventDefinition.risingFallingEdges, .duration] {
                    for window in windows {
                        for lowPass in standardBands {
                            var s = ReconvolutionSettings()
                            s.event = event
                            s.fixedLatency = window.latency
                            s.encodingLength = window.length
                            s.whiteningLength = whitening
                            s.templateBlend = blend
                            grid.append(FitCandidate(lowPass: lowPass, settings: s))
                        }
                    }
                }
            }
        }
        return grid
    }()
}
