/// The kind of a Utopia message, named by the one-byte id (an ASCII letter)
/// that starts its frame.
public enum UtopiaMessageType: UInt8, CaseIterable, Sendable {
    /// "H", HEARTBEAT: liveness, both ways.
    case heartbeat = 0x48
    /// "E", STIMULUSEVENT: per-frame stimulus states.
    case stimulusEvent = 0x45
    /// "P", PREDICTEDTARGETPROB: best object and its error probability.
    case predictedTargetProb = 0x50
    /// "F", PREDICTEDTARGETDIST: a probability per object.
    case predictedTargetDist = 0x46
    /// "D", DATAPACKET: EEG samples.
    case dataPacket = 0x44
    /// "A", DATAHEADER: channel count, sample rate, labels.
    case dataHeader = 0x41
    /// "N", NEWTARGET: a trial starts.
    case newTarget = 0x4E
    /// "S", SELECTION: an object was pressed.
    case selection = 0x53
    /// "R", RESET: forget the calibration.
    case reset = 0x52
    /// "M", MODECHANGE: the presentation mode.
    case modeChange = 0x4D
    /// "L", LOG: free text.
    case log = 0x4C
    /// "Q", SIGNALQUALITY: a quality per channel.
    case signalQuality = 0x51
    /// "B", SUBSCRIBE: the ids a client wants.
    case subscribe = 0x42
    /// "T", CERTAINTYTHRESHOLD: the decoder's recommended certainty; an
    /// extension of this project, not in the MindAffect reference.
    case certaintyThreshold = 0x54
    /// "V", SELECTIONREVISED: the decoder's better guess about an earlier
    /// trial; an extension of this project, not in the MindAffect reference.
    case selectionRevised = 0x56
    /// "C", CALIBRATIONRESULT: the outcome of a calibration fit (fitted or
    /// not, its cross-validated accuracy, why not); an extension of this
    /// project, not in the MindAffect reference.
    case calibrationResult = 0x43

    /// The upper-case name the reference uses, for example "PREDICTEDTARGETPROB".
    public var name: String {
        switch self {
        case .heartbeat: return "HEARTBEAT"
        case .stimulusEvent: return "STIMULUSEVENT"
        case .predictedTargetProb: return "PREDICTEDTARGETPROB"
        case .predictedTargetDist: return "PREDICTEDTARGETDIST"
        case .dataPacket: return "DATAPACKET"
        case .dataHeader: return "DATAHEADER"
        case .newTarget: return "NEWTARGET"
        case .selection: return "SELECTION"
        case .reset: return "RESET"
        case .modeChange: return "MODECHANGE"
        case .log: return "LOG"
        case .signalQuality: return "SIGNALQUALITY"
        case .subscribe: return "SUBSCRIBE"
        case .certaintyThreshold: return "CERTAINTYTHRESHOLD"
        case .selectionRevised: return "SELECTIONREVISED"
        case .calibrationResult: return "CALIBRATIONRESULT"
        }
    }

    /// The highest version this codec reads; versions 0 through it are accepted.
    /// Only HEARTBEAT has a version 1 (it adds a state text).
    public var latestVersion: UInt8 {
        self == .heartbeat ? 1 : 0
    }

    /// A readable label such as `PREDICTEDTARGETPROB ("P")`, used in error messages.
    public var label: String {
        "\(name) (\"\(Character(Unicode.Scalar(rawValue)))\")"
    }

    /// A readable label for any id byte: the type's label when the id is
    /// known, otherwise the letter (when printable) and its hex value.
    static func label(forID id: UInt8) -> String {
        if let type = UtopiaMessageType(rawValue: id) { return type.label }
        let hex = "0x" + (id < 16 ? "0" : "") + String(id, radix: 16, uppercase: true)
        if id >= 0x20 && id < 0x7F {
            return "unknown id \"\(Character(Unicode.Scalar(id)))\" (\(hex))"
        }
        return "unknown id \(hex)"
    }
}

extension UtopiaMessage {
    /// The message's kind.
    public var messageType: UtopiaMessageType {
        switch self {
        case .heartbeat: return .heartbeat
        case .stimulusEvent: return .stimulusEvent
        case .predictedTargetProb: return .predictedTargetProb
        case .predictedTargetDist: return .predictedTargetDist
        case .dataPacket: return .dataPacket
        case .dataHeader: return .dataHeader
        case .newTarget: return .newTarget
        case .selection: return .selection
        case .reset: return .reset
        case .modeChange: return .modeChange
        case .log: return .log
        case .signalQuality: return .signalQuality
        case .subscribe: return .subscribe
        case .certaintyThreshold: return .certaintyThreshold
        case .selectionRevised: return .selectionRevised
        case .calibrationResult: return .calibrationResult
        }
    }
}
