"""`noisetag recordings export --bids` read back by MNE-BIDS and by
`noisetag dataset import`.

The demo protocol's session (conftest's `demo_session`: calibration on the
embedded decoder, killed while copy-spelling, resumed) records the EEG the
decoder consumed (`decoder-input.csv`). Its training recording is exported
as BIDS-EEG, and:

- `mne_bids.read_raw_bids` reads it: the DATAHEADER's channel names and
  rate, n_times / sfreq within 1 s of the decoder's EEG span (the last BDF
  record is padded), the samples equal to decoder-input.csv's within the BDF
  quantisation step, and annotations at every trial's flicker start and
  every press (engine time less the first sample's time, within a frame and
  a sample).
- `noisetag dataset import` reads the BIDS folder without codes (the
  stimulus file gives V): the same trials, labels, V and X (within the
  quantisation step) as the decoder's own calibration dataset saved in
  SESSION/decoder-calibrations.

The whole session folder is exported as one run: every step's start and
end and every press as events at their times, the gap left by the kill
filled and marked.

The export and read-back times are printed (run with -s), never asserted.
"""
import csv
import glob
import json
import os
import re
import struct
import subprocess
import time
from pathlib import Path

import numpy as np
import pytest

mne_bids = pytest.importorskip("mne_bids")
import mne  # noqa: E402  (after the skip: mne-bids brings it)

TARGET = r"^target=\d+$"
LABEL = r"^target=(\d+)$"


def run(binary, *args, timeout=120):
    return subprocess.run([binary, *args], stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                          stderr=subprocess.PIPE, timeout=timeout)


@pytest.fixture(scope="module")
def demo(demo_session):
    """The demo protocol's session (conftest: calibration, a SIGKILL while copy-spelling, resumed):
    its folder and the training recording that holds the calibration."""
    rec = Path(demo_session.folder)
    training = [n for n in os.listdir(rec) if re.match(r"^\S+ \S+ [+-]\d{4} training", n)]
    assert len(training) == 1, os.listdir(rec)
    return rec, rec / training[0]


def decoder_eeg(folder):
    """The DATAHEADER and every DATAPACKET of decoder-input.csv: labels, rate,
    samples (channels × n) and the first sample's engine time (s)."""
    labels, fs, rows, first = None, None, [], None
    with open(folder / "decoder-input.csv") as f:
        for row in csv.DictReader(f):
            frame = bytes.fromhex(row["hex"])
            payload = frame[4:]
            if row["id"] == "A" and labels is None:
                _, channels, fs = struct.unpack("<iif", payload[:12])
                labels = payload[12:].decode().split(", ")
            elif row["id"] == "D":
                stamp, n = struct.unpack("<ii", payload[:8])
                block = np.frombuffer(payload[8:], dtype="<f4").reshape(n, -1)
                if first is None:
                    # The stamp is the last sample's wire ms (wrapping int32): unwrap near the row's time.
                    ms = float(row["time"]) * 1000
                    last = stamp + round((ms - stamp) / 2**32) * 2**32
                    first = (last - (n - 1) * 1000 / fs) / 1000
                rows.append(block)
    return labels, fs, np.concatenate(rows).T, first


def complete_lines(path):
    with open(path, "rb") as f:
        return [line.decode() for line in f.read().split(b"\n")[:-1]]


def load_dataset(folder):
    header = json.loads(open(os.path.join(folder, "header.json")).read())
    X = np.fromfile(os.path.join(folder, "X.f32"), dtype="<f4").reshape(header["n_trials"], header["n_channels"], header["n_samples"])
    y = np.fromfile(os.path.join(folder, "y.i32"), dtype="<i4")
    V = np.fromfile(os.path.join(folder, "V.u8"), dtype="u1").reshape(header["n_classes"], header["n_samples"])
    return header, X, y, V


