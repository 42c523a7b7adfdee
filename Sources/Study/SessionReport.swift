import DecoderService
import Decoding
import Foundation
import JSONSupport
import LabFormats
import NoiseTagging

/// What a session report shows, gathered from a session folder
/// (``SessionFolder``): who and which protocol, one row per finished step,
/// accuracy and Wolpaw ITR per spelling step, selection times, the
/// calibration's decoding curve and response kernels, the decoder's signal
/// quality over the session, false presses while the participant looked
/// away, and questionnaire answers. A part the session does not have is a
/// sentence saying why (``Part/absent(_:)``), never an empty chart. Pure
/// data: ``SessionReportPage`` draws it.
///
/// ```swift
/// let report = try SessionReport(folder: SessionFolder.open(URL(fileURLWithPath: "sessions/2026-11-25 16.43.53 +0000 session P01")))
/// for row in report.spelling.value ?? [] { print(row.name, row.accuracy ?? .nan, row.bitsPerMinute ?? .nan) }
/// if case .absent(let why) = report.calibrations { print(why) }
/// ```
public struct SessionReport: Sendable {
    /// One row of the step table.
    public struct Step: Sendable {
        /// 1-based number in the protocol, kind, name and outcome as the runner wrote them.
        public var number: Int, kind: String, name: String, outcome: String
        /// Engine seconds (the recordings' clock) and Unix seconds it started; its length.
        public var startTime: Double, startWallTime: Double, duration: Double
        /// The step's key figure in a few words ("typed “HI”, 2 of 2 right").
        public var keyMeasure: String
    }

    /// Accuracy and information transfer of one spelling step
    /// (copySpell, freeSpell, zeroTrain).
    public struct Spelling: Sendable {
        /// The step's number, name and kind.
        public var step: Int, name: String, kind: String
        /// The text to type (copy and zero training) and what was typed.
        public var text: String?, typed: String?
        /// N: the keys on screen.
        public var classes: Int?
        /// Presses that selected a key (brain, touch or timeout).
        public var selections: Int
        /// Presses whose intended key was known, and those that hit it.
        public var judged: Int, correct: Int
        /// Brain and touch presses, trials that ended without one, labels the decoder revised (zero training).
        public var brainPresses: Int?, touchPresses: Int?, trialsWithoutPress: Int?, revisions: Int?
        /// The step's whole time in seconds, pauses between trials included.
        public var seconds: Double
        /// Mean seconds from a trial's start to its press, as the runner measured it.
        public var meanSelectionTime: Double?

        /// P = correct / judged; nil when nothing could be judged.
        public var accuracy: Double? { judged > 0 ? Double(correct) / Double(judged) : nil }
        /// The step's whole time over its selections; nil without any.
        public var secondsPerSelection: Double? { selections > 0 && seconds > 0 ? seconds / Double(selections) : nil }
        /// Wolpaw's bits per selection: log₂N + P log₂P + (1 − P) log₂((1 − P)/(N − 1)),
        /// log₂N at P = 1 and 0 at P ≤ 1/N (``InformationTransferRate``); nil without N or P.
        public var bitsPerSelection: Double? {
            guard let classes, let accuracy else { return nil }
            return InformationTransferRate.bitsPerSelection(classes: classes, accuracy: accuracy)
        }
        /// Bits per minute: ``bitsPerSelection`` × 60 / ``secondsPerSelection``.
        public var bitsPerMinute: Double? {
            guard let bits = bitsPerSelection, let time = secondsPerSelection else { return nil }
            return bits * 60 / time
        }
    }

    /// False presses in one no-control step (every press there is false).
    public struct NoControl: Sendable {
        /// The step's number and name.
        public var step: Int, name: String
        /// Seconds the participant looked away, and the presses made meanwhile.
        public var seconds: Double, falsePresses: Int
        /// Presses per minute.
        public var perMinute: Double { seconds > 0 ? Double(falsePresses) / (seconds / 60) : 0 }
    }

    /// One questionnaire answer with its question.
    public struct Answer: Sendable {
        /// The step's number and name, the item's id and question.
        public var step: Int, stepName: String, item: String, question: String
        /// The key pressed, what it means, and the scale ("1 = not at all … 5 = very", or the choices).
        public var key: Int, answer: String, scale: String
        /// Seconds from the question to the key.
        public var seconds: Double
    }

