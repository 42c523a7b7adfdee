/// One calibration code's averaged response, kept by a fit whose settings
/// blend (``ReconvolutionSettings/templateBlend``): see
/// ``ReconvolutionCCA/averagedResponses``.
public struct AveragedResponse: Sendable, Equatable {
    /// The code's first states, as many as the calibration trials' samples.
    public let code: [UInt8]
    /// The spatially filtered calibration trials that showed the code,
    /// averaged, and scaled to the power of the code's reconvolution
    /// template over those samples.
    public let response: [Double]
}
