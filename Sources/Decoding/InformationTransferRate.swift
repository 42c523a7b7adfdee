import Foundation

/// Wolpaw's information transfer rate.
///
/// ```swift
/// let itr = InformationTransferRate.bitsPerMinute(classes: 9, accuracy: 0.95, seconds: 2)
/// ```
public enum InformationTransferRate {
    /// Bits per selection for `classes` classes at `accuracy` (chance or
    /// worse gives 0).
    ///
    /// ```swift
    /// InformationTransferRate.bitsPerSelection(classes: 2, accuracy: 1)   // 1
    /// ```
    public static func bitsPerSelection(classes: Int, accuracy: Double) -> Double {
        let n = Double(classes), p = min(max(accuracy, 0), 1)
        guard classes >= 2, p > 1 / n else { return 0 }
        var bits = log2(n) + p * log2(p)
        if p < 1 { bits += (1 - p) * log2((1 - p) / (n - 1)) }
        return bits
    }

    /// Bits per minute when one selection takes `seconds`.
    ///
    /// ```swift
    /// let rate = InformationTransferRate.bitsPerMinute(classes: 36, accuracy: 0.9, seconds: 1.5)
    /// ```
    public static func bitsPerMinute(classes: Int, accuracy: Double, seconds: Double) -> Double {
        seconds > 0 ? bitsPerSelection(classes: classes, accuracy: accuracy) * 60 / seconds : 0
    }
}
