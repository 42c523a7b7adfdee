"""Fixtures for the decoder-bridge interop tests.

- `noisetag_bin`: the release `noisetag` binary, from NOISETAG_BIN or built
  with `swift build -c release --product noisetag`.
- `socket_folder`: a private (0700) temporary folder, short enough for a Unix
  socket path, holding `decoder.sock` and the processes' stderr files.
- `interop`: starts decoders and engines for one test and ends every one of
  them at teardown, whatever happened.
- `tmux`: a private tmux server driving one pane, killed at teardown.

Run side by side (`make test`: `pytest -n 3 --dist loadgroup`), each test
file is one group, so a module fixture is set up once; the files that use
the session-wide `demo_session` (a headless study session of about 80 s)
share one group, so it runs once.
"""
import json
import os
import shutil
import subprocess
import tempfile
from contextlib import closing

import pytest

from interop_harness import InteropSession
from tmux_pane import Tmux

DEMO_SESSION_FILES = {"test_bids_export.py", "test_session.py", "test_session_report.py"}


@pytest.hookimpl(tryfirst=True)   # before pytest-xdist reads the groups
def pytest_collection_modifyitems(config, items):
    for item in items:
        name = os.path.basename(str(item.fspath))
        item.add_marker(pytest.mark.xdist_group("demo_session" if name in DEMO_SESSION_FILES else name))


ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


@pytest.fixture(scope="session", autouse=True)
def private_noisetag_home():
    """Engines started by these tests record into a temporary NOISETAG_HOME, never the user's."""
    home = tempfile.mkdtemp(prefix="nt-home-")
    previous = os.environ.get("NOISETAG_HOME")
    os.environ["NOISETAG_HOME"] = home
    try:
        yield home
    finally:
        if previous is None:
            os.environ.pop("NOISETAG_HOME", None)
        else:
            os.environ["NOISETAG_HOME"] = previous
        shutil.rmtree(home, ignore_errors=True)


@pytest.fixture(scope="session")
def noisetag_bin():
    path = os.environ.get("NOISETAG_BIN")
    if path:
        if not (os.path.isfile(path) and os.access(path, os.X_OK)):
            pytest.fail("NOISETAG_BIN=%s is not an executable file" % path)
        return path
    swift = os.environ.get("SWIFT", "swift")
    build = subprocess.run([swift, "build", "-c", "release", "--product", "noisetag"], cwd=ROOT,
                           stdout=subprocess.PIPE, stderr=subprocess.STDOUT, timeout=1800)
    if build.returncode != 0:
        pytest.fail("swift build -c release --product noisetag failed:\n%s"
                    % build.stdout.decode(errors="replace")[-4000:])
    bin_path = subprocess.run([swift, "build", "-c", "release", "--show-bin-path"], cwd=ROOT,
                              stdout=subprocess.PIPE, check=True, timeout=300).stdout.decode().strip()
    return os.path.join(bin_path, "noisetag")


@pytest.fixture(scope="session")
def dataset(noisetag_bin, tmp_path_factory):
    """A seeded simulated trials dataset (9 classes, 45 trials) for the decoder's command-line tests."""
    folder = str(tmp_path_factory.mktemp("sim") / "sim9")
    run = subprocess.run([noisetag_bin, "decoder", "simulate", "--out", folder, "--classes", "9", "--trials", "45",
                          "--seed", "4"], capture_output=True, text=True, timeout=300)
    assert run.returncode == 0, run.stderr
    return folder


@pytest.fixture
def socket_folder():
    folder = tempfile.mkdtemp(prefix="nt-", dir="/tmp")  # mode 0700; /tmp keeps the socket path short
    try:
        yield folder
    finally:
        shutil.rmtree(folder, ignore_errors=True)


@pytest.fixture
def interop(noisetag_bin, socket_folder):
    with closing(InteropSession(noisetag_bin, socket_folder)) as session:
        yield session


