"""`noisetag decoder --curve` as a remote decoder's operator runs it, checked
with pyzmq: a DEALER whose public key is in $NOISETAG_HOME/keys/authorized_keys
gets the decoder's HEARTBEAT; one with an unlisted key or without CURVE gets
nothing. Key files are private and reused; a bad one is one line and exit 1;
a plain tcp:// bind other machines can reach warns on stderr. `noisetag demo
--decoder-key` connects with an engine key pyzmq made when it is listed, and
fails in one line naming its key when it is not.

Every wait is bounded; every process is ended at teardown."""
import os
import re
import signal
import socket
import stat
import struct
import subprocess
import threading
import time

import pytest
import zmq


def free_tcp_port():
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def heartbeat_frame():
    """A HEARTBEAT version 0: id 'H', version 0, payload length 4, int32 timestamp."""
    return b"H\x00\x04\x00" + struct.pack("<i", int(time.monotonic() * 1000) & 0x7FFFFFFF)


class Decoder:
    """`noisetag decoder` in its own process, its stdout read line by line in a thread."""

    started = 0

    def __init__(self, binary, home, *args):
        env = dict(os.environ, NOISETAG_HOME=str(home))
        Decoder.started += 1
        self.stderr_path = os.path.join(str(home), "decoder-%d.stderr" % Decoder.started)
        with open(self.stderr_path, "wb") as stderr:
            self.process = subprocess.Popen([binary, "decoder", *args, "--no-save"], env=env, stdin=subprocess.DEVNULL,
                                            stdout=subprocess.PIPE, stderr=stderr)
        self.lines = []
        self._cond = threading.Condition()
        self._thread = threading.Thread(target=self._read, daemon=True)
        self._thread.start()

    def _read(self):
        for raw in iter(self.process.stdout.readline, b""):
            with self._cond:
                self.lines.append(raw.decode(errors="replace").rstrip("\n"))
                self._cond.notify_all()
        with self._cond:
            self.lines.append(None)  # the stream ended
            self._cond.notify_all()

    def wait_line(self, pattern, timeout):
        """The first match of `pattern` in a stdout line within `timeout` seconds, else a failure showing the lines."""
        deadline = time.monotonic() + timeout
        with self._cond:
            while True:
                for line in self.lines:
                    match = line is not None and re.search(pattern, line)
                    if match:
                        return match
                remaining = deadline - time.monotonic()
                if remaining <= 0 or (self.lines and self.lines[-1] is None):
                    raise AssertionError("waited %.1f s for %r; stdout:\n%s\nstderr:\n%s"
                                         % (timeout, pattern, "\n".join(l for l in self.lines if l), self.stderr()))
                self._cond.wait(remaining)

    def stderr(self):
        with open(self.stderr_path, "rb") as handle:
            return handle.read().decode(errors="replace")

    def stop(self):
        """SIGTERM, then SIGKILL after 5 s; the exit status."""
        if self.process.poll() is None:
            self.process.send_signal(signal.SIGTERM)
            try:
                self.process.wait(5)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait(5)
        self._thread.join(2)
        self.process.stdout.close()
        return self.process.returncode


@pytest.fixture
def start(noisetag_bin):
    """Starts decoders for one test and stops every one of them at teardown."""
    started = []

    def run(home, *args):
        decoder = Decoder(noisetag_bin, home, *args)
        started.append(decoder)
        return decoder

    yield run
    for decoder in started:
        decoder.stop()


@pytest.fixture
def context():
    ctx = zmq.Context()
    yield ctx
    ctx.destroy(linger=0)


def dealer(ctx, endpoint, server_key=None, keypair=None):
    """A DEALER, with CURVE when `server_key` is given, connected to `endpoint`."""
    sock = ctx.socket(zmq.DEALER)
    sock.linger = 0
    if server_key is not None:
        public, secret = keypair
        sock.curve_publickey = public
        sock.curve_secretkey = secret
        sock.curve_serverkey = server_key
    sock.connect(endpoint)
    return sock


