import Foundation
import Testing
import TestSupport

/// kiosk/install staged into a folder (DESTDIR), and the systemd unit checked by systemd.
@Suite struct KioskInstallTests {
    static let kiosk = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("../../kiosk").standardized.path

    /// Runs one of the project's scripts or programs.
    static func sh(_ path: String, _ args: [String], environment: [String: String] = [:]) throws -> CarouselBinary.Result {
        try sh(URL(fileURLWithPath: path), args, environment: environment)
    }

    /// Runs an outside program (failing, when it is missing, with its name and package).
    static func sh(_ program: OutsideProgram, _ args: [String], environment: [String: String] = [:]) throws -> CarouselBinary.Result {
        try sh(program.url, args, environment: environment)
    }

    static func sh(_ executable: URL, _ args: [String], environment: [String: String]) throws -> CarouselBinary.Result {
        let p = Process()
        p.executableURL = executable
        p.arguments = args
        p.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
        let out = Pipe(), err = Pipe()
        p.standardOutput = out
        p.standardError = err
        try p.run()
        let o = out.fileHandleForReading.readDataToEndOfFile(), e = err.fileHandleForReading.readDataToEndOfFile()
        p.waitUntilExit()
        return .init(status: p.terminationStatus, stdout: String(decoding: o, as: UTF8.self),
                     stderr: String(decoding: e, as: UTF8.self))
    }

    @Test func installIsIdempotentKeepsTheUsersConfigAndTheBinaryFindsItsAssets() throws {
        let stage = try Fixtures.temporaryFolder("stage")
        let install = { try Self.sh(Self.kiosk + "/install", ["--binary", CarouselBinary.url.path], environment: ["DESTDIR": stage]) }
        let first = try install()
        #expect(first.status == 0, "stderr: \(first.stderr)")
        for path in ["/usr/local/bin/carousel", "/etc/systemd/system/kiosk-carousel.service",
                     "/etc/kiosk-carousel/carousel.toml", "/usr/local/share/kiosk-carousel/Assets/manifest.toml",
                     "/etc/udev/rules.d/70-kiosk-carousel-backlight.rules"] {
            #expect(FileManager.default.fileExists(atPath: stage + path), "\(path) not installed")
            #expect(first.stdout.contains("installed  \(path)"))
        }
        // The owner edits the config; the next install keeps it and changes nothing else.
        try "autoplay = 5\n".write(toFile: stage + "/etc/kiosk-carousel/carousel.toml", atomically: true, encoding: .utf8)
        let second = try install()
        #expect(second.status == 0)
        #expect(!second.stdout.contains("installed"), "a second run changed: \(second.stdout)")
        #expect(second.stdout.contains("kept       /etc/kiosk-carousel/carousel.toml"))
        #expect(try String(contentsOfFile: stage + "/etc/kiosk-carousel/carousel.toml", encoding: .utf8) == "autoplay = 5\n")
        // The installed binary shows the installed demo images when given no sources.
        let out = stage + "/render-out"
        let script = stage + "/script.txt"
        try "snapshot first\n".write(toFile: script, atomically: true, encoding: .utf8)
        let r = try Self.sh(stage + "/usr/local/bin/carousel", ["render", "--script", script, "--out", out, "--size", "320x180"])
        #expect(r.status == 0, "stderr: \(r.stderr)")
        #expect(r.stderr.isEmpty)
        #expect(FileManager.default.fileExists(atPath: out + "/first.png"))
    }

    @Test func anUnknownOptionIsRefused() throws {
        let r = try Self.sh(Self.kiosk + "/install", ["--prefix", "/opt"], environment: ["DESTDIR": "/nonexistent"])
        #expect(r.status == 64 && r.stderr.contains("'--prefix'"))
    }

    @Test(.enabled(if: RequiredTools.run(missing: OutsideProgram.systemdAnalyze.missingReason), "systemd-analyze is not installed"))
    func systemdFindsNothingWrongWithTheUnit() throws {
        // verify checks that ExecStart exists: point it at the built binary.
        let unit = try String(contentsOfFile: Self.kiosk + "/kiosk-carousel.service", encoding: .utf8)
        #expect(unit.contains("ExecStart=/usr/local/bin/carousel --kiosk --config /etc/kiosk-carousel/carousel.toml"))
        #expect(unit.contains("User=kiosk") && unit.contains("Restart=always") && unit.contains("SDL_VIDEODRIVER=kmsdrm"))
        let path = try Fixtures.temporaryFolder("unit") + "/kiosk-carousel.service"
        try unit.replacingOccurrences(of: "/usr/local/bin/carousel", with: CarouselBinary.url.path)
            .write(toFile: path, atomically: true, encoding: .utf8)
        let r = try Self.sh(.systemdAnalyze, ["verify", path])
        #expect(r.status == 0)
        #expect(r.stderr.isEmpty && r.stdout.isEmpty, "systemd-analyze: \(r.stderr)\(r.stdout)")
    }

    /// What kiosk/package runs: dpkg-dev's tools, and lintian on what it built.
    static let packaging = OutsideProgram.missing(.dpkgShlibdeps, .dpkgDeb, .lintian)

