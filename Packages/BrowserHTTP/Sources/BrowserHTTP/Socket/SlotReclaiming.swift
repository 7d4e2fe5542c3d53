/// Which connection gives up its slot when another client connects and there is no slot for it.
///
/// At `accept()` nobody is known to hold the token, so a full server cannot tell the owner's browser from clients
/// on the network filling the slots. What it can tell is which connections have since shown credentials
/// (`HTTPConnection.isAuthenticated`): those are never closed for a newcomer while any other is left, and the
/// others share `ConnectionBudget.unauthenticated` slots. Two rules, in this order:
///
/// 1. **Unauthenticated connections, fair share between addresses.** The newcomer takes the slot of the oldest
///    unauthenticated connection of the address holding the most of them, if that address holds more than the
///    newcomer's own (a newcomer from the crowded address itself is refused with 503, so an address never trades
///    slots with itself). Its state does not matter: silent, half a head sent, lingering after a 401; a connection
///    whose request is being answered is never one. The owner's machine holds at most the one connection its
///    browser has just opened and not yet used, so however many addresses fill the pool and however fast they
///    reconnect (`ReconnectAllowance` limits that), the owner's newcomer always finds a slot, and its fresh
///    connection is the newest of its kind, the last to go.
/// 2. **Authenticated connections, when they hold every slot.** The oldest idle one (nothing being answered, no
///    part of a request received or waiting, or lingering after its last answer) of the address holding the most,
///    under the same fair-share condition: one machine's many tabs make room for another machine.
///
/// When neither rule finds one, the newcomer gets a 503.
enum SlotReclaiming {
    static func unauthenticatedConnectionToClose(
        forNewcomerFrom address: PeerAddress?, among connections: some Collection<HTTPConnection>,
        unauthenticatedPerAddress: [PeerAddress: Int]
    ) -> HTTPConnection? {
        let newcomerHolds = address.map { unauthenticatedPerAddress[$0, default: 0] } ?? 0
        guard let most = unauthenticatedPerAddress.values.max(), newcomerHolds < most else { return nil }
        // Several addresses may hold `most`: the oldest connection among all of them, in one pass.
        var oldest: HTTPConnection?
        for connection in connections where connection.isUnauthenticatedAndReclaimable {
            guard let peer = connection.peer, unauthenticatedPerAddress[peer] == most else { continue }
            if oldest.map({ connection.id < $0.id }) ?? true { oldest = connection }
        }
        return oldest
    }

    static func authenticatedConnectionToClose(
        forNewcomerFrom address: PeerAddress?, among connections: some Collection<HTTPConnection>,
        admittedPerAddress: [PeerAddress: Int]
    ) -> HTTPConnection? {
        let newcomerHolds = address.map { admittedPerAddress[$0, default: 0] } ?? 0
        guard let heaviest = admittedPerAddress.max(by: { $0.value < $1.value }), newcomerHolds + 1 < heaviest.value
        else { return nil }
        return connections.filter { $0.admitted && $0.peer == heaviest.key }
            .sorted { $0.id < $1.id }
            .first { $0.isIdleForReclaiming }
    }
}
