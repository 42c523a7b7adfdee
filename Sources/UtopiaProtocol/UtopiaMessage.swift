/// One Utopia message, as exchanged between a presentation engine and a decoder.
///
/// Every case wraps a small value type that holds the message's fields in the
/// order the MindAffect `utopiaclient.py` classes serialise them. Timestamps
/// are int32 milliseconds of a monotonic clock and wrap.
public enum UtopiaMessage: Equatable, Sendable {
    case heartbeat(Heartbeat)
    case stimulusEvent(StimulusEvent)
    case predictedTargetProb(PredictedTargetProb)
    case predictedTargetDist(PredictedTargetDist)
    case dataPacket(DataPacket)
    case dataHeader(DataHeader)
    case newTarget(NewTarget)
    case selection(Selection)
    case reset(Reset)
    case modeChange(ModeChange)
    case log(Log)
    case signalQuality(SignalQuality)
    case subscribe(Subscribe)
    /// Extension message: a decoder-recommended certainty threshold.
    case certaintyThreshold(CertaintyThreshold)
    /// Extension message: a decoder's better guess about an earlier trial.
    case selectionRevised(SelectionRevised)
    /// Extension message: the outcome of a calibration fit.
    case calibrationResult(CalibrationResult)

    /// The message's int32 millisecond timestamp.
    public var timestamp: Int32 {
        switch self {
        case .heartbeat(let m): return m.timestamp
        case .stimulusEvent(let m): return m.timestamp
        case .predictedTargetProb(let m): return m.timestamp
        case .predictedTargetDist(let m): return m.timestamp
        case .dataPacket(let m): return m.timestamp
        case .dataHeader(let m): return m.timestamp
        case .newTarget(let m): return m.timestamp
        case .selection(let m): return m.timestamp
        case .reset(let m): return m.timestamp
        case .modeChange(let m): return m.timestamp
        case .log(let m): return m.timestamp
        case .signalQuality(let m): return m.timestamp
        case .subscribe(let m): return m.timestamp
        case .certaintyThreshold(let m): return m.timestamp
        case .selectionRevised(let m): return m.timestamp
        case .calibrationResult(let m): return m.timestamp
        }
    }

    /// The one-byte message id (an ASCII letter) that starts the frame.
    public var messageID: UInt8 { messageType.rawValue }
}

/// HEARTBEAT ("H"): liveness, both ways. Version 0 carries only the timestamp;
/// version 1 adds a UTF-8 state text.
public struct Heartbeat: Equatable, Sendable {
    public var timestamp: Int32
    /// nil for a version-0 heartbeat.
    public var stateMessage: String?
    public init(timestamp: Int32, stateMessage: String? = nil) {
        self.timestamp = timestamp
        self.stateMessage = stateMessage
    }
}

/// STIMULUSEVENT ("E"): the stimulus state of each object on one frame.
public struct StimulusEvent: Equatable, Sendable {
    public var timestamp: Int32
    public var objIDs: [UInt8]
    public var objStates: [UInt8]
    public init(timestamp: Int32, objIDs: [UInt8], objStates: [UInt8]) {
        self.timestamp = timestamp
        self.objIDs = objIDs
        self.objStates = objStates
    }
}

/// PREDICTEDTARGETPROB ("P"): the decoder's best object and its error probability.
public struct PredictedTargetProb: Equatable, Sendable {
    public var timestamp: Int32
    /// `Yest` in the reference: the predicted object ID, -1 when none.
    public var objID: Int8
    /// `Perr` in the reference: probability that `objID` is wrong.
    public var errorProbability: Float
    public init(timestamp: Int32, objID: Int8, errorProbability: Float) {
        self.timestamp = timestamp
        self.objID = objID
        self.errorProbability = errorProbability
    }
}

/// PREDICTEDTARGETDIST ("F"): a probability for each object.
public struct PredictedTargetDist: Equatable, Sendable {
    public var timestamp: Int32
    public var objIDs: [UInt8]
    /// `pTgt` in the reference.
    public var probabilities: [Float]
    public init(timestamp: Int32, objIDs: [UInt8], probabilities: [Float]) {
        self.timestamp = timestamp
        self.objIDs = objIDs
        self.probabilities = probabilities
    }
}

/// DATAPACKET ("D"): raw samples, one row of channel values per sample.
public struct DataPacket: Equatable, Sendable {
    public var timestamp: Int32
    public var samples: [[Float]]
    public init(timestamp: Int32, samples: [[Float]]) {
        self.timestamp = timestamp
        self.samples = samples
    }
}

/// DATAHEADER ("A"): what the acquisition device streams.
public struct DataHeader: Equatable, Sendable {
    public var timestamp: Int32
    public var channelCount: Int32
    public var sampleRate: Float
    public var labels: [String]
    public init(timestamp: Int32, channelCount: Int32, sampleRate: Float, labels: [String]) {
        self.timestamp = timestamp
        self.channelCount = channelCount
        self.sampleRate = sampleRate
        self.labels = labels
    }
}

