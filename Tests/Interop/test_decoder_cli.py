"""`noisetag decoder simulate/evaluate`, run as a researcher would (the pyntbci comparison: test_compare_pyntbci.py)."""
import json
import os
import subprocess

import numpy as np
import pytest


def test_simulated_dataset_reads_in_numpy_as_the_protocol_says(dataset):
    with open(os.path.join(dataset, "header.json")) as f:
        h = json.load(f)
    assert h == {"fs": 250, "n_trials": 45, "n_channels": 8, "n_samples": 1050, "n_classes": 9}
    X = np.fromfile(os.path.join(dataset, "X.f32"), dtype="<f4").reshape(45, 8, 1050)
    y = np.fromfile(os.path.join(dataset, "y.i32"), dtype="<i4")
    V = np.fromfile(os.path.join(dataset, "V.u8"), dtype="u1").reshape(9, 1050)
    assert np.isfinite(X).all() and X.std() > 1
    assert sorted(np.bincount(y)) == [5] * 9
    assert set(np.unique(V)) == {0, 1}


def test_evaluate_reports_the_decoding_curve_latency_and_plot(noisetag_bin, dataset, tmp_path):
    plot = tmp_path / "eval.svg"
    run = subprocess.run([noisetag_bin, "decoder", "evaluate", dataset, "--json", "--fixed", "--plot", str(plot)],
                         capture_output=True, text=True, timeout=600)
    assert run.returncode == 0, run.stderr
    report = json.loads(run.stdout)
    assert [r["seconds"] for r in report["rows"]] == [0.5, 1, 2, 4]
    assert next(r for r in report["rows"] if r["seconds"] == 2)["accuracy"] >= 0.9
    assert all(abs(latency - 0.04) <= 0.004 for latency in report["latencies"])
    svg = plot.read_text()
    assert svg.startswith("<svg") and "Decoding curve" in svg and "Spatial pattern" in svg
    assert "wrote %s" % plot in run.stderr, run.stderr     # beside the JSON on standard output, not in it


def test_evaluate_zero_train_replays_the_trials_in_order_with_their_labels_hidden(noisetag_bin, dataset, tmp_path):
    plot = tmp_path / "zt.svg"
    run = subprocess.run([noisetag_bin, "decoder", "evaluate", dataset, "--json", "--fixed", "--zero-train",
                          "--plot", str(plot)], capture_output=True, text=True, timeout=600)
    assert run.returncode == 0, run.stderr
    report = json.loads(run.stdout)
    trials = report["zeroTrainTrials"]
    y = np.fromfile(os.path.join(dataset, "y.i32"), dtype="<i4")
    assert [t["trial"] for t in trials] == list(range(1, 46))
    assert [t["target"] for t in trials] == y.tolist()
    for t in trials:
        assert {"trial", "target", "selected", "seconds"} <= set(t)
        assert (t["selected"] is None) == (t["seconds"] is None)
    assert [t["phase"] for t in trials] == ["zeroTraining"] * 10 + ["supervised"] * 35
    early_wrong = [t for t in trials[:10] if t["selected"] is not None and t["selected"] != t["target"]]
    assert len(early_wrong) <= 1, trials[:10]
    later = trials[10:]
    assert sum(t["selected"] == t["target"] for t in later) >= 0.9 * len(later)
    assert report["zeroTraining"]["learnedLabelAccuracy"] >= 0.9 and report["rows"]
    assert "Zero training: learning curve" in plot.read_text()
    text = subprocess.run([noisetag_bin, "decoder", "evaluate", dataset, "--fixed", "--zero-train", "--zero-train-trials", "0"],
                          capture_output=True, text=True, timeout=60)
    assert text.returncode == 64 and "--zero-train-trials: must be at least 1" in text.stderr
    # A shorter unsupervised stretch: the report splits at its hand-over, not at a fixed tenth trial.
    short = subprocess.run([noisetag_bin, "decoder", "evaluate", dataset, "--fixed", "--zero-train", "--zero-train-trials", "5"],
                           capture_output=True, text=True, timeout=600)
    assert short.returncode == 0, short.stderr
    assert short.stdout.count(" unsupervised\n") == 5
    assert "wrong presses in trials 1-5: " in short.stdout and "; from trial 6: " in short.stdout, short.stdout[-400:]


