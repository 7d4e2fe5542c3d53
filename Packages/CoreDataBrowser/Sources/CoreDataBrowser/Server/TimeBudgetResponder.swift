import BrowserCore
import BrowserHTTP

/// Gives every request its time budget (`Options.requestTimeBudget`): the store work done while answering it
/// sees `RequestBudget.deadline` and stops there with `BrowserError.unavailable` (503), so one slow search
/// cannot hold the store, and every request queued behind it, for as long as it likes.
struct TimeBudgetResponder: HTTPResponder {
    let next: any HTTPResponder
    let seconds: Double?

    func respond(to request: HTTPRequest) async -> HTTPResponse {
        await RequestBudget.withSeconds(seconds) { await next.respond(to: request) }
    }
}
