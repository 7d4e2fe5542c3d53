"""browser-demo as a child process, for every script that serves a store through it (the checks under
scripts/checks/, the browser tests' fixtures, the benchmarks): start it with arguments, wait for the line that
gives its URL, read its memory, stop it.

    with DemoServer(binary, ["--store", store]) as demo:   # waits for the URL line (start_timeout)
        get(demo.url + "/api/entities")
    # stopped: SIGTERM, as Ctrl-C would, then SIGKILL after stop_timeout

Its output is read on a thread of its own into ``log`` (and ``log_path`` when given) for as long as it runs, so a
chatty server never blocks on a full pipe and a failure can show what it printed. Standard library only.
"""
from __future__ import annotations

import re
import resource
import subprocess
import threading
from pathlib import Path

# browser-demo prints "CoreDataBrowser: http://127.0.0.1:<port>/…" once it listens (with --loopback; a pairing
# token, when there is one, follows in the query). The first such line is the server's address.
URL_LINE = re.compile(r"CoreDataBrowser:\s+(?P<url>http://127\.0\.0\.1:(?P<port>\d+))\S*")
# browser-demo's subcommands, which come before the options.
SUBCOMMANDS = ("simulators", "discover")
START_TIMEOUT = 60  # seconds: a debug build on a loaded 2-core machine, opening a large store
STOP_TIMEOUT = 10  # seconds between SIGTERM and SIGKILL


class DemoServerError(RuntimeError):
    """browser-demo ended or stayed silent before printing its URL line; the message ends with what it printed."""


class DemoServer:
    """One browser-demo process: ``--port 0`` (unless ``arguments`` name a port) and ``--loopback`` (unless
    ``loopback=False``: the Bonjour check advertises on the network) before ``arguments``.

    ``descriptor_limit`` lowers its soft descriptor limit (RLIMIT_NOFILE) before it starts, as a Mac app's 256.
    """

    def __init__(self, binary: Path | str, arguments: list[str] | tuple[str, ...] = (), *, loopback: bool = True,
                 descriptor_limit: int | None = None, log_path: Path | str | None = None,
                 cwd: Path | str | None = None, env: dict | None = None):
        arguments = [str(argument) for argument in arguments]
        command = arguments[:1] if arguments[:1] and arguments[0] in SUBCOMMANDS else []
        options = arguments[len(command):]
        defaults = ([] if "--port" in options else ["--port", "0"]) + (["--loopback"] if loopback else [])
        self.argv = [str(binary), *command, *defaults, *options]
        self.log: list[str] = []
        self.url: str | None = None
        self.port: int | None = None
        self._found = threading.Event()
        self._log_file = open(log_path, "w") if log_path else None

        def limit_descriptors() -> None:
            if descriptor_limit is not None:
                _, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
                resource.setrlimit(resource.RLIMIT_NOFILE, (descriptor_limit, hard))

        self.process = subprocess.Popen(self.argv, cwd=cwd, env=env, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                                        stderr=subprocess.STDOUT, text=True, bufsize=1,
                                        preexec_fn=limit_descriptors if descriptor_limit is not None else None)
        self._reader = threading.Thread(target=self._read_output, daemon=True)
        self._reader.start()

    @property
    def pid(self) -> int:
        return self.process.pid

    def _read_output(self) -> None:
        assert self.process.stdout is not None
        for line in self.process.stdout:
            self.log.append(line.rstrip("\n"))
            if self._log_file:
                self._log_file.write(line)
                self._log_file.flush()
            match = URL_LINE.search(line)
            if match and self.url is None:
                self.url, self.port = match.group("url"), int(match.group("port"))
                self._found.set()
        self._found.set()  # it ended: nobody waits for a line that cannot come
        if self._log_file:
            self._log_file.close()

    def output_ended(self) -> bool:
        """Whether it has closed its output (it exited): every line it printed is in ``log``."""
        return not self._reader.is_alive()

    def output(self, lines: int = 40) -> str:
        """The last lines it printed, for a failure's message."""
        return "\n".join(self.log[-lines:])

    def wait_for_url(self, timeout: float = START_TIMEOUT) -> str:
        """Its base URL, http://127.0.0.1:<port> (no trailing slash), once it prints it; stops it and raises
        DemoServerError when it ends or stays silent for `timeout` seconds first."""
        if not self._found.wait(timeout) or self.url is None:
            self.stop()
            raise DemoServerError(f"browser-demo printed no 'CoreDataBrowser: http://127.0.0.1:<port>' line "
                                  f"({' '.join(self.argv)}):\n{self.output()}")
        return self.url

    def stop(self, timeout: float = STOP_TIMEOUT) -> bool:
        """Ends it with SIGTERM, as Ctrl-C would; True when it exits within `timeout` seconds (or had already
        ended), False when it had to be killed."""
        clean = True
        if self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(timeout=timeout)
            except subprocess.TimeoutExpired:
                clean = False
                self.process.kill()
                self.process.wait(timeout=timeout)
        self._reader.join(timeout=timeout)
        return clean

    def __enter__(self) -> "DemoServer":
        self.wait_for_url()
        return self

    def __exit__(self, *exception) -> None:
        self.stop()

    # Memory, from /proc/<pid>/status (Linux): resident now (VmRSS) and its peak (VmHWM), in KiB; None once it
    # has ended.

    def resident_kib(self) -> int | None:
        return self._status_kib("VmRSS")

    def peak_resident_kib(self) -> int | None:
        return self._status_kib("VmHWM")

    def _status_kib(self, field: str) -> int | None:
        try:
            for line in Path(f"/proc/{self.pid}/status").read_text().splitlines():
                name, _, value = line.partition(":")
                if name == field:
                    return int(value.split()[0])
        except OSError:
            return None
        return None
