"""`noisetag replay` from the command line, on a recording `noisetag bench
replay --keep` generates (a scripted session: training, Test, Verify, a
touch, a block): all identical; a changed prediction diverges; a what-if and
a sweep with its plot; unreadable recordings exit 2 naming file and line;
bad flags are usage errors. The embedded-decoder and crash cases are in
test_demo.py and test_recordings_crash.py."""
import json
import os
import shutil
import subprocess

import pytest


def run(binary, *args, timeout=120):
    return subprocess.run([binary, *args], stdout=subprocess.PIPE, stderr=subprocess.PIPE, timeout=timeout)


@pytest.fixture(scope="module")
def recording(noisetag_bin, tmp_path_factory):
    root = tmp_path_factory.mktemp("replay") / "rec"
    result = run(noisetag_bin, "bench", "replay", "--seconds", "40", "--controls", "9", "--rounds", "1", "--keep", str(root))
    assert result.returncode == 0, result.stderr.decode()
    (name,) = os.listdir(root)
    return root / name


@pytest.fixture
def copy(recording, tmp_path):
    target = tmp_path / recording.name
    shutil.copytree(recording, target)
    return target


def test_a_recording_replays_identically(noisetag_bin, recording):
    result = run(noisetag_bin, "replay", str(recording), "--json")
    assert result.returncode == 0, result.stdout.decode()[-2000:] + result.stderr.decode()
    report = json.loads(result.stdout)
    assert report["replayed"] >= 12 and report["diverged"] == 0 and report["identical"] == report["replayed"]
    assert {t["mode"] for t in report["trials"]} == {"TrainGeneric", "Test", "Verify"}
    text = run(noisetag_bin, "replay", str(recording), "--until-trial", "5").stdout.decode()
    assert text.rstrip().endswith("replayed 5 trials: 5 identical, 0 diverged"), text


def test_a_changed_prediction_diverges_and_is_named(noisetag_bin, copy):
    path = copy / "decoder.csv"
    rows = path.read_text().split("\n")
    trials = [json.loads(l) for l in (copy / "trials.jsonl").read_text().split("\n") if l]
    pressed = next(t for t in trials if t["ending"] == "pressed-brain" and t["mode"] == "Test")
    # the last prediction before the press decided it: make it name another object
    index = max(i for i, r in enumerate(rows) if ",in,P," in r and float(r.split(",")[0]) <= pressed["end_time"])
    cells = rows[index].split(",")
    frame = bytearray.fromhex(cells[4])
    frame[8] = 1 if frame[8] != 1 else 2
    cells[4] = frame.hex()
    rows[index] = ",".join(cells)
    path.write_text("\n".join(rows))
    result = run(noisetag_bin, "replay", str(copy))
    out = result.stdout.decode()
    assert result.returncode == 1, out
    line = next(l for l in out.split("\n") if "diverged:" in l)
    assert line.split()[0] == str(pressed["trial"]), line
    assert ("pressed: %s →" % pressed["pressed"]) in line or "SELECTION" in line, line
    assert out.rstrip().endswith("1 diverged")


def test_what_if_and_a_sweep_with_its_plot(noisetag_bin, recording, tmp_path):
    result = run(noisetag_bin, "replay", str(recording), "--set", "certaintyRequiredForPress=0.7", "--json")
    assert result.returncode == 0, result.stderr.decode()
    report = json.loads(result.stdout)
    logged, what_if = report["totals"]["logged"], report["totals"]["what_if"]
    assert what_if["mean_selection_time"] < logged["mean_selection_time"]
    assert what_if["correct_presses"] < logged["correct_presses"] or what_if["presses"] > logged["presses"], report["totals"]
    plot = tmp_path / "sweep.svg"
    result = run(noisetag_bin, "replay", str(recording), "--sweep", "certaintyRequiredForPress=0.7:0.99:0.01", "--plot", str(plot))
    out = result.stdout.decode()
    assert result.returncode == 0, result.stderr.decode()
    rows = [l.split() for l in out.split("\n") if l.strip() and l.split()[0].replace(".", "").isdigit()]
    assert len(rows) == 30, out
    presses = [int(r[1]) for r in rows]
    assert presses == sorted(presses, reverse=True) and presses[0] > presses[-1], out
    svg = plot.read_text()
    assert svg.startswith("<svg") and "certaintyRequiredForPress" in svg
    assert "wrote %s" % plot in out, out


