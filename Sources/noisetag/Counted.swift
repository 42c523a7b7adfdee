/// A count with its noun, singular for one: "1 step", "3 steps".
enum Counted {
    /// `n` and `noun` (plural `plural`, else noun + "s").
    static func text(_ n: Int, _ noun: String, plural: String? = nil) -> String {
        "\(n) " + (n == 1 ? noun : plural ?? noun + "s")
    }
}
