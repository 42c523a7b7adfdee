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


def run_import(noisetag_bin, source, out, fmt, trial_start, label, codes, seconds, extra=()):
    run = subprocess.run([noisetag_bin, "dataset", "import", source, "--out", str(out), "--format", fmt,
                          "--trial-start", trial_start, "--label", label, "--codes", codes,
                          "--code-rate", "60", "--trial-seconds", str(seconds)] + list(extra),
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
    """Samples where the Status low 16 bits change to `code`, the value before the first sample counting as 0."""
    status = raw.get_data(picks=["Status"])[0].astype(np.int64) & 0xFFFF
    changes = np.flatnonzero(np.diff(np.concatenate([[0], status])) != 0)
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
    # --format edf on a BDF: read by its header as BDF, the same samples, and said.
    header, forced, _, _, stdout = run_import(
        noisetag_bin, path, tmp_path / "forced", "edf", "^254$", r"^25(\d)$", codes_file(tmp_path, 6), 0.5)
    assert np.array_equal(forced, continuous)
    assert "warning: --format edf: the file is BDF by its header, read as such" in stdout


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
    # The EEG: channels in a voltage unit; the six in other units (µS, C, …) are left out unless chosen.
    volts = [i for i, ch in enumerate(raw.info["chs"]) if ch["unit"] == mne.io.constants.FIFF.FIFF_UNIT_V]
    assert len(volts) == 26
    assert header["channels"] == [raw.ch_names[i] for i in volts]
    assert_same_signal(continuous, raw.get_data(picks=volts) * 1e6)
    assert "warning: 6 channel(s) not in a voltage unit left out: CP5 (BS), CP6 (µS), HL (ARU), HR (uS), Vb (S), ReRef (C)" in stdout
    # Chosen by name, they keep value × resolution in their own unit.
    others = [i for i in range(32) if i not in volts]
    header, chosen, _, _, stdout = run_import(
        noisetag_bin, path, tmp_path / "chosen", "brainvision", r"^Stimulus/S25[35]$", r"S25(\d)$", codes_file(tmp_path, 6), 0.2,
        ["--channels", ",".join(raw.ch_names[i] for i in others)])
    assert header["channels"] == [raw.ch_names[i] for i in others]
    counts = np.fromfile(path[:-4] + "eeg", dtype="<i2").reshape(-1, 32).T
    assert_same_signal(chosen, counts[others] * 0.5)
    assert "warning: 6 channel(s) not in a voltage unit kept in their own, as chosen: CP5 (BS)" in stdout
    stimuli = [(o, d) for o, d in zip(raw.annotations.onset, raw.annotations.description) if d in ("Stimulus/S253", "Stimulus/S255")]
    assert onsets.tolist() == [round(o * 1000) for o, _ in stimuli] == [486, 496, 1779, 3262, 4935, 4945, 6629]
    assert labels.tolist() == [int(d[-1]) for _, d in stimuli]


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


def inspect(noisetag_bin, path, *options):
    run = subprocess.run([noisetag_bin, "dataset", "inspect", path, "--json", *options],
                         capture_output=True, text=True, timeout=120)
    return run.returncode, (json.loads(run.stdout) if run.stdout.strip() else None), run.stderr


def test_inspect_lists_what_mne_reads(noisetag_bin):
    """`dataset inspect` on BDF Status triggers and EDF+ annotations: MNE's events, counted."""
    path = os.path.join(FORMATS, "Newtest17-256.bdf")
    code, inventory, _ = inspect(noisetag_bin, path)
    raw = mne.io.read_raw_bdf(path)
    assert code == 0 and inventory["sampleRate"] == 256 and inventory["samples"] == raw.n_times
    assert inventory["channels"] == [c for c in raw.ch_names if c != "Status"]
    raw.load_data()
    counts = {m["text"]: m["count"] for m in inventory["markers"]}
    assert counts == {"254": len(status_starts(raw, 254)), "255": len(status_starts(raw, 255))} == {"254": 40, "255": 41}
    path = os.path.join(FORMATS, "test_edf_overlapping_annotations.edf")
    code, inventory, _ = inspect(noisetag_bin, path)
    raw = mne.io.read_raw_edf(path)
    # --format bdf on an EDF: read as EDF, said as dataset import says it.
    code_forced, forced, _ = inspect(noisetag_bin, path, "--format", "bdf")
    assert code_forced == 0 and forced["format"] == "edf"
    assert forced["warnings"][0] == "--format bdf: the file is EDF by its header, read as such", forced["warnings"]
    descriptions = list(raw.annotations.description)
    assert code == 0 and inventory["markerCount"] == len(descriptions)
    assert {m["text"]: m["count"] for m in inventory["markers"]} == {d: descriptions.count(d) for d in set(descriptions)}
    first = {m["text"]: m["first"] for m in inventory["markers"]}
    for text, seconds in first.items():
        assert abs(seconds - min(o for o, d in zip(raw.annotations.onset, descriptions) if d == text)) < 1 / 128


def test_inspect_lists_the_xdf_streams_pyxdf_reads(noisetag_bin):
    """Every stream of a three-stream XDF file as pyxdf reads it; which marker stream to name."""
    import pyxdf
    path = os.path.join(FORMATS, "bci_essentials_switch_example.xdf")
    streams, _ = pyxdf.load_xdf(path, dejitter_timestamps=False)
    theirs = sorted((s["info"]["name"][0], s["info"]["type"][0], int(s["info"]["channel_count"][0]),
                     s["info"]["channel_format"][0], len(s["time_stamps"])) for s in streams)
    code, inventory, stderr = inspect(noisetag_bin, path)
    assert code == 1 and "several marker streams" in stderr and "--markers NAME" in stderr
    assert sorted((s["name"], s["type"], s["channels"], s["format"], s["samples"]) for s in inventory["streams"]) == theirs
    code, inventory, _ = inspect(noisetag_bin, path, "--markers", "UnityMarkerStream")
    markers = next(s for s in streams if s["info"]["name"][0] == "UnityMarkerStream")["time_series"]
    texts = [m[0] for m in markers]
    assert code == 0 and inventory["markerCount"] == len(texts) == 71
    assert {m["text"]: m["count"] for m in inventory["markers"]} == {t: texts.count(t) for t in set(texts)}
    roles = {s["name"]: s.get("role") for s in inventory["streams"]}
    assert roles == {"PythonResponse": None, "g.USBamp-1": "eeg", "UnityMarkerStream": "markers"}


def test_inspect_text_points_to_the_import(noisetag_bin):
    path = os.path.join(ROOT, "Tests", "Fixtures", "fapra_sub-p001_ses-s001_run-001_task-training.xdf")
    run = subprocess.run([noisetag_bin, "dataset", "inspect", path], capture_output=True, text=True, timeout=120)
    assert run.returncode == 0, run.stderr
    lines = run.stdout.splitlines()
    assert any(line.startswith("  obci_eeg1") and line.endswith("← the EEG") for line in lines)
    assert any(line.split()[:2] == ["10", "5.486"] and line.endswith("start_trial") for line in lines)
    assert lines[-1].startswith("import: noisetag dataset import " + path + " --out DIR --trial-start REGEX")
    # The stream chosen for the inspection is repeated in the import it suggests.
    several = os.path.join(FORMATS, "bci_essentials_switch_example.xdf")
    run = subprocess.run([noisetag_bin, "dataset", "inspect", several, "--markers", "UnityMarkerStream"], capture_output=True, text=True, timeout=120)
    assert run.stdout.splitlines()[-1].startswith("import: noisetag dataset import " + several + " --markers UnityMarkerStream --out DIR"), run.stdout
    # The import without its marker options points here.
    run = subprocess.run([noisetag_bin, "dataset", "import", path, "--out", "x"], capture_output=True, text=True, timeout=60)
    assert run.returncode == 64 and "noisetag dataset inspect " + path + " lists the markers" in run.stderr
    run = subprocess.run([noisetag_bin, "dataset", "inspect", os.path.join(FORMATS, "Newtest17-256.bdf"), "--stream", "x"],
                         capture_output=True, text=True, timeout=60)
    assert run.returncode == 64 and "--stream and --markers apply to XDF recordings only" in run.stderr


def test_channels_chosen_at_import_match_mne_picks(noisetag_bin, tmp_path):
    """--channels keeps the named channels in the given order; --drop-channels all the others; one line for a wrong name."""
    path = os.path.join(FORMATS, "mne_test_biosemi72_2048Hz.bdf")
    raw = mne.io.read_raw_bdf(path, preload=True)
    common = [path, "--trial-start", "^128$", "--label", r"(\d+)", "--codes", codes_file(tmp_path, 130), "--trial-seconds", "0.5"]
    run = subprocess.run([noisetag_bin, "dataset", "import", *common, "--out", str(tmp_path / "keep"), "--channels", "Oz, o1,O2"],
                         capture_output=True, text=True, timeout=120)
    assert run.returncode == 0, run.stderr
    assert "channels: Oz, O1, O2" in run.stdout
    header = json.load(open(tmp_path / "keep" / "header.json"))
    continuous = np.fromfile(tmp_path / "keep" / "continuous.f32", dtype="<f4").reshape(3, -1)
    assert header["channels"] == ["Oz", "O1", "O2"] and header["n_channels"] == 3
    assert_same_signal(continuous, raw.get_data(picks=["Oz", "O1", "O2"]) * 1e6)
    X = np.fromfile(tmp_path / "keep" / "X.f32", dtype="<f4").reshape(1, 3, -1)
    onset = int(np.fromfile(tmp_path / "keep" / "onsets.i32", dtype="<i4")[0])
    assert np.array_equal(X[0], continuous[:, onset:onset + X.shape[2]])
    exg = [c for c in raw.ch_names if c.startswith("EXG")]
    run = subprocess.run([noisetag_bin, "dataset", "import", *common, "--out", str(tmp_path / "drop"), "--drop-channels", ",".join(exg)],
                         capture_output=True, text=True, timeout=120)
    assert run.returncode == 0, run.stderr
    header = json.load(open(tmp_path / "drop" / "header.json"))
    assert exg == ["EXG1", "EXG5", "EXG8"] and header["channels"] == [c for c in raw.ch_names if c != "Status" and c not in exg]
    run = subprocess.run([noisetag_bin, "dataset", "import", *common, "--out", str(tmp_path / "bad"), "--channels", "Oz,Pz9"],
                         capture_output=True, text=True, timeout=120)
    assert run.returncode == 1 and run.stderr.count("\n") == 1
    assert run.stderr.startswith('Error: --channels: no channel named "Pz9" (the channels: Fp1, AF7,') and "(72 in all)" in run.stderr
    assert not (tmp_path / "bad").exists()
    run = subprocess.run([noisetag_bin, "dataset", "import", *common, "--out", str(tmp_path / "both"), "--channels", "Oz", "--drop-channels", "O1"],
                         capture_output=True, text=True, timeout=120)
    assert run.returncode == 64 and "give one or the other" in run.stderr
    for empty in (",Oz", "Oz,,O1", "Oz,", " "):
        run = subprocess.run([noisetag_bin, "dataset", "import", *common, "--out", str(tmp_path / "e"), "--channels", empty],
                             capture_output=True, text=True, timeout=60)
        assert run.returncode == 64 and "an empty name" in run.stderr, (empty, run.stderr)
