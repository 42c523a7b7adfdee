import UtopiaProtocol

/// One trial as the live decoder follows it: opened by a NEWTARGET, started
/// by its first STIMULUSEVENT (whose objects it keeps), ended by the next
/// NEWTARGET or mode change. Times are wire milliseconds on the stimulus
/// timeline's scale.
struct LiveTrial: Sendable {
    let mode: DecoderMode
    /// The timestamp of the NEWTARGET that opened it (how the engine names the trial).
    let newTargetStamp: Int32
    var start: Double?
    var lastEvent = 0.0
    var newestStamp: Int32
    var objectIDs: [UInt8] = []
    var closedAt: Double?

    init(mode: DecoderMode, newTargetStamp: Int32) {
        self.mode = mode
        self.newTargetStamp = newTargetStamp
        newestStamp = newTargetStamp
    }

    /// One display frame after the last event: the trial's samples end here.
    var end: Double { lastEvent + 1000.0 / 60 }
}
