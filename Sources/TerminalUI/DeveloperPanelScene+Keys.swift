import NoiseTagging

extension DeveloperPanelScene {
    // MARK: Keys

    func handle(_ key: TerminalKey) {
        if editorText != nil { edit(key) } else { browse(key) }
    }

    func browse(_ key: TerminalKey) {
        switch key {
        case .up: select(selectedIndex - 1)
        case .down: select(selectedIndex + 1)
        case .left, .right: break
        case .escape: message = nil
        case .byte(UInt8(ascii: "k")): select(selectedIndex - 1)
        case .byte(UInt8(ascii: "j")): select(selectedIndex + 1)
        case .byte(0x0D), .byte(0x0A): openEditor()
        case .byte(UInt8(ascii: "d")), .byte(UInt8(ascii: "x")): onClose()
        case .byte(let byte): onKey(byte)
        }
    }

    func edit(_ key: TerminalKey) {
        guard var text = editorText else { return }
        switch key {
        case .escape:
            editorText = nil
            message = DeveloperPanelMessage(text: "edit cancelled; \(selectedTitle.rawValue) is still \(shownValue(selectedTitle))",
                                            kind: .note)
            return
        case .byte(0x0D), .byte(0x0A):
            apply(text)
            return
        case .byte(0x7F), .byte(0x08):
            if !text.isEmpty { text.removeLast() }
        case .byte(0x15):
            text = ""
        case .byte(0x09):
            text = nextChoice(after: text) ?? text
        case .byte(let byte) where (0x20...0x7E).contains(byte):
            if text.unicodeScalars.count < Self.longestInput { text.unicodeScalars.append(Unicode.Scalar(byte)) }
        case .byte, .up, .down, .left, .right:
            break
        }
        editorText = text
    }

    func select(_ index: Int) {
        selectedIndex = min(max(index, 0), Self.titles.count - 1)
    }

    func openEditor() {
        let title = selectedTitle
        guard editableTitles.contains(title) else {
            message = DeveloperPanelMessage(text: "\(title.rawValue) is read-only here (the blue rows are editable)",
                                            kind: .note)
            return
        }
        message = nil
        editorText = ""
    }

    /// Sets the selected setting from `text`; the message says what happened.
    func apply(_ text: String) {
        let title = selectedTitle
        editorText = nil
        let before = shownValue(title)
        do {
            try settings.set(value: NoiseTagSettingValue(typed: text, for: title.definition.kind), for: title)
            message = DeveloperPanelMessage(text: "\(title.rawValue) = \(shownValue(title))", kind: .applied)
        } catch {
            var reason = error.description
            if case .wrongType = error { reason += " \"\(text.singleCellText)\"" }
            message = DeveloperPanelMessage(text: "\(reason); kept \(before)", kind: .refused)
        }
    }

    /// The choice after `text` (or after the current value) for a choice or bool setting.
    func nextChoice(after text: String) -> String? {
        let options: [String]
        switch selectedTitle.definition.kind {
        case .choice(let choices): options = choices
        case .bool: options = ["true", "false"]
        default: return nil
        }
        guard !options.isEmpty else { return nil }
        let current = text.isEmpty ? settings.value(for: selectedTitle).description : text
        guard let index = options.firstIndex(where: { $0.lowercased() == current.lowercased() }) else { return options[0] }
        return options[(index + 1) % options.count]
    }
}
