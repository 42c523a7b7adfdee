"""`noisetag demo` full screen in a real terminal (a detached tmux pane with a
private server): the signal view, the flickering keyboard and header, a touch
press by label key, the developer panel, a window below the minimum size and
back, and `q` restoring the terminal with the recording closed ("App ended");
and the demo's user `none`, listening for a real amplifier streamer.

Every process is started with a bounded wait and killed at teardown.
"""
import glob
import json
import os
import re
import subprocess
import time

import pytest

from test_demo import QUICK_SETTINGS


KEY_ROWS = [["A", "B", "C", "D", "E", "F", "G"], ["H", "I", "J", "K", "L", "M", "N"],
            ["O", "P", "Q", "R", "S", "T", "U"], ["V", "W", "X", "Y", "Z", "space", "del"]]


def shell(tmux, *options):
    """A bash prompt (PROMPT$) in a 100×30 pane, to run the demo from as a user would."""
    tmux.start(100, 30, "env PS1='PROMPT$ ' bash --norc --noprofile " + " ".join(options))
    assert tmux.wait(lambda: "PROMPT$" in tmux.capture(), 10)


def keyboard_rows(text):
    return [words for words in (line.split() for line in text.split("\n")) if words in KEY_ROWS]


def keyboard_area(colored):
    """The coloured capture's lines from the first to the last keyboard row."""
    lines = colored.split("\n")
    plain = [re.sub(r"\x1b\[[0-9;]*m", "", line) for line in lines]
    rows = [i for i, line in enumerate(plain) if line.split() in KEY_ROWS]
    return "\n".join(lines[rows[0] - 1: rows[-1] + 2]) if rows else ""


