/// A control taking part in a trial, with the object ID it flickers under
/// and the actions it had when the trial started.
struct FlickerEntry {
    let control: any NoiseTagControl
    let objectID: Int
    let actions: [NoiseTagAction]
}
