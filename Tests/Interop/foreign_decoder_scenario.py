"""A decoder nobody here wrote in the loop, run by test_foreign_decoder.py in
a network namespace with loopback only (`unshare -n`: MindAffect's hub
announces itself by multicast on every interface it sees).

MindAffect's hub (UtopiaServer.jar) on 127.0.0.1:8400; MindAffect's own
decoder (mindaffectBCI.decoder.decoder) on the hub; our simulated amplifier
(`noisetag decoder amplifier`) streaming the simulated subject into the hub;
and our engine (`noisetag demo --headless --decoder utopia://…`) as the
presentation: calibration trials, then Test trials in which the simulated
user looks at scripted goals. Side by side, the same subject, goals and
engine settings against the reference decoder (`noisetag decoder
--simulate`, over ZeroMQ) for comparison. Prints one JSON object; kills
every process it started.
"""
import argparse
import json
import os
import subprocess
import sys
import threading
import time

from hub_scenario import HUB_DIR, PORT, wait_port
from interop_harness import stop_process


def start_engine(binary, endpoint, folder, settings, trials, controls, name):
    """The engine's process, and a thread that collects its events into a list (read once the thread ends)."""
    path = os.path.join(folder, name + "-settings.json")
    with open(path, "w") as f:
        json.dump(settings, f)
    engine = subprocess.Popen([binary, "demo", "--headless", "--events-json", "--mode", "train", "--decoder", endpoint,
                               "--trials", str(trials), "--controls", str(controls), "--settings", path,
                               "--max-seconds", "240", "--connect-timeout", "30",
                               "--recordings", os.path.join(folder, name + "-recordings")],
                              stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                              stderr=open(os.path.join(folder, name + "-engine.stderr"), "wb"))
    events = []

    def collect():
        for line in engine.stdout:
            try:
                events.append(json.loads(line))
            except ValueError:
                pass
    reader = threading.Thread(target=collect, daemon=True)
    reader.start()
    return engine, reader, events


def finish_engine(engine, reader, events):
    reader.join(300)
    return engine.wait(30), events


def summary(events, goals):
    tests = [e for e in events if e.get("type") == "trialEnded" and e.get("mode") == "Test"]
    pressed = [e.get("pressed") for e in tests]
    correct = sum(1 for goal, p in zip(goals, pressed) if p == str(goal))
    return {"test_trials": len(tests), "pressed": pressed, "endings": [e.get("ending") for e in tests], "correct": correct,
            "selection_time": [round(e.get("duration", 0), 2) for e in tests]}


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--noisetag", required=True)
    parser.add_argument("--folder", required=True)
    parser.add_argument("--seed", default="5")
    parser.add_argument("--snr", default="0.05")
    parser.add_argument("--training", type=int, default=10)
    parser.add_argument("--goals", default="3,1,4,2,4,1,3,2,1,4")
    args = parser.parse_args()
    subprocess.run(["ip", "link", "set", "lo", "up"], check=True)
    goals = [int(g) for g in args.goals.split(",")]
    controls = 4
    # Both decoders under the same settings: a brain press at certainty 0.99 (Perr < 0.01), else at
    # 4 s the decoder's most likely object (disableNoClicks), so every Test trial ends in the decoder's choice.
    settings = {"nGenericTrainTrials": args.training, "trialDurationGenericTrain": 2.0, "cueDuration": 0.5,
                "timeInBetweenTrials": 0.5, "maxTestTrialDuration": 4.0, "certaintyRequiredForPress": 0.99,
                "minTrialDuration": 0.5, "disableNoClicks": True, "feedbackDuration": 0.5}
    trials = args.training + len(goals)
    result = {"problems": []}
    started = []
    try:
        # The reference decoder on the same subject, goals and settings, side by side with MindAffect's.
        socket_path = os.path.join(args.folder, "ref.sock")
        reference = subprocess.Popen([args.noisetag, "decoder", "--endpoint", "ipc://" + socket_path, "--simulate",
                                      "--seed", args.seed, "--snr", args.snr, "--user", "goal:" + args.goals, "--no-save"],
                                     stdin=subprocess.DEVNULL, stdout=open(os.path.join(args.folder, "reference.out"), "wb"),
                                     stderr=subprocess.STDOUT)
        started.append(reference)
        reference_engine = start_engine(args.noisetag, "ipc://" + socket_path, args.folder, settings, trials, controls,
                                        "reference")
        started.append(reference_engine[0])
        # MindAffect's hub and decoder, our amplifier and engine.
        hub = subprocess.Popen(["java", "-jar", "UtopiaServer.jar", str(PORT), "0", os.path.join(args.folder, "hub.log")],
                               cwd=HUB_DIR, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        started.append(hub)
        if not wait_port(PORT, 20):
            result["problems"].append("the hub did not listen within 20 s")
            return result
        decoder_log = os.path.join(args.folder, "mindaffect-decoder.out")
        decoder = subprocess.Popen([sys.executable, "-u", "-m", "mindaffectBCI.decoder.decoder", "--host", "127.0.0.1",
                                    "--calplots", "--logdir", args.folder, "--prior_dataset", os.path.join(args.folder, "none.pk")],
                                   cwd=args.folder, stdin=subprocess.DEVNULL, stdout=open(decoder_log, "wb"),
                                   stderr=subprocess.STDOUT, env=dict(os.environ, MPLBACKEND="Agg"))
        started.append(decoder)
        amplifier = subprocess.Popen([args.noisetag, "decoder", "amplifier", "--to", "utopia://127.0.0.1:%d" % PORT,
                                      "--seed", args.seed, "--snr", args.snr, "--user", "goal:" + args.goals],
                                     stdin=subprocess.DEVNULL, stdout=open(os.path.join(args.folder, "amplifier.out"), "wb"),
                                     stderr=subprocess.STDOUT)
        started.append(amplifier)
        # The engine tells the decoder its mode once, when it connects; MindAffect's decoder reads the first
        # 3 s of EEG to set itself up and keeps the messages of that time to itself: start the engine after it.
        ready = "Estimated sample rate"
        end = time.monotonic() + 60
        while time.monotonic() < end and ready not in open(decoder_log, errors="replace").read():
            time.sleep(0.2)
        if ready not in open(decoder_log, errors="replace").read():
            result["problems"].append("MindAffect's decoder did not read the amplifier's EEG within 60 s")
            return result
        time.sleep(1)
        code, events = finish_engine(*start_engine(args.noisetag, "utopia://127.0.0.1:%d" % PORT, args.folder, settings,
                                                   trials, controls, "mindaffect"))
        result["mindaffect"] = dict(summary(events, goals), exit=code)
        for process in (amplifier, decoder, hub):
            stop_process(process, grace=10)
        with open(decoder_log, errors="replace") as f:
            lines = [l.rstrip() for l in f]
        # Its cross-validated fit: "clsfr=MultiCCA(…) => 0.57" and the table of Perr by integration length.
        result["mindaffect_log"] = [l for l in lines if "=> " in l and "clsfr=" in l or l.strip().startswith(("IntLen", "Perr"))]
        result["mindaffect_predictions"] = sum(1 for l in lines if "PREDICTEDTARGETPROB" in l)
        code, events = finish_engine(*reference_engine)
        result["reference"] = dict(summary(events, goals), exit=code)
        stop_process(reference, grace=10)
        with open(os.path.join(args.folder, "reference.out"), errors="replace") as f:
            result["reference_log"] = [l.strip() for l in f if "accuracy" in l]
        result["goals"] = goals
        return result
    finally:
        for process in started:
            stop_process(process, grace=10)


if __name__ == "__main__":
    print(json.dumps(main()))
