/// Who changed a setting, as a `settingChanged` event says.
///
/// ```swift
/// if case .settingChanged(let title, _, .app) = event.kind { print("the app set \(title)") }
/// ```
public enum SettingSource: String, Codable, Sendable {
    /// The app or the user (`settings.set`, `load(from:)`, the developer panel).
    case app
    /// The engine itself (the `mode` setting following a mode change).
    case engine
    /// The decoder's advice (the certainty threshold extension).
    case decoder
}
