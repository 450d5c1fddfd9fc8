import ArgumentParser
import CarouselApp
import CarouselBench

/// `carousel`: the product's commands and `carousel bench`.
struct Carousel: ParsableCommand {
    static let configuration = CarouselCommand.configuration(adding: [BenchCommand.self, SoakDriveCommand.self])
}

CarouselCommand.runMain(Carousel.self)
