/// Compares a decoder certainty with a required certainty at the decoder's
/// precision (not to be confused with UtopiaProtocol's `CertaintyThreshold`
/// message, the decoder's advice on the threshold).
///
/// The decoder sends its error probability Perr as a float32, so a
/// certainty (1 − Perr) is known only to float32's resolution: Perr 0.1 on
/// the wire is `Float(0.1)`, and `1 - Double(Float(0.1))` is 0.8999999985,
/// just below a `certaintyRequiredForPress` of 0.9 in double precision. Both
/// sides are therefore compared as `Float`, where that certainty equals 0.9
/// and meets the threshold, as the decoder meant.
struct PressThreshold: Equatable {
    /// The certainty a press needs (a setting, in 0…1).
    let required: Double

    /// True when `certainty` reaches ``required`` at float32 precision.
    func isMet(by certainty: Double) -> Bool {
        Float(certainty) >= Float(required)
    }
}
