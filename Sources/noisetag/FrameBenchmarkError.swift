/// Why a frame benchmark run is not a valid measurement.
struct FrameBenchmarkError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
