import Testing
@testable import CarouselApp
import CarouselControl
import CarouselCore

/// What a remote command asks of the view shown, decided from its state: a command that
/// cannot be carried out says why instead of answering 200 with nothing done.
@Suite struct ControlCommandInputTests {
    let pictures = (0..<4).map { ImageSource(path: "/p/\($0).jpg", stamp: FileStamp(size: 10, modified: 1)) }

    func inputs(_ command: ControlCommand, _ state: ViewState, sources: [ImageSource]? = nil) -> Result<[AppInput], ControlRefusal> {
        command.inputs(state: state, sources: sources ?? pictures, held: false, screenOn: true, canPlay: true, now: 5)
    }

    /// Seen in CI under load: the wall had drawn its first frame before any tile was placed
    /// (their sizes are read in the background), `POST /view carousel` answered 200 and the
    /// screen stayed on the wall.
    @Test func aWallWithNoTilePlacedYetRefusesToOpenInsteadOfAnsweringDone() {
        let placing = ViewState(kind: .mosaic, viewport: Size(width: 640, height: 360), focus: nil)
        guard case .failure(let refusal) = inputs(.view(.carousel), placing) else { Issue.record("opened on nothing"); return }
        #expect(refusal.status == 409 && refusal.reason.contains("ask again"))
        guard case .failure(let empty) = inputs(.view(.carousel), placing, sources: []) else { Issue.record("opened on nothing"); return }
        #expect(empty.status == 404)

        let placed = ViewState(kind: .mosaic, viewport: Size(width: 640, height: 360), focus: 0)
        guard case .success(let opening) = inputs(.view(.carousel), placed) else { Issue.record("refused a placed wall"); return }
        #expect(opening == [.showView(.carousel)])
    }

    @Test func aCarouselOpenedOverTheWallGoesBackWhateverItsFocus() {
        let opened = ViewState(kind: .carousel, viewport: Size(width: 640, height: 360), focus: 2, canGoBack: true)
        guard case .success(let back) = inputs(.view(.mosaic), opened) else { Issue.record("refused"); return }
        #expect(back == [.showView(.mosaic)])
        let alone = ViewState(kind: .carousel, viewport: Size(width: 640, height: 360), focus: 2)
        guard case .failure(let refusal) = inputs(.view(.mosaic), alone) else { Issue.record("a carousel alone went to a wall"); return }
        #expect(refusal.status == 409)
    }
}
