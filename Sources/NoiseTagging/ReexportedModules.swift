/// The codes an app hands the engine (``Codebook``, Gold codes,
/// m-sequences) come with `import NoiseTagging`.
@_exported import Codes

/// The messages a ``DecoderLink`` carries and the clocks the engine runs on
/// (``EngineClock``, ``MonotonicClock``, ``VirtualClock``) come with it too.
@_exported import UtopiaProtocol
