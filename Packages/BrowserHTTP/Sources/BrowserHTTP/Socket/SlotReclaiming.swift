/// Which connection gives up its slot when every slot is taken and another client connects.
///
/// Before a request is read nobody is known to hold the token, so a full server cannot tell the owner's browser
/// from clients on the network filling the slots. Two rules keep the owner served anyway, in this order:
///
/// 1. **Fair share between addresses.** When the address holding the most connections would still hold more
///    than the newcomer's address after admitting it, that address's oldest idle connection is closed: nothing
///    being answered and nothing of a request received or waiting (fresh, between requests, or lingering after
///    its last answer, as a refused client's connection does). The owner's machine
///    holds a browser's few connections, so clients from other addresses, however many, only ever displace each
///    other; a newcomer from the heaviest address itself is refused (503), so two addresses never trade slots.
/// 2. **A silent connection.** When every address holds about as many (many addresses, one connection each),
///    the oldest connection that has not sent a whole request within `HTTPServerLimits.silentConnectionGrace`
///    is closed (a byte or a partial head does not save it). A browser sends its whole
///    request as soon as it connects, so it is never that connection.
///
/// A connection whose request is being answered is never closed here. When neither rule finds one, the
/// newcomer gets the 503 it got before.
enum SlotReclaiming {
    static func connectionToClose(
        forNewcomerFrom address: PeerAddress?, among connections: some Collection<HTTPConnection>,
        admittedPerAddress: [PeerAddress: Int], now: UInt64, silentGrace: UInt64
    ) -> HTTPConnection? {
        let newcomerHolds = address.map { admittedPerAddress[$0, default: 0] } ?? 0
        if let heaviest = admittedPerAddress.max(by: { $0.value < $1.value }), newcomerHolds + 1 < heaviest.value,
           let oldest = connections.filter({ $0.admitted && $0.peer == heaviest.key })
               .sorted(by: { $0.id < $1.id }).first(where: { $0.isIdleForReclaiming }) {
            return oldest
        }
        return connections.filter { $0.admitted && !$0.hasSentARequest && now &- $0.acceptedAt >= silentGrace }
            .sorted { $0.id < $1.id }
            .first { $0.isStillWithoutARequest }
    }
}
