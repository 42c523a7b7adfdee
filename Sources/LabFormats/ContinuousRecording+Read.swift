import Foundation

extension ContinuousRecording {
    /// The recording at `url` in a format cut by markers (XDF, BDF/EDF+,
    /// BrainVision, BIDS-EEG), read by that format's importer; `stream` and
    /// `markers` choose an XDF file's streams. The one place a format is
    /// matched with its importer, for `dataset import`, `decoder stream` and
    /// `dataset inspect`. Throws a ``LabFormatError`` for a format that
    /// carries its own trials (a savefile, epochs) or a file it cannot read.
    public static func read(_ url: URL, format: LabFormat, stream: String? = nil, markers: String? = nil) throws -> ContinuousRecording {
        switch format {
        case .xdf: return try XDFImporter.read(url, stream: stream, markers: markers)
        case .bdf, .edf: return try EDFImporter.read(url)
        case .brainvision: return try BrainVisionImporter.read(url)
        case .bids: return try BIDSImporter.read(url)
        case .savefile, .npz, .mat:
            throw LabFormatError(url.lastPathComponent, "a \(format.rawValue) carries its own trials, not a continuous recording with markers")
        }
    }
}