    /// The figures of one calibration step.
    public struct Calibration: Sendable {
        /// The step's number and name.
        public var step: Int, name: String
        /// The saved dataset's path, relative to the session folder.
        public var dataset: String
        /// The accuracy the live decoder reported (the step's `accuracy`), if any.
        public var reportedAccuracy: Double?
        /// The settings the live decoder chose (the step's `decoderChose`), if it said.
        public var decoderChose: String?
        /// The figures, or why there are none (no dataset saved, too few trials, …).
        public var figures: Part<CalibrationFigures>
    }

    /// The signal quality over the session with the steps' spans.
    public struct SignalQuality: Sendable {
        /// Every SIGNALQUALITY received.
        public var trace: SignalQualityTrace
        /// Engine seconds the session's first step started: time 0 of the chart.
        public var origin: Double
        /// Engine seconds the last step (or assessment) ended.
        public var end: Double
        /// The last signal check's noise limit per 1-based channel (empty without one).
        public var limits: [Int: Double]
    }

    /// The session folder's name.
    public var folderName: String
    /// The manifest: participant, protocol file, start, simulation.
    public var manifest: SessionManifest
    /// The protocol's name and description (from the manifest's copy).
    public var protocolName: String, protocolDescription: String?
    /// Steps the protocol has (nil when the copy holds no step list).
    public var protocolSteps: Int?
    /// A `session run` held the folder while the report was made: the
    /// session was still running, and its missing steps are to come.
    public var isRunning: Bool
    /// One row per finished step, in order.
    public var steps: [Step]
    /// Spelling steps' accuracy and ITR.
    public var spelling: Part<[Spelling]>
    /// Selection times of every brain or touch press in the spelling steps.
    public var selectionTimes: Part<SelectionTimeHistogram>
    /// The calibration steps' figures.
    public var calibrations: Part<[Calibration]>
    /// Signal quality over the session.
    public var signalQuality: Part<SignalQuality>
    /// False presses in the no-control steps.
    public var noControl: Part<[NoControl]>
    /// Questionnaire answers, in step and item order.
    public var answers: Part<[Answer]>
    /// The session's runs: more than one when it was stopped and resumed.
    public var runs: [SessionRun]

    /// Spelling kinds, as protocols name them.
    public static let spellingKinds: Set<String> = ["copySpell", "freeSpell", "zeroTrain"]

    /// Gathers the report from `folder`. `fittingCalibrations` false skips
    /// re-fitting the calibration datasets (seconds per calibration), giving
    /// a sentence instead. Throws only when `steps.jsonl` has a bad line.
    public init(folder: SessionFolder, fittingCalibrations: Bool = true) throws(SessionFolder.Failure) {
        let results = try folder.results()
        folderName = folder.url.lastPathComponent
        manifest = folder.manifest
        let protocolObject = folder.manifest.protocol.object ?? [:]
        protocolName = protocolObject["name"]?.string ?? "session"
        protocolDescription = protocolObject["description"]?.string
        let protocolStepList = protocolObject["steps"]?.array
        protocolSteps = protocolStepList?.count
        isRunning = RecordingStore.isLive(folder.url)
        runs = SessionRun.runs(in: folder.url)
        let plannedKinds = Set((protocolStepList ?? []).compactMap { $0.object?["kind"]?.string })
        let running = isRunning
        // Why a part is empty: the protocol has no such step, or it has not finished (yet).
        func missing(_ kinds: Set<String>, _ what: String) -> String {
            guard !plannedKinds.isDisjoint(with: kinds) else { return "No \(what) in this session" }
            return running ? "No \(what) has finished yet (the session is still running)" : "No \(what) finished (the session stopped before it)"
        }
        steps = results.map { result in
            Step(number: result.step, kind: result.kind, name: result.name, outcome: result.outcome,
                 startTime: result.startTime, startWallTime: result.startWallTime, duration: result.duration,
                 keyMeasure: Self.keyMeasure(result))
        }

        let spellingSteps = results.filter { Self.spellingKinds.contains($0.kind) }
        let spellingRows = spellingSteps.map(Self.spelling)
        spelling = spellingRows.isEmpty ? .absent(missing(Self.spellingKinds, "spelling step (copySpell, freeSpell, zeroTrain)") + ": no accuracy or ITR.")
            : .present(spellingRows)
        let times = spellingSteps.flatMap { result in
            (result.measures["selections"]?.array ?? []).compactMap { selection -> Double? in
                let s = selection.object ?? [:]
                guard let source = s["source"]?.string, source == "brain" || source == "touch" else { return nil }
                return s["seconds"]?.number
            }
        }
        selectionTimes = !times.isEmpty ? .present(SelectionTimeHistogram(seconds: times))
            : .absent(spellingRows.isEmpty ? "No spelling step finished: no selection times."
                      : "No key was pressed by brain or touch in the spelling steps: no selection times.")

        let calibrationSteps = results.filter { $0.kind == "calibration" }
        calibrations = calibrationSteps.isEmpty
            ? .absent(missing(["calibration"], "calibration step") + (results.contains { $0.kind == "zeroTrain" } ? " (the decoder learned during zero training)" : "")
                      + ": no decoding curve or response kernels.")
            : .present(calibrationSteps.map { Self.calibration($0, in: folder, fitting: fittingCalibrations) })

        let trace = SignalQualityTrace(recordings: folder.recordingNames().map { folder.url.appendingPathComponent($0) })
        if trace.samples.isEmpty {
            signalQuality = .absent("The decoder sent no signal quality (SIGNALQUALITY) in this session's recordings"
                                    + (folder.recordingNames().isEmpty ? " (the session folder holds no recordings)." : "."))
        } else {
            let origin = results.first?.startTime ?? trace.samples[0].time
            let end = max(results.last?.endTime ?? origin, trace.samples.last?.time ?? origin)
            var limits: [Int: Double] = [:]
            for channel in (results.last { $0.kind == "signalCheck" }?.measures["channels"]?.array ?? []).compactMap(\.object) {
                if let number = channel["channel"]?.number, let limit = channel["limit"]?.number { limits[Int(number)] = limit }
            }
            signalQuality = .present(SignalQuality(trace: trace, origin: origin, end: end, limits: limits))
        }

        let noControlRows = results.filter { $0.kind == "noControl" }.map { result in
            NoControl(step: result.step, name: result.name, seconds: result.measures["seconds"]?.number ?? result.duration,
                      falsePresses: Int(result.measures["falsePresses"]?.number ?? 0))
        }
        noControl = noControlRows.isEmpty ? .absent(missing(["noControl"], "no-control step") + ": false presses while looking away were not measured.")
            : .present(noControlRows)

        let answerRows = results.filter { $0.kind == "questionnaire" }.flatMap { result in
            Self.answers(result, protocolStep: protocolStepList.flatMap { result.step >= 1 && result.step <= $0.count ? $0[result.step - 1] : nil })
        }
        answers = answerRows.isEmpty
            ? .absent(results.contains { $0.kind == "questionnaire" } ? "The questionnaire was not answered." : missing(["questionnaire"], "questionnaire") + ".")
            : .present(answerRows)
    }

