"""Load-check phases for what a client without the token may cost the server (imported by check.py).

Each phase runs its own browser-demo with a token, prints its figures on a ``load check:`` line and returns the
targets it missed (an empty list when it passed). Loopback addresses only (127.0.0.0/8); every loop is bounded by
a count and by the phase's timeout.

* pre-auth CPU: the owner's ``/api/health`` latency (median and p95, one keep-alive connection) alone, then while
  two floods without the token run: 30 KB ``Connection: x,x,…`` heads and heads carrying 179 forged session cookies
  (the most a request may carry without a 431, each well-formed, so each would cost an HMAC if all were checked);
* bodies before the token: 512 one-MiB uploads without the token; the server's resident memory before and after
  (a refused upload is answered from its head, its body never read);
* LAN lock-out: the server under a soft limit of 256 descriptors; clients without the token from 8, then from 40
  addresses hold partial request heads and reconnect well within a second, while the owner opens a new connection
  for each of 100 requests: every one must be answered, p95 within 100 ms.
"""

from __future__ import annotations

import asyncio
import functools
import multiprocessing
import statistics
import time
from pathlib import Path

from check import TOKEN, Failure, read_response, rss_kib, start_demo

# Targets.
PRE_AUTH_P95_MS = 100  # the owner's p95 while the floods run
PRE_AUTH_MEDIAN_MS = 25
BODY_GROWTH_MIB = 32  # resident memory after 512 refused one-MiB uploads (before the admission: +533 MiB)
LOCKOUT_P95_MS = 100
ERRORS = (Failure, OSError, asyncio.IncompleteReadError, asyncio.LimitOverrunError, ValueError)


def percentile(values: list[float], fraction: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(fraction * len(ordered)))]


def health_request(port: int) -> bytes:
    return (f"GET /api/health HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\n"
            f"Authorization: Bearer {TOKEN}\r\n\r\n").encode()


async def owner_latencies(port: int, count: int) -> list[float]:
    """`count` sequential /api/health requests on one keep-alive connection, each timed, in milliseconds."""
    reader, writer = await asyncio.open_connection("127.0.0.1", port)
    request = health_request(port)
    latencies = []
    try:
        for _ in range(count):
            started = time.monotonic()
            writer.write(request)
            await writer.drain()
            status, _, body = await read_response(reader)
            if status != 200:
                raise Failure(f"owner's /api/health: status {status}: {body[:120]!r}")
            latencies.append((time.monotonic() - started) * 1000)
    finally:
        writer.close()
    return latencies


async def flood(port: int, source: str, head: bytes, stop, stats: dict, rounds: int) -> None:
    """Sends `head` (and whatever follows it) on a new connection, reads the answer, again, until `stop` (or `rounds`
    times)."""
    for _ in range(rounds):
        if stop.is_set():
            return
        writer = None
        try:
            reader, writer = await asyncio.open_connection("127.0.0.1", port, local_addr=(source, 0))
            writer.write(head)
            await writer.drain()
            status, _, _ = await read_response(reader)
            stats[status] = stats.get(status, 0) + 1
        except ERRORS:
            stats["error"] = stats.get("error", 0) + 1
        finally:
            if writer is not None:
                writer.close()
        await asyncio.sleep(0)


async def floods(port: int, stop, stats: dict) -> None:
    listed = ",".join(["x"] * 15_000)
    header_head = f"GET /api/health HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nConnection: {listed}\r\n\r\n".encode()
    forged = "; ".join(f"cdb_session_{port}={4_000_000_000 + n}.{'A' * 22}.{'B' * 22}" for n in range(179))
    cookie_head = f"GET /api/health HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nCookie: {forged}\r\n\r\n".encode()
    stats["headers"], stats["cookies"] = {}, {}
    # 16 addresses for each flood, 6 connections each: spread, so that the per-address limits do not stop them first.
    await asyncio.gather(*(flood(port, f"127.0.{kind}.{10 + a}", head, stop, stats[name], 2000)
                           for kind, head, name in ((2, header_head, "headers"), (3, cookie_head, "cookies"))
                           for a in range(16) for _ in range(6)))


async def pre_auth_cpu(port: int) -> dict:
    baseline = await owner_latencies(port, 100)
    with Attackers(floods, port) as attack:
        await attack.started()
        during = await owner_latencies(port, 200)
    return {"baseline": baseline, "during": during, **attack.stats}


async def upload_without_token(port: int, source: str, count: int, stats: dict) -> None:
    body = b"x" * (1024 * 1024)
    head = (f"POST /api/entities HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nContent-Type: application/json\r\n"
            f"Content-Length: {len(body)}\r\n\r\n").encode()
    await flood(port, source, head + body, asyncio.Event(), stats, count)


