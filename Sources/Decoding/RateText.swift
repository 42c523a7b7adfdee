/// A sample rate or frequency as messages print it: at most three
/// decimals, no trailing zeros ("250.249", "100"), never a raw double
/// such as 250.24932141638786.
public enum RateText {
    /// `hertz` in the form above, without the unit.
    public static func format(_ hertz: Double) -> String {
        guard hertz.isFinite else { return "\(hertz)" }
        var text = String(format: "%.3f", hertz)
        while text.hasSuffix("0") { text.removeLast() }
        if text.hasSuffix(".") { text.removeLast() }
        return text
    }
}
