#!/usr/bin/env python3
"""Bonjour (DNS-SD) check of browser-demo against independent implementations (Avahi's own tools).

  python3 scripts/checks/bonjour/check.py --binary .build/debug/browser-demo

1. `browser-demo --advertise` is seen by `avahi-browse` as _cdbrowser._tcp with its port and TXT record (app,
   stores, token=required), and the pairing token is nowhere in what is published;
2. a service published by `avahi-publish` is listed by `browser-demo discover` with its name, app, bundle ID,
   stores and a URL with its port;
3. `--advertise --loopback` publishes on the loopback interface only, and discover gives a 127.0.0.1 URL;
4. with no mDNS daemon running, `discover` says so in one line and exits with 1. Run last, by stopping the
   daemon this script started; a daemon it did not start (the machine's own) is never stopped, and the case is
   skipped with the reason printed.

Needs avahi-daemon, avahi-utils and dbus (.ci/run installs them). When the daemon is not running and this script
may start it (root), it starts dbus and avahi-daemon, and stops that avahi-daemon at the end, so the machine is
left as it was and the next run starts its own again (dbus is left running: the next run finds it answering);
otherwise the check is skipped with a message, or fails with BONJOUR_REQUIRED=1 (set by .ci/run).

Every wait polls for a state (a line printed, a service listed) until a deadline; nothing sleeps for a fixed time.
"""
import argparse
import os
import re
import shutil
import socket
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "lib"))
from demo_server import DemoServer  # noqa: E402  (the one browser-demo launcher)

SERVICE_TYPE = "_cdbrowser._tcp"
DEADLINE = 30.0


def daemon_running() -> bool:
    return shutil.which("avahi-daemon") is not None and \
        subprocess.run(["avahi-daemon", "--check"], capture_output=True).returncode == 0


SYSTEM_BUS = "/run/dbus/system_bus_socket"
DAEMON_LOG = os.path.join(tempfile.gettempdir(), "bonjour-check-avahi-daemon.log")


def system_bus_answers() -> bool:
    """Whether a dbus-daemon accepts connections on the system bus socket. The socket file alone proves nothing:
    a machine image can keep it after its dbus-daemon is gone (the cause of a red CI run)."""
    with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as bus:
        try:
            bus.connect(SYSTEM_BUS)
            return True
        except OSError:
            return False


def start_daemon() -> subprocess.Popen:
    """Starts the system bus (unless one answers) and avahi-daemon, as a container without an init system needs.

    avahi-daemon runs in the foreground as our child with its log in DAEMON_LOG, so a failure to start is reported
    with avahi's own reason; --no-chroot because containers often lack CAP_SYS_CHROOT."""
    if not system_bus_answers():
        for stale in (SYSTEM_BUS, "/run/dbus/pid"):
            if os.path.exists(stale):
                os.remove(stale)
        os.makedirs("/run/dbus", exist_ok=True)
        subprocess.run(["dbus-daemon", "--system", "--fork"], check=True)
        wait_for(system_bus_answers, "dbus-daemon to answer on " + SYSTEM_BUS)
    with open(DAEMON_LOG, "w") as log:
        daemon = subprocess.Popen(["avahi-daemon", "--no-drop-root", "--no-chroot"], stdout=log,
                                  stderr=subprocess.STDOUT, start_new_session=True)

    def started() -> bool:
        if daemon.poll() is not None:
            with open(DAEMON_LOG) as log:
                raise AssertionError(f"avahi-daemon exited with {daemon.returncode}:\n{log.read().strip()}")
        return daemon_running()
    wait_for(started, "avahi-daemon to start")
    return daemon


def wait_for(condition, what: str, deadline: float = DEADLINE):
    end = time.monotonic() + deadline
    while time.monotonic() < end:
        result = condition()
        if result:
            return result
        time.sleep(0.1)  # polling interval of a state check, not a wait for time to pass
    raise AssertionError(f"timed out waiting for {what}")


