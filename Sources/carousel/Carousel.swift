import ArgumentParser

@main
struct CarouselCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "carousel",
        abstract: "An image carousel for touchscreen kiosks.")

    func run() throws {}
}
