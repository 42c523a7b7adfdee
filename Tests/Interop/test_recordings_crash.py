"""Recordings survive crashes: `noisetag demo --headless` runs a real session
(brain presses from a pyzmq ROUTER decoder speaking MindAffect SDK messages),
is SIGKILLed right after a trial ends, and its recording is checked.

Durability promise checked here (Protocols/recordings-reading.md, "Durability"):
- every trial, press and decoder line written before the last completed trial
  ended is on disk after a SIGKILL;
- frame lines stop at most 100 ms before the kill. The test allows
  MARGIN_S more for scheduling on a loaded 2-core machine: the bound asserted
  is LOSS_BOUND_S + MARGIN_S = 0.25 s.
- the folder keeps only its left part (open/crashed), and
  `noisetag recordings list` says so.

Everything here is self-contained (own decoder, own fixtures); every wait is
bounded and every child process is killed at teardown.
"""
import json
import os
import queue
import re
import shutil
import signal
import struct
import subprocess
import tempfile
import threading
import time

import pytest
import zmq
from mindaffectBCI import utopiaclient as u

LOSS_BOUND_S = 0.100
MARGIN_S = 0.150
TIME = r"\d{4}-\d{2}-\d{2} \d{2}\.\d{2}\.\d{2} [+-]\d{4}"
OPEN_NAME = re.compile(r"^(" + TIME + r") (.+)$")
CLOSED_NAME = re.compile(r"^(" + TIME + r") (.+) \u2013 (.+) (" + TIME + r")$")
SETTINGS = {
    "minTrialDuration": 0.3,
    "timeInBetweenTrials": 0.2,
    "feedbackDuration": 0.2,
    "maxTestTrialDuration": 5.0,
    "heartbeatInterval": 0.2,
}


def noisetag_bin():
    path = os.environ.get("NOISETAG_BIN")
    if not path:
        pytest.skip("NOISETAG_BIN is not set (make test sets it)")
    if not (os.path.isfile(path) and os.access(path, os.X_OK)):
        pytest.fail("NOISETAG_BIN=%s is not an executable file" % path)
    return path


class Decoder(threading.Thread):
    """A ROUTER decoder: answers every client with heartbeats, and predicts
    the first object of each STIMULUSEVENT with Perr 0.01. Keeps every frame
    it received, so the test can find them in the recording."""

    def __init__(self, endpoint):
        super().__init__(daemon=True)
        self.context = zmq.Context()
        self.socket = self.context.socket(zmq.ROUTER)
        self.socket.setsockopt(zmq.LINGER, 0)
        self.socket.bind(endpoint)
        self.received = []  # (utopia timestamp, raw message bytes)
        self.halt = threading.Event()
        self.error = None

    def send(self, identity, message):
        self.socket.send_multipart([identity, u.RawMessage.fromUtopiaMessage(message).serialize()], zmq.DONTWAIT)

    def run(self):
        try:
            poller = zmq.Poller()
            poller.register(self.socket, zmq.POLLIN)
            events = 0
            while not self.halt.is_set():
                if not poller.poll(20):
                    continue
                identity, data = self.socket.recv_multipart()
                offset = 0
                while offset + 4 <= len(data):
                    msg_id, _, size = struct.unpack("<BBH", data[offset:offset + 4])
                    raw = data[offset:offset + 4 + size]
                    offset += 4 + size
                    stamp = struct.unpack("<i", raw[4:8])[0] if size >= 4 else 0
                    self.received.append((stamp, raw))
                    if msg_id in (ord("H"), ord("B")):
                        self.send(identity, u.Heartbeat(stamp))
                    elif msg_id == ord("E") and size > 5 and raw[8] > 0:
                        events += 1
                        if events % 3 == 0:
                            self.send(identity, u.PredictedTargetProb(stamp, raw[9], 0.01))
        except Exception as error:  # reported by the test
            self.error = error

    def stop(self):
        self.halt.set()
        self.join(timeout=5)
        self.socket.close(0)
        self.context.term()


