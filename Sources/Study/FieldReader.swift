import Foundation
import JSONSupport
import NoiseTagging

/// Reads one object's fields with errors that name them.
struct FieldReader {
    let source: String
    let step: Int?
    var kind: String?
    var object: [String: JSONValue]

    func error(_ field: String?, _ reason: String) -> SessionProtocolError {
        SessionProtocolError(source: source, step: step, kind: kind, field: field, reason: reason)
    }

    func allow(_ fields: [String]) throws(SessionProtocolError) {
        for key in object.keys.sorted() where !fields.contains(key) {
            throw error(key, "is not a field of \(kind.map { "a \($0) step" } ?? "a protocol") (fields: \(fields.joined(separator: ", ")))")
        }
    }

    func string(_ field: String) throws(SessionProtocolError) -> String? {
        guard let value = object[field] else { return nil }
        guard let text = value.string else { throw error(field, "must be a string, not \(value.typeName)") }
        return text
    }

    func requiredString(_ field: String) throws(SessionProtocolError) -> String {
        guard let text = try string(field) else { throw error(field, "is missing") }
        guard !text.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty else { throw error(field, "is empty") }
        return text
    }

    /// Text the keyboard can type (letters A–Z and spaces), upper-cased.
    func spellable(_ field: String) throws(SessionProtocolError) -> String {
        let text = try requiredString(field).uppercased()
        if let bad = text.first(where: { !(("A"..."Z").contains($0) || $0 == " ") }) {
            throw error(field, "'\(bad)' is not on the keyboard (letters A-Z and spaces only)")
        }
        return text
    }

    func number(_ field: String) throws(SessionProtocolError) -> Double? {
        guard let value = object[field] else { return nil }
        guard let number = value.number, number.isFinite else { throw error(field, "must be a number, not \(value.typeName)") }
        return number
    }

    func bool(_ field: String) throws(SessionProtocolError) -> Bool? {
        guard let value = object[field] else { return nil }
        guard case .bool(let flag) = value else { throw error(field, "must be true or false, not \(value.typeName)") }
        return flag
    }

    func seconds(_ field: String) throws(SessionProtocolError) -> Double? {
        guard let seconds = try number(field) else { return nil }
        guard seconds > 0, seconds <= 86_400 else { throw error(field, "\(Self.show(seconds)) s must be more than 0 and at most a day") }
        return seconds
    }

    func requiredSeconds(_ field: String) throws(SessionProtocolError) -> Double {
        guard let seconds = try seconds(field) else { throw error(field, "is missing (seconds)") }
        return seconds
    }

    func integer(_ field: String, in range: ClosedRange<Int>) throws(SessionProtocolError) -> Int? {
        guard let number = try number(field) else { return nil }
        guard number == number.rounded() else { throw error(field, "\(Self.show(number)) must be a whole number") }
        guard let value = Int(exactly: number) else { throw error(field, "\(Self.show(number)) must be from \(range.lowerBound) to \(range.upperBound)") }
        guard range.contains(value) else { throw error(field, "\(value) must be from \(range.lowerBound) to \(range.upperBound)") }
        return value
    }

    /// Engine settings overrides: each name a setting title, each value of its type.
    func settings() throws(SessionProtocolError) -> [String: NoiseTagSettingValue] {
        guard let value = object["settings"] else { return [:] }
        guard let map = value.object else { throw error("settings", "must be an object of setting name → value, not \(value.typeName)") }
        let scratch = NoiseTagSettings()
        var settings: [String: NoiseTagSettingValue] = [:]
        for (name, item) in map.sorted(by: { $0.key < $1.key }) {
            let setting: NoiseTagSettingValue
            switch item {
            case .bool(let flag): setting = .bool(flag)
            case .string(let text): setting = .text(text)
            case .number(let number):
                if let title = NoiseTagSettingTitles(name: name), case .int = scratch.value(for: title) {
                    guard let whole = Int(exactly: number) else { throw error("settings", "\(name): \(Self.show(number)) must be a whole number") }
                    setting = .int(whole)
                } else {
                    setting = .double(number)
                }
            default: throw error("settings", "\(name): \(item.typeName) is not a setting value")
            }
            do { try scratch.set(value: setting, forTitleNamed: name) } catch {
                let text = "\(error)"
                throw self.error("settings", text.contains(name) ? text : "\(name): \(text)")
            }
            // The engine would keep the codes in use and only report a bad file: checked here, where the protocol is.
            if let title = NoiseTagSettingTitles(name: name), let problem = NoiseTagSettings.codebookProblem(title, setting) {
                throw self.error("settings", "\(name): \(problem)")
            }
            settings[name] = setting
        }
        if settings["recordingsEnabled"] == .bool(false) {
            throw error("settings", "recordingsEnabled: a session records every step (its results, report, replay and export read the recordings); leave it out")
        }
        return settings
    }

