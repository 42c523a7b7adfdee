"""`noisetag dataset import` on the BDF, EDF+, BrainVision and BIDS-EEG fixtures, checked against MNE.

Each test imports a real recording from Tests/Fixtures/formats (see its README.md) with
options that cut trials from its own markers, then compares what was written with MNE's
reading of the same file: continuous.f32 against MNE's data in µV (float32 tolerance),
the rate, the channel names and the trial onsets (onsets.i32) against MNE's events.
"""
import json
import math
import os
import shutil
import subprocess

import mne
import numpy as np

mne.set_log_level("ERROR")

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
FORMATS = os.path.join(ROOT, "Tests", "Fixtures", "formats")


def codes_file(folder, classes, bits=16):
    """A .npy of `classes` random 0/1 codes, written with np.save."""
    path = os.path.join(str(folder), "codes.npy")
    np.save(path, np.random.default_rng(7).integers(0, 2, size=(classes, bits)).astype(np.uint8))
    return path


def run_import(noisetag_bin, source, out, fmt, trial_start, label, codes, seconds):
    run = subprocess.run([noisetag_bin, "dataset", "import", source, "--out", str(out), "--format", fmt,
                          "--trial-start", trial_start, "--label", label, "--codes", codes,
                          "--code-rate", "60", "--trial-seconds", str(seconds)],
                         capture_output=True, text=True, timeout=300)
    assert run.returncode == 0, run.stdout + run.stderr
    with open(os.path.join(str(out), "header.json")) as f:
        header = json.load(f)
    continuous = np.fromfile(os.path.join(str(out), "continuous.f32"), dtype="<f4")
    continuous = continuous.reshape(header["n_channels"], header["n_continuous"])
    onsets = np.fromfile(os.path.join(str(out), "onsets.i32"), dtype="<i4")
    labels = np.fromfile(os.path.join(str(out), "y.i32"), dtype="<i4")
    return header, continuous, onsets, labels, run.stdout


def assert_same_signal(ours, theirs_microvolts):
    expected = theirs_microvolts.astype(np.float32)
    assert ours.shape == expected.shape
    np.testing.assert_allclose(ours, expected, rtol=2e-7, atol=1e-3)


def status_starts(raw, code):
    """Samples where the Status low 16 bits change to `code` (never sample 0)."""
    status = raw.get_data(picks=["Status"])[0].astype(np.int64) & 0xFFFF
    changes = np.flatnonzero(np.diff(status) != 0) + 1
    return [int(i) for i in changes if status[i] == code]


def test_bdf_biosemi_trigger_128(noisetag_bin, tmp_path):
    path = os.path.join(FORMATS, "mne_test_biosemi72_2048Hz.bdf")
    header, continuous, onsets, labels, _ = run_import(
        noisetag_bin, path, tmp_path / "out", "bdf", "^128$", r"(\d+)", codes_file(tmp_path, 130), 0.5)
    raw = mne.io.read_raw_bdf(path, preload=True)
    eeg = raw.copy().drop_channels(["Status"])
    assert header["fs"] == raw.info["sfreq"] == 2048
    assert header["channels"] == eeg.ch_names
    assert_same_signal(continuous, eeg.get_data() * 1e6)
    events = mne.find_events(raw, stim_channel="Status", shortest_event=1)
    assert onsets.tolist() == [int(s) for s, _, v in events if v & 0xFFFF == 128] == [589]
    assert labels.tolist() == [128]


def test_bdf_newtest17_status_changes(noisetag_bin, tmp_path):
    path = os.path.join(FORMATS, "Newtest17-256.bdf")
    # The code toggles 254/255: a trial at each change to 254, class = its last digit.
    header, continuous, onsets, labels, _ = run_import(
        noisetag_bin, path, tmp_path / "out", "bdf", "^254$", r"^25(\d)$", codes_file(tmp_path, 6), 0.5)
    raw = mne.io.read_raw_bdf(path, preload=True)
    assert header["fs"] == 256 and header["n_continuous"] == raw.n_times == 15360
    assert_same_signal(continuous, raw.copy().drop_channels(["Status"]).get_data() * 1e6)
    expected = status_starts(raw, 254)
    assert len(expected) == 40 and onsets.tolist() == expected
    assert set(labels.tolist()) == {4}