    /// False presses per minute over every no-control step together.
    public var falsePressesPerMinute: Double? {
        guard let rows = noControl.value else { return nil }
        let seconds = rows.map(\.seconds).reduce(0, +)
        return seconds > 0 ? Double(rows.map(\.falsePresses).reduce(0, +)) / (seconds / 60) : nil
    }

    /// The accuracy and ITR figures of a spelling step's result: N from
    /// `classes`, P from `correctPresses` / `judgedPresses` (else from the
    /// `selections` whose intended key is known), selections the entries of
    /// `selections` with a pressed key (else brain + touch presses), time
    /// the step's duration.
    public static func spelling(_ result: StepResult) -> Spelling {
        let m = result.measures
        func int(_ key: String) -> Int? { m[key]?.number.map { Int($0) } }
        let selectionList = (m["selections"]?.array ?? []).compactMap(\.object)
        let pressed = selectionList.filter { ($0["pressed"]?.string).map { !$0.isEmpty } ?? false }
        let selections = m["selections"]?.array != nil ? pressed.count : (int("brainPresses") ?? 0) + (int("touchPresses") ?? 0)
        let judgedFromList = pressed.filter { $0["intended"]?.string != nil }
        let judged = int("judgedPresses") ?? judgedFromList.count
        let correct = int("correctPresses") ?? judgedFromList.filter { $0["intended"]?.string == $0["pressed"]?.string }.count
        return Spelling(step: result.step, name: result.name, kind: result.kind, text: m["text"]?.string, typed: m["typed"]?.string,
                        classes: int("classes"), selections: selections, judged: judged, correct: correct,
                        brainPresses: int("brainPresses"), touchPresses: int("touchPresses"),
                        trialsWithoutPress: int("trialsWithoutPress"), revisions: int("revisions"),
                        seconds: result.duration, meanSelectionTime: m["meanSelectionTime"]?.number)
    }

