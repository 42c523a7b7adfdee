import Demo
import Foundation
import NoiseTagging

extension SessionFolder {
    /// The embedded decoder and simulated participant as the session was
    /// started (its manifest: simulated or not, SNR, seed, the decoder's
    /// settings), recording into this folder: the same for the first run
    /// and for every `--resume`. `snr` is used when the manifest has none.
    public func demoOptions(snr: Double = DemoOptions().snr) -> DemoOptions {
        var options = DemoOptions()
        options.simulatedUser = manifest.simulated
        options.snr = manifest.snr ?? snr
        options.seed = manifest.seed
        options.recordings = RecordingStore(root: url)
        if let settings = manifest.decoderSettings {
            options.decoderSettings = settings
            options.decoderSettings.calibrationFolder = nil
        }
        return options
    }
}