def test_evaluate_text_names_latency_and_threshold(noisetag_bin, dataset):
    run = subprocess.run([noisetag_bin, "decoder", "evaluate", dataset, "--fixed"], capture_output=True, text=True, timeout=600)
    assert run.returncode == 0, run.stderr
    assert "estimated latency 40.0 ms" in run.stdout
    assert "recommended certaintyRequiredForPress" in run.stdout
    # --fixed says which setting it evaluated: the defaults here.
    assert "fixed setting: refe, latency estimated + 0.30 s, whitening 0.08 s, 3 Hz high-pass\n" in run.stdout, run.stdout
    assert "\nchance 0.111 (1 in 9)\n" in run.stdout, run.stdout


def evaluated_trials_of(noisetag_bin, folder, seconds):
    """`decoder evaluate --fixed` of 20 simulated trials of `seconds`, 4 classes."""
    made = subprocess.run([noisetag_bin, "decoder", "simulate", "--out", str(folder), "--trials", "20", "--classes", "4",
                           "--seconds", seconds], capture_output=True, text=True, timeout=120)
    assert made.returncode == 0, made.stderr
    run = subprocess.run([noisetag_bin, "decoder", "evaluate", str(folder), "--fixed"], capture_output=True, text=True, timeout=600)
    assert run.returncode == 0, run.stderr
    return run


def test_evaluate_says_why_a_length_has_no_row(noisetag_bin, tmp_path):
    run = evaluated_trials_of(noisetag_bin, tmp_path / "short", "2.1")
    assert "\nchance 0.250 (1 in 4); no row at 4.0 s: longer than the trials\n" in run.stdout, run.stdout
    # Trials a few samples short of 4 s are read out at their whole length, which the table shows to the sample.
    run = evaluated_trials_of(noisetag_bin, tmp_path / "almost", "3.972")
    lengths = [line.split()[0] for line in run.stdout.split("length_s", 1)[1].splitlines()[1:5]]
    assert lengths == ["0.5", "1.0", "2.0", "3.972"], run.stdout


def test_a_broken_dataset_is_one_line_and_exit_1(noisetag_bin, dataset, tmp_path):
    broken = tmp_path / "broken"
    broken.mkdir()
    for name in ["header.json", "X.f32", "V.u8"]:
        (broken / name).write_bytes(open(os.path.join(dataset, name), "rb").read())
    run = subprocess.run([noisetag_bin, "decoder", "evaluate", str(broken)], capture_output=True, text=True, timeout=60)
    assert run.returncode == 1
    assert run.stderr.strip().splitlines() == [f"noisetag decoder evaluate: {broken}: y.i32: missing"]
    idle = subprocess.run([noisetag_bin, "decoder", "evaluate", dataset, "--idle", str(broken)],
                          capture_output=True, text=True, timeout=60)
    assert idle.returncode == 1
    assert idle.stderr.strip().splitlines() == [f"noisetag decoder evaluate: {broken}: y.i32: missing"]
    # A folder that is not there is named once, as typed.
    gone = subprocess.run([noisetag_bin, "decoder", "evaluate", "no-such-dataset"], capture_output=True, text=True, timeout=60,
                          cwd=tmp_path)
    assert gone.returncode == 1
    assert gone.stderr.strip().splitlines() == ["noisetag decoder evaluate: no-such-dataset: no such folder"]


