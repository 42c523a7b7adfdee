"""The apps in Examples/, built beside `noisetag`, run as a user would run them.

- The README's one Swift sample is `Examples/BrainButtons/main.swift`, word for
  word, so the sample a reader copies is one that compiles (the build made it)
  and works: run, it calibrates on the embedded reference decoder with its
  simulated user and types YES by brain, and its recording ends "App ended".
- `YesNoQuestion` answers its question on an external decoder process (the
  reference decoder with its own simulated amplifier, whose user looks at Yes).

Every process is started with a bounded wait and ended at teardown.
"""
import os
import re
import signal
import subprocess
import time

import pytest

from interop_harness import stop_process

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def example(noisetag_bin, name):
    path = os.path.join(os.path.dirname(noisetag_bin), name)
    if not os.path.exists(path):
        pytest.fail("%s is not built beside %s (swift build builds every product)" % (name, noisetag_bin))
    return path


def test_the_readme_sample_is_the_brain_buttons_example():
    readme = open(os.path.join(ROOT, "README.md"), encoding="utf-8").read()
    blocks = re.findall(r"```swift\n(.*?)```", readme, re.S)
    source = open(os.path.join(ROOT, "Examples", "BrainButtons", "main.swift"), encoding="utf-8").read()
    assert len(blocks) == 1, "the README shows one complete example"
    assert blocks[0] == source, "README.md's sample differs from Examples/BrainButtons/main.swift"


def test_both_examples_work(noisetag_bin, tmp_path, socket_folder):
    """BrainButtons types YES on its embedded decoder; YesNoQuestion gets its
    answer from an external decoder. The two run side by side (each about a
    minute of calibration and typing)."""
    endpoint = "ipc://%s/decoder.sock" % socket_folder
    decoder = subprocess.Popen([noisetag_bin, "decoder", "--endpoint", endpoint, "--simulate", "--snr", "0.1",
                                "--user", "goal:1,1,1,1,1,1", "--no-save"],
                               stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    pipes = dict(stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    buttons = question = None
    try:
        buttons = subprocess.Popen([example(noisetag_bin, "BrainButtons")],
                                   env=dict(os.environ, NOISETAG_HOME=str(tmp_path / "buttons")), **pipes)
        question = subprocess.Popen([example(noisetag_bin, "YesNoQuestion"), endpoint],
                                    env=dict(os.environ, NOISETAG_HOME=str(tmp_path / "question")), **pipes)
        out, err = (text.decode() for text in buttons.communicate(timeout=200))
        assert buttons.returncode == 0, out[-3000:] + err[-2000:]
        assert "mode Test (TrainGeneric finished after 10 trials)" in out, out[-3000:]
        presses = re.findall(r"pressed (\S+) by brain", out)
        assert 3 <= len(presses) <= 7, out[-3000:]   # Y, E, S and at most two wrong presses, each deleted
        assert "typed: YES" in out
        recordings = os.listdir(tmp_path / "buttons" / "recordings")
        assert any("App ended" in name for name in recordings), recordings

        out, err = (text.decode() for text in question.communicate(timeout=200))
        assert question.returncode == 0, out[-3000:] + err[-2000:]
        assert "answer: yes" in out and "decoder connected" in out, out[-3000:]
    finally:
        for process in (buttons, question):
            stop_process(process, grace=5)
        stop_process(decoder, sig=signal.SIGINT, grace=10)


def test_yes_no_question_names_a_bad_endpoint(noisetag_bin, tmp_path):
    env = dict(os.environ, NOISETAG_HOME=str(tmp_path / "home"))
    result = subprocess.run([example(noisetag_bin, "YesNoQuestion"), "carrier-pigeon://loft"], env=env,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, timeout=30)
    err = result.stderr.decode()
    assert result.returncode == 2, err
    assert err.startswith("YesNoQuestion:") and "carrier-pigeon://loft" in err, err


@pytest.mark.parametrize("name", ["BrainButtons", "YesNoQuestion"])
def test_help_prints_the_usage_and_starts_nothing(noisetag_bin, tmp_path, name):
    home = tmp_path / "home"
    env = dict(os.environ, NOISETAG_HOME=str(home))
    run = lambda *args: subprocess.run([example(noisetag_bin, name), *args], env=env,
                                       stdout=subprocess.PIPE, stderr=subprocess.PIPE, timeout=30)
    helped = run("--help")
    assert helped.returncode == 0, helped.stderr.decode()
    assert helped.stdout.decode().startswith("usage: " + name)
    wrong = run("--frobnicate", "now")
    assert wrong.returncode == 64
    assert "usage: " + name in (wrong.stdout + wrong.stderr).decode()
    # Nothing ran: no recording was opened (one left open would read as crashed).
    assert not (home / "recordings").exists() or not os.listdir(home / "recordings")


@pytest.mark.parametrize("name,sig,status,summary", [
    ("BrainButtons", signal.SIGINT, 1, "typed: "),
    ("BrainButtons", signal.SIGTERM, 1, "typed: "),
    ("YesNoQuestion", signal.SIGINT, 130, "answer: none (stopped by interrupt)"),
    ("YesNoQuestion", signal.SIGTERM, 143, "answer: none (stopped by terminate)"),
])
def test_an_example_stopped_by_a_signal_ends_its_recording(noisetag_bin, tmp_path, socket_folder, name, sig, status, summary):
    # Both examples catch SIGINT and SIGTERM: the loop ends, the recording closes "App ended", the summary prints.
    home = tmp_path / "home"
    args = [example(noisetag_bin, name)] + (["ipc://%s/nobody.sock" % socket_folder] if name == "YesNoQuestion" else [])
    app = subprocess.Popen(args, env=dict(os.environ, NOISETAG_HOME=str(home)), stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    try:
        # Its standard output is a pipe, so buffered: the recording's folder tells that the app runs.
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline and not (home / "recordings").is_dir():
            time.sleep(0.1)
        time.sleep(1.5)                                 # into the frame loop
        app.send_signal(sig)
        out, err = (text.decode() for text in app.communicate(timeout=30))
    finally:
        stop_process(app, grace=5)
    assert app.returncode == status, out + err
    assert summary in out, out
    recordings = os.listdir(home / "recordings")
    assert any("App ended" in name for name in recordings), recordings
