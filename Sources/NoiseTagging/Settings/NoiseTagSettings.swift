import Foundation
import JSONSupport

/// The engine's settings, reached by title. Any thread may read and set
/// them: each call holds the lock of the engine that uses them, so a change
/// made from another thread waits for the running tick, and the engine has
/// reacted to it before the next tick.
///
/// ```swift
/// let settings = NoiseTagSettings()
/// try settings.set(value: .double(0.95), for: .certaintyRequiredForPress)
/// settings.doubleFor(.certaintyRequiredForPress)  // 0.95
/// ```
public final class NoiseTagSettings {
    /// An observer handle.
    public struct Token: Hashable, Sendable { let id: Int }

    /// The lock these settings, and the controller that uses them, hold while they run.
    let access = EngineAccess()
    private var values: [NoiseTagSettingTitles: NoiseTagSettingValue] = [:]
    /// Observers by token and wanted title (nil: all), called with the title, new value and old value.
    private var observers: [(Token, NoiseTagSettingTitles?, (NoiseTagSettingTitles, NoiseTagSettingValue, NoiseTagSettingValue) -> Void)] = []
    private var nextObserverID = 0
    /// Titles the user set through ``set(value:for:)`` or a settings file
    /// (not through ``adopt(value:for:)``), until reset.
    public var explicitlySet: Set<NoiseTagSettingTitles> { access.read { userSet } }
    private var userSet: Set<NoiseTagSettingTitles> = []

    /// Creates settings with every default.
    public init() {}

    // MARK: Reading

    /// The setting with `title`: value and definition.
    public func settingWith(title: NoiseTagSettingTitles) -> NoiseTagSetting {
        NoiseTagSetting(title: title, value: value(for: title))
    }

    /// The current value of `title`.
    public func value(for title: NoiseTagSettingTitles) -> NoiseTagSettingValue {
        let entered = access.enter()
        defer { access.leave(entered) }
        return values[title] ?? title.definition.defaultValue
    }

    /// A bool setting (numbers count as true when non-zero; texts as "true"/"yes"/"1").
    public func boolFor(_ title: NoiseTagSettingTitles) -> Bool {
        switch value(for: title) {
        case .bool(let v): return v
        case .int(let v): return v != 0
        case .double(let v): return v != 0
        case .text(let v): return ["true", "yes", "1"].contains(v.lowercased())
        }
    }

    /// An integer setting (numbers are rounded down; choices give their index; otherwise 0).
    public func intFor(_ title: NoiseTagSettingTitles) -> Int {
        switch value(for: title) {
        case .bool(let v): return v ? 1 : 0
        case .int(let v): return v
        case .double(let v): return Int(v.rounded(.down))
        case .text(let v):
            if case .choice(let options) = title.definition.kind { return options.firstIndex(of: v) ?? 0 }
            return Int(v) ?? 0
        }
    }

    /// A number setting (integers convert; otherwise 0).
    public func doubleFor(_ title: NoiseTagSettingTitles) -> Double {
        switch value(for: title) {
        case .bool(let v): return v ? 1 : 0
        case .int(let v): return Double(v)
        case .double(let v): return v
        case .text(let v): return Double(v) ?? 0
        }
    }

    /// A setting as text.
    public func textFor(_ title: NoiseTagSettingTitles) -> String {
        value(for: title).description
    }

    /// A colour setting.
    public func colorFor(_ title: NoiseTagSettingTitles) -> NoiseTagColor {
        NoiseTagColor(hex: textFor(title)) ?? .black
    }

    /// How many settings differ from their default.
    public var nonDefaultCount: Int { access.read { NoiseTagSettingTitles.allCases.filter { !settingWith(title: $0).isDefault }.count } }

    /// Every setting's current value by title name.
    public func snapshot() -> [String: NoiseTagSettingValue] {
        let entered = access.enter()
        defer { access.leave(entered) }
        var result: [String: NoiseTagSettingValue] = [:]
        for title in NoiseTagSettingTitles.allCases { result[title.rawValue] = value(for: title) }
        return result
    }

    // MARK: Writing

