import Decoding
import Simulation
import Testing

/// A simulated session recorded as a trials dataset (Protocols/simulator.md).
@Suite struct DatasetSimulationTests {
    @Test func simulatedDatasetHasTheDeclaredShapeAndBalancedTargets() throws {
        let dataset = try DatasetSimulation(classes: 3, trials: 9, seed: 4).record()
        #expect(dataset.header == DatasetHeader(fs: 250, nTrials: 9, nChannels: 8, nSamples: 1050, nClasses: 3))
        #expect((0..<3).allSatisfy { k in dataset.labels.filter { $0 == k }.count == 3 })
        let code = dataset.stimulus(ofClass: 0)
        #expect(code.contains(0) && code.contains(1))
    }
}
