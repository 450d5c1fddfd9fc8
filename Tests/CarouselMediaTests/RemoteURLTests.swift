import CarouselMedia
import Testing
import CarouselSources

@Suite struct RemoteURLTests {
    @Test func onlyHTTPAndHTTPSAreRemote() {
        #expect(RemoteURL.isRemote("https://content.example/show/manifest.toml"))
        #expect(RemoteURL.isRemote("HTTP://content.example/a.jpg"))
        #expect(!RemoteURL.isRemote("/srv/photos"))
        #expect(!RemoteURL.isRemote("file:///srv/photos/a.jpg"))
        #expect(!RemoteURL.isRemote("ftp://content.example/a.jpg"))
    }

    @Test func placeholdersGiveEachScreenItsOwnURL() throws {
        let url = try RemoteURL.expand("https://c.example/kiosks/{hostname}/manifest.toml", hostname: "lobby-2", machineID: nil)
        #expect(url == "https://c.example/kiosks/lobby-2/manifest.toml")
        let id = try RemoteURL.expand("https://c.example/{machine-id}.toml", hostname: "x", machineID: "0123abcd")
        #expect(id == "https://c.example/0123abcd.toml")
        // A name that is not a plain path segment stays one segment.
        #expect(try RemoteURL.expand("https://c.example/{hostname}/m.toml", hostname: "a/b c", machineID: nil)
                == "https://c.example/a%2Fb%20c/m.toml")
        #expect(try RemoteURL.expand("https://c.example/m.toml", hostname: "x", machineID: nil) == "https://c.example/m.toml")
    }

    @Test func aPlaceholderMistakeIsSaidWithTheURL() {
        #expect(throws: RemoteURL.Problem.self) { try RemoteURL.expand("https://c.example/{host}/m.toml", hostname: "x", machineID: nil) }
        #expect(throws: RemoteURL.Problem.self) { try RemoteURL.expand("https://c.example/{hostname/m.toml", hostname: "x", machineID: nil) }
        #expect(throws: RemoteURL.Problem.self) { try RemoteURL.expand("https://c.example/{machine-id}", hostname: "x", machineID: nil) }
        do {
            _ = try RemoteURL.expand("https://c.example/{host}/m.toml", hostname: "x", machineID: nil)
        } catch {
            #expect(error.description.hasPrefix("https://c.example/{host}/m.toml: unknown placeholder {host}"))
        }
    }

    @Test func manifestPathsResolveAgainstTheManifestsURL() {
        let manifest = "https://c.example/kiosks/lobby/manifest.toml"
        #expect(RemoteURL.resolve("a.jpg", against: manifest) == "https://c.example/kiosks/lobby/a.jpg")
        #expect(RemoteURL.resolve("../shared/b.jpg", against: manifest) == "https://c.example/kiosks/shared/b.jpg")
        #expect(RemoteURL.resolve("/c.jpg", against: manifest) == "https://c.example/c.jpg")
        #expect(RemoteURL.resolve("https://cdn.example/d.jpg", against: manifest) == "https://cdn.example/d.jpg")
        #expect(RemoteURL.resolve("photos/e%20f.jpg", against: manifest) == "https://c.example/kiosks/lobby/photos/e%20f.jpg")
    }

    @Test func aManifestCannotNameAnythingButTheWeb() {
        let manifest = "https://c.example/kiosks/lobby/manifest.toml"
        #expect(RemoteURL.resolve("file:///etc/passwd", against: manifest) == nil)
        #expect(RemoteURL.resolve("ftp://c.example/a.jpg", against: manifest) == nil)
        #expect(RemoteURL.resolve("data:image/png;base64,AAAA", against: manifest) == nil)
        #expect(RemoteURL.resolve("a.jpg", against: "/srv/manifest.toml") == nil, "a local manifest's paths are files")
    }
}