    static func calibration(_ result: StepResult, in folder: SessionFolder, fitting: Bool) -> Calibration {
        let path = result.measures["calibrationDataset"]?.string ?? ""
        var row = Calibration(step: result.step, name: result.name, dataset: path, reportedAccuracy: result.measures["accuracy"]?.number,
                              decoderChose: result.measures["decoderChose"]?.string, figures: .absent(""))
        guard !path.isEmpty else {
            row.figures = .absent("Step \(result.step) (\(result.name)) saved no calibration dataset: the decoder fitted no model, so there is no decoding curve or response kernels.")
            return row
        }
        let url = path.hasPrefix("/") ? URL(fileURLWithPath: path) : folder.url.appendingPathComponent(path, isDirectory: true)
        guard fitting else {
            row.figures = .absent("The calibration was not fitted again for this report (\(path)).")
            return row
        }
        do {
            row.figures = .present(try CalibrationFigures(dataset: TrialsDataset.read(from: url),
                                                          settings: folder.manifest.decoderSettings ?? DecoderServerSettings()))
        } catch {
            row.figures = .absent("The calibration dataset \(path) could not be fitted again: \(error).")
        }
        return row
    }

    static func answers(_ result: StepResult, protocolStep: JSONValue?) -> [Answer] {
        let items = (protocolStep?.object?["items"]?.array ?? []).compactMap(\.object)
        return result.answers.map { answer in
            let item = items.first { $0["id"]?.string == answer.item } ?? [:]
            let labels = (item["labels"]?.array ?? []).compactMap(\.string)
            let choices = (item["choices"]?.array ?? []).compactMap(\.string)
            var scale = ""
            if !choices.isEmpty {
                scale = choices.enumerated().map { "\($0.offset + 1) \($0.element)" }.joined(separator: " · ")
            } else {
                let points = item["scale"]?.number.map { Int($0) }
                if labels.count == 2, let points { scale = "1 = \(labels[0]) … \(points) = \(labels[1])" }
                else if let points { scale = "1 … \(points)" }
            }
            return Answer(step: result.step, stepName: result.name, item: answer.item,
                          question: item["question"]?.string ?? answer.item, key: answer.key, answer: answer.answer,
                          scale: scale, seconds: answer.seconds)
        }
    }

    /// The step table's key figure.
    static func keyMeasure(_ result: StepResult) -> String {
        let m = result.measures
        func number(_ key: String) -> Double? { m[key]?.number }
        func int(_ key: String) -> Int? { number(key).map { Int($0) } }
        func quoted(_ s: String) -> String { "“\(s)”" }
        switch result.kind {
        case "signalCheck":
            let channels = (m["channels"]?.array ?? []).compactMap(\.object)
            guard let good = int("goodChannels") ?? (channels.isEmpty ? nil : channels.filter { $0["passed"] == .bool(true) }.count) else { return "" }
            var text = "\(good) of \(channels.isEmpty ? "?" : String(channels.count)) channels good"
            if let worst = channels.max(by: { ($0["medianNoise"]?.number ?? 0) < ($1["medianNoise"]?.number ?? 0) }),
               let noise = worst["medianNoise"]?.number, let channel = worst["channel"]?.number {
                text += String(format: "; noisiest: channel %d at %.2f", Int(channel), noise)
                if let limit = worst["limit"]?.number { text += String(format: " (limit %.2f)", limit) }
            }
            if let attempts = int("attempts"), attempts > 1 { text += "; \(attempts) attempts" }
            return text
        case "calibration":
            var parts: [String] = []
            if let trials = int("trials") { parts.append("\(trials) trials") }
            parts.append(number("accuracy").map { String(format: "accuracy %.0f %%", $0 * 100) } ?? "accuracy not reported")
            if let certainty = number("certaintyRequired") {
                parts.append("certainty " + CertaintyText.format(certainty) + (m["thresholdFromDecoder"] == .bool(true) ? " (decoder's)" : " (setting)"))
            }
            return parts.joined(separator: ", ")
        case "copySpell", "freeSpell", "zeroTrain":
            let row = spelling(result)
            var text = "typed " + quoted(row.typed ?? "")
            if result.kind != "freeSpell", let target = row.text { text += " of " + quoted(target) }
            if row.judged > 0 { text += ", \(row.correct) of \(row.judged) right" }
            else { text += ", \(row.selections) selection\(row.selections == 1 ? "" : "s")" }
            if let revisions = row.revisions, revisions > 0 { text += ", \(revisions) revised" }
            return text
        case "noControl":
            let presses = int("falsePresses") ?? 0, seconds = number("seconds") ?? result.duration
            return String(format: "%d false press%@ (%.2f per minute)", presses, presses == 1 ? "" : "es",
                          seconds > 0 ? Double(presses) / (seconds / 60) : 0)
        case "questionnaire":
            return "\(result.answers.count) answer\(result.answers.count == 1 ? "" : "s")"
        default:
            return m["skipped"] == .bool(true) ? "skipped by a key" : ""
        }
    }
}
