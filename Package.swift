// swift-tools-version:6.0
import PackageDescription

let package = Package(
    name: "NoiseTagging",
    products: [
        .library(name: "NoiseTagging", targets: ["NoiseTagging"]),
        .library(name: "Codes", targets: ["Codes"]),
        .library(name: "JSONSupport", targets: ["JSONSupport"]),
        .library(name: "IOThreads", targets: ["IOThreads"]),
        .library(name: "UtopiaProtocol", targets: ["UtopiaProtocol"]),
        .library(name: "DecoderBridge", targets: ["DecoderBridge"]),
        .library(name: "Decoding", targets: ["Decoding"]),
        .library(name: "Simulation", targets: ["Simulation"]),
        .library(name: "TerminalUI", targets: ["TerminalUI"]),
        .library(name: "ZeroMQTransport", targets: ["ZeroMQTransport"]),
        .library(name: "DecoderService", targets: ["DecoderService"]),
        .library(name: "Demo", targets: ["Demo"]),
        .library(name: "Replay", targets: ["Replay"]),
        .library(name: "LabFormats", targets: ["LabFormats"]),
        .library(name: "Study", targets: ["Study"]),
        .executable(name: "noisetag", targets: ["noisetag"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
        .package(url: "https://github.com/HdrHistogram/hdrhistogram-swift", from: "0.2.0"),
        .package(url: "https://github.com/apple/swift-collections", from: "1.6.0"),
        .package(url: "https://github.com/apple/swift-system", from: "1.8.1"),
        .package(url: "https://github.com/swiftcsv/SwiftCSV", from: "0.10.0"),
        .package(url: "https://github.com/weichsel/ZIPFoundation", from: "0.9.20"),
    ],
    targets: [
        .systemLibrary(
            name: "CZeroMQ", pkgConfig: "libzmq",
            providers: [.apt(["libzmq3-dev"])]),
        .systemLibrary(
            name: "CFFTW", pkgConfig: "fftw3",
            providers: [.apt(["libfftw3-dev"])]),
        .systemLibrary(
            name: "COpenBLAS", pkgConfig: "openblas",
            providers: [.apt(["libopenblas-dev"])]),
        .target(name: "UtopiaProtocol"),
        .target(name: "Codes"),
        .target(name: "JSONSupport"),
        .target(name: "IOThreads"),
        .target(name: "Decoding", dependencies: ["Codes", "JSONSupport", "CFFTW", "COpenBLAS"]),
        .target(name: "Simulation", dependencies: ["Codes", "Decoding", "UtopiaProtocol"]),
        .target(
            name: "NoiseTagging",
            dependencies: [
                "Codes", "IOThreads", "JSONSupport", "UtopiaProtocol",
                .product(name: "SystemPackage", package: "swift-system"),
                .product(name: "SwiftCSV", package: "SwiftCSV"),
            ]),
        .target(name: "ZeroMQTransport", dependencies: ["CZeroMQ", "IOThreads"]),
        .target(
            name: "LabFormats",
            dependencies: ["Decoding", "JSONSupport", "NoiseTagging", "UtopiaProtocol", "DecoderService",
                           .product(name: "ZIPFoundation", package: "ZIPFoundation")]),
        .target(name: "DecoderService", dependencies: ["Decoding", "IOThreads", "JSONSupport", "Simulation", "UtopiaProtocol", "ZeroMQTransport"]),
        .target(
            name: "DecoderBridge",
            dependencies: [
                "IOThreads", "NoiseTagging", "UtopiaProtocol", "ZeroMQTransport",
                .product(name: "DequeModule", package: "swift-collections"),
            ]),
        .target(name: "TerminalUI", dependencies: ["NoiseTagging", "Decoding", "IOThreads"]),
        .target(
            name: "Demo",
            dependencies: ["NoiseTagging", "UtopiaProtocol", "DecoderBridge", "DecoderService", "Decoding",
                           "Simulation", "TerminalUI", "ZeroMQTransport"]),
        .target(name: "Replay", dependencies: ["Codes", "JSONSupport", "NoiseTagging", "UtopiaProtocol", "Decoding", "DecoderService"]),
        .target(
            name: "Study",
            dependencies: ["Codes", "JSONSupport", "NoiseTagging", "UtopiaProtocol", "Decoding", "DecoderService", "Simulation", "Demo",
                           "TerminalUI", "Replay", "LabFormats"]),
        .executableTarget(
            name: "noisetag",
            dependencies: [
                "NoiseTagging", "UtopiaProtocol", "DecoderBridge", "Decoding", "TerminalUI", "IOThreads", "JSONSupport",
                "ZeroMQTransport", "DecoderService", "Simulation", "Demo", "Replay", "LabFormats", "Study",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Histogram", package: "hdrhistogram-swift"),
            ]),
        .executableTarget(
            name: "BrainButtons",
            dependencies: ["NoiseTagging", "DecoderBridge", "DecoderService", "IOThreads", "Simulation", "ZeroMQTransport"],
            path: "Examples/BrainButtons"),
        .executableTarget(name: "YesNoQuestion", dependencies: ["NoiseTagging", "DecoderBridge", "IOThreads"], path: "Examples/YesNoQuestion"),
        .target(name: "TestSupport", dependencies: ["NoiseTagging", "Simulation", "UtopiaProtocol"], path: "Tests/TestSupport"),
        .testTarget(name: "UtopiaProtocolTests", dependencies: ["UtopiaProtocol", "Codes"]),
        .testTarget(name: "CodesTests", dependencies: ["Codes"]),
        .testTarget(name: "JSONSupportTests", dependencies: ["JSONSupport"]),
        .testTarget(name: "NoiseTaggingTests", dependencies: ["NoiseTagging", "Codes", "UtopiaProtocol"]),
        .testTarget(name: "DecodingTests", dependencies: ["TestSupport", "Decoding", "Codes", "Simulation"]),
        .testTarget(name: "SimulationTests", dependencies: ["TestSupport", "Simulation", "Codes", "Decoding", "UtopiaProtocol"]),
        .testTarget(name: "DecoderBridgeTests", dependencies: ["TestSupport", "DecoderBridge", "NoiseTagging", "UtopiaProtocol", "ZeroMQTransport", "DecoderService"]),
        .testTarget(name: "DecoderServiceTests", dependencies: ["TestSupport", "Codes", "DecoderService", "Decoding", "Simulation", "UtopiaProtocol", "ZeroMQTransport"]),
        .testTarget(name: "TerminalUITests", dependencies: ["TestSupport", "TerminalUI", "NoiseTagging", "Decoding", "JSONSupport", "DecoderBridge"]),
        .testTarget(name: "ReplayTests", dependencies: ["Replay", "NoiseTagging", "UtopiaProtocol", "DecoderService"]),
        .testTarget(name: "LabFormatsTests", dependencies: ["TestSupport", "LabFormats", "Decoding", "NoiseTagging"]),
        .testTarget(name: "StudyTests", dependencies: ["TestSupport", "Study", "JSONSupport", "LabFormats", "NoiseTagging", "Demo", "DecoderService", "Decoding", "Simulation"]),
        .testTarget(name: "DemoTests", dependencies: ["TestSupport", "Demo", "NoiseTagging", "UtopiaProtocol", "DecoderService", "Simulation", "TerminalUI", "Decoding"]),
    ],
    swiftLanguageModes: [.v6]
)
