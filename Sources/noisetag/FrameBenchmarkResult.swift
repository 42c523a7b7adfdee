/// Engine time per flicker frame for one control count, in nanoseconds.
struct FrameBenchmarkResult: Encodable {
    /// The engine set-up timed: `engine` alone, or `full` (recorder and ZeroMQ link).
    let path: FrameBenchmark.Path
    /// Flickering controls.
    let controls: Int
    /// Timed frames.
    let frames: Int
    let medianNs: UInt64
    let p99Ns: UInt64
    let p999Ns: UInt64
    let minNs: UInt64
    let maxNs: UInt64
    let meanNs: Double
    /// Bytes of one encoded STIMULUSEVENT (header and payload).
    let frameBytes: Int
}
