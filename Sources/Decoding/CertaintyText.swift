import Foundation

/// A certainty (1 − Perr) as every report prints it (demo, stream, session report): four decimals, or as many
/// more as it takes to show the error 1 − certainty to within 5 %.
/// Decoders recommend thresholds such as 0.999994, which four decimals
/// would show as a certain "1.0000".
public enum CertaintyText {
    /// `certainty` in text, e.g. "0.9900", "0.999994", "1.0000".
    public static func format(_ certainty: Double) -> String {
        var decimals = 4
        var text = String(format: "%.4f", certainty)
        while decimals < 9, certainty < 1, abs((Double(text) ?? certainty) - certainty) > 0.05 * (1 - certainty) {
            decimals += 1
            text = String(format: "%.\(decimals)f", certainty)
        }
        return text
    }
}
