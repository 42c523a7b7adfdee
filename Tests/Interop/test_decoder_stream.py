"""`noisetag decoder stream`: a recording played into a running `noisetag
decoder` process as an acquisition client and an engine would — calibration
on the first trials, prediction on the rest — with the report checked for
consistency (the real fixture) and for accuracy (the simulator's easy data).

Every decoder is on a private ipc:// socket, every wait is bounded and
every process is ended whatever happens.
"""
import json
import os
import subprocess
import threading
import time
from contextlib import closing

import pytest

from interop_harness import collect_lines, stop_process, wait_for_text

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
FIXTURE = os.path.join(ROOT, "Tests", "Fixtures", "mindaffectBCI_exampledata.txt")


class Decoder:
    """`noisetag decoder` on a private socket, its output collected in a thread."""

    def __init__(self, binary, folder, *extra):
        self.endpoint = "ipc://%s/decoder.sock" % folder
        self.lines = []
        self.process = subprocess.Popen(
            [binary, "decoder", "--endpoint", self.endpoint, "--prediction-interval", "0.01", "--no-save", *extra],
            stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
        self.thread = threading.Thread(target=collect_lines, args=(self.process.stdout, self.lines), daemon=True)
        self.thread.start()
        if not wait_for_text(self.lines, "decoder listening", 20):
            self.close()
            raise AssertionError(self.lines)

    def close(self):
        stop_process(self.process)
        self.thread.join(5)


@pytest.fixture
def decoder(noisetag_bin, socket_folder):
    with closing(Decoder(noisetag_bin, socket_folder)) as running:
        yield running


def stream(binary, *arguments, timeout=300):
    return subprocess.run([binary, "decoder", "stream", *arguments], capture_output=True, text=True, timeout=timeout)


def check_consistent(report, trials, calibrating):
    assert report["trials"] == trials
    assert report["calibrationTrials"] == list(range(1, calibrating + 1))
    rows = report["predictionTrials"]
    assert [r["trial"] for r in rows] == list(range(calibrating + 1, trials + 1))
    pressed = [r for r in rows if r["pressed"] is not None]
    assert report["presses"] == len(pressed) <= len(rows)
    assert report["withoutPress"] == len(rows) - len(pressed)
    assert report["correct"] == sum(1 for r in pressed if r["pressed"] == r["target"]) <= report["presses"]
    if pressed:
        assert report["accuracy"] == pytest.approx(report["correct"] / report["presses"])
        assert report["meanSelectionSeconds"] == pytest.approx(sum(r["seconds"] for r in pressed) / len(pressed))
        assert all(0 < r["seconds"] <= 4.3 for r in pressed)
    else:
        assert report["accuracy"] is None and report["meanSelectionSeconds"] is None
    assert 0 < report["certainty"] < 1 and report["certaintySource"] == "decoder"
    assert any("cross-validated accuracy" in line for line in report["calibrationLog"]), report["calibrationLog"]
    assert any("recommended certaintyRequiredForPress" in line for line in report["calibrationLog"])


def test_the_mindaffect_recording_calibrates_on_half_and_predicts_the_rest(noisetag_bin, decoder):
    run = stream(noisetag_bin, FIXTURE, "--speed", "20", "--endpoint", decoder.endpoint, "--json")
    assert run.returncode == 0, run.stderr + "\n".join(decoder.lines[-20:])
    report = json.loads(run.stdout)
    print(json.dumps({k: v for k, v in report.items() if k != "predictionTrials"}, indent=1))
    check_consistent(report, trials=10, calibrating=5)
    assert all(r["predictions"] > 0 for r in report["predictionTrials"])
    assert any("cross-validated accuracy" in line for line in decoder.lines)


def test_a_60_hz_mains_is_found_live_as_offline(noisetag_bin, decoder, tmp_path):
    # The MindAffect session with a 60 Hz hum added to its continuous recording and trials alike: no line
    # frequency given, the live decoder finds it as decoder evaluate does, notches it, and presses right.
    import numpy as np
    folder = tmp_path / "ma60"
    made = subprocess.run([noisetag_bin, "dataset", "import", FIXTURE, "--out", str(folder)], capture_output=True, text=True,
                          timeout=120)
    assert made.returncode == 0, made.stderr
    header = json.loads((folder / "header.json").read_text())
    channels, length, rate = header["n_channels"], header["n_continuous"], header["fs"]
    continuous = np.fromfile(folder / "continuous.f32", dtype="<f4").reshape(channels, length)
    t = np.arange(length) / rate
    continuous += (40 * np.sin(2 * np.pi * 60 * t) * (1 + 0.3 * np.sin(2 * np.pi * 0.1 * t))).astype("<f4")
    continuous.astype("<f4").tofile(folder / "continuous.f32")
    onsets = np.fromfile(folder / "onsets.i32", dtype="<i4")
    n = header["n_samples"]
    np.stack([continuous[:, o:o + n] for o in onsets]).astype("<f4").tofile(folder / "X.f32")
    run = stream(noisetag_bin, str(folder), "--speed", "20", "--endpoint", decoder.endpoint, "--json")
    assert run.returncode == 0, run.stderr + "\n".join(decoder.lines[-20:])
    report = json.loads(run.stdout)
    assert any(line.startswith("decoder: mains found at 60 Hz in the first ") for line in report["calibrationLog"]), \
        report["calibrationLog"]
    check_consistent(report, trials=10, calibrating=5)
    assert report["presses"] >= 3 and report["correct"] == report["presses"], report


def test_channels_left_out_at_import_never_reach_the_decoder(noisetag_bin, decoder):
    run = stream(noisetag_bin, FIXTURE, "--speed", "20", "--endpoint", decoder.endpoint, "--json", "--drop-channels", "4")
    assert run.returncode == 0, run.stderr + "\n".join(decoder.lines[-20:])
    check_consistent(json.loads(run.stdout), trials=10, calibrating=5)
    assert any("EEG: 3 channels at " in line for line in decoder.lines), decoder.lines[-20:]
    assert not any("EEG: 4 channels at " in line for line in decoder.lines)


def test_a_settings_file_sets_the_decoder_and_its_options_win(noisetag_bin, socket_folder, tmp_path):
    settings = tmp_path / "decoder.json"
    settings.write_text(json.dumps({"targetErrorRate": 0.02, "idlePressesPerMinute": 10, "predictionInterval": 5}))
    with closing(Decoder(noisetag_bin, socket_folder, "--settings", str(settings))) as decoder:
        run = stream(noisetag_bin, FIXTURE, "--speed", "20", "--endpoint", decoder.endpoint, "--json")
        assert run.returncode == 0, run.stderr + "\n".join(decoder.lines[-20:])
    report = json.loads(run.stdout)
    check_consistent(report, trials=10, calibrating=5)
    # The file's budgets reached the calibration; --prediction-interval 0.01 won over its 5 s.
    assert any("(target error rate 2 %, 10 idle presses a minute)" in line for line in report["calibrationLog"]), \
        report["calibrationLog"]
    assert all(r["predictions"] >= 5 for r in report["predictionTrials"]), report["predictionTrials"]


def test_a_simulated_dataset_is_pressed_correctly(noisetag_bin, decoder, tmp_path):
    folder = str(tmp_path / "sim9")
    made = subprocess.run([noisetag_bin, "decoder", "simulate", "--out", folder, "--classes", "9", "--trials", "30",
                           "--seed", "4"], capture_output=True, text=True, timeout=300)
    assert made.returncode == 0, made.stderr
    run = stream(noisetag_bin, folder, "--speed", "20", "--endpoint", decoder.endpoint, "--calibration-trials", "15")
    assert run.returncode == 0, run.stderr
    print(run.stdout)
    lines = run.stdout.splitlines()
    assert lines[0].startswith("streaming %s" % folder) and "cut trials with 1 s rests" in lines[0]
    assert sum(1 for line in lines if line.startswith("trial ")) == 15
    assert any("cross-validated accuracy" in line for line in lines)
    summary = lines[-1]
    assert summary.startswith("15 prediction trials after 15 calibration trials: ")
    presses = int(summary.split(": ")[1].split(" presses")[0])
    correct = int(summary.split(" presses, ")[1].split(" correct")[0])
    assert presses >= 8 and correct >= 0.8 * presses, summary


def test_no_decoder_is_one_line_and_exit_1(noisetag_bin, socket_folder):
    started = time.monotonic()
    run = stream(noisetag_bin, FIXTURE, "--endpoint", "ipc://%s/nobody.sock" % socket_folder, timeout=60)
    assert run.returncode == 1
    assert run.stderr.strip().splitlines() == ["Error: no decoder answered at ipc://%s/nobody.sock within 5 s: "
                                               "start one with `noisetag decoder`" % socket_folder]
    assert time.monotonic() - started < 30


def test_bad_options_and_bad_files(noisetag_bin, socket_folder, tmp_path):
    endpoint = "ipc://%s/nobody.sock" % socket_folder
    for arguments in (["--speed", "0.5"], ["--calibration-trials", "1"], ["--certainty", "1.5"], ["--label", "x"]):
        run = stream(noisetag_bin, FIXTURE, "--endpoint", endpoint, *arguments, timeout=60)
        assert run.returncode == 64, (arguments, run.stderr)
    run = stream(noisetag_bin, FIXTURE, "--endpoint", endpoint, "--calibration-trials", "10", timeout=60)
    # Too many for this file: one line about the file, not the usage of another command.
    assert run.returncode == 1 and run.stderr.strip().splitlines() == [
        "Error: --calibration-trials 10: %s has 10 trials; at most 9 calibrate so that one is predicted" % FIXTURE], run.stderr
    junk = tmp_path / "junk.bin"
    junk.write_bytes(b"\x00\x01 nothing")
    run = stream(noisetag_bin, str(junk), "--endpoint", endpoint, timeout=60)
    assert run.returncode == 1
    assert run.stderr.strip().splitlines() == ["Error: junk.bin: not a format noisetag imports "
                                               "(XDF, BDF, EDF, BrainVision .vhdr, BIDS, MindAffect savefile, "
                                               "NumPy .npz or MAT-file epochs)"]


def test_a_decoder_that_dies_midway_is_one_line_and_exit_1(noisetag_bin, decoder):
    player = subprocess.Popen([noisetag_bin, "decoder", "stream", FIXTURE, "--endpoint", decoder.endpoint],
                              stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        time.sleep(3)
        decoder.process.kill()
        _, stderr = player.communicate(timeout=30)
        assert player.returncode == 1
        assert stderr.strip().splitlines() == ["Error: the decoder at %s stopped answering (nothing heard for 3 s)"
                                               % decoder.endpoint]
    finally:
        if player.poll() is None:
            player.kill()
            player.wait(5)


def test_a_stream_stopped_by_a_signal_resets_the_decoder(noisetag_bin, decoder):
    # Stopped mid-calibration, the stream tells the decoder RESET: the next client does not get a model fitted
    # on another recording's trials.
    process = subprocess.Popen([noisetag_bin, "decoder", "stream", FIXTURE, "--speed", "4", "--calibration-trials", "9",
                                "--endpoint", decoder.endpoint], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        assert wait_for_text(decoder.lines, "EEG: 4 channels", 20), decoder.lines
        time.sleep(6)
        process.send_signal(2)
        out, err = process.communicate(timeout=20)
    finally:
        stop_process(process)
    assert process.returncode == 130, (out, err)
    assert err.strip().splitlines()[-1] == ("noisetag decoder stream: stopped by a signal: the decoder was sent a RESET "
                                            "and forgets this stream's calibration"), err
    assert wait_for_text(decoder.lines, "RESET: calibration data and model forgotten", 10), decoder.lines[-10:]
