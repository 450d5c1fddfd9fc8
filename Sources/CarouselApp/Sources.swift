import CarouselMedia

/// Turns the command line's SOURCES into images, with the bundled demo as the default.
enum Sources {
    static func resolve(_ paths: [String]) throws -> [ImageSource] {
        var given = paths
        if given.isEmpty {
            guard let assets = BundledAssets.folder() else {
                throw Failure("no images given and the bundled Assets/ folder was not found; pass image files or folders")
            }
            given = [assets]
        }
        do {
            return try SourceScanner().scan(given) { Log.info("\($0): not an image type carousel shows, skipped") }
        } catch let e as SourceScanner.MissingSource {
            throw Failure(e.description)
        }
    }
}
