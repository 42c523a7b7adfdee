#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The app's noise-tagging controller: the singleton every app drives.
///
/// It runs on the monotonic clock; the app's frame loop calls
/// `NoiseTagging.tick()` every frame on one thread. It records into
/// `$NOISETAG_HOME/recordings` (default `~/.noisetag/recordings`) from its
/// first use, and ends the recording ("App ended") when the process exits
/// normally.
///
/// ```swift
/// NoiseTagging.push(view: menu, forNoiseTaggingWithDelegate: self)
/// NoiseTagging.trialsAreRunning = true
/// ```
nonisolated(unsafe) public let NoiseTagging: NoiseTagController = {
    let controller = NoiseTagController()
    controller.startRecording(in: .standard)
    atexit { NoiseTagging.stopRecording() }
    return controller
}()
