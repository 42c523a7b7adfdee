import Foundation

/// The recording formats `noisetag dataset import` reads, and detection of
/// which one a file is from its content (not its name).
public enum LabFormat: String, CaseIterable, Sendable, Encodable {
    /// A MindAffect hub savefile (text, one message per line): ``SavefileImporter``.
    case savefile
    /// LabRecorder XDF: ``XDFImporter``.
    case xdf
    /// BioSemi BDF (24-bit): `EDFImporter`.
    case bdf
    /// EDF / EDF+ (16-bit): `EDFImporter`.
    case edf
    /// BrainVision `.vhdr` + `.vmrk` + data: `BrainVisionImporter`.
    case brainvision
    /// A BIDS-EEG folder, or its `*_eeg.{bdf,edf,vhdr}` file beside a `*_events.tsv`: `BIDSImporter`.
    case bids
    /// A NumPy `.npz` of trials cut upstream (`X`, `y`, `V`, `fs`, as in pyntbci's datasets): ``EpochsImporter``.
    case npz
    /// A MATLAB MAT-file of trials cut upstream (the same variables): ``EpochsImporter``.
    case mat

    /// Whether trials are cut by markers (and so need `--trial-start`,
    /// `--label` and `--codes`); the savefile and epochs files carry their own trials.
    public var cutsByMarkers: Bool { self != .savefile && !holdsEpochs }

    /// Whether the file holds trials cut upstream (`X`, `y`, `V`, `fs`): `.npz` and MAT-files.
    public var holdsEpochs: Bool { self == .npz || self == .mat }

    /// `forced` (`--format`) when given, else the format detected at `url`.
    /// A forced `edf` or `bdf` yields to the content when that is the other
    /// (one reader takes both; the name should say which the file is).
    public static func resolve(_ forced: LabFormat?, _ url: URL) throws -> LabFormat {
        try SpecialFile.refuse(url)
        guard let forced else { return try detect(url) }
        guard forced == .edf || forced == .bdf, let detected = try? detect(url), detected == .edf || detected == .bdf else { return forced }
        return detected
    }

    /// The format of the file or folder at `url`, from its first bytes;
    /// throws an ``LabFormatError`` when it is absent or none fits.
    public static func detect(_ url: URL) throws -> LabFormat {
        var isFolder: ObjCBool = false
        guard FileManager.default.fileExists(atPath: url.path, isDirectory: &isFolder) else {
            throw LabFormatError(url.path, "no such file or folder")
        }
        try SpecialFile.refuse(url)
        if isFolder.boolValue {
            if FileManager.default.fileExists(atPath: url.appendingPathComponent("header.json").path) {
                throw LabFormatError(url.path, "a trials dataset folder (header.json), not a recording: decoder evaluate and decoder stream read it as it is")
            }
            _ = try BIDSImporter.dataFile(url)  // a folder is BIDS only when it holds a recording
            return .bids
        }
        let head: [UInt8]
        do {
            let handle = try FileHandle(forReadingFrom: url)
            defer { try? handle.close() }
            head = [UInt8](try handle.read(upToCount: 4096) ?? Data())
        } catch {
            throw LabFormatError(url.path, "cannot read: \(error.localizedDescription)")
        }
        let name = url.lastPathComponent
        if let range = name.range(of: #"_eeg\.(bdf|edf|vhdr)$"#, options: [.regularExpression, .caseInsensitive]) {
            let events = url.deletingLastPathComponent().appendingPathComponent(name[..<range.lowerBound] + "_events.tsv")
            if FileManager.default.fileExists(atPath: events.path) { return .bids }
        }
        let text = String(decoding: head, as: UTF8.self)
        if head.starts(with: Array("XDF:".utf8)) { return .xdf }
        if head.starts(with: [0xFF] + Array("BIOSEMI".utf8)) { return .bdf }
        if head.starts(with: Array("0       ".utf8)) { return .edf }
        if text.contains("Brain Vision Data Exchange Header File") || text.contains("BrainVision Data Exchange Header File") { return .brainvision }
        if text.hasPrefix("rts:") || text.hasPrefix("sts:") || text.contains(" t:DATAHEADER") { return .savefile }
        if head.starts(with: [0x50, 0x4B, 0x03, 0x04]) || head.starts(with: [0x50, 0x4B, 0x05, 0x06]) { return .npz }
        if text.hasPrefix("MATLAB 5.0 MAT-file") || text.hasPrefix("MATLAB 7.3 MAT-file") { return .mat }
        if head.starts(with: [0x1F, 0x8B]) { throw LabFormatError(name, "gzip-compressed: gunzip it first") }
        let header = url.deletingPathExtension().appendingPathExtension("vhdr")
        if url.pathExtension.lowercased() != "vhdr", FileManager.default.fileExists(atPath: header.path) {
            throw LabFormatError(name, "part of a BrainVision recording: give its header file, \(header.lastPathComponent)")
        }
        throw LabFormatError(name, "not a format noisetag imports (XDF, BDF, EDF, BrainVision .vhdr, BIDS, MindAffect savefile, NumPy .npz or MAT-file epochs)")
    }
}
