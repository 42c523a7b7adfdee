"""Lab Streaming Layer into a running `noisetag decoder`, run inside a network
namespace with loopback only (`unshare -n`): LSL outlets answer discovery by
multicast and broadcast on every interface they see.

In the namespace: an LSL outlet (pylsl, liblsl) of 8 EEG channels at 250 Hz,
as an amplifier's driver would publish it, whose channels differ in a way the
decoder's signal quality can tell apart: 1–2, 4 and 6–8 hold a 10 Hz rhythm
over broadband background; 3 is flat (a dead electrode); 5 is swamped by
50 Hz mains. `Examples/acquisition_streamer.py --source lsl` resolves it by
type and streams it to the decoder. Prints one JSON line: the decoder's
lines, the streamer's lines and the last SIGNALQUALITY it heard.
"""
import argparse
import errno
import json
import math
import os
import random
import subprocess
import sys
import threading
import time

from interop_harness import collect_lines, stop_process, wait_for_text

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
RATE = 250.0
CHANNELS = 8


def sample(i, rng):
    t = i / RATE
    row = []
    for c in range(CHANNELS):
        if c == 2:
            row.append(0.0)                                   # dead electrode
        elif c == 4:
            row.append(200.0 * math.sin(2 * math.pi * 50 * t) + rng.gauss(0, 2))   # mains
        else:
            row.append(10.0 * math.sin(2 * math.pi * 10 * t + c) + rng.gauss(0, 5))
    return row


def publish(stop, pushed):
    import pylsl
    info = pylsl.StreamInfo("noisetag-test-amp", "EEG", CHANNELS, RATE, "float32", "noisetag-lsl-test")
    outlet = pylsl.StreamOutlet(info, chunk_size=10)
    rng = random.Random(1)
    start = time.monotonic()
    sent = 0
    while not stop.is_set():
        due = int((time.monotonic() - start) * RATE)
        if due > sent:
            outlet.push_chunk([sample(i, rng) for i in range(sent, due)])
            sent = due
            pushed[0] = sent
        time.sleep(0.01)


def spawn(command):
    """Starts `command` with its output piped. Once in a fresh clone's run the
    spawn itself failed inside the network namespace (OSError EFAULT, "Bad
    address", from the exec while this process's reader thread ran); that
    is the machine, not the code under test, so it is tried up to three times."""
    for attempt in range(3):
        try:
            return subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
        except OSError as error:
            if error.errno != errno.EFAULT or attempt == 2:
                raise
            time.sleep(0.2)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--noisetag", required=True)
    parser.add_argument("--folder", required=True)
    parser.add_argument("--seconds", type=float, default=5)
    args = parser.parse_args()
    subprocess.run(["ip", "link", "set", "lo", "up"], check=True)
    endpoint = "ipc://%s/decoder.sock" % args.folder
    result = {"problems": [], "decoder": [], "streamer": [], "pushed": 0}
    stop = threading.Event()
    pushed = [0]
    publisher = threading.Thread(target=publish, args=(stop, pushed), daemon=True)
    publisher.start()
    decoder = subprocess.Popen([args.noisetag, "decoder", "--endpoint", endpoint, "--no-save"],
                               stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
    streamer = None
    try:
        threading.Thread(target=collect_lines, args=(decoder.stdout, result["decoder"]), daemon=True).start()
        if not wait_for_text(result["decoder"], "decoder listening", 20):
            result["problems"].append("the decoder did not listen within 20 s")
            return result
        streamer = spawn([sys.executable, os.path.join(ROOT, "Examples", "acquisition_streamer.py"),
                          "--source", "lsl", "--lsl-type", "EEG", "--endpoint", endpoint,
                          "--duration", str(args.seconds), "--print-incoming"])
        threading.Thread(target=collect_lines, args=(streamer.stdout, result["streamer"]), daemon=True).start()
        try:
            result["streamer_exit"] = streamer.wait(args.seconds + 30)
        except subprocess.TimeoutExpired:
            result["problems"].append("the streamer did not end")
        time.sleep(0.2)
        decoder.send_signal(2)
        try:
            result["decoder_exit"] = decoder.wait(10)
        except subprocess.TimeoutExpired:
            result["problems"].append("the decoder did not stop on SIGINT")
        time.sleep(0.2)
    finally:
        stop.set()
        if streamer is not None:
            stop_process(streamer)
        stop_process(decoder)
    result["pushed"] = pushed[0]
    quality = [line for line in result["streamer"] if line.startswith("SIGNALQUALITY")]
    result["quality"] = [float(v) for v in quality[-1].split()[1:]] if quality else []
    return result


if __name__ == "__main__":
    print(json.dumps(main()))
