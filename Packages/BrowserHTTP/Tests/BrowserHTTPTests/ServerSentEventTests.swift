import BrowserHTTP
import Foundation
import Testing

/// The event stream format (HTML Living Standard §9.2): fields, one line per line of data, a blank line after
/// each message, nothing a client would misread.
struct ServerSentEventTests {
    func text(_ event: ServerSentEvent) -> String { String(decoding: event.encoded, as: UTF8.self) }

    @Test func eventsCommentsAndRetry() {
        #expect(text(.event(id: "7", name: "change", data: #"{"a":1}"#)) == "id: 7\nevent: change\ndata: {\"a\":1}\n\n")
        #expect(text(.event(data: "plain")) == "data: plain\n\n")
        #expect(text(.comment("heartbeat")) == ": heartbeat\n\n")
        #expect(text(.retry(milliseconds: 2000)) == "retry: 2000\n\n")
        #expect(text(.retry(milliseconds: -5)) == "retry: 0\n\n")
    }

    @Test func lineBreaksBecomeFieldLinesAndNeverEndAMessageEarly() {
        #expect(text(.event(data: "one\ntwo\r\nthree\rfour")) == "data: one\ndata: two\ndata: three\ndata: four\n\n")
        #expect(text(.event(data: "")) == "data: \n\n")
        #expect(text(.event(data: "trailing\n")) == "data: trailing\ndata: \n\n")
        #expect(text(.comment("a\nb")) == ": a\n: b\n\n")
        // An ID or name with a line break or NUL would end the field or be dropped: they are taken out.
        #expect(text(.event(id: "1\n2\0", name: "x\r\ny", data: "d")) == "id: 12\nevent: xy\ndata: d\n\n")
    }
}
