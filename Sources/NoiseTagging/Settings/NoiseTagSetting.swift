/// One setting as it stands: title, current value and definition.
public struct NoiseTagSetting: Sendable {
    /// The setting's title.
    public let title: NoiseTagSettingTitles
    /// The current value.
    public let value: NoiseTagSettingValue
    /// Kind, default and meaning.
    public var definition: NoiseTagSettingDefinition { title.definition }
    /// True when the value equals the default.
    public var isDefault: Bool { value == definition.defaultValue }
}