def test_wrong_arguments_are_usage_errors(noisetag_bin, tmp_path):
    run = subprocess.run([noisetag_bin, "decoder", "simulate", "--out", str(tmp_path / "x"), "--classes", "1"],
                         capture_output=True, text=True, timeout=60)
    assert run.returncode == 64
    assert "--classes" in run.stderr
    # A size that could not be allocated is refused before anything is (it trapped with a backtrace).
    run = subprocess.run([noisetag_bin, "decoder", "simulate", "--out", str(tmp_path / "x"), "--seconds", "100000"],
                         capture_output=True, text=True, timeout=60)
    assert run.returncode == 64 and "the dataset would take 144.0 GB (at most 2 GB)" in run.stderr, run.stderr
    run = subprocess.run([noisetag_bin, "decoder", "evaluate", str(tmp_path), "--whitening", "5"],
                         capture_output=True, text=True, timeout=60)
    assert run.returncode == 64
    assert "--whitening: must be 0 to 1 seconds, got 5" in run.stderr
    run = subprocess.run([noisetag_bin, "decoder", "evaluate", str(tmp_path), "--template-blend", "1.5"],
                         capture_output=True, text=True, timeout=60)
    assert run.returncode == 64
    assert "--template-blend: must be from 0 to 1, got 1.5" in run.stderr
    # A negative number is read as the option's value, and refused for what it is.
    for args, message in [(["--latency", "-5"], "--latency: must be 0...1000 ms (a visual response starts within a second), got -5.0"),
                          (["--latency", "5000"], "--latency: must be 0...1000 ms (a visual response starts within a second), got 5000.0"),
                          (["--plot", str(tmp_path / "no-folder" / "x.svg")], f"--plot {tmp_path / 'no-folder' / 'x.svg'}: no folder"),
                          (["--plot", str(tmp_path)], f"--plot {tmp_path}: a folder; give the SVG file's name"),
                          (["--plot", str(tmp_path / "x.png")], f"--plot {tmp_path / 'x.png'}: the plot is an SVG image: give a name ending in .svg"),
                          (["--adapt-every", "3"], "--zero-train-trials and --adapt-every apply with --zero-train only"),
                          ([str(tmp_path)], f"{tmp_path} is named twice")]:
        run = subprocess.run([noisetag_bin, "decoder", "evaluate", str(tmp_path), *args], capture_output=True, text=True, timeout=60)
        assert run.returncode == 64 and message in run.stderr, (args, run.stderr)


def test_a_low_pass_above_the_nyquist_frequency_is_one_line(noisetag_bin, dataset):
    run = subprocess.run([noisetag_bin, "decoder", "evaluate", dataset, "--low-pass", "500"], capture_output=True, text=True, timeout=60)
    assert run.returncode == 1
    assert run.stderr.strip().splitlines() == [
        f"noisetag decoder evaluate: {dataset}: a low-pass at 500 Hz is not below 125 Hz, half the rate decoded (250 Hz)"]
    # A notch that cannot be placed is refused too, rather than silently left out.
    run = subprocess.run([noisetag_bin, "decoder", "evaluate", dataset, "--line-frequency", "125"], capture_output=True, text=True, timeout=60)
    assert run.returncode == 1
    assert run.stderr.strip().splitlines() == [
        f"noisetag decoder evaluate: {dataset}: --line-frequency 125 Hz is at or above half its sample rate (250 Hz): no notch can be placed there"]


