/// What the app told the engine about its life, for recordings.
public enum AppLifecycleChange: String, Codable, Sendable {
    /// `applicationDidEnterBackground()`.
    case didEnterBackground
    /// `applicationWillEnterForeground()`.
    case willEnterForeground
    /// `developerPanelOpened()`.
    case developerPanelOpened
}