class Engine:
    """`noisetag demo --headless --events-json` with its stdout read by a thread."""

    def __init__(self, binary, endpoint, root, folder, trials):
        settings = os.path.join(folder, "settings.json")
        with open(settings, "w") as f:
            json.dump(SETTINGS, f)
        self.stderr_path = os.path.join(folder, "engine.stderr")
        self.stderr = open(self.stderr_path, "wb")
        self.process = subprocess.Popen(
            [binary, "demo", "--headless", "--events-json", "--decoder", endpoint, "--mode", "test",
             "--controls", "4", "--trials", str(trials), "--settings", settings, "--recordings", root,
             "--max-seconds", "60"],
            stdout=subprocess.PIPE, stderr=self.stderr)
        self.events = queue.Queue()
        self.seen = []
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self):
        for line in self.process.stdout:
            try:
                self.events.put(json.loads(line))
            except ValueError:
                self.events.put({"type": "unparsable", "line": line.decode(errors="replace")})
        self.events.put(None)

    def wait_for(self, predicate, timeout, what):
        deadline = time.monotonic() + timeout
        while True:
            left = deadline - time.monotonic()
            if left <= 0:
                pytest.fail("timed out after %.0f s waiting for %s; stderr:\n%s" % (timeout, what, self.stderr_text()))
            try:
                event = self.events.get(timeout=left)
            except queue.Empty:
                continue
            if event is None:
                pytest.fail("the engine exited (%s) while waiting for %s; stderr:\n%s"
                            % (self.process.poll(), what, self.stderr_text()))
            self.seen.append(event)
            if predicate(event):
                return event

    def stderr_text(self):
        self.stderr.flush()
        with open(self.stderr_path, "rb") as f:
            return f.read().decode(errors="replace")[-3000:]

    def kill(self):
        if self.process.poll() is None:
            self.process.kill()
        try:
            self.process.wait(timeout=10)
        finally:
            self.process.stdout.close()
            self.stderr.close()


@pytest.fixture
def recording_session():
    """A private folder (short enough for the ipc socket), a decoder, and whatever engines a test starts."""
    folder = tempfile.mkdtemp(prefix="ntrec-", dir="/tmp")
    endpoint = "ipc://" + os.path.join(folder, "decoder.sock")
    decoder = Decoder(endpoint)
    decoder.start()
    engines = []

    class Session:
        def __init__(self):
            self.folder, self.decoder, self.root = folder, decoder, os.path.join(folder, "recordings")

        def engine(self, trials, root=None):
            engine = Engine(noisetag_bin(), endpoint, root or self.root, folder, trials)
            engines.append(engine)
            return engine

    try:
        yield Session()
    finally:
        for engine in engines:
            engine.kill()
        decoder.stop()
        shutil.rmtree(folder, ignore_errors=True)


def complete_lines(path):
    """The file's complete lines; a last line cut off by the kill is left out."""
    with open(path, "rb") as f:
        data = f.read()
    lines = data.split(b"\n")
    return [line.decode() for line in lines[:-1]]


def read_csv(path, header):
    import csv
    lines = complete_lines(path)
    assert lines[0] == header, "%s header" % path
    rows = list(csv.reader(lines[1:]))
    width = len(header.split(","))
    assert all(len(row) == width for row in rows), "%s: a row without %d cells" % (path, width)
    return rows


def only_recording(root):
    folders = [name for name in os.listdir(root) if os.path.isdir(os.path.join(root, name))]
    assert len(folders) == 1, folders
    return folders[0], os.path.join(root, folders[0])


def noisetag(*args):
    result = subprocess.run([noisetag_bin(), *args], stdout=subprocess.PIPE, stderr=subprocess.PIPE, timeout=30)
    assert result.returncode == 0, result.stderr.decode(errors="replace")
    return result.stdout.decode()