def test_every_candidate_sets_the_selection_beside_each_fixed_setting_of_its_grid(noisetag_bin, dataset):
    run = subprocess.run([noisetag_bin, "decoder", "evaluate", dataset, "--json", "--every-candidate"],
                         capture_output=True, text=True, timeout=900)
    assert run.returncode == 0, run.stderr
    report = json.loads(run.stdout)
    candidates = report["everyCandidate"]
    assert len(candidates) == 48
    assert len({json.dumps(c["candidate"], sort_keys=True) for c in candidates}) == 48
    assert all([r["seconds"] for r in c["rows"]] == [0.5, 1, 2, 4] for c in candidates)
    # Accuracy and ITR alone: a candidate calibrates no certainty, so it predicts no error.
    assert all(set(r) == {"seconds", "accuracy", "itr", "trials"} for c in candidates for r in c["rows"])
    # The grid's first candidate, evaluated on its own with --fixed, gives the same curve.
    first = candidates[0]["candidate"]["settings"]
    assert (first["event"], first["fixedLatency"], first["encodingLength"], first["whiteningLength"], first["templateBlend"]) \
        == ("refe", 0, 0.3, 0, 0) and "lowPass" not in candidates[0]["candidate"]
    fixed = subprocess.run([noisetag_bin, "decoder", "evaluate", dataset, "--json", "--event", "refe", "--latency", "0",
                            "--encoding-length", "0.3", "--whitening", "0"], capture_output=True, text=True, timeout=600)
    assert fixed.returncode == 0, fixed.stderr
    assert [r["accuracy"] for r in json.loads(fixed.stdout)["rows"]] == [r["accuracy"] for r in candidates[0]["rows"]]
    # The text: the selection's row, 48 candidate rows, and its lead in trials over the best of them.
    text = subprocess.run([noisetag_bin, "decoder", "evaluate", dataset, "--every-candidate"], capture_output=True, text=True,
                          timeout=900).stdout.splitlines()
    start = text.index("every candidate as a fixed setting, same folds: accuracy at 0.5 / 1.0 / 2.0 / 4.0 s, mean")
    assert text[start + 1].endswith("selection (chosen in each fold)")
    means = [float(line.split()[4]) for line in text[start + 2:start + 50]]
    assert means == sorted(means, reverse=True)
    assert text[start + 50].startswith("selection minus the best fixed setting (")
    assert text[start + 51].startswith("selection minus the best candidate at each length, in hindsight: ")
    usage = subprocess.run([noisetag_bin, "decoder", "evaluate", dataset, "--every-candidate", "--fixed"],
                           capture_output=True, text=True, timeout=60)
    assert usage.returncode == 64 and "--every-candidate sets the selection beside every fixed setting" in usage.stderr


def test_a_looser_idle_press_budget_recommends_a_lower_threshold_and_sooner_presses(noisetag_bin, dataset):
    def report(rate):
        run = subprocess.run([noisetag_bin, "decoder", "evaluate", dataset, "--json", "--fixed",
                              "--idle-presses-per-minute", str(rate)], capture_output=True, text=True, timeout=600)
        assert run.returncode == 0, run.stderr
        return json.loads(run.stdout)
    strict, lax = report(0.01), report(10)
    pairs = list(zip(lax["recommendedCertainties"], strict["recommendedCertainties"]))
    assert len(pairs) == 5 and all(l <= s for l, s in pairs) and any(l < s for l, s in pairs), pairs
    assert lax["meanPressSeconds"] < strict["meanPressSeconds"]
    assert [r["accuracy"] for r in lax["rows"]] == [r["accuracy"] for r in strict["rows"]]
    assert (lax["idlePressBudget"], strict["idlePressBudget"]) == (10, 0.01)
    text = subprocess.run([noisetag_bin, "decoder", "evaluate", dataset, "--fixed", "--idle-presses-per-minute", "10"],
                          capture_output=True, text=True, timeout=600).stdout
    assert "% errors and 10.0 idle presses a minute; pressing there:" in text, text


