import Foundation
import JSONSupport
import UtopiaProtocol

/// Reading each file of a recording into the summary.
extension RecordingSummary {
    func file(_ folder: URL, _ file: RecordingFile) -> RecordingFileReader {
        RecordingFileReader(folder.appendingPathComponent(file.rawValue))
    }

    mutating func see(time: Double?, wall: Double?) {
        if let time {
            spans.firstTime = min(spans.firstTime ?? time, time)
            spans.lastTime = max(spans.lastTime ?? time, time)
        }
        if let wall {
            spans.firstWallTime = min(spans.firstWallTime ?? wall, wall)
            spans.lastWallTime = max(spans.lastWallTime ?? wall, wall)
        }
        if let first = spans.firstTime, let last = spans.lastTime { spans.seconds = last - first }
    }

    mutating func readTrials(_ url: URL) -> [RecordedTrial] {
        let reader = file(url, .trials)
        if reader.endsWithPartialLine { partialLines += 1 }
        var list: [RecordedTrial] = []
        let decoder = JSONDecoder()
        var unreadable = 0
        reader.forEachLine { line in
            guard let trial = try? decoder.decode(RecordedTrial.self, from: Data(line.utf8)) else { unreadable += 1; return }
            list.append(trial)
        }
        if unreadable > 0 { inconsistencies.append("\(RecordingFile.trials.rawValue): \(unreadable) line(s) cannot be read") }
        for trial in list {
            trials += 1
            trialsByMode[trial.mode, default: 0] += 1
            endings[trial.ending, default: 0] += 1
            spans.trialSeconds += trial.endTime - trial.startTime
            if let flicker = trial.flickerTime { spans.flickerSeconds += trial.endTime - flicker }
            see(time: trial.startTime, wall: trial.startWallTime)
            see(time: trial.endTime, wall: trial.endWallTime)
        }
        return list
    }

    /// Predictions received (engine time, object ID), in order.
    mutating func readDecoder(_ url: URL) -> [(time: Double, objectID: Int)] {
        let reader = file(url, .decoder)
        if reader.endsWithPartialLine { partialLines += 1 }
        var predictions: [(time: Double, objectID: Int)] = []
        var first = true
        reader.forEachLine { line in
            if first { first = false; return }
            let cells = line.split(separator: ",", omittingEmptySubsequences: false)
            guard cells.count == 5 else { return }
            see(time: Double(cells[0]), wall: Double(cells[1]))
            switch cells[2] {
            case "in": decoderMessagesIn += 1
            case "unsent": decoderMessagesUnsent += 1
            default: decoderMessagesOut += 1
            }
            guard cells[2] == "in", cells[3] == "P", let time = Double(cells[0]),
                  let bytes = RecordingLine.bytes(hex: cells[4]),
                  case .predictedTargetProb(let p)? = try? UtopiaCodec.decode(frame: bytes).first,
                  p.objID > 0 else { return }   // the engine ignores object 0 too
            predictions.append((time, Int(p.objID)))
        }
        return predictions
    }

    mutating func readPresses(_ url: URL) {
        let reader = file(url, .presses)
        if reader.endsWithPartialLine { partialLines += 1 }
        for cells in reader.csvRows().dropFirst() where cells.count == 8 {
            presses += 1
            pressesBySource[cells[5], default: 0] += 1
            see(time: Double(cells[0]), wall: Double(cells[1]))
        }
    }

    mutating func readFrames(_ url: URL) {
        let reader = file(url, .frames)
        if reader.endsWithPartialLine { partialLines += 1 }
        var count = 0, missed = 0
        var firstLine: Substring?
        var header = true
        reader.forEachLineRange { range in
            if header { header = false; return }
            count += 1
            let bytes = reader.data[range]
            if firstLine == nil { firstLine = Substring(decoding: bytes, as: UTF8.self) }
            // The fifth cell is `missed`: look after the fourth comma.
            var commas = 0
            for i in bytes.indices where bytes[i] == 0x2C {
                commas += 1
                guard commas == 4 else { continue }
                if i + 1 < bytes.endIndex, bytes[i + 1] == UInt8(ascii: "1") { missed += 1 }
                break
            }
        }
        frames = count
        missedFrames += missed
        framesLate = missed
        for line in [firstLine, count > 0 ? reader.lastLine : nil].compactMap({ $0 }) {
            let cells = line.split(separator: ",", omittingEmptySubsequences: false)
            if cells.count >= 4 { see(time: Double(cells[2]), wall: Double(cells[3])) }
        }
    }

