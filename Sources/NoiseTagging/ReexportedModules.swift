/// The codes an app hands the engine (``Codebook``, Gold codes,
/// m-sequences) come with `import NoiseTagging`.
@_exported import Codes
