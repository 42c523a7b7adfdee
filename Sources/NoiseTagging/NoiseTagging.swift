import Foundation

/// The app's noise-tagging controller: the singleton every app drives.
///
/// It runs on the monotonic clock; the app's frame loop calls
/// `NoiseTagging.tick()` every frame. Any thread may call it: a call from
/// another thread waits for the running tick and is applied whole before
/// the next one (work posted through `NoiseTagging.inbox.post { engine in … }`
/// runs at the start of the next tick instead, without waiting). Like the reference
/// framework it records into `$NOISETAG_HOME/recordings` (default
/// `~/.noisetag/recordings`) from its first use, unless the environment has
/// `NOISETAG_RECORDINGS=off` (then its `recordingsEnabled` setting starts
/// off). The setting turns recording off and on at run time.
///
/// The app calls `NoiseTagging.stopRecording()` when it ends: that writes
/// everything, `fsync`s it and gives the folder its right part
/// ("App ended"). Nothing does this behind the app's back: a recording not
/// stopped keeps only its left part, the *open/crashed* state of
/// `Protocols/recordings.md`, with every line written up to about 0.1 s
/// before the end.
///
/// ```swift
/// NoiseTagging.push(view: menu, forNoiseTaggingWithDelegate: self)
/// NoiseTagging.trialsAreRunning = true
/// // … the frame loop calls NoiseTagging.tick() until the user quits, then:
/// NoiseTagging.stopRecording()
/// ```
public let NoiseTagging: NoiseTagController =
    NoiseTagController.appController(environment: ProcessInfo.processInfo.environment)

extension NoiseTagController {
    /// The singleton's set-up: a controller on `clock` that records into
    /// `store` unless `environment` has `NOISETAG_RECORDINGS=off`, in which
    /// case its `recordingsEnabled` setting starts off and nothing is written.
    static func appController(environment: [String: String], clock: EngineClock = MonotonicClock.shared,
                              store: RecordingStore = .standard,
                              wallClock: WallClock = SystemWallClock()) -> NoiseTagController {
        let controller = NoiseTagController(clock: clock)
        if environment["NOISETAG_RECORDINGS"] == "off" {
            try? controller.settings.set(value: .bool(false), for: .recordingsEnabled)
        } else {
            controller.startRecording(in: store, wallClock: wallClock)
        }
        return controller
    }
}