    func items() throws(SessionProtocolError) -> [QuestionnaireItem] {
        guard let value = object["items"] else { throw error("items", "is missing (a list of questions)") }
        guard let list = value.array, !list.isEmpty else { throw error("items", "must be a non-empty array of questions") }
        var items: [QuestionnaireItem] = []
        for (index, entry) in list.enumerated() {
            let field = "items[\(index + 1)]"
            guard let object = entry.object else { throw error(field, "must be an object, not \(entry.typeName)") }
            let r = FieldReader(source: source, step: step, kind: kind, object: object)
            do throws(SessionProtocolError) {
                try r.allow(["id", "question", "type", "scale", "labels", "choices"])
                let id = try r.requiredString("id")
                guard !items.contains(where: { $0.id == id }) else { throw r.error("id", "\"\(id)\" is already the id of an earlier item") }
                let question = try r.requiredString("question")
                let type = try r.string("type") ?? "likert"
                guard let style = QuestionnaireItem.Style(rawValue: type) else { throw r.error("type", "\"\(type)\" must be \"likert\" or \"choice\"") }
                switch style {
                case .likert:
                    if object["choices"] != nil { throw r.error("choices", "belongs to a choice item, not a Likert one") }
                    let scale = try r.integer("scale", in: 2...9) ?? 5
                    let labels = try r.strings("labels") ?? []
                    guard labels.isEmpty || labels.count == 2 else { throw r.error("labels", "must name the two ends of the scale (low, high)") }
                    items.append(QuestionnaireItem(id: id, question: question, style: .likert, scale: scale, labels: labels))
                case .choice:
                    if object["scale"] != nil { throw r.error("scale", "belongs to a Likert item; a choice has \"choices\"") }
                    guard let choices = try r.strings("choices"), (2...9).contains(choices.count) else {
                        throw r.error("choices", "must list 2 to 9 choices (answered with keys 1…9)")
                    }
                    items.append(QuestionnaireItem(id: id, question: question, style: .choice, scale: choices.count, labels: choices))
                }
            } catch {
                throw SessionProtocolError(source: source, step: step, kind: kind, field: error.field.map { "\(field).\($0)" } ?? field,
                                           reason: error.reason)
            }
        }
        return items
    }

    /// A protocol's or step's name: not blank, and on one line with no
    /// control character (it heads the run's lines, the report and the BIDS events).
    func checkName(_ name: String) throws(SessionProtocolError) {
        guard !name.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty else { throw error("name", "is empty") }
        if name.unicodeScalars.contains(where: { $0.properties.generalCategory == .control }) {
            throw error("name", "\(name.debugDescription) holds a control character (a tab, a line break, an escape): a name is one line of text")
        }
    }

    func strings(_ field: String) throws(SessionProtocolError) -> [String]? {
        guard let value = object[field] else { return nil }
        guard let list = value.array else { throw error(field, "must be an array of strings, not \(value.typeName)") }
        var texts: [String] = []
        for item in list {
            guard let text = item.string, !text.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty else {
                throw error(field, "must hold texts that are not blank")
            }
            texts.append(text)
        }
        return texts
    }

    static func show(_ number: Double) -> String {
        number == number.rounded() && abs(number) < 1e15 ? String(Int64(number)) : String(number)
    }
}
