/// The engine's state at the start of a trial, logged in `trialStarted`
/// (`state`): with the settings at that moment it decides everything the
/// engine does in the trial, so replay restores it
/// (``NoiseTagController/restore(_:)``, given the whole trial start) and runs the trial again.
///
/// ```swift
/// controller.events.subscribe { event in
///     if case .trialStarted(let start) = event.kind, let state = start.state {
///         print(state.controls.count, "controls in the unit")
///     }
/// }
/// ```
public struct EngineSnapshot: Equatable, Codable, Sendable {
    /// The random generator's state before the trial drew from it, 16 hex digits.
    public var random: String
    /// Trials completed in the current mode.
    public var trialsInMode: Int
    /// True once a ZeroTrain trial was pressed.
    public var zeroTrainPressed: Bool
    /// The balanced training order still to come, as indices into ``controls``.
    public var trainingOrder: [Int]
    /// True when the decoder was last told `idle`.
    public var decoderIdle: Bool
    /// Titles the user set (decoder threshold advice leaves them alone).
    public var explicitlySet: [String]
    /// True when the engine watched its decoder's heartbeats (a bridge link);
    /// false for an unwatched link; nil without a decoder link.
    public var watchesDecoder: Bool?
    /// The decoder connection: `none`, `connecting`, `connected`, `disconnected`.
    public var connection: String
    /// Engine time the decoder was last heard, and the last heartbeat went out.
    public var lastHeard: Double?
    public var lastHeartbeat: Double?
    /// When the engine started watching the decoder.
    public var watchStarted: Double?
    /// FNV-1a hash of the loaded codebook's codes, 16 hex digits.
    public var codebook: String
    /// The current unit's controls, in `allControls` order.
    public var controls: [ControlSnapshot]
    /// What the delegate's `idsOfControlsToIncludeAsTargetInVerifyMode()`
    /// answered for a Verify trial (nil: any control).
    public var verifyTargets: [String]?

    /// Creates a snapshot (the engine makes them; tests and tools may too).
    ///
    /// ```swift
    /// let state = EngineSnapshot(random: "0000000000005eed", trialsInMode: 0, zeroTrainPressed: false,
    ///                            trainingOrder: [], decoderIdle: false, explicitlySet: [], watchesDecoder: nil,
    ///                            connection: "none", codebook: Codebook.standard.identity, controls: [])
    /// ```
    public init(random: String, trialsInMode: Int, zeroTrainPressed: Bool, trainingOrder: [Int], decoderIdle: Bool,
                explicitlySet: [String], watchesDecoder: Bool?, connection: String, lastHeard: Double? = nil,
                lastHeartbeat: Double? = nil, watchStarted: Double? = nil, codebook: String,
                controls: [ControlSnapshot], verifyTargets: [String]? = nil) {
        self.random = random
        self.trialsInMode = trialsInMode
        self.zeroTrainPressed = zeroTrainPressed
        self.trainingOrder = trainingOrder
        self.decoderIdle = decoderIdle
        self.explicitlySet = explicitlySet
        self.watchesDecoder = watchesDecoder
        self.connection = connection
        self.lastHeard = lastHeard
        self.lastHeartbeat = lastHeartbeat
        self.watchStarted = watchStarted
        self.codebook = codebook
        self.controls = controls
        self.verifyTargets = verifyTargets
    }
}
