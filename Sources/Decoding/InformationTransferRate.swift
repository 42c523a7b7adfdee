import Foundation

/// Wolpaw's information transfer rate.
public enum InformationTransferRate {
    /// Bits per selection for `classes` classes at `accuracy` (chance or
    /// worse gives 0).
    public static func bitsPerSelection(classes: Int, accuracy: Double) -> Double {
        let n = Double(classes), p = min(max(accuracy, 0), 1)
        guard classes >= 2, p > 1 / n else { return 0 }
        var bits = log2(n) + p * log2(p)
        if p < 1 { bits += (1 - p) * log2((1 - p) / (n - 1)) }
        return bits
    }

    /// Bits per minute when one selection takes `seconds`.
    public static func bitsPerMinute(classes: Int, accuracy: Double, seconds: Double) -> Double {
        seconds > 0 ? bitsPerSelection(classes: classes, accuracy: accuracy) * 60 / seconds : 0
    }
}
