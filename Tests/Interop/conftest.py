"""Fixtures for the decoder-bridge interop tests.

- `noisetag_bin`: the release `noisetag` binary, from NOISETAG_BIN or built
  with `swift build -c release --product noisetag`.
- `socket_folder`: a private (0700) temporary folder, short enough for a Unix
  socket path, holding `decoder.sock` and the processes' stderr files.
- `interop`: starts decoders and engines for one test and ends every one of
  them at teardown, whatever happened.
"""
import os
import shutil
import subprocess
import tempfile

import pytest

from interop_harness import InteropSession

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


@pytest.fixture
def socket_folder():
    folder = tempfile.mkdtemp(prefix="nt-", dir="/tmp")  # mode 0700; /tmp keeps the socket path short
    try:
        yield folder
    finally:
        shutil.rmtree(folder, ignore_errors=True)


@pytest.fixture
def interop(noisetag_bin, socket_folder):
    session = InteropSession(noisetag_bin, socket_folder)
    try:
        yield session
    finally:
        session.close()
