import Foundation
import JSONSupport
import UtopiaProtocol

/// Reading each file of a recording into the summary.
extension RecordingSummary {
    func file(_ folder: URL, _ file: RecordingFile) -> RecordingFileReader {
        RecordingFileReader(folder.appendingPathComponent(file.rawValue))
    }

    /// True for a time a recording can hold: engine seconds within ±10⁹
    /// (32 years of a monotonic clock), Unix seconds from 1970 to 2100.
    static func plausible(time: Double?, wall: Double? = nil) -> Bool {
        (time.map { $0.isFinite && abs($0) <= 1e9 } ?? true) && (wall.map { $0.isFinite && (0...4.1e9).contains($0) } ?? true)
    }

    mutating func see(time: Double?, wall: Double?) {
        guard Self.plausible(time: time, wall: wall) else {
            let shown = Self.plausible(time: time) ? "wall time \(wall ?? 0)" : "time \(time ?? 0)"
            if !inconsistencies.contains(where: { $0.hasPrefix("a time beyond") }) {
                inconsistencies.append("a time beyond any clock the engine keeps (\(shown) s): such times are left out of the spans")
            }
            return
        }
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
        var bad = BadRows()
        bad.line = 0
        reader.forEachLine { line in
            bad.line += 1
            guard let trial = try? decoder.decode(RecordedTrial.self, from: Data(line.utf8)) else { bad.note(); return }
            list.append(trial)
        }
        note(bad, in: .trials)
        for trial in list {
            trials += 1
            trialsByMode[trial.mode, default: 0] += 1
            endings[trial.ending, default: 0] += 1
            if Self.plausible(time: trial.startTime), Self.plausible(time: trial.endTime) {
                spans.trialSeconds += trial.endTime - trial.startTime
                if let flicker = trial.flickerTime, Self.plausible(time: flicker) { spans.flickerSeconds += trial.endTime - flicker }
            }
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
        var columns: CSVColumns?, header = true
        var bad = BadRows()
        reader.forEachLine { line in
            if header { header = false; columns = self.columns(line, .decoder, ["time", "wall_time", "direction", "id", "hex"]); return }
            guard let columns else { return }
            bad.line += 1
            let cells = line.split(separator: ",", omittingEmptySubsequences: false)
            let (time, direction, id, hex) = (cells[safe: columns[0]], cells[safe: columns[2]], cells[safe: columns[3]], cells[safe: columns[4]])
            guard cells.count == columns.width, let time = time.flatMap({ Double($0) }), let hex, let bytes = RecordingLine.bytes(hex: hex),
                  let direction, ["in", "out", "unsent"].contains(direction) else { bad.note(); return }
            see(time: time, wall: cells[safe: columns[1]].flatMap { Double($0) })
            switch direction {
            case "in": decoderMessagesIn += 1
            case "unsent": decoderMessagesUnsent += 1
            default: decoderMessagesOut += 1
            }
            if direction == "in", id == "L", case .log(let log)? = try? UtopiaCodec.decode(frame: bytes).first {
                decoderLogCount += 1
                if decoderLog.count < Self.decoderLogShown {
                    decoderLog.append(String(format: "%.3f ", time) + log.message.escapingControlCharacters)
                }
            }
            guard direction == "in", id == "P", case .predictedTargetProb(let p)? = try? UtopiaCodec.decode(frame: bytes).first,
                  p.objID > 0 else { return }   // the engine ignores object 0 too
            predictions.append((time, Int(p.objID)))
        }
        note(bad, in: .decoder)
        return predictions
    }

    mutating func readPresses(_ url: URL) {
        let reader = file(url, .presses)
        if reader.endsWithPartialLine { partialLines += 1 }
        let rows = reader.csvRows()
        guard let first = rows.first, let columns = columns(Substring(first.joined(separator: ",")), .presses, ["time", "wall_time", "source"]) else { return }
        var bad = BadRows()
        for cells in rows.dropFirst() {
            bad.line += 1
            guard cells.count == columns.width, let time = Double(cells[columns[0]]), !cells[columns[2]].isEmpty else { bad.note(); continue }
            presses += 1
            pressesBySource[cells[columns[2]], default: 0] += 1
            see(time: time, wall: Double(cells[columns[1]]))
        }
        note(bad, in: .presses)
    }

    mutating func readFrames(_ url: URL) {
        let reader = file(url, .frames)
        if reader.endsWithPartialLine { partialLines += 1 }
        var count = 0, missed = 0
        var bad = BadRows()
        var columns: CSVColumns?, header = true
        var times: (first: (Double, Double?)?, last: (Double, Double?)?) = (nil, nil)
        reader.forEachLineRange { range in
            let bytes = reader.data[range]
            if header {
                header = false
                columns = self.columns(Substring(decoding: bytes, as: UTF8.self), .frames, ["time", "wall_time", "missed"])
                return
            }
            guard let columns else { return }
            bad.line += 1
            // Cells found by their commas (frames.csv is the largest file: no cell is quoted).
            var starts = [bytes.startIndex]
            for i in bytes.indices where bytes[i] == 0x2C { starts.append(i + 1) }
            guard starts.count == columns.width else { bad.note(); return }
            func cell(_ k: Int) -> Substring {
                let end = k + 1 < starts.count ? starts[k + 1] - 1 : bytes.endIndex
                return Substring(decoding: bytes[starts[k]..<end], as: UTF8.self)
            }
            let flag = cell(columns[2])
            guard let time = Double(cell(columns[0])), flag == "0" || flag == "1" else { bad.note(); return }
            count += 1
            if flag == "1" { missed += 1 }
            let seen = (time, Double(cell(columns[1])))
            if times.first == nil { times.first = seen }
            times.last = seen
        }
        frames = count
        missedFrames += missed
        framesLate = missed
        for (time, wall) in [times.first, times.last].compactMap({ $0 }) { see(time: time, wall: wall) }
        note(bad, in: .frames)
    }

    /// The positions of `names` in a CSV file's header line; nil, with an
    /// inconsistency noted, when one is missing (the file is then not
    /// read). Columns this engine does not know are noted and ignored.
    mutating func columns(_ header: Substring, _ file: RecordingFile, _ names: [String]) -> CSVColumns? {
        let cells = header.split(separator: ",", omittingEmptySubsequences: false).map(String.init)
        if let missing = names.first(where: { !cells.contains($0) }) {
            inconsistencies.append("\(file.rawValue): the header has no '\(missing)' column (\(header.prefix(80))): the file is not read")
            return nil
        }
        let known = Set((file.header ?? "").split(separator: ",").map(String.init))
        let unknown = cells.filter { !known.contains($0) }
        if !unknown.isEmpty {
            inconsistencies.append("\(file.rawValue): columns this engine does not know are ignored: \(unknown.joined(separator: ", "))")
        }
        return CSVColumns(positions: names.map { cells.firstIndex(of: $0)! }, width: cells.count)
    }

    /// Notes the rows of `file` that could not be read.
    mutating func note(_ bad: BadRows, in file: RecordingFile) {
        guard bad.count > 0 else { return }
        inconsistencies.append("\(file.rawValue): \(bad.count) row(s) cannot be read (line \(bad.lines.map(String.init).joined(separator: ", "))\(bad.count > bad.lines.count ? ", …" : "")): left out")
    }

    /// Reads `events.jsonl`; returns how many trials ended and presses it logged.
    mutating func readEvents(_ url: URL) -> (trialsEnded: Int, presses: Int) {
        let reader = file(url, .events)
        if reader.endsWithPartialLine { partialLines += 1 }
        var bad = BadRows(), trialsEnded = 0, pressed = 0
        bad.line = 0
        reader.forEachLine { line in
            bad.line += 1
            guard let object = try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any] else { bad.note(); return }
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
        note(bad, in: .events)
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
        // A closed recording wrote every line of both: any difference is damage (lines lost or written twice).
        // An open one may have lost the last lines of either to a crash; fewer trials than ends is still damage.
        if logged.trialsEnded > trials || isClosed && logged.trialsEnded < trials {
            inconsistencies.append("\(RecordingFile.trials.rawValue) holds \(trials) trial(s), \(RecordingFile.events.rawValue) logged \(logged.trialsEnded) trial end(s)")
        }
        if frames == 0, spans.flickerSeconds > 0, FileManager.default.fileExists(atPath: url.appendingPathComponent(RecordingFile.frames.rawValue).path) {
            inconsistencies.append("\(RecordingFile.frames.rawValue) holds no frame row, but the trials flickered for \(String(format: "%.3f", spans.flickerSeconds)) s")
        }
        if logged.presses > presses || isClosed && logged.presses < presses {
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
