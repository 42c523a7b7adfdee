"""One session through MindAffect's Utopia hub (UtopiaServer.jar from
mindaffectBCI 0.9.24), run by test_utopia_hub.py inside a network namespace
with loopback only (`unshare -n`), because the hub announces itself by
multicast on every interface it sees.

In the namespace: the hub on 127.0.0.1:8400; a decoder written with
MindAffect's own client (`UtopiaClient`) that predicts, for each trial, an
object chosen from the trial's number, more and more certain as STIMULUSEVENTs
arrive; and `noisetag demo --headless --decoder utopia://127.0.0.1:8400`
running Test trials. After the second press the hub is killed and started
again; the engine and the client reconnect. Prints one JSON object: the
engine's exit code and events, the objects predicted per trial, and problems.
Every process is killed before it returns.
"""
import argparse
import json
import os
import signal
import socket
import subprocess
import sys
import threading
import time

import mindaffectBCI
from mindaffectBCI.utopiaclient import NewTarget, PredictedTargetProb, StimulusEvent, Subscribe, UtopiaClient

HUB_DIR = os.path.join(os.path.dirname(mindaffectBCI.__file__), "hub")
PORT = 8400


def wait_port(port, timeout):
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        try:
            socket.create_connection(("127.0.0.1", port), timeout=0.5).close()
            return True
        except OSError:
            time.sleep(0.1)
    return False


def start_hub(log):
    return subprocess.Popen(["java", "-jar", "UtopiaServer.jar", str(PORT), "0", log], cwd=HUB_DIR,
                            stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)


def target_for(stamp, controls):
    """The object the decoder predicts for a trial whose NEWTARGET (or first STIMULUSEVENT) has
    `stamp` (in this client's clock: the hub translates every timestamp into the receiver's clock)."""
    return (stamp // 1000) % controls + 1


class Predictor(threading.Thread):
    """MindAffect's client as a decoder: for each trial the object target_for(its start stamp),
    certain after 18 frames. A trial begins at a NEWTARGET, or at a STIMULUSEVENT more than
    0.4 s after the last one (a NEWTARGET missed while the hub restarted)."""

    def __init__(self, controls):
        super().__init__(daemon=True)
        self.controls, self.stop, self.connections = controls, False, 0
        self.sent = []   # (time.monotonic(), object, Perr) of every prediction: the engine's clock on Linux

    def run(self):
        start = last = None
        frames = 0
        while not self.stop:
            client = UtopiaClient()
            try:
                client.connect("127.0.0.1", PORT)
                client.sendMessage(Subscribe(None, "ENM"))
                self.connections += 1
                while not self.stop:
                    for msg in client.getNewMessages(50):
                        if msg.msgID == NewTarget.msgID:
                            start, frames = msg.timestamp, 0
                        elif msg.msgID == StimulusEvent.msgID:
                            if start is None or (last is not None and msg.timestamp - last > 400):
                                start, frames = msg.timestamp, 0
                            last = msg.timestamp
                            frames += 1
                            if frames % 6 == 0:
                                target = target_for(start, self.controls)
                                perr = 0.3 if frames < 18 else 0.001
                                client.sendMessage(PredictedTargetProb(msg.timestamp, target, perr))
                                self.sent.append((time.monotonic(), target, perr))
            except (OSError, IOError):
                if not self.stop:
                    time.sleep(0.2)
            finally:
                try:
                    client.disconnect()
                except Exception:
                    pass


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--noisetag", required=True)
    parser.add_argument("--folder", required=True)
    parser.add_argument("--trials", type=int, default=6)
    parser.add_argument("--controls", type=int, default=4)
    args = parser.parse_args()
    subprocess.run(["ip", "link", "set", "lo", "up"], check=True)
    result = {"problems": []}
    hub = start_hub(os.path.join(args.folder, "hub.log"))
    engine = None
    predictor = Predictor(args.controls)
    try:
        if not wait_port(PORT, 20):
            result["problems"].append("the hub did not listen on %d within 20 s" % PORT)
            return result
        predictor.start()
        settings = os.path.join(args.folder, "settings.json")
        with open(settings, "w") as f:
            json.dump({"minTrialDuration": 0.3, "certaintyRequiredForPress": 0.99, "decoderTimeout": 2.0,
                       "timeInBetweenAttemptsToConnect": 0.5}, f)
        engine = subprocess.Popen([args.noisetag, "demo", "--headless", "--events-json", "--mode", "test",
                                   "--decoder", "utopia://127.0.0.1:%d" % PORT, "--trials", str(args.trials),
                                   "--controls", str(args.controls), "--settings", settings, "--max-seconds", "90",
                                   "--recordings", os.path.join(args.folder, "recordings")],
                                  stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                                  stderr=open(os.path.join(args.folder, "engine.stderr"), "wb"))
        events, presses, restarted = [], 0, False
        for line in engine.stdout:
            try:
                event = json.loads(line)
            except ValueError:
                continue
            events.append(event)
            if event.get("type") == "press":
                presses += 1
                if presses == 2 and not restarted:
                    restarted = True
                    hub.kill()
                    hub.wait(10)
                    time.sleep(3.0)          # longer than the engine's decoderTimeout (2 s)
                    hub = start_hub(os.path.join(args.folder, "hub2.log"))
                    if not wait_port(PORT, 20):
                        result["problems"].append("the restarted hub did not listen within 20 s")
        result["exit"] = engine.wait(30)
        result["events"] = events
        result["hub_restarted"] = restarted
        result["predictions"] = predictor.sent
        result["client_connections"] = predictor.connections
        return result
    finally:
        predictor.stop = True
        for process in (engine, hub):
            if process is not None and process.poll() is None:
                process.kill()
                process.wait(10)


if __name__ == "__main__":
    print(json.dumps(main()))