/// NEWTARGET ("N"): a new trial starts; the decoder resets its evidence.
public struct NewTarget: Equatable, Sendable {
    public var timestamp: Int32
    public init(timestamp: Int32) { self.timestamp = timestamp }
}

/// SELECTION ("S"): an object was pressed.
public struct Selection: Equatable, Sendable {
    public var timestamp: Int32
    public var objID: UInt8
    public init(timestamp: Int32, objID: UInt8) {
        self.timestamp = timestamp
        self.objID = objID
    }
}

/// RESET ("R"): forget the calibration.
public struct Reset: Equatable, Sendable {
    public var timestamp: Int32
    public init(timestamp: Int32) { self.timestamp = timestamp }
}

/// MODECHANGE ("M"): the presentation's mode, as a text the decoder understands
/// (for example "Calibration.supervised", "Prediction.static", "idle").
public struct ModeChange: Equatable, Sendable {
    public var timestamp: Int32
    public var newMode: String
    public init(timestamp: Int32, newMode: String) {
        self.timestamp = timestamp
        self.newMode = newMode
    }
}

/// LOG ("L"): a free text for the decoder's log.
public struct Log: Equatable, Sendable {
    public var timestamp: Int32
    public var message: String
    public init(timestamp: Int32, message: String) {
        self.timestamp = timestamp
        self.message = message
    }
}

/// SIGNALQUALITY ("Q"): a quality figure per channel (0 good … 1 bad).
public struct SignalQuality: Equatable, Sendable {
    public var timestamp: Int32
    public var quality: [Float]
    public init(timestamp: Int32, quality: [Float]) {
        self.timestamp = timestamp
        self.quality = quality
    }
}

/// SUBSCRIBE ("B"): the message ids this client wants to receive, as ASCII letters.
public struct Subscribe: Equatable, Sendable {
    public var timestamp: Int32
    public var messageIDs: String
    public init(timestamp: Int32, messageIDs: String) {
        self.timestamp = timestamp
        self.messageIDs = messageIDs
    }
}

/// CERTAINTYTHRESHOLD ("T", an extension of this project): the certainty the
/// decoder recommends before a prediction becomes a press.
public struct CertaintyThreshold: Equatable, Sendable {
    public var timestamp: Int32
    public var threshold: Float
    public init(timestamp: Int32, threshold: Float) {
        self.timestamp = timestamp
        self.threshold = threshold
    }
}

/// SELECTIONREVISED ("V", an extension of this project): the decoder now
/// believes the user looked at another object in an earlier trial (a
/// zero-training decoder revises its labels as it learns). The trial is
/// named by the timestamp of the NEWTARGET that started it.
public struct SelectionRevised: Equatable, Sendable {
    public var timestamp: Int32
    /// The timestamp of the NEWTARGET that started the trial.
    public var trialStamp: Int32
    /// The object the decoder now believes was looked at.
    public var objID: UInt8
    public init(timestamp: Int32, trialStamp: Int32, objID: UInt8) {
        self.timestamp = timestamp
        self.trialStamp = trialStamp
        self.objID = objID
    }
}

/// CALIBRATIONRESULT ("C", an extension of this project): what a calibration
/// fit came to, sent once per fit beside the LOG lines a person reads. An
/// engine waiting for a model knows from it at once whether one came, and
/// shows the accuracy without parsing text.
public struct CalibrationResult: Equatable, Sendable {
    public var timestamp: Int32
    /// True when the fit produced a model (a CERTAINTYTHRESHOLD follows).
    public var fitted: Bool
    /// The calibration trials the fit used (or found, when too few).
    public var trials: Int32
    /// Cross-validated accuracy (0…1) at ``seconds``; NaN when not measured.
    public var accuracy: Float
    /// The trial length the accuracy is for; NaN when not measured.
    public var seconds: Float
    /// The settings chosen when fitted; why no model was fitted otherwise.
    public var summary: String
    public init(timestamp: Int32, fitted: Bool, trials: Int32, accuracy: Float = .nan, seconds: Float = .nan, summary: String) {
        self.timestamp = timestamp
        self.fitted = fitted
        self.trials = trials
        self.accuracy = accuracy
        self.seconds = seconds
        self.summary = summary
    }

    /// NaN fields compare equal, so a message equals its decoded copy.
    public static func == (a: CalibrationResult, b: CalibrationResult) -> Bool {
        func same(_ x: Float, _ y: Float) -> Bool { x == y || (x.isNaN && y.isNaN) }
        return a.timestamp == b.timestamp && a.fitted == b.fitted && a.trials == b.trials && same(a.accuracy, b.accuracy)
            && same(a.seconds, b.seconds) && a.summary == b.summary
    }
}