    /// Sets `title` to `value`, as the user's own choice. Throws
    /// ``NoiseTagSettingsError`` naming the title for a wrong type or an
    /// out-of-range value; the setting then keeps its old value.
    public func set(value: NoiseTagSettingValue, for title: NoiseTagSettingTitles) throws(NoiseTagSettingsError) {
        let checked = try Self.validated(value, for: title)
        let entered = access.enter()
        defer { access.leave(entered) }
        userSet.insert(title)
        store(checked, for: title)
    }

    /// Sets `title` to a plain integer, as the guide writes it:
    /// `set(value: 2, for: .framesPerBit)`. A number setting takes it as a
    /// number. Throws like the `NoiseTagSettingValue` form.
    public func set(value: Int, for title: NoiseTagSettingTitles) throws(NoiseTagSettingsError) {
        try set(value: NoiseTagSettingValue.int(value), for: title)
    }

    /// Sets `title` to a plain number.
    public func set(value: Double, for title: NoiseTagSettingTitles) throws(NoiseTagSettingsError) {
        try set(value: NoiseTagSettingValue.double(value), for: title)
    }

    /// Sets `title` to a plain bool.
    public func set(value: Bool, for title: NoiseTagSettingTitles) throws(NoiseTagSettingsError) {
        try set(value: NoiseTagSettingValue.bool(value), for: title)
    }

    /// Sets `title` to a plain text (a choice, a `#RRGGBB` colour, a path).
    public func set(value: String, for title: NoiseTagSettingTitles) throws(NoiseTagSettingsError) {
        try set(value: NoiseTagSettingValue.text(value), for: title)
    }

    /// Sets a setting by title name (accepts `certaintyRequiredForClick`).
    public func set(value: NoiseTagSettingValue, forTitleNamed name: String) throws(NoiseTagSettingsError) {
        guard let title = NoiseTagSettingTitles(name: name) else { throw .unknownTitle(name) }
        try set(value: value, for: title)
    }

    /// Sets `title` on the engine's or decoder's advice, without marking it as
    /// the user's choice (a later advice may change it again).
    public func adopt(value: NoiseTagSettingValue, for title: NoiseTagSettingTitles) throws(NoiseTagSettingsError) {
        store(try Self.validated(value, for: title), for: title)
    }

    /// Puts `title` back to its default and forgets that the user set it.
    public func resetToDefault(_ title: NoiseTagSettingTitles) {
        let entered = access.enter()
        defer { access.leave(entered) }
        userSet.remove(title)
        store(title.definition.defaultValue, for: title)
    }

    /// Puts every setting back to its default.
    public func resetAll() {
        let entered = access.enter()
        defer { access.leave(entered) }
        for title in NoiseTagSettingTitles.allCases { resetToDefault(title) }
    }

    // MARK: Observing

    /// Calls `handler` after every change of `title` (or of any setting for nil).
    @discardableResult
    public func observe(_ title: NoiseTagSettingTitles? = nil,
                        handler: @escaping (NoiseTagSettingTitles, NoiseTagSettingValue) -> Void) -> Token {
        observeChanges(title) { title, new, _ in handler(title, new) }
    }

    /// Like ``observe(_:handler:)``, with the value before the change as the third argument.
    @discardableResult
    func observeChanges(_ title: NoiseTagSettingTitles? = nil,
                        handler: @escaping (NoiseTagSettingTitles, NoiseTagSettingValue, NoiseTagSettingValue) -> Void) -> Token {
        let entered = access.enter()
        defer { access.leave(entered) }
        nextObserverID += 1
        let token = Token(id: nextObserverID)
        observers.append((token, title, handler))
        return token
    }

    /// Stops the observer behind `token`.
    public func removeObserver(_ token: Token) {
        let entered = access.enter()
        defer { access.leave(entered) }
        observers.removeAll { $0.0 == token }
    }

    // MARK: Files

    /// Writes every setting as one JSON object keyed by title.
    public func save(to url: URL) throws(NoiseTagSettingsError) {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
        do {
            let data = try encoder.encode(snapshot())
            try data.write(to: url, options: .atomic)
        } catch {
            throw .fileUnwritable(path: url.path, reason: error.localizedDescription)
        }
    }

