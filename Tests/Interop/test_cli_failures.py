"""`noisetag` failures as a user sees them: a failure at run time (no decoder,
an unreadable file, a missing folder) is one line on stderr naming the thing
and the reason, exit 1, no usage text; a wrong argument gets the usage text
and exit 64 (argument-parser's ValidationError)."""
import json
import os
import socket
import subprocess
import time

import pytest
from conftest import ROOT


def run(binary, *args, timeout=30):
    return subprocess.run([binary, *args], stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                          stderr=subprocess.PIPE, timeout=timeout)


def one_line_failure(result, *names):
    """Exit 1 and exactly one stderr line, without usage text, naming every one of `names`."""
    stderr = result.stderr.decode(errors="replace")
    lines = stderr.strip().splitlines()
    assert result.returncode == 1, (result.returncode, stderr)
    assert len(lines) == 1, stderr
    assert "Usage" not in stderr
    for name in names:
        assert name in lines[0], (name, lines[0])
    return lines[0]


def free_tcp_port():
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def test_demo_without_a_decoder_says_none_answered_and_exits_1(noisetag_bin, tmp_path):
    endpoint = "tcp://127.0.0.1:%d" % free_tcp_port()   # nothing listens there
    result = run(noisetag_bin, "demo", "--headless", "--decoder", endpoint, "--connect-timeout", "1",
                 "--recordings", str(tmp_path / "recordings"))
    line = one_line_failure(result, endpoint)
    assert "no decoder answered" in line