def heartbeat_within(sock, seconds):
    """Says hello with a HEARTBEAT, then receives for at most `seconds`:
    the frames received, up to the first HEARTBEAT."""
    try:
        sock.send(heartbeat_frame(), zmq.DONTWAIT)   # queued until the connection is made
    except zmq.Again:
        pass
    frames = []
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if sock.poll(50, zmq.POLLIN):
            frame = sock.recv()
            frames.append(frame)
            if frame[:1] == b"H":
                return frames
    return frames


def private_home(tmp_path, authorized=()):
    """A NOISETAG_HOME whose keys/authorized_keys lists `authorized` (Z85 bytes)."""
    home = tmp_path / "home"
    keys = home / "keys"
    keys.mkdir(parents=True, mode=0o700)
    path = keys / "authorized_keys"
    path.write_text("# test clients\n" + "".join("%s test-client-%d\n" % (key.decode(), i) for i, key in enumerate(authorized)))
    path.chmod(0o600)
    return home


def test_an_authorized_key_gets_the_heartbeat_and_others_get_nothing(start, context, tmp_path):
    listed = zmq.curve_keypair()
    unlisted = zmq.curve_keypair()
    home = private_home(tmp_path, [listed[0]])
    endpoint = "tcp://127.0.0.1:%d" % free_tcp_port()
    decoder = start(home, "--curve", "--endpoint", endpoint)
    server_key = decoder.wait_line(r"^decoder public key: (\S{40})$", 20).group(1).encode()
    decoder.wait_line(r"^authorized client keys: 1 in ", 5)
    decoder.wait_line(r"^decoder listening on %s with CURVE" % re.escape(endpoint), 20)

    keys = home / "keys"
    assert (keys / "decoder.pub").read_text().split()[0].encode() == server_key
    assert stat.S_IMODE(os.stat(keys / "decoder.key").st_mode) == 0o600
    assert zmq.curve_public(next(l for l in (keys / "decoder.key").read_text().splitlines()
                                 if not l.startswith("#")).encode()) == server_key

    engine = dealer(context, endpoint, server_key, listed)
    frames = heartbeat_within(engine, 10)
    assert frames and frames[-1][:1] == b"H", frames

    intruder = dealer(context, endpoint, server_key, unlisted)
    assert heartbeat_within(intruder, 2) == []
    decoder.wait_line(r"CURVE refused client key %s" % re.escape(unlisted[0].decode()), 5)

    plain = dealer(context, endpoint)
    assert heartbeat_within(plain, 2) == []

    assert decoder.stop() == 0
    assert "warning" not in decoder.stderr()


def test_the_key_pair_is_made_once_and_reused(start, tmp_path):
    home = private_home(tmp_path)
    endpoint = "tcp://127.0.0.1:%d" % free_tcp_port()
    first = start(home, "--curve", "--endpoint", endpoint)
    key = first.wait_line(r"^decoder public key: (\S{40})$", 20).group(1)
    first.wait_line(r"new key pair written to .*decoder\.key", 5)
    first.wait_line(r"^authorized client keys: 0 in .*none yet", 5)
    first.wait_line(r"^decoder listening on ", 20)
    assert first.stop() == 0
    secret = (home / "keys" / "decoder.key").read_bytes()

    again = start(home, "--curve", "--endpoint", endpoint)
    assert again.wait_line(r"^decoder public key: (\S{40})$", 20).group(1) == key
    again.wait_line(r"key pair from .*decoder\.key", 5)
    again.wait_line(r"^decoder listening on ", 20)
    assert again.stop() == 0
    assert (home / "keys" / "decoder.key").read_bytes() == secret