async def bodies_before_token(port: int, pid: int) -> dict:
    before = rss_kib(pid)
    stats: dict = {}
    # 512 uploads: 64 at a time from 8 addresses, 8 each in turn.
    await asyncio.gather(*(upload_without_token(port, f"127.0.4.{10 + c % 8}", 8, stats) for c in range(64)))
    await asyncio.sleep(0.5)  # the server has seen every close
    return {"before": before, "after": rss_kib(pid), "answers": stats}


class Attackers:
    """Runs `attack(port, stop, stats)` in a process of its own, so that the owner, measured here, never waits for the
    attackers' Python event loop: the figures are the server's. `stats` comes back when the block ends."""

    def __init__(self, attack, port: int) -> None:
        self.stop = multiprocessing.Event()
        self.ready = multiprocessing.Event()
        self.results = multiprocessing.Queue()
        self.process = multiprocessing.Process(target=Attackers.main, args=(attack, port, self.stop, self.ready, self.results))
        self.stats: dict = {}

    @staticmethod
    def main(attack, port, stop, ready, results) -> None:
        class StopFlag:  # what the attack loops read
            def is_set(self) -> bool:
                return stop.is_set()

        stats: dict = {}

        async def run() -> None:
            task = asyncio.create_task(attack(port, StopFlag(), stats))
            await asyncio.sleep(1)  # the attack is under way (pacing, not synchronisation)
            ready.set()
            await task

        asyncio.run(run())
        results.put(stats)

    def __enter__(self) -> "Attackers":
        self.process.start()
        return self

    async def started(self) -> None:
        for _ in range(600):
            if self.ready.is_set():
                return
            await asyncio.sleep(0.05)
        raise Failure("the attackers did not start")

    def __exit__(self, *exc) -> None:
        self.stop.set()
        try:
            self.stats = self.results.get(timeout=120)
        finally:
            self.process.join(timeout=10)
            if self.process.is_alive():
                self.process.kill()


async def hold_partial_heads(port: int, source: str, stop, stats: dict) -> None:
    """A client without the token: a partial head, held about half a second (well within the 1 s a silent
    connection once kept its slot) or until the server closes it, then a new connection."""
    partial = f"GET / HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\n".encode()
    for _ in range(10_000):
        if stop.is_set():
            return
        writer = None
        try:
            reader, writer = await asyncio.open_connection("127.0.0.1", port, local_addr=(source, 0))
            stats["opened"] += 1
            writer.write(partial)
            await writer.drain()
            try:
                answer = await asyncio.wait_for(reader.read(4096), 0.5)
                stats["refused" if answer.startswith(b"HTTP/1.1 503") else "closed"] += 1
            except asyncio.TimeoutError:
                stats["recycled"] += 1
        except ERRORS:
            stats["error"] += 1
            await asyncio.sleep(0.01)
        finally:
            if writer is not None:
                writer.close()


async def owner_new_connections(port: int, requests: int) -> dict:
    served = {"latencies": [], "failures": []}
    request = health_request(port)
    for _ in range(requests):
        started = time.monotonic()
        writer = None
        try:
            reader, writer = await asyncio.open_connection("127.0.0.1", port)
            writer.write(request)
            await writer.drain()
            status, _, body = await asyncio.wait_for(read_response(reader), 5)
            if status == 200:
                served["latencies"].append((time.monotonic() - started) * 1000)
            else:
                served["failures"].append(f"status {status}: {body[:120]!r}")
        except (*ERRORS, asyncio.TimeoutError) as error:
            served["failures"].append(f"{type(error).__name__}: {error}")
        finally:
            if writer is not None:
                writer.close()
        await asyncio.sleep(0.03)  # a browser's pace, not synchronisation
    return served


async def partial_heads(addresses: int, per_address: int, port: int, stop, stats: dict) -> None:
    stats.update({"opened": 0, "refused": 0, "closed": 0, "recycled": 0, "error": 0})
    await asyncio.gather(*(hold_partial_heads(port, f"127.0.5.{10 + a}", stop, stats)
                           for a in range(addresses) for _ in range(per_address)))


async def lan_lockout(port: int, addresses: int, per_address: int) -> tuple[dict, dict]:
    with Attackers(functools.partial(partial_heads, addresses, per_address), port) as attack:
        await attack.started()
        served = await owner_new_connections(port, 100)
    return attack.stats, served


