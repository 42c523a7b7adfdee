"""Examples/acquisition_streamer.py feeds a running `noisetag decoder`: its
frames are the MindAffect SDK's own bytes, and with BrainFlow's synthetic
board (no hardware) or a Lab Streaming Layer outlet the decoder takes the
header and the packets and sends SIGNALQUALITY back. Bounded waits; every
process always ends."""
import json
import os
import shutil
import signal
import subprocess
import sys
import threading
import time

import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path.insert(0, os.path.join(ROOT, "Examples"))
import acquisition_streamer as streamer  # noqa: E402
from interop_harness import collect_lines, stop_process, wait_for_text  # noqa: E402


def test_frames_match_the_mindaffect_sdk_bytes():
    from mindaffectBCI.utopiaclient import DataHeader, DataPacket, Heartbeat, RawMessage, Subscribe
    sdk = lambda message: RawMessage.fromUtopiaMessage(message).serialize()
    assert streamer.data_header(1234, 3, 250.0, ["Fz", "Cz", "Oz"]) == sdk(DataHeader(1234, 250.0, 3, ["Fz", "Cz", "Oz"]))
    rows = [[1.5, -2.0, 3.25], [4.0, 5.5, -6.75]]
    assert streamer.data_packet(-77, rows) == sdk(DataPacket(-77, rows))
    assert streamer.heartbeat(5) == sdk(Heartbeat(5))
    assert streamer.subscribe(5, "HQL") == sdk(Subscribe(5, "HQL"))


def test_large_reads_are_split_under_the_64_kib_limit():
    rows = [[float(i)] * 16 for i in range(3000)]
    frames = streamer.packets(42, rows)
    assert len(frames) > 1 and all(len(f) <= 65539 for f in frames)
    assert sum(int.from_bytes(f[8:12], "little") for f in frames) == 3000


def test_the_synthetic_board_streams_into_a_running_decoder(noisetag_bin, socket_folder):
    pytest.importorskip("brainflow")
    endpoint = "ipc://%s/decoder.sock" % socket_folder
    decoder = subprocess.Popen([noisetag_bin, "decoder", "--endpoint", endpoint, "--no-save"],
                               stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
    client = None
    try:
        decoder_lines = []
        threading.Thread(target=collect_lines, args=(decoder.stdout, decoder_lines), daemon=True).start()
        assert wait_for_text(decoder_lines, "decoder listening", 20), decoder_lines
        client = subprocess.Popen([sys.executable, os.path.join(ROOT, "Examples", "acquisition_streamer.py"),
                                   "--endpoint", endpoint, "--duration", "4", "--print-incoming"],
                                  stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
        client_lines = []
        threading.Thread(target=collect_lines, args=(client.stdout, client_lines), daemon=True).start()
        assert client.wait(30) == 0, client_lines
        time.sleep(0.2)
        assert stop_process(decoder, signal.SIGINT) == 0
        quality = [l for l in client_lines if l.startswith("SIGNALQUALITY")]
        assert quality, client_lines
        values = [float(v) for v in quality[-1].split()[1:]]
        assert len(values) == 8 and all(0 <= v <= 1 for v in values), quality[-1]
        assert any("EEG: 8 channels at 250 Hz" in l for l in decoder_lines), decoder_lines
        assert not any("bad input" in l for l in decoder_lines), decoder_lines
        stats = [l for l in decoder_lines if l.startswith("decoder stopped")]
        assert stats and int(stats[0].split()[2]) >= 50, decoder_lines    # header, heartbeats and ~100 packets
    finally:
        if client is not None:
            stop_process(client)
        stop_process(decoder)


def test_an_lsl_stream_reaches_the_decoder_and_its_channels_are_told_apart(noisetag_bin, socket_folder):
    """`--source lsl`: an LSL outlet (liblsl, as an amplifier driver publishes
    it) is resolved by type and streamed; the decoder's signal quality tells
    the dead channel (3) and the mains-swamped one (5) from the good ones.
    Run in a loopback-only network namespace: LSL discovery broadcasts."""
    pytest.importorskip("pylsl")
    for tool in ("unshare", "ip"):
        if shutil.which(tool) is None:
            pytest.skip("%s is not installed (make test installs it)" % tool)
    result = subprocess.run(["unshare", "-n", sys.executable, os.path.join(ROOT, "Tests", "Interop", "lsl_scenario.py"),
                             "--noisetag", noisetag_bin, "--folder", socket_folder, "--seconds", "5"],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, timeout=120)
    assert result.returncode == 0, result.stderr.decode()[-3000:]
    report = json.loads(result.stdout.decode().strip().split("\n")[-1])
    assert report["problems"] == [], report
    assert report.get("streamer_exit") == 0 and report.get("decoder_exit") == 0, report
    assert any("EEG: 8 channels at 250 Hz" in line for line in report["decoder"]), report["decoder"]
    assert any("signal quality: flat: channel 3" in line for line in report["decoder"]), report["decoder"]
    sent = [line for line in report["streamer"] if line.startswith("sent ")]
    assert sent and int(sent[0].split()[1]) >= 0.8 * 5 * 250, report["streamer"]
    quality = report["quality"]
    assert len(quality) == 8, report["streamer"]
    assert quality[2] == 1.0 and quality[4] >= 0.9, quality
    assert all(q < 0.5 for i, q in enumerate(quality) if i not in (2, 4)), quality