def test_scripted_demo_whose_decoder_dies_mid_run_says_so_and_ends_its_recording(noisetag_bin, tmp_path, socket_folder):
    # A decoder killed after the first trial started: the run must not wait for ever (--max-seconds 0),
    # but give up after --connect-timeout without it, with one line, and end the recording properly.
    endpoint = "ipc://%s/decoder.sock" % socket_folder
    decoder = subprocess.Popen([noisetag_bin, "decoder", "--endpoint", endpoint], stdin=subprocess.DEVNULL,
                               stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    recordings = tmp_path / "recordings"
    # The decoder binds before the demo starts: its start-up on a busy machine is not what this test times.
    deadline = time.monotonic() + 30
    while not os.path.exists("%s/decoder.sock" % socket_folder) and time.monotonic() < deadline and decoder.poll() is None:
        time.sleep(0.05)
    demo = subprocess.Popen([noisetag_bin, "demo", "--headless", "--decoder", endpoint, "--trials", "30",
                             "--max-seconds", "0", "--connect-timeout", "2", "--recordings", str(recordings)],
                            stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    try:
        for line in demo.stdout:        # bounded by the demo's --connect-timeout when the decoder never answers
            if b"trial 1 Test" in line:
                break
        decoder.kill()
        decoder.wait(timeout=10)
        out, err = demo.communicate(timeout=60)
    finally:
        for process in (decoder, demo):
            if process.poll() is None:
                process.kill()
                process.wait()
    stderr = err.decode(errors="replace").strip().splitlines()
    assert demo.returncode == 1, (demo.returncode, stderr)
    assert len(stderr) == 1 and endpoint in stderr[0] and "was lost after 0 of 30 trials" in stderr[0], stderr
    assert "--connect-timeout 2" in stderr[0]
    (folder,) = [f for f in recordings.iterdir() if f.is_dir()]
    assert " – App ended " in folder.name, folder.name
    last = json.loads((folder / "events.jsonl").read_text().splitlines()[-1])
    assert last["type"] == "recordingEnded" and last["reason"] == "App ended"


def test_scripted_demo_with_more_buttons_than_codes_fails_at_once(noisetag_bin, tmp_path, socket_folder):
    # 255 buttons on the built-in 65-code book: no trial could start. The run says so (exit 1) before it
    # waits for a decoder: none is running here, and the message is not the connect timeout's.
    endpoint = "ipc://%s/decoder.sock" % socket_folder
    result = run(noisetag_bin, "demo", "--headless", "--decoder", endpoint, "--trials", "1", "--controls", "255",
                 "--recordings", str(tmp_path / "recordings"), timeout=60)
    one_line_failure(result, "--controls 255: the codebook built in has 65 codes, one a button")


def test_demo_with_an_unreadable_settings_file_exits_1(noisetag_bin, tmp_path):
    missing = str(tmp_path / "nope.json")
    one_line_failure(run(noisetag_bin, "demo", "--headless", "--settings", missing, "--decoder", "tcp://127.0.0.1:1",
                         "--recordings", str(tmp_path / "recordings")), missing)


def test_demo_with_an_ipc_endpoint_in_a_missing_folder_exits_1(noisetag_bin, tmp_path, socket_folder):
    # socket_folder: a short path, so that the socket path fits and the missing folder is what is reported.
    folder = os.path.join(socket_folder, "no-such-folder")
    one_line_failure(run(noisetag_bin, "demo", "--headless", "--decoder", "ipc://%s/decoder.sock" % folder,
                         "--recordings", str(tmp_path / "recordings")), folder, "does not exist")


def test_codes_inspect_of_a_missing_file_exits_1(noisetag_bin, tmp_path):
    missing = str(tmp_path / "codes.txt")
    one_line_failure(run(noisetag_bin, "codes", "inspect", missing), missing, "no such file")


def test_codes_inspect_of_a_malformed_file_names_file_line_and_column(noisetag_bin, tmp_path):
    path = tmp_path / "codes.txt"
    path.write_text("0\t1\nx\t1\n")
    one_line_failure(run(noisetag_bin, "codes", "inspect", str(path)), "%s:2:1" % path)


def test_codes_generate_into_a_missing_folder_exits_1(noisetag_bin, tmp_path):
    out = str(tmp_path / "missing" / "codes.txt")
    one_line_failure(run(noisetag_bin, "codes", "generate", "--kind", "mgold", "--out", out), out)


@pytest.mark.parametrize("command", ["list", "show"])
def test_recordings_in_a_missing_folder_exit_1(noisetag_bin, tmp_path, command):
    folder = str(tmp_path / "no-recordings-here")
    args = ["recordings", command, "--recordings", folder] + (["2019"] if command == "show" else [])
    one_line_failure(run(noisetag_bin, *args), folder, "no such folder")


def test_recordings_show_of_an_unknown_name_exits_1(noisetag_bin, tmp_path):
    one_line_failure(run(noisetag_bin, "recordings", "show", "1999-01-01", "--recordings", str(tmp_path)), "1999-01-01")


@pytest.mark.parametrize("args", [
    ["demo", "--headless", "--trials", "0"],
    ["demo", "--headless", "--decoder", "bogus://x"],
    ["demo", "--headless", "--decoder", "ipc:///tmp/elsewhere.sock", "--decoder-settings", "decoder.json"],
    ["codes", "generate", "--kind", "mgold", "--poly", "10x"],
    ["codes", "generate", "--kind", "mgold", "--rate", "1e-320"],
    ["bench", "frames", "--controls", "9,,36"],
    ["bench", "terminal", "--controls", "36,"],
    ["codes", "inspect"],
])
def test_wrong_arguments_get_the_usage_text_and_exit_64(noisetag_bin, args):
    result = run(noisetag_bin, *args)
    assert result.returncode == 64, result.stderr
    assert "Usage: noisetag" in result.stderr.decode(errors="replace")


@pytest.mark.parametrize("args, message", [
    (["decoder", "--endpoint", "inproc://x"], "--endpoint inproc://x: inproc:// reaches only within one process"),
    (["decoder", "stream", "x.txt", "--endpoint", "inproc://x"], "--endpoint inproc://x: inproc:// reaches only within one process"),
    (["demo", "--headless", "--decoder", "inproc://x"], "--decoder inproc://x: inproc:// reaches only within one process"),
    (["decoder", "--endpoint", ""], "--endpoint: empty (leave it out for the default)"),
    (["decoder", "stream", "x.txt", "--endpoint", " "], "--endpoint: empty (leave it out for the default)"),
    (["decoder", "stream", "x.txt", "--certainty", "1"], "--certainty 1.0: must be above 0 and below 1"),
])
def test_endpoints_no_other_process_reaches_are_refused_by_name(noisetag_bin, args, message):
    result = run(noisetag_bin, *args)
    assert result.returncode == 64, result.stderr
    assert message in result.stderr.decode(errors="replace"), result.stderr


def test_decoder_with_a_wrong_user_script_is_a_usage_error(noisetag_bin):
    result = run(noisetag_bin, "decoder", "--simulate", "--user", "sideways")
    assert result.returncode == 64, result.stderr
    assert b"--user" in result.stderr


def test_decoder_simulation_options_without_simulate_are_a_usage_error(noisetag_bin):
    # Without --simulate the decoder reads acquisition clients: a simulated subject's options would be ignored.
    result = run(noisetag_bin, "decoder", "--snr", "0.2", "--user", "none", "--latency", "10")
    assert result.returncode == 64, result.stderr
    assert b"--snr, --latency, --user set the simulated amplifier and user, which run with --simulate only" in result.stderr


def test_decoder_utopia_port_0_prints_the_port_it_listens_on(noisetag_bin, socket_folder):
    decoder = subprocess.Popen([noisetag_bin, "decoder", "--endpoint", "ipc://%s/d.sock" % socket_folder, "--utopia-port", "0",
                                "--no-save"], stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    try:
        decoder.stdout.readline()                   # decoder listening on ipc://…
        line = decoder.stdout.readline().decode()   # bounded: the decoder prints both lines before serving
        port = int(line.rsplit(":", 1)[1])
        assert line.startswith("decoder listening for Utopia clients on 127.0.0.1:") and port > 0, line
        with socket.create_connection(("127.0.0.1", port), timeout=5):
            pass
    finally:
        decoder.terminate()
        decoder.wait(timeout=10)


def test_decoder_settings_out_of_range_name_the_file_and_the_key(noisetag_bin, tmp_path):
    settings = tmp_path / "decoder.json"
    settings.write_text('{"idlePressesPerMinute": 0}')
    one_line_failure(run(noisetag_bin, "decoder", "--settings", str(settings)),
                     "--settings: decoder settings file %s, key 'idlePressesPerMinute': 0.0 per minute is outside "
                     "0.001...60.0 per minute" % settings)
    for command in (["demo", "--headless"], ["session", "run", os.path.join(ROOT, "Examples", "protocols", "demo-session.json"),
                                             "--headless", "--recordings", str(tmp_path / "rec")]):
        one_line_failure(run(noisetag_bin, *command, "--decoder-settings", str(settings)),
                         "--decoder-settings: decoder settings file %s, key 'idlePressesPerMinute'" % settings)
    # replay's exit 1 means "diverged": a bad settings file is a usage error there, as a bad --with-settings is.
    result = run(noisetag_bin, "replay", str(tmp_path), "--redecode", "--decoder-settings", str(tmp_path / "none.json"))
    assert result.returncode == 64, result.stderr
    assert b"--decoder-settings: decoder settings file %s: cannot read: no such file" % str(tmp_path / "none.json").encode() in result.stderr
    result = run(noisetag_bin, "decoder", "evaluate", str(tmp_path), "--idle-presses-per-minute", "nan")
    assert result.returncode == 64 and b"--idle-presses-per-minute: must be 0.001...60, got nan" in result.stderr


def test_decoder_in_a_missing_folder_says_so_and_exits_1(noisetag_bin, tmp_path):
    endpoint = "ipc://%s/missing/decoder.sock" % tmp_path
    line = one_line_failure(run(noisetag_bin, "decoder", "--endpoint", endpoint), endpoint)
    assert "does not exist" in line


def test_a_second_decoder_on_the_same_socket_is_refused_and_sigterm_ends_the_first_cleanly(noisetag_bin, socket_folder):
    endpoint = "ipc://%s/decoder.sock" % socket_folder
    first = subprocess.Popen([noisetag_bin, "decoder", "--endpoint", endpoint, "--no-save"],
                             stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    try:
        assert first.stdout.readline().startswith(b"decoder listening"), first.stderr.read()
        line = one_line_failure(run(noisetag_bin, "decoder", "--endpoint", endpoint, "--no-save"), endpoint)
        assert "in use" in line
        first.terminate()
        assert first.wait(10) == 0
    finally:
        if first.poll() is None:
            first.kill()
            first.wait(5)


@pytest.mark.parametrize("command", [["recordings", "show"], ["recordings", "export", "--bids", "out", "--subject", "P02"]])
def test_a_name_start_that_begins_several_session_folders_says_so(noisetag_bin, tmp_path, command):
    # Two sessions of one participant started in the same second: the start of their names is ambiguous, not missing.
    for name in ["2026-12-07 21.02.05 P02", "2026-12-07 21.02.05 P02 (2)"]:
        (tmp_path / name).mkdir()
        (tmp_path / name / "session.json").write_text("{}")
    result = run(noisetag_bin, command[0], command[1], "2026-12-07 21.02", "--recordings", str(tmp_path), *command[2:])
    assert result.returncode == 1, result.stderr
    line = one_line_failure(result)
    assert "'2026-12-07 21.02' begins 2 session folders in %s ('2026-12-07 21.02.05 P02', " % tmp_path in line, line
    assert line.endswith(": give more of the name"), line


def test_a_codebook_too_small_for_the_keyboard_ends_the_walk_through_at_once(noisetag_bin, tmp_path):
    # Five codes for 28 keys: no trial can ever start, so the demo says why and which codebook, and exits 1 (it waited
    # for --max-seconds). A settings file naming a codebook that does not load is refused before anything starts.
    codes, settings = tmp_path / "five.txt", tmp_path / "settings.json"
    made = run(noisetag_bin, "codes", "generate", "--kind", "mseq", "--count", "5", "--out", str(codes))
    assert made.returncode == 0, made.stderr
    settings.write_text(json.dumps({"filenameNoiseTags": str(codes)}))
    env = dict(os.environ, NOISETAG_HOME=str(tmp_path / "home"))
    result = subprocess.run([noisetag_bin, "demo", "--headless", "--signal-check", "0", "--settings", str(settings)],
                            stdin=subprocess.DEVNULL, capture_output=True, env=env, timeout=60)
    assert result.returncode == 1, result.stderr
    assert ("no trial can start: 28 flickering controls, but the codebook has only 5 codes (%s)" % codes
            in result.stderr.decode()), result.stderr
    settings.write_text(json.dumps({"filenameNoiseTags": str(tmp_path / "missing.txt")}))
    env["NOISETAG_HOME"] = str(tmp_path / "other")
    result = subprocess.run([noisetag_bin, "demo", "--headless", "--settings", str(settings)],
                            stdin=subprocess.DEVNULL, capture_output=True, env=env, timeout=60)
    line = one_line_failure(result, "key 'filenameNoiseTags'", "missing.txt")
    assert not (tmp_path / "other" / "recordings").exists(), line
