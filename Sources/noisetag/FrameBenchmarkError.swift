/// Why a frame benchmark run is not a valid measurement.
///
/// ```swift
/// throw FrameBenchmarkError("the trial ended during the timed frames")
/// ```
struct FrameBenchmarkError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
