import CFFTW

/// An FFTW real-to-complex transform of one size, with its own aligned buffers.
/// Owned by one thread at a time; planning is serialised, as FFTW requires.
///
/// ```swift
/// let fft = RealFFT(size: 256)
/// let power = fft.powerSpectrum(of: segment)   // 129 bins
/// ```
final class RealFFT {
    let size: Int
    private let input: UnsafeMutablePointer<Double>
    private let output: UnsafeMutablePointer<fftw_complex>
    private let plan: fftw_plan

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
        let planAddress = FFTWPlanning.lock.withLock { _ in
            UInt(bitPattern: fftw_plan_dft_r2c_1d(
                Int32(size), UnsafeMutablePointer(bitPattern: addresses.0),
                UnsafeMutablePointer(bitPattern: addresses.1), UInt32(FFTW_ESTIMATE)))
        }
        plan = fftw_plan(bitPattern: planAddress)!
    }

    deinit {
        // C boundary: the plan and FFTW's buffers are freed by FFTW itself.
        let planAddress = UInt(bitPattern: plan)
        FFTWPlanning.lock.withLock { _ in fftw_destroy_plan(fftw_plan(bitPattern: planAddress)) }
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
}