class Server(DemoServer):
    """browser-demo with --port 0 and these arguments (no --loopback unless given: it advertises on the network),
    whose printed lines are waited for."""

    def __init__(self, binary: str, *arguments: str):
        super().__init__(binary, arguments, loopback=False)

    def wait_line(self, pattern: str) -> re.Match:
        def found():
            ended = self.output_ended()  # before reading the log: a line printed before the end is in it
            for line in list(self.log):
                match = re.search(pattern, line)
                if match:
                    return match
            if ended:
                raise AssertionError(f"browser-demo exited: {self.log}")
            return None
        return wait_for(found, f"a line matching {pattern!r}")

    def stop(self) -> bool:
        return super().stop(timeout=20)


def avahi_browse() -> list[list[str]]:
    """Resolved _cdbrowser._tcp services as avahi-browse's parsable fields."""
    output = subprocess.run(["avahi-browse", "--resolve", "--terminate", "--parsable", SERVICE_TYPE],
                            capture_output=True, text=True, timeout=DEADLINE).stdout
    return [line.split(";") for line in output.splitlines() if line.startswith("=")]


def discover(binary: str) -> subprocess.CompletedProcess:
    return subprocess.run([binary, "discover", "--timeout", "5"], capture_output=True, text=True, timeout=DEADLINE)


def check_advertised(binary: str, failures: list[str]) -> None:
    # A token of our own: the printed link carries only a one-time pairing code, and neither may be published.
    token = "bonjour-check-token-0123456789abcdef"
    server = Server(binary, "--advertise", "--token", token)
    try:
        code = server.wait_line(r"\?pair=([A-Za-z0-9._~-]+)").group(1)
        port = server.wait_line(r"http://[^:]+:(\d+)/").group(1)
        server.wait_line(r"Advertised on the local network as")
        entries = wait_for(lambda: [e for e in avahi_browse() if len(e) > 9 and e[8] == port],
                           "avahi-browse to list the advertised server")
        txt = entries[0][9]
        for expected in ('"app=browser-demo"', '"stores=Demo library"', '"token=required"', '"path=/"', '"txtvers=1"'):
            if expected not in txt:
                failures.append(f"advertised TXT lacks {expected}: {txt}")
        published = ";".join(";".join(e) for e in entries)
        if token in published or code in published:
            failures.append("the pairing token or link is published over Bonjour")
        if not any(e[3].startswith("browser-demo") for e in entries):
            failures.append(f"advertised name is not browser-demo's: {entries[0][3]}")
        print(f"ok: avahi-browse sees browser-demo --advertise on port {port} with {txt}")
    finally:
        server.stop()
    wait_for(lambda: not any(len(e) > 8 and e[8] == port for e in avahi_browse()),
             "the advertisement to be withdrawn after the server stopped")
    print("ok: the advertisement is withdrawn when browser-demo stops")


