"""Processes for the interop tests: the `noisetag demo --headless` engine and
the scripted Python decoder (`utopia_decoder.py`), each read line by line in
a thread, with bounded waits on what they print.

Every wait has a timeout and fails with the lines seen so far; no test
sleeps to synchronise.
"""
import json
import os
import signal
import subprocess
import sys
import threading
import time

HERE = os.path.dirname(os.path.abspath(__file__))
DECODER_SCRIPT = os.path.join(HERE, "utopia_decoder.py")


class LineLog:
    """The lines a process writes to a pipe, parsed as JSON objects, kept in order."""

    def __init__(self, stream, name):
        self.name = name
        self.items = []
        self.closed = False
        self._cond = threading.Condition()
        self._thread = threading.Thread(target=self._read, args=(stream,), name=name, daemon=True)
        self._thread.start()

    def _read(self, stream):
        try:
            for raw in iter(stream.readline, b""):
                line = raw.decode("utf-8", errors="replace").rstrip("\n")
                try:
                    item = json.loads(line)
                    if not isinstance(item, dict):
                        item = {"unparsed": line}
                except ValueError:
                    item = {"unparsed": line}
                item["_arrived"] = time.monotonic()
                with self._cond:
                    self.items.append(item)
                    self._cond.notify_all()
        finally:
            with self._cond:
                self.closed = True
                self._cond.notify_all()

    def snapshot(self):
        with self._cond:
            return list(self.items)

    def __len__(self):
        with self._cond:
            return len(self.items)

    def wait_for(self, predicate, timeout, what, start=0):
        """The first item at index >= start for which predicate holds, as
        (index, item); fails after `timeout` seconds or when the stream ends."""
        deadline = time.monotonic() + timeout
        with self._cond:
            index = start
            while True:
                while index < len(self.items):
                    if predicate(self.items[index]):
                        return index, self.items[index]
                    index += 1
                remaining = deadline - time.monotonic()
                if self.closed or remaining <= 0:
                    why = "the stream ended" if self.closed else "not within %.1f s" % timeout
                    raise AssertionError("%s: waited for %s, %s; lines seen:\n%s"
                                         % (self.name, what, why, self.describe(start)))
                self._cond.wait(remaining)

    def join(self, timeout):
        self._thread.join(timeout)

    def describe(self, start=0, limit=40):
        """The last `limit` lines from `start`, flicker frames summarised."""
        with self._cond:
            items = self.items[start:]
        lines = []
        frames = 0
        for item in items:
            if item.get("id") == "E" and item.get("event") == "received":
                frames += 1
                continue
            if frames:
                lines.append("  ... %d STIMULUSEVENTs" % frames)
                frames = 0
            shown = {k: v for k, v in item.items() if k != "_arrived"}
            lines.append("  " + json.dumps(shown, sort_keys=True))
        if frames:
            lines.append("  ... %d STIMULUSEVENTs" % frames)
        return "\n".join(lines[-limit:])


def stop_process(process, sig=signal.SIGTERM, grace=5.0):
    """Ends `process` if it still runs: `sig` (SIGTERM), then SIGKILL after
    `grace` seconds. Returns its exit status."""
    if process is None:
        return None
    if process.poll() is None:
        try:
            process.send_signal(sig)
            process.wait(grace)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait(5)
        except ProcessLookupError:
            pass
    return process.returncode


def _stop(process, grace=2.0):
    stop_process(process, grace=grace)


def collect_lines(stream, into):
    """Appends each line of a process's pipe to the list `into` (run it on a thread)."""
    for raw in iter(stream.readline, b""):
        into.append(raw.decode("utf-8", errors="replace").rstrip("\n"))