@pytest.mark.parametrize("delay", [0.0, 0.33], ids=["kill-at-trial-end", "kill-mid-feedback"])
def test_sigkill_right_after_a_trial_keeps_everything_up_to_it(recording_session, delay):
    engine = recording_session.engine(trials=1000)
    ends = []
    engine.wait_for(lambda e: e.get("type") == "trialEnded" and e.get("ending") == "pressed-brain"
                    and ends.append(e) is None and len(ends) >= 3, 45, "three brain-pressed trials")
    if delay:
        time.sleep(delay)
    killed_at = time.monotonic()
    os.kill(engine.process.pid, signal.SIGKILL)
    engine.process.wait(timeout=10)
    while True:  # the events printed before the kill
        try:
            event = engine.events.get(timeout=2)
        except queue.Empty:
            break
        if event is None:
            break
        engine.seen.append(event)
    assert recording_session.decoder.error is None, recording_session.decoder.error
    last_end = ends[-1]

    name, path = only_recording(recording_session.root)
    match = OPEN_NAME.match(name)
    assert match and "\u2013" not in name and match.group(2) == "App started", name

    # trials: every trial ended before the kill is there and parses.
    trials = [json.loads(line) for line in complete_lines(os.path.join(path, "trials.jsonl"))]
    ended = [e["trial"] for e in engine.seen if e.get("type") == "trialEnded" and e["time"] <= last_end["time"]]
    assert ended and set(ended) <= {t["trial"] for t in trials}, (ended, trials)
    for t in trials:
        assert {"trial", "mode", "start_time", "start_wall_time", "end_time", "end_wall_time", "ending",
                "controls", "object_ids"} <= set(t), t
    by_number = {t["trial"]: t for t in trials}
    assert by_number[last_end["trial"]]["ending"] == "pressed-brain"
    assert by_number[last_end["trial"]]["pressed"] == last_end["pressed"]

    # presses: every press up to the last completed trial.
    presses = read_csv(os.path.join(path, "presses.csv"),
                       "time,wall_time,trial,control,object_id,source,certainty,target")
    pressed = [(e["trial"], e["control"]) for e in engine.seen if e.get("type") == "press" and e["time"] <= last_end["time"]]
    assert pressed and set(pressed) <= {(int(r[2]), r[3]) for r in presses}, (pressed, presses)
    assert all(r[5] == "brain" and float(r[6]) >= 0.9 for r in presses)

    # decoder: every message the decoder got that the engine sent before the trial ended, byte for byte.
    decoder = read_csv(os.path.join(path, "decoder.csv"), "time,wall_time,direction,id,hex")
    out = {r[4] for r in decoder if r[2] == "out"}
    end_ms = int(last_end["time"] * 1000)
    sent = [raw.hex() for stamp, raw in list(recording_session.decoder.received)
            if ((stamp - end_ms + 2**31) % 2**32) - 2**31 <= 0]
    assert sent, "the decoder received nothing"
    missing = [h for h in sent if h not in out]
    assert not missing, "%d of %d decoder messages missing, e.g. %s" % (len(missing), len(sent), missing[:3])
    assert any(r[2] == "in" and r[3] == "P" and float(r[0]) <= last_end["time"] for r in decoder)
    for r in decoder:
        raw = bytes.fromhex(r[4])
        assert chr(raw[0]) == r[3] and struct.unpack("<H", raw[2:4])[0] == len(raw) - 4

    # frames: they stop at most LOSS_BOUND_S + MARGIN_S before the kill.
    frames = read_csv(os.path.join(path, "frames.csv"), "index,deadline,time,wall_time,missed,trial,phase,states")
    assert len(frames) > 30
    loss = killed_at - float(frames[-1][2])
    print("frame lines stop %.1f ms before the kill (delay %.2f s)" % (loss * 1000, delay))
    assert loss <= LOSS_BOUND_S + MARGIN_S, "frame lines stop %.3f s before the kill" % loss
    flicker = [r for r in frames if r[6] == "f"]
    assert flicker and all(re.fullmatch(r"4b[0-9a-f]", r[7]) for r in flicker), flicker[:3]

    # events: complete lines parse; the settings snapshot is whole.
    events = [json.loads(line) for line in complete_lines(os.path.join(path, "events.jsonl"))]
    assert events[0]["type"] == "recordingStarted" and all("wall_time" in e and "time" in e for e in events)
    with open(os.path.join(path, "settings.json")) as f:
        assert json.load(f)["minTrialDuration"] == 0.3

    # the CLI sees it as open/crashed.
    listing = json.loads(noisetag("recordings", "list", "--json", "--recordings", recording_session.root))
    assert [(r["name"], r["end"], r["state"]) for r in listing] == [(name, None, "crashed")]
    assert listing[0]["trials"] >= len(ended) and listing[0]["presses"] >= len(pressed)
    assert "open/crashed" in noisetag("recordings", "list", "--recordings", recording_session.root)
    shown = json.loads(noisetag("recordings", "show", name[:19], "--json", "--recordings", recording_session.root))
    assert shown["state"] == "crashed" and shown["end"] is None
    assert shown["pressesBySource"]["brain"] >= len(pressed) and shown["trialsByMode"]["Test"] >= len(ended)

    # replay: every trial that ended before the kill runs again identically; it says the recording is crashed.
    report = json.loads(noisetag("replay", name[:19], "--json", "--recordings", recording_session.root))
    replayed = [t["trial"] for t in report["trials"]]
    assert report["open"] and set(ended) <= set(replayed), (ended, report)
    assert report["diverged"] == 0 and all(t["result"] == "identical" for t in report["trials"]), report
    assert report.get("unfinished_trial") in (None, max(replayed) + 1), report
    text = noisetag("replay", name[:19], "--recordings", recording_session.root)
    assert "(crashed: never closed)" in text and text.rstrip().endswith("%d identical, 0 diverged" % len(replayed)), text