def run_phase(binary: Path, phase, timeout: float, descriptor_limit: int | None = None):
    process, port = start_demo(binary, "--token", TOKEN, descriptor_limit=descriptor_limit)
    try:
        result = asyncio.run(asyncio.wait_for(phase(port, process.pid), timeout))
        alive = process.poll() is None
    finally:
        process.terminate()
        process.wait(timeout=10)
    return result, alive


PHASES = ("pre-auth", "bodies", "lockout")


def run(binary: Path, timeout: float, phases: tuple[str, ...] = PHASES) -> list[str]:
    """Runs the phases (all by default); returns the targets missed."""
    failures = []
    if "pre-auth" in phases:
        failures += pre_auth_cpu_phase(binary, timeout)
    if "bodies" in phases:
        failures += bodies_phase(binary, timeout)
    if "lockout" in phases:
        failures += lockout_phase(binary, timeout)
    return failures


def pre_auth_cpu_phase(binary: Path, timeout: float) -> list[str]:
    failures = []
    cpu, alive = run_phase(binary, lambda port, pid: pre_auth_cpu(port), timeout)
    base, during = cpu["baseline"], cpu["during"]
    median, p95 = statistics.median(during), percentile(during, 0.95)
    print(f"load check: pre-auth CPU: owner /api/health alone median {statistics.median(base):.1f} ms, "
          f"p95 {percentile(base, 0.95):.1f} ms; during the floods median {median:.1f} ms, p95 {p95:.1f} ms "
          f"(allowed {PRE_AUTH_MEDIAN_MS} / {PRE_AUTH_P95_MS} ms); 30 KB Connection lists answered "
          f"{cpu.get('headers')}, 179 forged cookies answered {cpu.get('cookies')}")
    if median > PRE_AUTH_MEDIAN_MS or p95 > PRE_AUTH_P95_MS:
        failures.append(f"the owner waited median {median:.0f} ms / p95 {p95:.0f} ms during the pre-auth floods")
    if not alive:
        failures.append("browser-demo exited during the pre-auth CPU phase")
    return failures


def bodies_phase(binary: Path, timeout: float) -> list[str]:
    failures = []
    bodies, alive = run_phase(binary, bodies_before_token, timeout)
    growth = (bodies["after"] - bodies["before"]) / 1024
    print(f"load check: bodies before the token: 512 one-MiB uploads without the token answered {bodies['answers']}; "
          f"resident memory {bodies['before'] / 1024:.1f} → {bodies['after'] / 1024:.1f} MiB ({growth:+.1f} MiB, "
          f"allowed +{BODY_GROWTH_MIB} MiB)")
    if growth > BODY_GROWTH_MIB:
        failures.append(f"memory grew by {growth:.1f} MiB with uploads refused before their body")
    if bodies["answers"].get(401, 0) == 0:
        failures.append("no upload without the token was answered 401: the phase proves nothing")
    if not alive:
        failures.append("browser-demo exited during the bodies-before-the-token phase")
    return failures


def lockout_phase(binary: Path, timeout: float) -> list[str]:
    failures = []
    for addresses, per_address in ((8, 32), (40, 8)):
        (attack, served), alive = run_phase(
            binary, lambda port, pid: lan_lockout(port, addresses, per_address), timeout, descriptor_limit=256)
        latencies = served["latencies"]
        p95 = percentile(latencies, 0.95) if latencies else float("inf")
        print(f"load check: LAN lock-out (256 descriptors, {addresses} addresses × {per_address} partial heads, "
              f"reconnecting): {', '.join(f'{k} {v}' for k, v in attack.items())}; the owner served "
              f"{len(latencies)}% (100 new connections), p95 {p95:.0f} ms (allowed {LOCKOUT_P95_MS} ms)")
        for failure in served["failures"][:5]:
            print(f"  {failure}")
        if served["failures"] or p95 > LOCKOUT_P95_MS:
            failures.append(f"LAN lock-out with {addresses} addresses: owner served {len(latencies)}%, p95 {p95:.0f} ms")
        if not alive:
            failures.append(f"browser-demo exited during the LAN lock-out phase ({addresses} addresses)")
    return failures


if __name__ == "__main__":
    import argparse
    import sys

    parser = argparse.ArgumentParser(description="Only the phases of this module (check.py runs them all).")
    parser.add_argument("--binary", default=str(Path(__file__).resolve().parents[3] / ".build/debug/browser-demo"))
    parser.add_argument("--timeout", type=float, default=300)
    parser.add_argument("--phase", action="append", choices=PHASES, help="only this phase (repeatable)")
    arguments = parser.parse_args()
    missed = run(Path(arguments.binary), arguments.timeout, tuple(arguments.phase or PHASES))
    print("guard phases FAILED: " + "; ".join(missed) if missed else "guard phases passed")
    sys.exit(1 if missed else 0)
