extension NoiseTagController {
    /// A frame or decoder-traffic observer's handle, for ``removeObserver(_:)``.
    public struct ObserverToken: Hashable, Sendable {
        let id: Int
        /// True for a frame observer, false for a decoder-traffic observer.
        let frames: Bool
    }

    /// Calls `handler` after every tick that reaches a new frame, with what
    /// the frame showed (recordings use this), until ``removeObserver(_:)``
    /// is given the token. A second tick within the same frame is not
    /// reported: it renders nothing.
    @discardableResult
    public func observeFrames(_ handler: @escaping (FrameRecord) -> Void) -> ObserverToken {
        let entered = access.enter()
        defer { access.leave(entered) }
        return ObserverToken(id: frameObservers.add(handler), frames: true)
    }

    /// Calls `handler` for every message sent to or drained from the
    /// decoder, until ``removeObserver(_:)`` is given the token.
    @discardableResult
    public func observeDecoderTraffic(_ handler: @escaping (DecoderTraffic) -> Void) -> ObserverToken {
        let entered = access.enter()
        defer { access.leave(entered) }
        return ObserverToken(id: trafficObservers.add(handler), frames: false)
    }

    /// Stops the frame or decoder-traffic observer behind `token` (its
    /// handler, and whatever it captured, is released); an unknown or
    /// already removed token is ignored.
    public func removeObserver(_ token: ObserverToken) {
        let entered = access.enter()
        defer { access.leave(entered) }
        if token.frames { frameObservers.remove(token.id) } else { trafficObservers.remove(token.id) }
    }
}
