/// A count with its noun as every report prints it, singular for one:
/// "1 step", "3 steps", "2 presses".
public enum CountText {
    /// `n` and `noun`, whose plural is `plural`, else the noun with "es"
    /// after an s ("presses") or "s" ("steps").
    public static func format(_ n: Int, _ noun: String, plural: String? = nil) -> String {
        "\(n) " + (n == 1 ? noun : plural ?? noun + (noun.hasSuffix("s") ? "es" : "s"))
    }
}