    @Test(.enabled(if: RequiredTools.run(missing: packaging), "dpkg-dev or lintian is not installed"))
    func thePackageHoldsTheProgramItsUnitItsUserAndWhatItNeeds() throws {
        try RequiredTools.check(Self.packaging)
        let out = try Fixtures.temporaryFolder("package")
        let built = try Self.sh(Self.kiosk + "/package", ["--binary", CarouselBinary.url.path, "--out", out])
        #expect(built.status == 0, "\(built.stderr)")
        // Checked by lintian, always (on this debug build, its runtime's RUNPATH is said and expected).
        #expect(built.stdout.contains("kiosk/package: lintian: clean"), "\(built.stdout)")
        let deb = try #require(try FileManager.default.contentsOfDirectory(atPath: out).first { $0.hasSuffix(".deb") }.map { out + "/" + $0 })
        // What it needs, worked out from the binary (and what it loads without linking).
        let depends = try Self.sh(.dpkgDeb, ["-f", deb, "Depends"]).stdout
        for name in ["libsdl2-2.0-0", "libmosquitto1", "libgstreamer1.0-0", "libseccomp2", "libcurl4", "libheif1",
                     "gstreamer1.0-plugins-good", "gstreamer1.0-libav", "libegl1", "fonts-dejavu-core"] {
            #expect(depends.contains(name), "\(name) missing from Depends: \(depends)")
        }
        // kiosk/setup --runtime installs the same (a list of its own, kept equal here).
        let recommends = try Self.sh(.dpkgDeb, ["-f", deb, "Recommends"]).stdout
        // Captions in every script README promises: the fonts come with the package.
        for font in ["fonts-noto-core", "fonts-noto-cjk", "fonts-noto-color-emoji"] {
            #expect(recommends.contains(font), "\(font) missing from Recommends: \(recommends)")
        }
        let needed = Set((depends + "," + recommends).split(separator: ",").compactMap {
            $0.split(separator: "(").first?.trimmingCharacters(in: .whitespacesAndNewlines) }.filter { !$0.isEmpty })
        let setup = try String(contentsOfFile: Self.kiosk + "/setup", encoding: .utf8)
        let listed = setup.components(separatedBy: "runtime=(").dropFirst().first?.components(separatedBy: ")").first ?? ""
        let runtime = Set(listed.split(whereSeparator: { $0 == " " || $0 == "\n" }).map(String.init))
        // (A release build with Swift's runtime linked in needs the C++ runtime too; this
        // debug build takes Swift's from the toolchain.)
        #expect(needed.isSubset(of: runtime), "kiosk/setup --runtime lacks \(needed.subtracting(runtime).sorted())")
        #expect(runtime.subtracting(needed).isSubset(of: ["libgcc-s1", "libstdc++6"]), "kiosk/setup --runtime has more: \(runtime.subtracting(needed).sorted())")
        let files = try Self.sh(.dpkgDeb, ["-c", deb]).stdout
        for path in ["./usr/bin/carousel", "./lib/systemd/system/kiosk-carousel.service", "./usr/lib/sysusers.d/kiosk-carousel.conf",
                     "./usr/lib/udev/rules.d/70-kiosk-carousel-backlight.rules", "./etc/kiosk-carousel/carousel.toml",
                     "./usr/share/man/man1/carousel.1.gz", "./usr/share/kiosk-carousel/Assets/manifest.toml",
                     "./usr/share/doc/kiosk-carousel/copyright"] {
            #expect(files.contains(path + "\n"), "\(path) not in the package")
        }
        // Unpacked: the unit starts the packaged program, the config is a conffile, the user
        // gets the screen's, the GPU's and the input devices' groups, the man page has the
        // options, and the program finds its demo pictures beside it.
        let root = out + "/root"
        #expect(try Self.sh(.dpkgDeb, ["-R", deb, root]).status == 0)
        let unit = try String(contentsOfFile: root + "/lib/systemd/system/kiosk-carousel.service", encoding: .utf8)
        #expect(unit.contains("ExecStart=/usr/bin/carousel --kiosk --config /etc/kiosk-carousel/carousel.toml"))
        #expect(try String(contentsOfFile: root + "/DEBIAN/conffiles", encoding: .utf8) == "/etc/kiosk-carousel/carousel.toml\n")
        let users = try String(contentsOfFile: root + "/usr/lib/sysusers.d/kiosk-carousel.conf", encoding: .utf8)
        #expect(["m kiosk video", "m kiosk render", "m kiosk input"].allSatisfy(users.contains))
        let man = try Self.sh(.gzip, ["-dc", root + "/usr/share/man/man1/carousel.1.gz"]).stdout
        #expect(man.contains(".TH CAROUSEL 1") && man.contains("--group <NAME>") && man.contains("CAROUSEL RENDER"))
        for script in ["postinst", "prerm", "postrm"] {
            #expect(FileManager.default.isExecutableFile(atPath: root + "/DEBIAN/" + script))
        }
        let postrm = try String(contentsOfFile: root + "/DEBIAN/postrm", encoding: .utf8)
        #expect(postrm.contains("rm -rf /var/cache/kiosk-carousel"))
        #expect(!postrm.split(separator: "\n").contains { $0.contains("rm ") && $0.contains("/srv") }, "purge takes the caches, never the pictures")
        let render = root + "/render"
        try "snapshot first\n".write(toFile: out + "/script.txt", atomically: true, encoding: .utf8)
        let r = try Self.sh(root + "/usr/bin/carousel", ["render", "--script", out + "/script.txt", "--out", render, "--size", "320x180"])
        #expect(r.status == 0 && FileManager.default.fileExists(atPath: render + "/first.png"), "\(r.stderr)")
    }
}