def test_export_reads_back_in_mne_bids_and_as_the_decoders_calibration(noisetag_bin, demo, tmp_path):
    rec, training = demo
    bids = tmp_path / "bids"
    started = time.monotonic()
    result = run(noisetag_bin, "recordings", "export", str(training), "--bids", str(bids), "--subject", "01")
    exported = time.monotonic() - started
    out = result.stdout.decode()
    assert result.returncode == 0, out + result.stderr.decode()
    # The SIGKILL cut this recording: the EEG rows written a tick after the last press never reached it.
    warnings = [line for line in out.splitlines() if "warning" in line]
    assert all("events outside the EEG left out" in line for line in warnings), out

    started = time.monotonic()
    path = mne_bids.BIDSPath(root=bids, subject="01", task="cvep", datatype="eeg", suffix="eeg", extension=".bdf")
    raw = mne_bids.read_raw_bids(path, verbose="error")
    data = raw.get_data() * 1e6   # V → µV
    read = time.monotonic() - started
    size = sum(os.path.getsize(f) for f in glob.glob(str(bids / "**" / "*"), recursive=True) if os.path.isfile(f))
    print("\nexport %.2f s, read_raw_bids %.2f s, %.1f s of EEG, %.2f MB" % (exported, read, raw.n_times / raw.info["sfreq"], size / 1e6))

    labels, fs, samples, first = decoder_eeg(training)
    assert raw.ch_names == labels and raw.info["sfreq"] == fs
    n = samples.shape[1]
    assert abs(raw.n_times / raw.info["sfreq"] - n / fs) < 1.0
    sidecar = json.loads((bids / "sub-01" / "eeg" / "sub-01_task-cvep_eeg.json").read_text())
    step = sidecar["NoiseTagging"]["QuantisationStepMicrovolts"]
    assert sidecar["RecordingDuration"] == n / fs and step < 1e-3
    assert np.abs(data[:, :n] - samples).max() <= step / 2 + 1e-6 * np.abs(samples).max()

    onsets = {}
    for onset, description in zip(raw.annotations.onset, raw.annotations.description):
        onsets.setdefault(description, []).append(onset)
    slack = 1 / 60 + 1 / fs + 0.002
    trials = [json.loads(line) for line in complete_lines(training / "trials.jsonl")]
    flickering = [t for t in trials if "flicker_time" in t]
    trial_onsets = sorted(onsets["trial"])
    last_end = max(t["end_time"] for t in flickering) - first
    owned = [onset for onset in trial_onsets if onset <= last_end]
    assert len(owned) == len(flickering) >= 10
    # A flicker no trial of this recording owns can only be the next recording's first trial, whose stimulus
    # reached the decoder before this recording closed (how much of it does depends on timing): at most one,
    # after the last trial ended.
    assert len(trial_onsets) - len(owned) <= 1 and all(onset > last_end for onset in trial_onsets[len(owned):])
    for trial, onset in zip(flickering, owned):
        assert abs(onset - (trial["flicker_time"] - first)) <= slack, (trial["trial"], onset, trial["flicker_time"] - first)
        if "target_object_id" in trial:
            assert any(abs(o - onset) < 1e-9 for o in onsets["target=%d" % trial["target_object_id"]])

    # Read back as a trials dataset without codes, compared with the decoder's own calibration.
    dataset = tmp_path / "dataset"
    result = run(noisetag_bin, "dataset", "import", str(bids / "sub-01"), "--out", str(dataset),
                 "--trial-start", TARGET, "--label", LABEL)
    assert result.returncode == 0, result.stdout.decode() + result.stderr.decode()
    calibrations = glob.glob(str(rec / "decoder-calibrations" / "*" / "header.json"))
    assert len(calibrations) == 1
    ours, X, y, V = load_dataset(dataset)
    theirs, X0, y0, V0 = load_dataset(os.path.dirname(calibrations[0]))
    assert (ours["n_trials"], ours["n_samples"], ours["n_classes"]) == (theirs["n_trials"], theirs["n_samples"], theirs["n_classes"])
    assert (y == y0).all() and (V == V0).all()
    assert np.abs(X - X0).max() <= step / 2 + 1e-6 * np.abs(X0).max()


def test_a_session_exports_as_one_run_with_its_steps_and_presses(noisetag_bin, demo, tmp_path):
    rec, _ = demo
    bids = tmp_path / "bids"
    started = time.monotonic()
    # Named inside its recordings folder, as recordings list shows it (a path works as well: the recording's test).
    result = run(noisetag_bin, "recordings", "export", "--recordings", str(rec.parent), rec.name, "--bids", str(bids), "--subject", "01", "--session", "1")
    exported = time.monotonic() - started
    report = result.stdout.decode() + result.stderr.decode()
    assert result.returncode == 0, result.stdout.decode() + result.stderr.decode()
    started = time.monotonic()
    path = mne_bids.BIDSPath(root=bids, subject="01", session="1", task="cvep", datatype="eeg", suffix="eeg", extension=".bdf")
    raw = mne_bids.read_raw_bids(path, verbose="error")
    raw.get_data()
    read = time.monotonic() - started
    print("\nsession: export %.2f s, read_raw_bids %.2f s, %.1f s of EEG" % (exported, read, raw.n_times / raw.info["sfreq"]))
    fs = raw.info["sfreq"]
    onsets = {}
    for onset, description in zip(raw.annotations.onset, raw.annotations.description):
        onsets.setdefault(description, []).append(onset)
    events = list(csv.DictReader(open(bids / "sub-01" / "ses-1" / "eeg" / "sub-01_ses-1_task-cvep_events.tsv"), delimiter="\t"))
    first = min(float(e["onset"]) for e in events)
    assert first >= 0
    # The EEG's first sample: the earliest recording's first DATAPACKET.
    recordings = sorted(d for d in os.listdir(rec) if os.path.isfile(rec / d / "decoder-input.csv"))
    _, _, _, start = decoder_eeg(rec / recordings[0])
    steps = [json.loads(line) for line in complete_lines(rec / "steps.jsonl")]
    assert len(steps) == 6
    # The true EEG span (the last BDF record is padded); an event after the last sample is left out.
    span = json.loads((bids / "sub-01" / "ses-1" / "eeg" / "sub-01_ses-1_task-cvep_eeg.json").read_text())["RecordingDuration"]
    for step in steps:
        for edge, key in (("step_start", "start_time"), ("step_end", "end_time")):
            at = step[key] - start
            if 0 <= at <= span - 1 / fs:
                name = "%s/%s" % (edge, step["kind"])
                # An event sits on the first sample at or after its time; a recording's first sample's time is
                # known to the ms, and the gap the kill left is filled with a whole number of samples.
                assert name in onsets and min(abs(o - at) for o in onsets[name]) <= 2 / fs + 0.001, (name, at, onsets.get(name))
    # The session's last step ends as its EEG stops, a moment after the last packet: its end is on the last sample, not lost.
    last_end = "step_end/%s" % steps[-1]["kind"]
    assert last_end in onsets and abs(max(onsets[last_end]) - (span - 1 / fs)) < 0.5 / fs, (last_end, onsets.get(last_end), span)
    assert not [line for line in report.splitlines() if "outside the EEG" in line and "step_end" in line], report
    # So does the decoder's last MODECHANGE, to idle, as the session closes: on the last sample, not a warning.
    assert not [line for line in report.splitlines() if "outside the EEG" in line and "mode/idle" in line], report
    # The kill left the EEG stopped until the resumed run's decoder started: filled, marked and reported.
    assert "BAD_gap" in onsets, sorted(onsets)
    assert "gap" in report, report
    presses = [p for d in recordings for p in csv.DictReader(complete_lines(rec / d / "presses.csv"))]
    assert presses
    for press in presses:
        times = onsets["press/%s" % press["source"]]
        assert min(abs(o - (float(press["time"]) - start)) for o in times) <= 2 / fs + 0.002


