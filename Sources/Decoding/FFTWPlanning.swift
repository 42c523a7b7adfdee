import Synchronization

/// The lock that serialises FFTW planner calls (creating and destroying plans
/// is not thread-safe in FFTW; executing a plan is).
enum FFTWPlanning {
    static let lock = Mutex<Void>(())
}