def test_terminal_demo_under_tmux(noisetag_bin, tmux, tmp_path):
    settings = tmp_path / "settings.json"
    settings.write_text(json.dumps(QUICK_SETTINGS))
    recordings = tmp_path / "rec"
    shell(tmux)
    tmux.keys("S=$(stty -g); env TERM=xterm-256color COLORTERM=truecolor '%s' demo --signal-check 3 "
              "--calibration-trials 5 --settings '%s' --recordings '%s'; echo EXIT=$?; "
              "[ \"$(stty -g)\" = \"$S\" ] && echo TTY=same || echo TTY=changed\n" % (noisetag_bin, settings, recordings))

    # The signal check: a trace, spectrum and quality per simulated channel.
    assert tmux.wait(lambda: tmux.alternate_screen() and "sim8" in tmux.capture(), 15), tmux.capture()
    screen = tmux.capture()
    assert "Signal check" in screen and "SignalQuality" in screen and "Hz" in screen
    assert not re.search(r"\bnan\b", screen, re.IGNORECASE)

    # Calibration: the keyboard flickers under a header naming mode, trial and decoder.
    assert tmux.wait(lambda: "Calibration: trial" in tmux.capture() and len(keyboard_rows(tmux.capture())) == 4, 15), tmux.capture()
    screen = tmux.capture()
    assert "TrainGeneric" in screen and "decoder connected" in screen and "missed" in screen
    assert "q quit" in screen
    assert tmux.wait(lambda: "flicker" in tmux.capture().split("\n")[0], 10)
    first = keyboard_area(tmux.capture(colors=True))
    assert "38;2;" in first or "48;2;" in first, "24-bit colour escape sequences"
    assert tmux.wait(lambda: keyboard_area(tmux.capture(colors=True)) != first, 5), "the keys' colours change: they flicker"

    # The developer panel lists the settings and closes again.
    tmux.keys("d")
    assert tmux.wait(lambda: "Developer panel" in tmux.capture(), 5), tmux.capture()
    assert "certaintyRequiredForPress" in tmux.capture()
    tmux.keys("d")
    assert tmux.wait(lambda: len(keyboard_rows(tmux.capture())) == 4, 5), tmux.capture()

    # Too small a window: a message until it is enlarged again.
    tmux.resize(40, 12)
    assert tmux.wait(lambda: "Terminal too small" in tmux.capture(), 5), tmux.capture()
    tmux.resize(100, 30)
    assert tmux.wait(lambda: len(keyboard_rows(tmux.capture())) == 4, 5), tmux.capture()

    # Spelling (five short calibration trials may leave the decoder at its ceiling threshold, so the
    # brain may not type here: the headless test covers that); a touch press on Q shows in the typed text.
    assert tmux.wait(lambda: re.search(r"Spelling by brain|Next trial|Pressed", tmux.capture()) is not None, 90), \
        tmux.capture()
    # A touch during a press's feedback is refused (and says so): try again until one is taken.
    def touched():
        tmux.keys("Q")
        return tmux.wait(lambda: re.search(r"Typed [A-Z ]*Q", tmux.capture()) is not None, 1.5)
    assert any(touched() for _ in range(6)), tmux.capture()

    # r: calibration again, in a new recording.
    before = len(os.listdir(recordings))
    tmux.keys("r")
    assert tmux.wait(lambda: "Calibration: trial 1 of 5" in tmux.capture(), 10), tmux.capture()
    assert tmux.wait(lambda: len(os.listdir(recordings)) == before + 1, 5), sorted(os.listdir(recordings))

    # q: the shell's screen and terminal modes come back, and the recording is closed with its right part.
    tmux.keys("q")
    assert tmux.wait(lambda: re.search(r"EXIT=\d", tmux.capture()) and re.search(r"TTY=(same|changed)", tmux.capture()), 15), \
        tmux.capture()
    screen = tmux.capture()
    assert "EXIT=0" in screen and "TTY=same" in screen, screen
    assert not tmux.alternate_screen()
    names = sorted(os.listdir(recordings))
    assert any("App ended" in name for name in names), names
    # Back in the shell: the summary, and where the recordings went, the last one by its closed name.
    assert "summary:" in screen and "touch presses: " in screen, screen
    assert "recordings in %s" % recordings in screen.replace("\n", ""), screen
    closed = max((n for n in names if "App ended" in n), key=len)
    assert closed[:40] in screen, screen
    # The too-small window blocked trials (the keys could not be seen) until it was enlarged again.
    events = [json.loads(line) for name in names if name != "decoder-calibrations"
              for line in open(os.path.join(recordings, name, "events.jsonl"))]
    client = [i for i, e in enumerate(events) if e["type"] in ("blocked", "unblocked") and e.get("reason") == "client"]
    # (tmux may pass through sizes on the way: the block may come and go more than once.)
    assert client and [events[i]["type"] for i in client] == ["blocked", "unblocked"] * (len(client) // 2), \
        [events[i] for i in client]
    assert not any(e["type"] == "trialStarted" for e in events[client[0]:client[1]])
    assert any("developer panel" in name.lower() for name in names), names


def test_user_none_listens_for_a_real_amplifier_streamer(noisetag_bin, tmp_path, socket_folder):
    """`--user none`: the embedded decoder takes EEG from an acquisition client
    (BrainFlow's synthetic board through Examples/acquisition_streamer.py)."""
    pytest.importorskip("brainflow")
    import sys
    endpoint = "ipc://%s/decoder.sock" % socket_folder
    settings = tmp_path / "settings.json"
    settings.write_text(json.dumps({"decoderEndpoint": endpoint}))
    demo = subprocess.Popen([noisetag_bin, "demo", "--headless", "--user", "none", "--signal-check", "60",
                             "--settings", str(settings), "--recordings", str(tmp_path / "rec")],
                            stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
    streamer = None
    try:
        deadline = time.time() + 20
        while not os.path.exists(endpoint[len("ipc://"):]) and time.time() < deadline:
            time.sleep(0.05)
        # The decoder logs the EEG's format when the streamer's DATAHEADER arrives: the engine must hear it,
        # so the streamer starts once the engine is connected (its recording says so).
        def engine_connected():
            for events in glob.glob(os.path.join(str(tmp_path / "rec"), "*", "events.jsonl")):
                with open(events) as f:
                    if '"state":"connected"' in f.read():
                        return True
            return False
        while not engine_connected() and time.time() < deadline:
            time.sleep(0.05)
        root = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
        streamer = subprocess.run([sys.executable, os.path.join(root, "Examples", "acquisition_streamer.py"),
                                   "--endpoint", endpoint, "--duration", "4"],
                                  stdout=subprocess.PIPE, stderr=subprocess.STDOUT, timeout=60)
        assert streamer.returncode == 0, streamer.stdout.decode()[-2000:]
        time.sleep(0.5)
    finally:
        demo.send_signal(2)
        try:
            out = demo.communicate(timeout=15)[0].decode()
        except subprocess.TimeoutExpired:
            demo.kill()
            out = demo.communicate(timeout=5)[0].decode()
    assert demo.returncode == 130, out[-3000:]
    assert "waiting for an acquisition client" in out, out[-3000:]
    eeg = [line for line in out.split("\n") if "decoder: EEG:" in line]
    assert eeg and "simulated" not in eeg[0], out[-3000:]


def test_terminal_demo_with_an_external_decoder(noisetag_bin, tmux, tmp_path, socket_folder):
    """`--decoder ENDPOINT`: the same screen driven by a decoder process (here the
    reference decoder with its own simulated amplifier, whose user looks at the cued target)."""
    endpoint = "ipc://%s/decoder.sock" % socket_folder
    decoder = subprocess.Popen([noisetag_bin, "decoder", "--endpoint", endpoint, "--simulate", "--no-save"],
                               stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        settings = tmp_path / "settings.json"
        settings.write_text(json.dumps(QUICK_SETTINGS))
        shell(tmux)
        tmux.keys("env TERM=xterm-256color COLORTERM=truecolor '%s' demo --decoder '%s' --signal-check 2 "
                  "--calibration-trials 5 --settings '%s' --recordings '%s'; echo EXIT=$?\n"
                  % (noisetag_bin, endpoint, settings, tmp_path / "rec"))
        assert tmux.wait(lambda: "the external decoder's EEG is not shown here" in tmux.capture(), 15), tmux.capture()
        assert tmux.wait(lambda: "Calibration: trial 1 of 5" in tmux.capture(), 15), tmux.capture()
        assert "decoder connected" in tmux.capture()
        # The external decoder fits and recommends a threshold; the demo shows its results.
        assert tmux.wait(lambda: "Calibration results" in tmux.capture(), 60), tmux.capture()
        assert "(recommended by the decoder)" in tmux.capture()
        tmux.keys("q")
        assert tmux.wait(lambda: re.search(r"EXIT=\d", tmux.capture()), 15), tmux.capture()
        assert "EXIT=0" in tmux.capture()
    finally:
        if decoder.poll() is None:
            decoder.send_signal(2)
            try:
                decoder.wait(10)
            except subprocess.TimeoutExpired:
                decoder.kill()
                decoder.wait(5)


def test_full_screen_demo_stops_after_max_seconds(noisetag_bin, tmux, tmp_path):
    # --max-seconds bounds the full-screen demo as it bounds the headless one: exit 2, the terminal
    # restored, the recording ended properly.
    recordings = tmp_path / "rec"
    shell(tmux)
    tmux.keys("env TERM=xterm-256color COLORTERM=truecolor '%s' demo --max-seconds 3 --recordings '%s'; echo EXIT=$?\n"
              % (noisetag_bin, recordings))
    assert tmux.wait(lambda: re.search(r"EXIT=\d", tmux.capture()), 20), tmux.capture()
    screen = tmux.capture()
    assert "EXIT=2" in screen and "stopped after --max-seconds 3.0 s" in screen, screen
    assert not tmux.alternate_screen()
    assert any("App ended" in name for name in os.listdir(recordings)), os.listdir(recordings)


def test_a_closed_terminal_ends_the_demo_cleanly(noisetag_bin, tmux, tmp_path):
    # The terminal goes away (a window closed, an SSH link dropped): SIGHUP, then every write to it fails.
    # The demo ends by its own path (exit 129), the recording closed, and writes no crash report.
    recordings, status, errors = tmp_path / "rec", tmp_path / "status", tmp_path / "stderr"
    wrapper = tmp_path / "wrap.py"
    wrapper.write_text("import signal, subprocess, sys\n"
                       "signal.signal(signal.SIGHUP, signal.SIG_IGN)\n"
                       "err = open(sys.argv[2], 'w')\n"
                       "p = subprocess.Popen(sys.argv[3:], stderr=err,\n"
                       "                     preexec_fn=lambda: signal.signal(signal.SIGHUP, signal.SIG_DFL))\n"
                       "open(sys.argv[1], 'w').write(str(p.wait()))\n")
    tmux.start(100, 30, "env TERM=xterm-256color COLORTERM=truecolor python3 '%s' '%s' '%s' '%s' demo --signal-check 0 "
               "--recordings '%s'" % (wrapper, status, errors, noisetag_bin, recordings))
    assert tmux.wait(lambda: "trial 1" in tmux.capture(), 30), tmux.capture()
    tmux.run("kill-session", "-t", "t")
    deadline = time.time() + 20
    while time.time() < deadline and not (status.exists() and status.read_text()):
        time.sleep(0.1)
    assert status.read_text() == "129", (status.read_text(), errors.read_text())
    assert "Fatal error" not in errors.read_text(), errors.read_text()
    assert any("App ended" in name for name in os.listdir(recordings)), os.listdir(recordings)


def test_an_unwritable_recordings_folder_is_said_and_nothing_is_listed(noisetag_bin, tmux, tmp_path):
    # A file where the recordings folder should be: the full-screen demo runs on, says on standard error that
    # recording is off, as the headless one does, and lists no recording that does not exist.
    blocker, errors = tmp_path / "afile", tmp_path / "stderr"
    blocker.write_text("")
    shell(tmux)
    tmux.keys("env TERM=xterm-256color COLORTERM=truecolor '%s' demo --max-seconds 3 --recordings '%s' 2>'%s'; echo EXIT=$?\n"
              % (noisetag_bin, blocker, errors))
    assert tmux.wait(lambda: re.search(r"EXIT=\d", tmux.capture()), 20), tmux.capture()
    screen = tmux.capture()
    assert "EXIT=2" in screen and "recordings in" not in screen, screen
    assert "noisetag demo: recording is off: " in errors.read_text(), errors.read_text()
    assert blocker.read_text() == ""


def test_ctrl_z_suspends_and_fg_brings_the_demo_back_whole(noisetag_bin, tmux, tmp_path):
    # Ctrl-Z in a shell with job control: the terminal goes back to the shell (main screen, its own mode), the
    # trial under way stops; `fg` brings the full screen back, drawn whole, and the demo goes on to quit with q.
    recordings = tmp_path / "rec"
    shell(tmux, "-i")
    # No `; echo` after it: bash goes on with a list when its job stops; `fg` gives the job's status instead.
    tmux.keys("env TERM=xterm-256color COLORTERM=truecolor '%s' demo --signal-check 0 --recordings '%s'\n"
              % (noisetag_bin, recordings))
    assert tmux.wait(lambda: "Calibration: trial 1 of" in tmux.capture(), 30), tmux.capture()
    tmux.run("send-keys", "-t", "t", "C-z")
    assert tmux.wait(lambda: "Stopped" in tmux.capture() and not tmux.alternate_screen(), 10), tmux.capture()
    tmux.keys("fg; echo EXIT=$?\n")
    assert tmux.wait(lambda: tmux.alternate_screen() and keyboard_rows(tmux.capture()) == KEY_ROWS, 10), tmux.capture()
    assert tmux.wait(lambda: "Calibration: trial" in tmux.capture(), 30), tmux.capture()
    tmux.keys("q")
    assert tmux.wait(lambda: re.search(r"EXIT=\d", tmux.capture()), 20), tmux.capture()
    assert "EXIT=0" in tmux.capture() and not tmux.alternate_screen(), tmux.capture()
    assert any("App ended" in name for name in os.listdir(recordings)), os.listdir(recordings)
