import Codes

/// The draws the fuzz tests make, from the project's seeded generator, so
/// that fuzz runs are the same on every machine and every run.
extension SeededGenerator {
    /// A number in 0..<bound (bound > 0); the modulo bias is irrelevant here.
    mutating func below(_ bound: Int) -> Int {
        Int(truncatingIfNeeded: next() % UInt64(bound))
    }

    mutating func byte() -> UInt8 { UInt8(truncatingIfNeeded: next()) }
}
