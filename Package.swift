// swift-tools-version: 6.0
import PackageDescription

// Dependencies point one way; every module each target imports is listed in Sources/README.md
// (a test compares that list with the sources' imports):
//   carousel (executable) -> CarouselApp, CarouselBench
//   CarouselBench -> CarouselApp -> CarouselPainting -> CarouselSDL -> CarouselCore
//   CarouselApp -> CarouselMedia, CarouselControl, CarouselSDL -> CarouselDevices -> CarouselCore
//   CarouselApp (config file), CarouselMedia (manifests) -> TOMLReader
// CarouselCore is pure Swift (no SDL, no Foundation, no Glibc, no clock; swift-numerics'
// RealModule for exp and log).
// The C modules: the codecs, libcurl, libseccomp, GStreamer and SDL_image in CarouselMedia;
// SDL, SDL_ttf and fontconfig in CarouselSDL; libmosquitto in CarouselControl; CLinux in
// CarouselMedia, CarouselDevices, CarouselSDL, CarouselApp and CarouselBench.
let package = Package(
    name: "KioskCarousel",
    products: [
        .executable(name: "carousel", targets: ["carousel"]),
        .library(name: "CarouselCore", targets: ["CarouselCore"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.5.0"),
        // exp and log for the engine's friction glide: a maintained math library keeps the
        // engine pure (no I/O, no clock, no SDL) without a libm of its own.
        .package(url: "https://github.com/apple/swift-numerics", from: "1.0.0"),
        // The control API's HTTP server: SwiftNIO's HTTP/1 (llhttp) with its decoder limits,
        // without a framework on top (a framework's build time is paid by every CI build).
        .package(url: "https://github.com/apple/swift-nio", from: "2.101.2"),
    ],
    targets: [
        .systemLibrary(name: "CSDL2", pkgConfig: "sdl2",
                       providers: [.apt(["libsdl2-dev"])]),
        .systemLibrary(name: "CSDL2Image", pkgConfig: "SDL2_image",
                       providers: [.apt(["libsdl2-image-dev"])]),
        .systemLibrary(name: "CSDL2TTF", pkgConfig: "SDL2_ttf",
                       providers: [.apt(["libsdl2-ttf-dev"])]),
        // Which installed font has a character the caption font lacks (CJK, Thai, emoji…).
        .systemLibrary(name: "CFontconfig", pkgConfig: "fontconfig", providers: [.apt(["libfontconfig-dev"])]),
        .systemLibrary(name: "CTurboJPEG", pkgConfig: "libturbojpeg",
                       providers: [.apt(["libturbojpeg0-dev"])]),
        // The format libraries fuzzed upstream, called directly (inside the decoder helpers).
        .systemLibrary(name: "CJPEG", pkgConfig: "libjpeg", providers: [.apt(["libjpeg-dev"])]),
        .systemLibrary(name: "CHeif", pkgConfig: "libheif", providers: [.apt(["libheif-dev"])]),
        .systemLibrary(name: "CJXL", pkgConfig: "libjxl", providers: [.apt(["libjxl-dev"])]),
        // Colour management: embedded profiles to sRGB or the screen's own.
        .systemLibrary(name: "CLCMS", pkgConfig: "lcms2", providers: [.apt(["liblcms2-dev"])]),
        .systemLibrary(name: "CSPNG", pkgConfig: "spng", providers: [.apt(["libspng-dev"])]),
        .systemLibrary(name: "CWebP", pkgConfig: "libwebpdemux", providers: [.apt(["libwebp-dev"])]),
        .systemLibrary(name: "CTIFF", pkgConfig: "libtiff-4", providers: [.apt(["libtiff-dev"])]),
        .systemLibrary(name: "CGIF", pkgConfig: "libgif", providers: [.apt(["libgif-dev"])]),
        .systemLibrary(name: "CSeccomp", pkgConfig: "libseccomp",
                       providers: [.apt(["libseccomp-dev"])]),
        // Pictures and manifests from web servers: HTTP(S) with the system's CA store.
        .systemLibrary(name: "CCurl", pkgConfig: "libcurl", providers: [.apt(["libcurl4-openssl-dev"])]),
        // MQTT for Home Assistant and other automation: the reference client library.
        // Video clips: GStreamer 1.22 and its app and video libraries (in the video helpers).
        .systemLibrary(name: "CGStreamer", pkgConfig: "gstreamer-1.0 gstreamer-app-1.0 gstreamer-video-1.0",
                       providers: [.apt(["libgstreamer1.0-dev", "libgstreamer-plugins-base1.0-dev"])]),
        .systemLibrary(name: "CMosquitto", pkgConfig: "libmosquitto", providers: [.apt(["libmosquitto-dev"])]),
        // glibc's GNU extensions and macros (sendmsg with descriptors, memfd seals, wait
        // status, statfs, malloc_trim) as inline functions; links nothing of its own.
        .systemLibrary(name: "CLinux"),
        // Our only C: the seam through which a sandboxed video helper reaches a hardware
        // decoder's device nodes (a broker process and a SIGSYS handler; plain system calls).
        .target(name: "CDeviceBroker"),

        // The TOML reader of the config file and manifests: bytes from outside, fuzzed.
        .target(name: "TOMLReader"),
        .target(name: "CarouselCore",
                dependencies: [.product(name: "RealModule", package: "swift-numerics")]),
        // The host's clocks, read in one file and handed to every target above Core (the
        // engine gets time as a value): CLOCK_MONOTONIC, the wall clock, CPU time.
        .target(name: "CarouselClock", dependencies: ["CarouselCore", "CLinux"]),
        // Pixel loops (fitting, EXIF rotation, RGB to RGBA) run 3x slower unoptimised: a
        // debug build (`swift run`, `swift test`) would show placeholders for seconds and
        // keep a core busy long after the strip stopped. Optimise this one target always.
        .target(name: "CarouselMedia",
                dependencies: ["CarouselCore", "CarouselClock", "CSDL2", "CSDL2Image", "CTurboJPEG", "CJPEG", "CHeif", "CJXL", "CLCMS",
                               "CSPNG", "CWebP", "CGIF", "CTIFF", "CGStreamer",
                               "CSeccomp", "CLinux", "CDeviceBroker"],
                swiftSettings: [.unsafeFlags(["-O"], .when(configuration: .debug))]),
        // Where the pictures come from: folders (scanned, watched, settled), manifests, and
        // the web's sources (pictures, WebDAV, Immich) behind one library that polls,
        // downloads and caches; the show's orderings and pairings over what they list.
        .target(name: "CarouselSources",
                dependencies: ["CarouselMedia", "CarouselCore", "CarouselClock", "TOMLReader", "CCurl", "CLinux"]),
        // The control part: the HTTP API (SwiftNIO), the requests it hands the run loop and the
        // state the loop publishes. Knows no SDL and no images.
        .target(name: "CarouselControl",
                dependencies: ["CarouselCore", "CarouselClock", "CMosquitto",
                               .product(name: "NIOCore", package: "swift-nio"),
                               .product(name: "NIOConcurrencyHelpers", package: "swift-nio"),
                               .product(name: "NIOPosix", package: "swift-nio"),
                               .product(name: "NIOHTTP1", package: "swift-nio")]),
        // The kernel's devices, without SDL: touchscreens and mice read from evdev, a presence
        // sensor's key, the TV over HDMI-CEC, the X server's DPMS.
        .target(name: "CarouselDevices", dependencies: ["CarouselCore", "CarouselClock", "CLinux"]),
        // Windows, textures, events and drawing primitives: where SDL is called.
        .target(name: "CarouselSDL",
                dependencies: ["CarouselCore", "CarouselClock", "CarouselDevices", "CSDL2", "CSDL2TTF", "CFontconfig", "CLinux"]),
        // What a view looks like, painted with CarouselSDL's primitives: slots, captions,
        // page dots, the back button, messages.
        .target(name: "CarouselPainting", dependencies: ["CarouselCore", "CarouselClock", "CarouselSDL"]),
        .target(name: "CarouselApp",
                dependencies: [
                    "CarouselCore", "CarouselClock", "CarouselDevices", "CarouselSDL", "CarouselPainting", "CarouselMedia", "CarouselSources", "CarouselControl", "TOMLReader", "CLinux",
                    .product(name: "ArgumentParser", package: "swift-argument-parser"),
                ]),
        // `carousel bench`: speed, memory and soak runs of the program (ships as a command,
        // but nothing of the product depends on it).
        .target(name: "CarouselBench",
                dependencies: ["CarouselApp", "CarouselPainting", "CarouselSDL", "CarouselMedia", "CarouselSources", "CarouselCore", "CarouselClock", "CLinux",
                               .product(name: "ArgumentParser", package: "swift-argument-parser")]),
        // What LeakSanitizer must not report (libraries' lifetime memory): linked into every
        // binary a sanitized run starts (the program, the fuzz targets, the tests), inert otherwise.
        .target(name: "LeakCheck"),
        .executableTarget(name: "carousel", dependencies: ["CarouselApp", "CarouselBench", "LeakCheck",
                                                           .product(name: "ArgumentParser", package: "swift-argument-parser")]),
        // The fuzz targets of every parser of outside bytes: not in what ships. They reach
        // the parsers that are not public through `@testable` imports in a debug build.
        .target(name: "FuzzTargets", dependencies: ["CarouselApp", "CarouselMedia", "CarouselSources", "CarouselControl", "CarouselDevices", "CarouselSDL", "CarouselCore"],
                path: "Tests/Fuzz/Targets"),
        // One binary for all of them (Tests/Fuzz/run builds it for libFuzzer).
        .executableTarget(name: "carousel-fuzz", dependencies: ["FuzzTargets", "LeakCheck"], path: "Tests/Fuzz/Entry"),

        .target(name: "TestSupport", dependencies: ["LeakCheck"], path: "Tests/TestSupport"),
        .testTarget(name: "CarouselCoreTests", dependencies: ["CarouselCore"]),
        .testTarget(name: "TOMLReaderTests", dependencies: ["TOMLReader"]),
        .testTarget(name: "CarouselControlTests", dependencies: ["CarouselControl", "CarouselClock", "TestSupport"]),
        .testTarget(name: "CarouselMediaTests", dependencies: ["CarouselMedia", "CarouselSources", "CarouselBench", "CarouselCore", "CGStreamer", "CWebP", "CLCMS", "CSPNG", "CTurboJPEG", "CDeviceBroker", "TestSupport"]),
        .testTarget(name: "CarouselSDLTests", dependencies: ["CarouselSDL", "CarouselClock", "CarouselDevices", "CarouselPainting", "CarouselCore", "CarouselMedia", "CSDL2", "CLinux"]),
        .testTarget(name: "CarouselDevicesTests", dependencies: ["CarouselDevices", "CarouselCore", "CLinux"]),
        .testTarget(name: "CarouselAppTests",
                    dependencies: ["CarouselApp", "CarouselBench", "FuzzTargets", "CarouselMedia", "CarouselSources", "CarouselCore", "TestSupport"],
                    exclude: ["Snapshots", "ImageFixtures"]),
    ],
    swiftLanguageModes: [.v6]
)