def check_discovers_independent_service(binary: str, failures: list[str]) -> None:
    name = f"Independent check {os.getpid()}"
    publisher = subprocess.Popen(["avahi-publish", "--service", name, SERVICE_TYPE, "45678",
                                  "app=ExampleApp", "bundle=com.example.app", "stores=Books.sqlite,Cache.sqlite",
                                  "token=none", "path=/"], stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    try:
        wait_for(lambda: any(len(e) > 3 and e[3].replace("\\032", " ") == name for e in avahi_browse()),
                 "avahi-publish's service to be visible")
        result = discover(binary)
        if result.returncode != 0:
            failures.append(f"discover exited {result.returncode}: {result.stderr.strip()}")
            return
        lines = result.stdout.splitlines()
        heading = next((i for i, line in enumerate(lines) if line.startswith(name)), None)
        if heading is None:
            failures.append(f"discover did not list {name!r}: {result.stdout}")
            return
        if "ExampleApp (com.example.app)" not in lines[heading] or "stores: Books.sqlite,Cache.sqlite" not in lines[heading]:
            failures.append(f"discover's line lacks the app, bundle ID or stores: {lines[heading]!r}")
        if heading + 1 >= len(lines) or not re.fullmatch(r"  http://[^/]+:45678/", lines[heading + 1]):
            failures.append(f"discover's URL for {name!r} is not on port 45678: {lines[heading + 1:heading + 2]}")
        print(f"ok: discover lists avahi-publish's service: {lines[heading]} / {lines[heading + 1].strip()}")
    finally:
        publisher.terminate()
        publisher.wait(timeout=20)


def check_loopback_only(binary: str, failures: list[str]) -> None:
    server = Server(binary, "--advertise", "--loopback")
    try:
        port = server.wait_line(r"http://127\.0\.0\.1:(\d+)").group(1)
        server.wait_line(r"Advertised on the local network as")
        entries = wait_for(lambda: [e for e in avahi_browse() if len(e) > 8 and e[8] == port],
                           "avahi-browse to list the loopback-only server")
        interfaces = {e[1] for e in entries}
        if interfaces != {"lo"}:
            failures.append(f"--advertise --loopback is published beyond loopback: {sorted(interfaces)}")
        result = discover(binary)
        if f"http://127.0.0.1:{port}/" not in result.stdout:
            failures.append(f"discover's URL for the loopback-only server is not 127.0.0.1:{port}: {result.stdout}")
        else:
            print(f"ok: --advertise --loopback is published on lo only and discovered at 127.0.0.1:{port}")
    finally:
        server.stop()


def stop_daemon(daemon: subprocess.Popen) -> None:
    # Our child: stopped and reaped here (`avahi-daemon --kill` would wait for a zombie that only we can reap).
    if daemon.poll() is None:
        daemon.terminate()
        daemon.wait(timeout=DEADLINE)
    wait_for(lambda: not daemon_running(), "avahi-daemon to stop")


def check_daemon_missing(binary: str, daemon: subprocess.Popen, failures: list[str]) -> None:
    """The last check: stops the daemon this script started (and leaves it stopped, as the machine was)."""
    stop_daemon(daemon)
    result = discover(binary)
    message = result.stderr.strip()
    if result.returncode != 1 or len(message.splitlines()) != 1 or "avahi-daemon" not in message:
        failures.append(f"discover without a daemon: exit {result.returncode}, stderr {message!r}")
    else:
        print(f"ok: without a daemon discover says: {message}")


def why_daemon_missing_is_skipped() -> str:
    """Why the no-daemon case cannot run: the daemon was running before this script, and is not ours to stop."""
    if os.geteuid() == 0 and not os.path.isdir("/run/systemd/system"):
        return ("skipped the 'no daemon' case: avahi-daemon was already running when this check started (not"
                " started by it; root without an init system, perhaps left by another run), and this check never"
                " stops a daemon it did not start; stop it (avahi-daemon --kill) and run again to include the case")
    return ("skipped the 'no daemon' case: avahi-daemon is the machine's own (already running), and this check"
            " never stops it")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--binary", required=True, help="the browser-demo executable")
    args = parser.parse_args()
    required = os.environ.get("BONJOUR_REQUIRED") == "1"

    tools = ["avahi-daemon", "avahi-browse", "avahi-publish", "dbus-daemon"]
    missing = [tool for tool in tools if shutil.which(tool) is None]
    started_daemon = None
    if missing:
        message = f"Bonjour check skipped: {', '.join(missing)} not installed (apt-get install avahi-daemon avahi-utils dbus)"
    elif not daemon_running() and os.geteuid() != 0:
        message = "Bonjour check skipped: avahi-daemon is not running and only root may start it here"
    else:
        message = None
        if not daemon_running():
            started_daemon = start_daemon()
    if message:
        print(message, file=sys.stderr if required else sys.stdout)
        return 1 if required else 0

    failures: list[str] = []
    try:
        with tempfile.TemporaryDirectory() as home:
            # browser-demo remembers its pairing token under the user's caches: keep this run's apart.
            os.environ["HOME"] = home
            os.environ["XDG_CACHE_HOME"] = os.path.join(home, "cache")
            check_advertised(args.binary, failures)
            check_discovers_independent_service(args.binary, failures)
            check_loopback_only(args.binary, failures)
            if started_daemon:
                check_daemon_missing(args.binary, started_daemon, failures)
            else:
                print("note: " + why_daemon_missing_is_skipped())
    finally:
        # A check that raised leaves the daemon this script started running: it is stopped all the same.
        if started_daemon:
            stop_daemon(started_daemon)
    for failure in failures:
        print(f"FAIL: {failure}", file=sys.stderr)
    print("Bonjour check: " + ("failed" if failures else "passed"))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