def test_export_failures_are_one_line(noisetag_bin, tmp_path):
    missing = run(noisetag_bin, "recordings", "export", str(tmp_path / "nothing"), "--bids", str(tmp_path / "b"),
                  "--subject", "01", "--recordings", str(tmp_path))
    assert missing.returncode == 1
    assert missing.stderr.decode().strip().endswith("nothing: no such folder, and no recording in %s matches it (see noisetag recordings list)" % tmp_path)

    external = tmp_path / "2026-11-25 10.00.00 +0000 App started"
    external.mkdir()
    (external / "events.jsonl").write_text('{"time":1.0,"type":"recordingStarted","wall_time":1795624098.4}\n')
    result = run(noisetag_bin, "recordings", "export", str(external), "--bids", str(tmp_path / "b"), "--subject", "01")
    assert result.returncode == 1
    lines = result.stderr.decode().strip().splitlines()
    assert len(lines) == 1 and "no decoder-input.csv: the EEG was not recorded" in lines[0], lines

    # A copy under a name that is no recording's: refused as recordings show refuses it (the name holds its times).
    renamed = tmp_path / "my copy"
    renamed.mkdir()
    (renamed / "events.jsonl").write_text('{"time":1.0,"type":"recordingStarted","wall_time":1795624098.4}\n')
    for command in (["recordings", "export", str(renamed), "--bids", str(tmp_path / "b"), "--subject", "01"], ["recordings", "show", str(renamed)]):
        result = run(noisetag_bin, *command)
        assert result.returncode == 1 and "my copy: a folder whose name is not a recording's" in result.stderr.decode(), command

    bad = run(noisetag_bin, "recordings", "export", str(external), "--bids", str(tmp_path / "b"), "--subject", "P-01")
    assert bad.returncode == 64
    assert '--subject: "P-01" is not a BIDS label (letters and digits only)' in bad.stderr.decode()


def test_the_reader_in_recordings_reading_md_gives_the_states_the_decoder_was_sent(demo):
    """The Python of Protocols/recordings-reading.md §7, run as printed: every
    `states` cell of frames.csv reads back as the states of the STIMULUSEVENT
    that frame sent, in order (a cell such as `29bca93c1b8` holds the mark `b`
    among its hex digits too)."""
    _, training = demo
    doc = open(os.path.join(os.path.dirname(__file__), "..", "..", "Protocols", "recordings-reading.md")).read()
    code = doc.split("## 7. Reading a recording", 1)[1].split("```python", 1)[1].split("```", 1)[0]
    reader = {}
    exec(code.split("\nfolder = ", 1)[0], reader)     # the functions, not the example's own folder
    cells = [row["states"] for row in csv.DictReader(reader["complete_lines"](training / "frames.csv")) if row["states"]]
    sent = []
    for row in csv.DictReader(reader["complete_lines"](training / "decoder.csv")):
        if row["direction"] == "out" and row["id"] == "E":
            payload = bytes.fromhex(row["hex"])[8:]
            sent.append(list(payload[1:1 + 2 * payload[0]:][1::2]))
    assert len(cells) > 100 and any("b" in cell.split("b", 1)[1] for cell in cells if "b" in cell)
    assert [reader["states"](cell) for cell in cells] == sent