def wait_for_text(lines, text, timeout):
    """True once a line of `lines` (filled by collect_lines) contains `text`, within `timeout` seconds."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if any(text in line for line in list(lines)):
            return True
        time.sleep(0.05)
    return False


def _tail(path, limit=4000):
    try:
        with open(path, "rb") as handle:
            data = handle.read()
    except OSError:
        return ""
    return data[-limit:].decode("utf-8", errors="replace")


class DecoderProcess:
    """`utopia_decoder.py` as a separate process, so it can be SIGKILLed."""

    def __init__(self, endpoint, folder, label):
        self.endpoint = endpoint
        self.label = label
        self.stderr_path = os.path.join(folder, "%s.stderr" % label)
        with open(self.stderr_path, "wb") as stderr:
            self.process = subprocess.Popen([sys.executable, "-u", DECODER_SCRIPT, endpoint],
                                            stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=stderr)
        self.log = LineLog(self.process.stdout, "decoder %s" % label)

    def wait_bound(self, timeout=15):
        self.log.wait_for(lambda m: m.get("event") == "bound", timeout, "the decoder to bind %s" % self.endpoint)

    def command(self, **command):
        self.process.stdin.write((json.dumps(command) + "\n").encode())
        self.process.stdin.flush()

    def predict(self, obj_id, perr):
        """Sends P for `obj_id` now and every 0.1 s until the next NEWTARGET."""
        self.command(cmd="predict", objID=obj_id, perr=perr)

    def send_hex(self, data):
        self.command(cmd="send_hex", hex=data.hex())

    def received(self, message_id, start=0):
        return [m for m in self.log.snapshot()[start:]
                if m.get("event") == "received" and m.get("id") == message_id]

    def wait_received(self, message_id, timeout, start=0, where=lambda m: True, what=None):
        return self.log.wait_for(
            lambda m: m.get("event") == "received" and m.get("id") == message_id and where(m),
            timeout, what or "a %r message" % message_id, start)

    def wait_sent(self, message_id, timeout, start=0, what=None):
        return self.log.wait_for(lambda m: m.get("event") == "sent" and m.get("id") == message_id,
                                 timeout, what or "sending %r" % message_id, start)

    def errors(self):
        return [m for m in self.log.snapshot() if m.get("event") == "error"]

    def frames(self, direction):
        """Hex of every frame the decoder received ("in") or sent ("out"), in order."""
        return [m["hex"] for m in self.log.snapshot() if m.get("event") == "frame" and m.get("direction") == direction]

    def kill(self):
        """SIGKILL: the decoder dies without closing anything."""
        self.process.kill()
        self.process.wait(5)

    def stop(self):
        if self.process.poll() is None:
            try:
                self.command(cmd="quit")
                self.process.wait(3)
            except (OSError, subprocess.TimeoutExpired):
                pass
        _stop(self.process)
        for stream in (self.process.stdin, self.process.stdout):
            try:
                stream.close()
            except OSError:
                pass
        self.log.join(2)

    def report(self):
        return ("decoder %s (exit %s):\n%s\nstderr:\n%s"
                % (self.label, self.process.poll(), self.log.describe(), _tail(self.stderr_path)))


class EngineProcess:
    """`noisetag demo --headless --events-json` against a decoder endpoint."""

    def __init__(self, binary, endpoint, folder, trials, controls, max_seconds, settings=None, recordings=None):
        """With `endpoint` None, no --decoder flag: the settings file's decoderEndpoint (or the default) is used."""
        self.stderr_path = os.path.join(folder, "noisetag.stderr")
        args = [binary, "demo", "--headless", "--events-json",
                "--trials", str(trials), "--controls", str(controls), "--max-seconds", str(max_seconds)]
        if endpoint is not None:
            args += ["--decoder", endpoint]
        if recordings:
            args += ["--recordings", recordings]
        if settings:
            path = os.path.join(folder, "settings.json")
            with open(path, "w") as handle:
                json.dump(settings, handle)
            args += ["--settings", path]
        self.args = args
        with open(self.stderr_path, "wb") as stderr:
            self.process = subprocess.Popen(args, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=stderr)
        self.events = LineLog(self.process.stdout, "noisetag events")

    def wait_event(self, event_type, timeout, start=0, what=None, **fields):
        """The first event of `event_type` (at index >= start) whose fields equal `fields`."""
        def matches(event):
            return event.get("type") == event_type and all(event.get(k) == v for k, v in fields.items())
        label = what or "event %s %s" % (event_type, fields or "")
        return self.events.wait_for(matches, timeout, label, start)

    def of_type(self, event_type, start=0):
        return [e for e in self.events.snapshot()[start:] if e.get("type") == event_type]

    def wait_exit(self, timeout):
        """The exit code, after the event stream has been read to its end."""
        try:
            code = self.process.wait(timeout)
        except subprocess.TimeoutExpired:
            raise AssertionError("noisetag did not exit within %.1f s\n%s" % (timeout, self.report()))
        self.events.join(5)
        return code

    def stop(self):
        _stop(self.process)
        try:
            self.process.stdout.close()
        except OSError:
            pass
        self.events.join(2)

    def report(self):
        return ("noisetag %s (exit %s):\n%s\nstderr:\n%s"
                % (" ".join(self.args[1:]), self.process.poll(), self.events.describe(), _tail(self.stderr_path)))


class InteropSession:
    """The processes of one test, all ended at teardown."""

    def __init__(self, binary, folder):
        self.binary = binary
        self.folder = folder
        self.endpoint = "ipc://%s/decoder.sock" % folder
        self.decoders = []
        self.engines = []

    def start_decoder(self):
        decoder = DecoderProcess(self.endpoint, self.folder, "decoder%d" % (len(self.decoders) + 1))
        self.decoders.append(decoder)  # ended at teardown even if it never binds
        decoder.wait_bound()
        return decoder

    def start_engine(self, trials, controls, max_seconds=30, settings=None, recordings=None, decoder_flag=True):
        engine = EngineProcess(self.binary, self.endpoint if decoder_flag else None, self.folder, trials, controls,
                               max_seconds, settings, recordings)
        self.engines.append(engine)
        return engine

    def close(self):
        for process in self.engines + self.decoders:
            try:
                process.stop()
            except Exception as error:  # keep ending the others
                print("could not stop %r: %s" % (process, error))
        # Shown by pytest only when the test failed.
        for process in self.engines + self.decoders:
            print(process.report())


def wrap_int32(value):
    """`value` milliseconds as a wrapped Utopia int32 timestamp."""
    return (value + 0x80000000) % 0x100000000 - 0x80000000


def stamp_not_older(stamp, reference):
    """Utopia timestamps are wrapping int32 milliseconds: stamp >= reference, wrap-aware."""
    difference = (stamp - reference) & 0xFFFFFFFF
    return difference < 0x80000000
