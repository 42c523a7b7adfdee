"""`scripts/compare-pyntbci` against pyntbci 1.9.0 on a seeded simulated dataset: its rows and ratios, its
nested row, and pyntbci's rCCA fitted on the same trials finding the responses noisetag finds."""
import json
import os
import subprocess
import sys

import numpy as np

from conftest import ROOT


def test_compare_pyntbci_prints_both_rows_and_ratios(noisetag_bin, dataset):
    run = subprocess.run([sys.executable, os.path.join(ROOT, "scripts", "compare-pyntbci"), dataset, dataset,
                          "--noisetag", noisetag_bin], capture_output=True, text=True, timeout=600)
    assert run.returncode == 0, run.stderr
    lines = {line.split()[0]: line.split()[1:] for line in run.stdout.splitlines() if line.split()}
    assert len(lines["noisetag"]) == 5 and len(lines["pyntbci"]) == 5 and len(lines["ratio"]) == 5
    pyntbci_at_2s = float(lines["pyntbci"][2])
    assert pyntbci_at_2s > 0.5, "pyntbci decodes the simulated data too"
    # Both are deterministic on a seeded dataset: noisetag (whitened scores) is at least as accurate at every length.
    ours, theirs = [float(v) for v in lines["noisetag"][:4]], [float(v) for v in lines["pyntbci"][:4]]
    assert all(a >= b for a, b in zip(ours, theirs)), (ours, theirs)
    # noisetag's mean lead over pyntbci's best of four, as the printed rows give it (three decimals).
    leads = [line for line in run.stdout.splitlines() if line.startswith("mean lead of noisetag")][0]
    cells = leads.split(": ")[1].split(", ")
    assert [c.split("@")[1] for c in cells] == ["0.5s (2)", "1s (2)", "2s (2)", "4s (2)"], leads
    for cell, a, b in zip(cells, ours, theirs):
        assert abs(float(cell.split("@")[0]) - 100 * (a - b)) < 0.16, (leads, cell)
    # The same dataset twice: the pooled wrong-trial counts are twice one dataset's.
    single = [line for line in run.stdout.splitlines() if line.startswith("noisetag: latency")][0]
    pooled = [line for line in run.stdout.splitlines() if line.startswith("pooled over 2 datasets")]
    assert pooled, run.stdout
    actual_at_half = float(single.split("predicted/actual error ")[1].split("/")[1].split("@")[0]) * 45
    assert pooled[0].split(": ")[1].split(",")[0].split("/")[1].startswith("%.0f@0.5s" % (2 * actual_at_half)), pooled[0]


def load_compare_script():
    import importlib.machinery
    import importlib.util
    loader = importlib.machinery.SourceFileLoader("compare_pyntbci", os.path.join(ROOT, "scripts", "compare-pyntbci"))
    spec = importlib.util.spec_from_loader("compare_pyntbci", loader)
    module = importlib.util.module_from_spec(spec)
    loader.exec_module(module)
    return module


def test_compare_pyntbci_nested_row_chooses_from_training_trials_alone(dataset):
    """--nested: pyntbci picks its variant per fold by inner cross-validation; offered the filtered EEG and the
    same EEG with its trials shuffled against their labels, it takes the EEG in every fold and scores as that
    variant fixed."""
    compare = load_compare_script()
    h, X, y, V = compare.read_dataset(dataset)
    X = compare.preprocess(dataset, h, X)   # the simulator's drift needs the high-pass
    h = dict(h, n_trials=30)
    X, y = X[:30], y[:30]
    scrambled = X[np.random.default_rng(0).permutation(30)]
    nested = compare.nested_row(h, [("scrambled", ("refe", False, scrambled)), ("eeg", ("refe", False, X))], y, V)
    assert nested["chosen"] == ["eeg"] * 5, nested["chosen"]
    fixed = compare.pyntbci_row(h, X, y, V, "refe", False)
    assert [r["accuracy"] for r in nested["rows"]] == [r["accuracy"] for r in fixed["rows"]]
    assert fixed["rows"][2]["accuracy"] > 0.5


def test_the_fitted_model_matches_pyntbci_rcca(noisetag_bin, dataset):
    """Same preprocessed trials, same latency: pyntbci's rCCA finds the same responses and spatial pattern."""
    import pyntbci
    run = subprocess.run([noisetag_bin, "decoder", "evaluate", dataset, "--json", "--fixed"], capture_output=True, text=True,
                         timeout=600)
    assert run.returncode == 0, run.stderr
    ours = json.loads(run.stdout)
    compare = load_compare_script()
    h, X, y, V = compare.read_dataset(dataset)
    X = compare.preprocess(dataset, h, X)
    train = np.arange(0, 4 * h["n_trials"] // 5)  # the last fold's training trials, whose model the report shows
    latency = ours["latencies"][-1]
    model = pyntbci.classifiers.rCCA(stimulus=V, fs=int(h["fs"]), event="refe", encoding_length=0.3, gamma_m=0.01,
                                     tmin=latency)
    model.fit(X[train], y[train])
    theirs = model.r_[:, 0].reshape(2, -1)
    for event in range(2):
        r = np.corrcoef(theirs[event], ours["kernels"][event])[0, 1]
        assert abs(r) > 0.99, f"event {event}: kernel correlation {r}"
    Xt = X[train].transpose(1, 0, 2).reshape(h["n_channels"], -1)
    pattern = np.cov(Xt) @ model.w_[:, 0]
    r = np.corrcoef(pattern, ours["spatialPattern"])[0, 1]
    assert abs(r) > 0.99, f"spatial pattern correlation {r}"
