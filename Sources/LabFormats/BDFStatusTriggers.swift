/// Trigger markers from a BioSemi "Status" channel: the trigger code is the
/// low 16 bits of each sample (mask 0xFFFF); the high byte holds BioSemi's
/// status bits (CMS in range, battery, new epoch) and is ignored. A marker is
/// emitted at every sample where the code changes to a non-zero value, the
/// code before the first sample counting as 0 (a trigger already raised when
/// the recording began is a marker at its first sample, and
/// ``raisedAtStart`` says so), its text the code in decimal and its duration
/// the time until the code next changes (nil when it does not).
struct BDFStatusTriggers {
    /// The markers so far, in time order.
    private(set) var markers: [RecordingMarker] = []
    /// The code of the first sample when it was not 0: a trigger raised
    /// before the recording began (or a port that rests above 0).
    private(set) var raisedAtStart: Int32?
    private var previous: Int32 = 0
    private var started = false
    private var open: Int?

    /// Feeds one Status sample: its digital value, its time from the first
    /// sample and its index at the recording's (kept) sample rate.
    mutating func add(_ value: Int32, seconds: Double, sample: Int) {
        let code = value & 0xFFFF
        defer { previous = code; started = true }
        if !started, code != 0 { raisedAtStart = code }
        guard code != previous else { return }
        if let open { markers[open].duration = seconds - markers[open].seconds }
        open = nil
        if code != 0 {
            open = markers.count
            markers.append(RecordingMarker(sample: sample, seconds: seconds, text: String(code)))
        }
    }
}