def test_several_datasets_end_with_a_table_of_them_all(noisetag_bin, dataset, tmp_path):
    """`decoder evaluate A B C`: each report, then a table whose mean and pooled rows follow from the single runs."""
    second = str(tmp_path / "sim4")
    run = subprocess.run([noisetag_bin, "decoder", "simulate", "--out", second, "--classes", "4", "--trials", "20", "--seed", "5"],
                         capture_output=True, text=True, timeout=300)
    assert run.returncode == 0, run.stderr
    singles = []
    for folder in (dataset, second):
        one = subprocess.run([noisetag_bin, "decoder", "evaluate", folder, "--fixed", "--json"], capture_output=True, text=True, timeout=300)
        assert one.returncode == 0, one.stderr
        singles.append(json.loads(one.stdout))
    both = subprocess.run([noisetag_bin, "decoder", "evaluate", dataset, second, "--fixed", "--json"], capture_output=True, text=True, timeout=300)
    assert both.returncode == 0, both.stderr
    report = json.loads(both.stdout)
    assert [d["folder"] for d in report["datasets"]] == [dataset, second]
    assert [d["rows"] for d in report["datasets"]] == [s["rows"] for s in singles]
    for i, length in enumerate(report["mean"]):
        rows = [s["rows"][i] for s in singles]
        assert length["seconds"] == rows[0]["seconds"] and length["datasets"] == 2
        assert abs(length["meanAccuracy"] - (rows[0]["accuracy"] + rows[1]["accuracy"]) / 2) < 1e-9
        pooled = (rows[0]["accuracy"] * rows[0]["trials"] + rows[1]["accuracy"] * rows[1]["trials"]) / (rows[0]["trials"] + rows[1]["trials"])
        assert abs(length["pooledAccuracy"] - pooled) < 1e-9
    # As text, with a folder that is not there: the others are evaluated, the table ends the report, exit 1.
    text = subprocess.run([noisetag_bin, "decoder", "evaluate", dataset, "no-such-dataset", second, "--fixed"],
                          capture_output=True, text=True, timeout=300, cwd=tmp_path)
    assert text.returncode == 1
    assert text.stderr.strip().splitlines() == ["noisetag decoder evaluate: no-such-dataset: no such folder"]
    lines = text.stdout.splitlines()
    assert lines.count(f"== {dataset}") == 1 and lines.count(f"== {second}") == 1
    table = lines[lines.index("2 datasets (1 more could not be evaluated: see the lines above), accuracy at 0.5 / 1 / 2 / 4 s:"):]
    assert table[1].split()[:2] == ["dataset", "trials"]
    channels = [str(s["channels"]) for s in singles]
    assert table[2].split()[:5] == [dataset, "45", "×", "9,", channels[0]] and table[3].split()[:5] == [second, "20", "×", "4,", channels[1]]
    assert table[4].split()[-4:] == [f"{m['meanAccuracy']:.3f}" for m in report["mean"]]
    assert table[5].startswith("pooled over their trials") and len(table) == 6, table  # both reach every length: no count row
    plot = subprocess.run([noisetag_bin, "decoder", "evaluate", dataset, second, "--plot", str(tmp_path / "p.svg")],
                          capture_output=True, text=True, timeout=60)
    assert plot.returncode == 64 and "--plot and --idle take one dataset" in plot.stderr


def test_trials_shorter_than_four_seconds_get_a_row_at_their_whole_length(noisetag_bin, tmp_path):
    folder = str(tmp_path / "short")
    made = subprocess.run([noisetag_bin, "decoder", "simulate", "--out", folder, "--trials", "20", "--seconds", "1.5", "--seed", "2"],
                          capture_output=True, text=True, timeout=300)
    assert made.returncode == 0, made.stderr
    run = subprocess.run([noisetag_bin, "decoder", "evaluate", folder, "--json", "--fixed"], capture_output=True, text=True, timeout=300)
    assert run.returncode == 0, run.stderr
    assert [row["seconds"] for row in json.loads(run.stdout)["rows"]] == [0.5, 1.0, 1.5]


def test_a_table_of_datasets_of_different_lengths_says_how_many_each_column_counts(noisetag_bin, dataset, tmp_path):
    folder = str(tmp_path / "short")
    made = subprocess.run([noisetag_bin, "decoder", "simulate", "--out", folder, "--trials", "20", "--seconds", "1.5", "--seed", "2"],
                          capture_output=True, text=True, timeout=300)
    assert made.returncode == 0, made.stderr
    run = subprocess.run([noisetag_bin, "decoder", "evaluate", dataset, folder, "--fixed"], capture_output=True, text=True, timeout=300)
    assert run.returncode == 0, run.stderr
    lines = run.stdout.splitlines()
    table = lines[next(i for i, l in enumerate(lines) if l.startswith("2 datasets")):]
    assert table[1].split()[-10:] == ["0.5", "s", "1", "s", "1.5", "s", "2", "s", "4", "s"], table
    assert table[-1].startswith("datasets counted") and table[-1].split()[-5:] == ["2", "2", "1", "1", "1"], table
