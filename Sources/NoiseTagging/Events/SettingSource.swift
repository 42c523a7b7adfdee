/// Who changed a setting, as a `settingChanged` event says.
public enum SettingSource: String, Codable, Sendable {
    /// The app or the user (`settings.set`, `load(from:)`, the developer panel).
    case app
    /// The engine itself (the `mode` setting following a mode change).
    case engine
    /// The decoder's advice (the certainty threshold extension).
    case decoder
}