@pytest.mark.parametrize("damage,where", [
    (lambda d: (d / "frames.csv").unlink(), "frames.csv: missing"),
    (lambda d: (d / "events.jsonl").write_text(
        "\n".join(l if i != 3 else "{broken" for i, l in enumerate((d / "events.jsonl").read_text().split("\n")))),
     "events.jsonl:4:"),
    (lambda d: (d / "decoder.csv").write_text(
        "\n".join(l if i != 2 else l.rsplit(",", 1)[0] + ",zz" for i, l in enumerate((d / "decoder.csv").read_text().split("\n")))),
     "decoder.csv:3:"),
    (lambda d: (d / "settings.json").write_text("[1, 2"), "settings.json:"),
])
def test_an_unreadable_recording_exits_2_naming_file_and_line(noisetag_bin, copy, damage, where):
    damage(copy)
    result = run(noisetag_bin, "replay", str(copy))
    assert result.returncode == 2, result
    assert where in result.stderr.decode(), result.stderr.decode()


def test_a_cut_last_line_is_ignored_and_said(noisetag_bin, copy):
    with open(copy / "events.jsonl", "a") as f:
        f.write('{"time":99999.0,"type":"tri')
    result = run(noisetag_bin, "replay", str(copy))
    assert result.returncode == 0 and "events.jsonl: the last line was cut off" in result.stdout.decode()


@pytest.mark.parametrize("args,message", [
    (["--until-trial", "0"], "--until-trial"),
    (["--set", "certaintyRequiredForPress=3"], "certaintyRequiredForPress"),
    (["--set", "nonsense"], "expected TITLE=VALUE"),
    (["--sweep", "certaintyRequiredForPress=0.9:0.8:0.1"], "FROM ≤ TO"),
    (["--plot", "x.svg"], "--plot needs --sweep"),
    (["--sweep", "certaintyRequiredForPress=0.7:0.99:0.01", "--plot", "x.png"], "--plot x.png: the plot is an SVG image"),
    (["--set", "mode=Verify"], "replay follows the recording's own mode changes: mode cannot be a what-if"),
    (["--sweep", "certaintyRequiredForPress=0.9:0.99:0.01", "--sweep", "minTrialDuration=0.1:0.5:0.1"], "--sweep given 2 times"),
    (["--sweep", "certaintyRequiredForPress=0.9:0.99:0.01", "--set", "certaintyRequiredForPress=0.5"], "the sweep sets it"),
    (["--sweep", "framesPerBit=1:3:0.5"], "framesPerBit takes whole numbers"),
])
def test_bad_flags_are_usage_errors(noisetag_bin, recording, args, message):
    result = run(noisetag_bin, "replay", str(recording), *args)
    assert result.returncode == 64, result
    assert message in result.stderr.decode()


def test_a_folder_that_is_no_recording_is_named_as_given(noisetag_bin, tmp_path):
    (tmp_path / "protocols").mkdir()
    (tmp_path / "protocols" / "p.json").write_text("{}")
    result = run(noisetag_bin, "replay", str(tmp_path / "protocols"))
    err = result.stderr.decode()
    assert result.returncode == 2, err
    assert err == "noisetag replay: %s: not a recording: it holds none of events.jsonl, settings.json, frames.csv (Protocols/recordings.md)\n" % (tmp_path / "protocols"), err


def test_a_missing_recording_exits_2(noisetag_bin, tmp_path):
    result = run(noisetag_bin, "replay", "2019-01-01", "--recordings", str(tmp_path))
    assert result.returncode == 2 and "2019-01-01: no such folder, and no recording in" in result.stderr.decode()
    # A recordings folder that is not there cannot be read either: 2, not the 1 of a divergence.
    result = run(noisetag_bin, "replay", "2019-01-01", "--recordings", str(tmp_path / "absent"))
    assert result.returncode == 2 and "no such folder" in result.stderr.decode()
