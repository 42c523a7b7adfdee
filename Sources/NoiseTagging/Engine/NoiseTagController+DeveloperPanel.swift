extension NoiseTagController {
    /// The app recognised the developer-panel gesture (the guide's two-finger
    /// double tap; here typically a key). When `twoFingerDoubleTapOpensDeveloperScreen`
    /// is on, this is ``developerPanelOpened()`` (a new recording starts) and
    /// returns true: the app then shows its developer panel. When it is off,
    /// nothing happens, a refused call is reported and it returns false.
    @discardableResult
    public func developerPanelGestureRecognized() -> Bool {
        let entered = access.enter()
        defer { access.leave(entered) }
        guard settings.boolFor(.twoFingerDoubleTapOpensDeveloperScreen) else {
            emit(.refused(call: "developerPanelGestureRecognized()",
                          reason: "twoFingerDoubleTapOpensDeveloperScreen is off"))
            return false
        }
        developerPanelOpened()
        return true
    }
}