    /// Reads a JSON object of settings (any subset of titles). Every key and
    /// value is checked before anything changes: on any error nothing in
    /// memory changes and the error names the file, key and reason.
    public func load(from url: URL) throws(NoiseTagSettingsError) {
        let data: Data
        do { data = try JSONFile.contents(of: url) } catch { throw .fileUnreadable(path: url.path, reason: error.reason) }
        // Checked first: Foundation's reader takes some text that is not JSON (a trailing comma).
        if let problem = JSONProblem.syntax(in: data) { throw .badJSON(path: url.path, reason: problem) }
        let object: [String: NoiseTagSettingValue]
        do {
            object = try JSONDecoder().decode([String: NoiseTagSettingValue].self, from: data)
        } catch {
            var reason = JSONProblem.describe(error, in: data)
            if reason == "not a JSON object", let top = try? JSONSerialization.jsonObject(with: data, options: .fragmentsAllowed) {
                reason = top is [Any] ? "it is an array" : "it is a single value"
            }
            throw .badJSON(path: url.path, reason: reason)
        }
        if let duplicate = JSONProblem.duplicateKey(in: data) { throw .badJSON(path: url.path, reason: duplicate) }
        var checked: [(NoiseTagSettingTitles, NoiseTagSettingValue)] = []
        for key in object.keys.sorted() {
            guard let title = NoiseTagSettingTitles(name: key) else {
                throw .badValueInFile(path: url.path, key: key, reason: "unknown setting title")
            }
            let value: NoiseTagSettingValue
            do { value = try Self.validated(object[key]!, for: title) } catch {
                throw .badValueInFile(path: url.path, key: key, reason: error.description)
            }
            // A codebook file is checked with the rest: an engine made from these settings would otherwise keep the
            // built-in codes before anyone listens for the report (a later change is reported and keeps the codes in use).
            if let problem = Self.codebookProblem(title, value) { throw .badValueInFile(path: url.path, key: key, reason: problem) }
            checked.append((title, value))
        }
        let entered = access.enter()
        defer { access.leave(entered) }
        for (title, value) in checked {
            userSet.insert(title)
            store(value, for: title)
        }
    }

    /// Why the codebook file `value` names for `filenameNoiseTags` would not
    /// load, or nil (another title, the built-in book, a good file): what
    /// settings that are files (a settings file, a session protocol) check
    /// before an engine starts on them.
    public static func codebookProblem(_ title: NoiseTagSettingTitles, _ value: NoiseTagSettingValue) -> String? {
        guard title == .filenameNoiseTags, case .text(let path) = value else { return nil }
        do { _ = try codebook(named: path) } catch { return "\(error)" }
        return nil
    }

    /// The codebook a `filenameNoiseTags` value names: the built-in one
    /// when empty, else the file's (or its ``CodebookError``).
    public static func codebook(named path: String) throws -> Codebook {
        path.isEmpty ? .standard : try CodebookFile(contentsOfFile: path).codebook
    }

    // MARK: Internals

    /// Stores `value` and tells the observers, holding the lock throughout:
    /// the engine's observer reacts before any other thread gets in.
    private func store(_ value: NoiseTagSettingValue, for title: NoiseTagSettingTitles) {
        let entered = access.enter()
        defer { access.leave(entered) }
        let old = self.value(for: title)
        values[title] = value
        guard old != value else { return }
        for (_, wanted, handler) in observers where wanted == nil || wanted == title {
            handler(title, value, old)
        }
    }

    static func validated(_ value: NoiseTagSettingValue,
                          for title: NoiseTagSettingTitles) throws(NoiseTagSettingsError) -> NoiseTagSettingValue {
        let kind = title.definition.kind
        switch kind.validate(value) {
        case .success(let checked):
            return checked
        case .failure(.type(let expected)):
            throw .wrongType(title: title.rawValue, expected: expected, got: value.typeName)
        case .failure(.range(let allowed)):
            throw .outOfRange(title: title.rawValue, value: value.description, allowed: allowed)
        case .failure(.format(let expected)):
            throw .badFormat(title: title.rawValue, value: value.description, expected: expected)
        }
    }
}
