import Synchronization

/// Where a simulated user who follows the screen looks in the next
/// prediction trial: an object ID set by the program that draws the
/// controls (the demo sets the key its simulated speller wants next), read
/// by the decoder's simulated amplifier when the trial's first frame (its
/// first STIMULUSEVENT) arrives. Set it before the tick that starts the
/// trial: where an action changes the screen and the next trial may start
/// in the same tick, set it in the action. Safe to set from one thread and
/// read from another.
///
/// ```swift
/// let focus = GazeFocus()
/// var settings = DecoderServerSettings()
/// settings.simulation = DecoderSimulation(snr: 0.05, seed: 1, gaze: .follow(focus))
/// let server = try DecoderServer(endpoint: "inproc://decoder", settings: settings, context: context)
/// focus.objectID = 8          // the user will look at object 8 in the next prediction trial
/// focus.objectID = nil        // … or at nothing
/// ```
public final class GazeFocus: Sendable {
    private let target = Mutex<UInt8?>(nil)

    /// A focus on nothing.
    public init() {}

    /// The object ID looked at in the next prediction trial (1…255), or nil for nothing.
    public var objectID: UInt8? {
        get { target.withLock { $0 } }
        set { target.withLock { $0 = newValue } }
    }
}