def test_a_secret_key_others_can_read_is_one_line_and_exit_1(noisetag_bin, tmp_path):
    home = private_home(tmp_path)
    public, secret = zmq.curve_keypair()
    key_file = home / "keys" / "decoder.key"
    key_file.write_text(secret.decode() + "\n")
    key_file.chmod(0o644)
    run = subprocess.run([noisetag_bin, "decoder", "--curve", "--endpoint", "tcp://127.0.0.1:%d" % free_tcp_port()],
                         env=dict(os.environ, NOISETAG_HOME=str(home)), stdin=subprocess.DEVNULL,
                         capture_output=True, text=True, timeout=30)
    assert run.returncode == 1, run
    lines = run.stderr.strip().splitlines()
    assert len(lines) == 1, run.stderr
    assert str(key_file) in lines[0] and "mode 0644" in lines[0], lines[0]


def test_a_plain_tcp_bind_for_other_machines_warns_on_stderr(start, tmp_path):
    home = private_home(tmp_path)
    exposed = start(home, "--endpoint", "tcp://0.0.0.0:%d" % free_tcp_port())
    exposed.wait_line(r"^decoder listening on ", 20)
    assert exposed.stop() == 0
    warning = exposed.stderr()
    assert "warning" in warning and "without CurveZMQ" in warning and "--curve" in warning, warning

    local = start(home, "--endpoint", "tcp://127.0.0.1:%d" % free_tcp_port())
    local.wait_line(r"^decoder listening on ", 20)
    assert local.stop() == 0
    assert local.stderr() == ""


def engine_home(tmp_path, name, keypair):
    """A NOISETAG_HOME for the engine holding `keypair` as keys/engine.key (mode 0600), as pyzmq made it."""
    home = tmp_path / name
    keys = home / "keys"
    keys.mkdir(parents=True, mode=0o700)
    secret = keys / "engine.key"
    fd = os.open(str(secret), os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    with os.fdopen(fd, "w") as handle:
        handle.write("# made by pyzmq\n%s\n" % keypair[1].decode())
    return home


def test_the_demo_engine_connects_with_decoder_key_only_when_listed(noisetag_bin, start, tmp_path):
    listed = zmq.curve_keypair()
    unlisted = zmq.curve_keypair()
    endpoint = "tcp://127.0.0.1:%d" % free_tcp_port()
    # A decoder key that begins with "-=" (one in 85² do), so that --decoder-key must take it as its value: a
    # parser reads "-=…" as an option of its own (a run failed on one), "-4…" only when the option does not take it.
    home = private_home(tmp_path, [listed[0]])
    dash_public, dash_secret = next(pair for pair in iter(zmq.curve_keypair, None) if pair[0].startswith(b"-="))
    key_file = home / "keys" / "decoder.key"
    key_file.write_text(dash_secret.decode() + "\n")
    key_file.chmod(0o600)
    decoder = start(home, "--curve", "--endpoint", endpoint)
    decoder.wait_line(r"^decoder listening on ", 20)
    server_key = decoder.wait_line(r"^decoder public key: (\S{40})$", 5).group(1)
    assert server_key == dash_public.decode()
    settings = tmp_path / "settings.json"
    settings.write_text('{"maxTestTrialDuration": 1.0, "timeInBetweenTrials": 0.2}')

    def demo(home):
        return subprocess.run([noisetag_bin, "demo", "--headless", "--decoder", endpoint, "--decoder-key", server_key,
                               "--trials", "1", "--controls", "2", "--settings", str(settings), "--connect-timeout", "3",
                               "--max-seconds", "30", "--recordings", str(tmp_path / "recordings")],
                              env=dict(os.environ, NOISETAG_HOME=str(home)), stdin=subprocess.DEVNULL,
                              capture_output=True, text=True, timeout=60)

    accepted = demo(engine_home(tmp_path, "engine-listed", listed))
    assert accepted.returncode == 0, accepted.stderr
    assert "engine public key: %s" % listed[0].decode() in accepted.stdout
    assert "decoder connected" in accepted.stdout

    refused = demo(engine_home(tmp_path, "engine-unlisted", unlisted))
    assert refused.returncode == 1, refused
    lines = refused.stderr.strip().splitlines()
    assert len(lines) == 1 and "no decoder answered" in lines[0] and unlisted[0].decode() in lines[0], refused.stderr
    decoder.wait_line(r"CURVE refused client key %s" % re.escape(unlisted[0].decode()), 5)
