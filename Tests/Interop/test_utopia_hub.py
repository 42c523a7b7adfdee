"""The engine as a presentation client of MindAffect's own Utopia hub (Java,
from mindaffectBCI 0.9.24), with a decoder written with MindAffect's
client library: `utopia://` reaches the hub over TCP, brain presses follow
the foreign decoder's predictions, and a hub restart mid-session is
survived. The scenario runs in a network namespace with loopback only
(hub_scenario.py); the whole namespace is killed at the time limit."""
import json
import os
import shutil
import subprocess
import sys

import pytest

HERE = os.path.dirname(os.path.abspath(__file__))


def needs(tool):
    if shutil.which(tool) is None:
        pytest.skip("%s is not installed (make test installs it)" % tool)


def test_engine_presses_by_a_foreign_decoder_through_mindaffects_hub_and_survives_its_restart(noisetag_bin, tmp_path):
    needs("java")
    needs("unshare")
    result = subprocess.run(["unshare", "-n", sys.executable, os.path.join(HERE, "hub_scenario.py"),
                             "--noisetag", noisetag_bin, "--folder", str(tmp_path), "--trials", "6", "--controls", "4"],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, timeout=240)
    assert result.returncode == 0, result.stderr.decode()[-3000:]
    report = json.loads(result.stdout.decode().strip().split("\n")[-1])
    stderr = (tmp_path / "engine.stderr").read_text() if (tmp_path / "engine.stderr").exists() else ""
    assert not report["problems"], report["problems"]
    assert report["exit"] == 0, stderr[-2000:]
    events = report["events"]
    ended = [e for e in events if e["type"] == "trialEnded"]
    presses = [e for e in events if e["type"] == "press"]
    # Six brain presses; a trial running when the hub went silent stops with stopped-decoderLost.
    assert [e["ending"] for e in ended].count("pressed-brain") == 6, ended
    assert all(e["ending"] in ("pressed-brain", "stopped-decoderLost") for e in ended), ended
    # Each press is the object of the foreign decoder's last confident prediction before it
    # (both sides stamp with CLOCK_MONOTONIC: the engine's time and Python's time.monotonic()).
    confident = [(t, target) for t, target, perr in report["predictions"] if perr < 0.01]
    for press in presses:
        before = [target for t, target in confident if t <= press["time"]]
        assert before and press["objectID"] == before[-1], (press, confident[-5:])
    assert len({p["objectID"] for p in presses}) > 1, presses     # the decoder chose, not a fixed object
    # The hub went away and came back: the engine said so, and carried on.
    states = [e["state"] for e in events if e["type"] == "decoderConnection"]
    assert report["hub_restarted"] and states[:2] == ["connecting", "connected"], states
    assert "disconnected" in states and states[-1] == "connected", states
    assert report["client_connections"] >= 2
    problems = [e["value"] for e in events if e["type"] == "decoderProblem"]
    assert any("Utopia hub 127.0.0.1:8400" in p for p in problems), problems
    print("presses through MindAffect's hub: %d in %d trials, connection states %s" % (len(presses), len(ended), states))
