import CFFTW
import Foundation

/// An FFTW real-to-complex transform of one size, with its own aligned buffers.
/// Owned by one thread at a time; planning is serialised, as FFTW requires.
final class RealFFT {
    let size: Int
    private let input: UnsafeMutablePointer<Double>
    private let output: UnsafeMutablePointer<fftw_complex>
    private let plan: fftw_plan
    private let inversePlan: fftw_plan

    init(size: Int) {
        precondition(size >= 2, "an FFT needs at least two points")
        self.size = size
        // C boundary: FFTW's own allocator gives the SIMD alignment its plans assume.
        let input = fftw_alloc_real(size)!
        let output = fftw_alloc_complex(size / 2 + 1)!
        self.input = input
        self.output = output
        // The buffers cross the lock as addresses: pointers are not Sendable.
        let addresses = (UInt(bitPattern: input), UInt(bitPattern: output))
        let planAddresses = FFTWPlanning.lock.withLock { _ in
            (UInt(bitPattern: fftw_plan_dft_r2c_1d(
                Int32(size), UnsafeMutablePointer(bitPattern: addresses.0),
                UnsafeMutablePointer(bitPattern: addresses.1), UInt32(FFTW_ESTIMATE))),
             UInt(bitPattern: fftw_plan_dft_c2r_1d(
                Int32(size), UnsafeMutablePointer(bitPattern: addresses.1),
                UnsafeMutablePointer(bitPattern: addresses.0), UInt32(FFTW_ESTIMATE))))
        }
        plan = fftw_plan(bitPattern: planAddresses.0)!
        inversePlan = fftw_plan(bitPattern: planAddresses.1)!
    }

    deinit {
        // C boundary: the plan and FFTW's buffers are freed by FFTW itself.
        let planAddresses = (UInt(bitPattern: plan), UInt(bitPattern: inversePlan))
        FFTWPlanning.lock.withLock { _ in
            fftw_destroy_plan(fftw_plan(bitPattern: planAddresses.0))
            fftw_destroy_plan(fftw_plan(bitPattern: planAddresses.1))
        }
        fftw_free(input)
        fftw_free(output)
    }

    /// |X(k)|² for k = 0…size/2 of `signal` (exactly `size` values).
    func powerSpectrum(of signal: [Double]) -> [Double] {
        precondition(signal.count == size, "the signal must have the transform's size")
        // C boundary: the plan reads the buffer it was planned on, so the signal is copied in.
        for i in 0..<size { input[i] = signal[i] }
        fftw_execute(plan)
        return (0...(size / 2)).map { k in
            // C boundary: fftw_complex is a (re, im) tuple in FFTW's buffer.
            let (re, im) = output[k]
            return re * re + im * im
        }
    }

    /// The signal with the same amplitude spectrum and each bin's phase
    /// replaced by `phases[k]` (radians, k = 1…size/2 − 1; the mean and the
    /// Nyquist bin keep theirs): a surrogate with the signal's
    /// autocorrelation and nothing locked to any time.
    func withPhases(of signal: [Double], phases: [Double]) -> [Double] {
        precondition(signal.count == size, "the signal must have the transform's size")
        // C boundary: the plans read and write the buffers they were planned on.
        for i in 0..<size { input[i] = signal[i] }
        fftw_execute(plan)
        for k in 1..<((size + 1) / 2) {
            let (re, im) = output[k]
            let magnitude = (re * re + im * im).squareRoot()
            let phase = phases[(k - 1) % max(1, phases.count)]
            output[k] = (magnitude * cos(phase), magnitude * sin(phase))
        }
        fftw_execute(inversePlan)
        return (0..<size).map { input[$0] / Double(size) }
    }
}
