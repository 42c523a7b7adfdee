extension NoiseTagController {
    /// Asks for a sound other than the click on press (a missed frame, the
    /// disconnect alarm, …): a `sound` event, only when `enableOtherSounds` is on.
    func emitOtherSound(_ name: String) {
        guard settings.boolFor(.enableOtherSounds) else { return }
        emit(.sound(name: name))
    }
}
