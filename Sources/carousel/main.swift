import CarouselApp

CarouselCommand.runMain()