class StudySession:
    """One headless run of Examples/protocols/demo-session.json, killed with SIGKILL
    during its copy-spelling step (after calibration) and resumed: what several
    test files read (the session folder, both runs' output)."""

    def __init__(self, folder, first, resumed, wall_seconds, concurrent, live_export):
        self.folder = folder            # the session folder
        self.live_export = live_export  # CompletedProcess of a BIDS export tried while the first run was live
        self.concurrent = concurrent    # CompletedProcess of a --resume tried while the first run was live
        self.first = first              # stdout of the run that was killed
        self.resumed = resumed          # CompletedProcess of the --resume run
        self.wall_seconds = wall_seconds


# The demo session runs its embedded decoder on these settings (`session run --decoder-settings`): predictions
# every 0.2 s instead of 0.1 s, which its recordings show, before and after --resume.
DEMO_SESSION_DECODER_SETTINGS = {"predictionInterval": 0.2, "idlePressesPerMinute": 0.05}


@pytest.fixture(scope="session")
def demo_session(noisetag_bin):
    import signal
    import time
    root = tempfile.mkdtemp(prefix="nt-session-")
    protocol = os.path.join(ROOT, "Examples", "protocols", "demo-session.json")
    out_path = os.path.join(root, "first.out")
    started = time.monotonic()
    decoder_settings = os.path.join(root, "decoder.json")
    with open(decoder_settings, "w") as f:
        json.dump(DEMO_SESSION_DECODER_SETTINGS, f)
    with open(out_path, "wb") as out:
        process = subprocess.Popen([noisetag_bin, "session", "run", protocol, "--headless", "--participant", "P01",
                                    "--recordings", os.path.join(root, "rec"), "--decoder-settings", decoder_settings],
                                   stdout=out, stderr=subprocess.STDOUT)
    try:
        deadline = time.monotonic() + 300
        while time.monotonic() < deadline and process.poll() is None:
            with open(out_path, "rb") as f:
                if b"of 6: copySpell" in f.read():
                    break
            time.sleep(0.2)
        time.sleep(1.0)         # into the copy-spelling step: it has begun, not ended
        assert process.poll() is None, open(out_path, "rb").read().decode()[-3000:]
        sessions = [n for n in os.listdir(os.path.join(root, "rec")) if " session P01" in n]
        # A second run of the live session is refused: two would both write its results and recordings.
        concurrent = subprocess.run([noisetag_bin, "session", "run", "--resume", os.path.join(root, "rec", sessions[0]), "--headless"],
                                    stdout=subprocess.PIPE, stderr=subprocess.PIPE, timeout=60)
        # An export of it would hold its first steps only, and block the whole one later.
        live_export = subprocess.run([noisetag_bin, "recordings", "export", os.path.join(root, "rec", sessions[0]), "--bids",
                                      os.path.join(root, "bids-live"), "--subject", "01"], capture_output=True, timeout=60)
        process.send_signal(signal.SIGKILL)
        process.wait(timeout=30)
    finally:
        if process.poll() is None:
            process.kill()
            process.wait(timeout=30)
    first = open(out_path, "rb").read().decode()
    sessions = [n for n in os.listdir(os.path.join(root, "rec")) if " session P01" in n]
    assert len(sessions) == 1, sessions
    folder = os.path.join(root, "rec", sessions[0])
    resumed = subprocess.run([noisetag_bin, "session", "run", "--resume", folder, "--headless"],
                             stdout=subprocess.PIPE, stderr=subprocess.PIPE, timeout=300)
    try:
        yield StudySession(folder, first, resumed, time.monotonic() - started, concurrent, live_export)
    finally:
        shutil.rmtree(root, ignore_errors=True)


@pytest.fixture
def tmux():
    if shutil.which("tmux") is None:
        pytest.fail("tmux is not installed (make test installs it: apt-get install -y tmux)")
    pane = Tmux()
    try:
        yield pane
    finally:
        pane.stop()
