/// The app's noise-tagging controller: the singleton every app drives.
///
/// It runs on the monotonic clock; the app's frame loop calls
/// `NoiseTagging.tick()` every frame on one thread.
///
/// ```swift
/// NoiseTagging.push(view: menu, forNoiseTaggingWithDelegate: self)
/// NoiseTagging.trialsAreRunning = true
/// ```
nonisolated(unsafe) public let NoiseTagging = NoiseTagController()
