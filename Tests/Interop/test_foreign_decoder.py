"""A decoder nobody here wrote in the loop: MindAffect's hub and MindAffect's
own decoder (mindaffectBCI 0.9.24, numpy and scipy), our simulated amplifier
streaming the simulated subject into the hub (`noisetag decoder amplifier`),
and our engine as the presentation over `utopia://`: calibration with
MindAffect's decoder, then Test trials in which its predictions become our
presses. The same subject, goals and settings then run against the
reference decoder, and both are reported side by side. All of it runs in a
loopback-only network namespace (foreign_decoder_scenario.py)."""
import json
import os
import re
import shutil
import subprocess
import sys

import pytest

HERE = os.path.dirname(os.path.abspath(__file__))
GOALS = [3, 1, 4, 2, 4, 1]


def test_mindaffects_decoder_calibrates_on_our_engine_and_its_predictions_become_presses(noisetag_bin, tmp_path):
    for tool in ("java", "unshare"):
        if shutil.which(tool) is None:
            pytest.skip("%s is not installed (make test installs it)" % tool)
    pytest.importorskip("scipy")
    result = subprocess.run(["unshare", "-n", sys.executable, os.path.join(HERE, "foreign_decoder_scenario.py"),
                             "--noisetag", noisetag_bin, "--folder", str(tmp_path), "--training", "8", "--snr", "0.1",
                             "--seed", "5", "--goals", ",".join(map(str, GOALS))],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, timeout=420)
    assert result.returncode == 0, result.stderr.decode()[-3000:]
    report = json.loads(result.stdout.decode().strip().split("\n")[-1])
    assert not report["problems"], report["problems"]
    theirs, ours = report["mindaffect"], report["reference"]
    assert theirs["exit"] == 0 and ours["exit"] == 0, report
    # MindAffect's decoder calibrated (its cross-validated fit is in its log) and predicted in every Test trial;
    # each of those trials ended in a press of the object its predictions named.
    fit = [line for line in report["mindaffect_log"] if "clsfr=" in line]
    assert fit, report["mindaffect_log"]
    assert report["mindaffect_predictions"] > 0
    assert theirs["test_trials"] == len(GOALS), theirs
    assert all(ending in ("pressed-brain", "pressed-timeout") for ending in theirs["endings"]), theirs
    # The reference decoder on the same subject and settings.
    assert ours["test_trials"] == len(GOALS) and ours["correct"] >= 0.75 * len(GOALS), ours
    score = re.search(r"=> ([0-9.]+)", fit[-1]).group(1)
    print("same simulated subject (seed 5, SNR 0.1), 8 calibration trials, %d Test trials:" % len(GOALS))
    print("  MindAffect decoder: cross-validated score %.2f; correct presses %d of %d (%s)"
          % (float(score), theirs["correct"], len(GOALS), ", ".join(sorted(set(theirs["endings"])))))
    print("  reference decoder:  %s; correct presses %d of %d (%s)"
          % (report["reference_log"][-1] if report["reference_log"] else "?", ours["correct"], len(GOALS),
             ", ".join(sorted(set(ours["endings"])))))
