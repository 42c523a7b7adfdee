/// A control taking part in a trial, with the object ID and code it flickers
/// and the actions it had when the trial started.
struct FlickerEntry {
    let control: any NoiseTagControl
    let objectID: Int
    let actions: [NoiseTagAction]
    /// The code played in this trial (after any training shift); empty for a touch outside a trial.
    var code: [UInt8] = []
}