def test_a_finished_demo_closes_its_recording_and_show_reads_it(recording_session):
    engine = recording_session.engine(trials=3)
    assert engine.process.wait(timeout=45) == 0, engine.stderr_text()
    name, path = only_recording(recording_session.root)
    match = CLOSED_NAME.match(name)
    assert match and match.group(2) == "App started" and match.group(3) == "App ended", name
    assert match.group(1) <= match.group(4)
    for file in ["events.jsonl", "decoder.csv", "frames.csv", "presses.csv", "trials.jsonl", "settings.json"]:
        assert os.path.getsize(os.path.join(path, file)) > 0, file
    listing = json.loads(noisetag("recordings", "list", "--json", "--recordings", recording_session.root))
    assert [(r["state"], r["end_reason"], r["trials"], r["presses"]) for r in listing] == [("closed", "App ended", 3, 3)]
    shown = json.loads(noisetag("recordings", "show", name, "--json", "--recordings", recording_session.root))
    assert shown["trialsByMode"] == {"Test": 3} and shown["pressesBySource"] == {"brain": 3}
    assert shown["frames"] > 0 and shown["decoderMessagesIn"] > 0 and shown["decoderDisconnects"] == 0
    text = noisetag("recordings", "show", name, "--recordings", recording_session.root)
    assert "trials:             3 (Test 3)" in text and "presses:            3 (brain 3)" in text


def test_an_unwritable_root_is_reported_and_the_demo_runs_on(recording_session):
    blocker = os.path.join(recording_session.folder, "not-a-folder")
    with open(blocker, "w") as f:
        f.write("a file where the recordings root should be\n")
    engine = recording_session.engine(trials=2, root=os.path.join(blocker, "recordings"))
    assert engine.process.wait(timeout=45) == 0, engine.stderr_text()
    assert "recording is off" in engine.stderr_text() and blocker in engine.stderr_text()
    while True:
        event = engine.events.get(timeout=5)
        if event is None:
            break
        engine.seen.append(event)
    problems = [e for e in engine.seen if e.get("type") == "recordingProblem"]
    assert problems and problems[0]["loggingOff"] is True and blocker in problems[0]["path"]
    assert len([e for e in engine.seen if e.get("type") == "trialEnded"]) == 2