def test_edf_plus_annotations(noisetag_bin, tmp_path):
    path = os.path.join(FORMATS, "test_edf_overlapping_annotations.edf")
    header, continuous, onsets, labels, _ = run_import(
        noisetag_bin, path, tmp_path / "out", "edf", "^T[12]$", r"^T(\d)$", codes_file(tmp_path, 3), 4)
    raw = mne.io.read_raw_edf(path, preload=True)
    assert header["fs"] == raw.info["sfreq"] == 128
    assert header["channels"] == raw.ch_names
    assert_same_signal(continuous, raw.get_data() * 1e6)
    annotations = [(o, d) for o, d in zip(raw.annotations.onset, raw.annotations.description) if d in ("T1", "T2")]
    # A marker's sample is the first at or after its onset.
    assert onsets.tolist() == [math.ceil(o * 128 - 1e-6) for o, _ in annotations]
    assert labels.tolist() == [int(d[1]) for _, d in annotations]


def test_brainvision_markers_and_scaling(noisetag_bin, tmp_path):
    path = os.path.join(FORMATS, "brainvision", "test.vhdr")
    header, continuous, onsets, labels, stdout = run_import(
        noisetag_bin, path, tmp_path / "out", "brainvision", r"^Stimulus/S25[35]$", r"S25(\d)$", codes_file(tmp_path, 6), 0.2)
    raw = mne.io.read_raw_brainvision(path, preload=True)
    assert header["fs"] == raw.info["sfreq"] == 1000
    assert header["channels"] == raw.ch_names
    volts = [i for i, ch in enumerate(raw.info["chs"]) if ch["unit"] == mne.io.constants.FIFF.FIFF_UNIT_V]
    assert len(volts) == 26
    assert_same_signal(continuous[volts], raw.get_data(picks=volts) * 1e6)
    # Channels in other units (µS, C, …) keep value × resolution in their own unit.
    counts = np.fromfile(path[:-4] + "eeg", dtype="<i2").reshape(-1, 32).T
    others = [i for i in range(32) if i not in volts]
    assert_same_signal(continuous[others], counts[others] * 0.5)
    stimuli = [(o, d) for o, d in zip(raw.annotations.onset, raw.annotations.description) if d in ("Stimulus/S253", "Stimulus/S255")]
    assert onsets.tolist() == [round(o * 1000) for o, _ in stimuli] == [486, 496, 1779, 3262, 4935, 4945, 6629]
    assert labels.tolist() == [int(d[-1]) for _, d in stimuli]
    assert "warning: test.vhdr: 6 channel(s) not in a voltage unit" in stdout


def test_bids_folder_events(noisetag_bin, tmp_path):
    eeg = tmp_path / "sub-01" / "eeg"
    eeg.mkdir(parents=True)
    source = os.path.join(FORMATS, "brainvision")
    stem = "sub-01_task-cvep"
    with open(os.path.join(source, "test.vhdr"), encoding="utf-8") as f:
        vhdr = f.read().replace("DataFile=test.eeg", "DataFile=%s_eeg.eeg" % stem).replace("MarkerFile=test.vmrk", "MarkerFile=%s_eeg.vmrk" % stem)
    (eeg / ("%s_eeg.vhdr" % stem)).write_text(vhdr, encoding="utf-8")
    for ext in ("eeg", "vmrk"):
        shutil.copy(os.path.join(source, "test." + ext), str(eeg / ("%s_eeg.%s" % (stem, ext))))
    events = [(0.5004, "target_1"), (2.25, "target_0"), (4.0, "target_1")]
    (eeg / ("%s_events.tsv" % stem)).write_text(
        "onset\tduration\ttrial_type\n" + "".join("%s\t1.0\t%s\n" % e for e in events), encoding="utf-8")
    header, continuous, onsets, labels, _ = run_import(
        noisetag_bin, str(tmp_path / "sub-01"), tmp_path / "out", "bids", "^target", r"target_(\d)", codes_file(tmp_path, 2), 1)
    raw = mne.io.read_raw_brainvision(str(eeg / ("%s_eeg.vhdr" % stem)), preload=True)
    volts = [i for i, ch in enumerate(raw.info["chs"]) if ch["unit"] == mne.io.constants.FIFF.FIFF_UNIT_V]
    assert_same_signal(continuous[volts], raw.get_data(picks=volts) * 1e6)
    assert onsets.tolist() == [round(o * 1000) for o, _ in events] == [500, 2250, 4000]
    assert labels.tolist() == [1, 0, 1]
    assert header["source"].startswith("BIDS-EEG BrainVision")