    /// Reads `events.jsonl`; returns how many trials ended and presses it logged.
    mutating func readEvents(_ url: URL) -> (trialsEnded: Int, presses: Int) {
        let reader = file(url, .events)
        if reader.endsWithPartialLine { partialLines += 1 }
        var unreadable = 0, trialsEnded = 0, pressed = 0
        reader.forEachLine { line in
            guard let object = try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any] else { unreadable += 1; return }
            see(time: object["time"] as? Double, wall: object["wall_time"] as? Double)
            switch object["type"] as? String {
            case "trialEnded": trialsEnded += 1
            case "press": pressed += 1
            case "missedFrame":
                missedFrames += object["skipped"] as? Int ?? 0
                framesSkipped += object["skipped"] as? Int ?? 0
            case "decoderConnection" where object["state"] as? String == "disconnected": decoderDisconnects += 1
            case "recordingLinesDropped":
                droppedLines += (object["frameLines"] as? Int ?? 0) + (object["otherLines"] as? Int ?? 0)
            case "recordingProblem": problems += 1
            default: break
            }
        }
        if unreadable > 0 { inconsistencies.append("\(RecordingFile.events.rawValue): \(unreadable) line(s) cannot be read") }
        return (trialsEnded, pressed)
    }

    /// Notes what does not add up (``inconsistencies``).
    mutating func check(_ url: URL, logged: (trialsEnded: Int, presses: Int), required: [RecordingFile]) {
        let missing = required.filter { !FileManager.default.fileExists(atPath: url.appendingPathComponent($0.rawValue).path) }
        if !missing.isEmpty { inconsistencies.insert("missing: " + missing.map(\.rawValue).joined(separator: ", "), at: 0) }
        // Replay starts from settings.json: one it cannot read makes the recording unreplayable.
        if let data = FileManager.default.contents(atPath: url.appendingPathComponent(RecordingFile.settings.rawValue).path) {
            do { _ = try JSONDecoder().decode([String: NoiseTagSettingValue].self, from: data) } catch {
                inconsistencies.append("\(RecordingFile.settings.rawValue): \(JSONProblem.notAnObject(of: "settings", error, in: data)): replay cannot start from it")
            }
        }
        if logged.trialsEnded > trials {
            inconsistencies.append("\(RecordingFile.trials.rawValue) holds \(trials) trial(s), \(RecordingFile.events.rawValue) logged \(logged.trialsEnded) trial end(s)")
        }
        if logged.presses > presses {
            inconsistencies.append("\(RecordingFile.presses.rawValue) holds \(presses) press(es), \(RecordingFile.events.rawValue) logged \(logged.presses)")
        }
    }

    mutating func score(_ list: [RecordedTrial], predictions: [(time: Double, objectID: Int)]) {
        for trial in list {
            let key: String
            if ["TrainGeneric", "TrainSimple", "TrainCustom"].contains(trial.mode) { key = "training" }
            else if trial.mode == "Verify" { key = "Verify" }
            else { continue }
            var accuracy = self.accuracy[key] ?? Accuracy()
            if trial.target != nil, trial.ending.hasPrefix("pressed-") || trial.ending == "noPress" {
                accuracy.trials += 1
                if trial.pressed == trial.target { accuracy.correct += 1 }
            }
            // decoder.csv times have 6 decimals: compare with that tolerance.
            if let target = trial.targetObjectID, let flicker = trial.flickerTime,
               let last = predictions.last(where: { $0.time >= flicker - 1e-6 && $0.time <= trial.endTime + 1e-6 }) {
                accuracy.decoderTrials += 1
                if last.objectID == target { accuracy.decoderCorrect += 1 }
            }
            self.accuracy[key] = accuracy
        }
    }
}
