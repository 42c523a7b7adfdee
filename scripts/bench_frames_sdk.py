#!/usr/bin/env python3
"""Per-frame cost of the MindAffect Python SDK (mindaffectBCI 0.9.24), for
comparison with `noisetag bench frames`.

Usage:
    python3 scripts/bench_frames_sdk.py --codebook mgold9.txt [--frames N] [--json]
    python3 scripts/bench_frames_sdk.py --codebook mgold9.txt --swift-json swift.json

Per frame it does what the SDK's own frame loop does before the socket
(noisetag.py `__main__` and `Noisetag.sendStimulusState`):
`Noisetag.updateStimulusState`, `Noisetag.getStimulusState`,
`UtopiaController.mkStimulusEvent` (the SDK's own time stamp) and
`RawMessage.fromUtopiaMessage(event).serialize()` (header and payload, what
`UtopiaClient.sendMessage` puts on the wire). The `UtopiaController` is never
connected. Each frame is timed with `time.perf_counter_ns()` (CLOCK_MONOTONIC).

The SDK's own codebooks have 61 or 65 codes; `getStimulusState` indexes the
codebook by object ID, so 255 objects need 255 codes: pass a codebook file
such as `noisetag codes generate --kind mgold --poly 000100001,001101001`.

With --swift-json FILE (the output of `noisetag bench frames --json`), prints
one table of both, with the SDK/Swift ratios of the medians and p99s.

With --compare SWIFT.json... --with SDK.json... (rounds run alternately by
scripts/bench-frames), prints the median over rounds of each figure, the
ratios of those, and each round's ratio of medians: on a shared machine the
speed of both sides drifts with the neighbours' load, and rounds taken close
in time pair like with like.
"""
import argparse
import contextlib
import io
import json
import math
import time

from mindaffectBCI.noisetag import Noisetag
from mindaffectBCI.utopiaController import UtopiaController
from mindaffectBCI.utopiaclient import RawMessage


def percentile(ordered, p):
    """Nearest-rank percentile of an ordered list (as HdrHistogram reports it)."""
    rank = max(1, math.ceil(p / 100 * len(ordered)))
    return ordered[rank - 1]


def bench(codebook, controls, frames, warmup):
    """Times `frames` SDK frames with `controls` objects; returns a result dict in ns."""
    controller = UtopiaController()  # not connected: nothing leaves the process
    with contextlib.redirect_stdout(io.StringIO()):  # the SDK prints on set-up
        noisetag = Noisetag(stimFile=codebook, utopiaController=controller)
        noisetag.setnumActiveObjIDs(controls)
        noisetag.startFlicker(numframes=warmup + frames + 10)
    if len(noisetag.noisecode.stimSeq[0]) < controls:
        raise SystemExit(f"{codebook}: {len(noisetag.noisecode.stimSeq[0])} codes, fewer than {controls} objects")
    clock = time.perf_counter_ns
    samples = [0] * frames
    frame = None
    for n in range(warmup + frames):
        start = clock()
        noisetag.updateStimulusState(n)
        state, target, obj_ids, _ = noisetag.getStimulusState()
        target_state = state[target] if target is not None and target >= 0 else -1
        event = controller.mkStimulusEvent(state, None, target_state, obj_ids)
        frame = RawMessage.fromUtopiaMessage(event).serialize()
        end = clock()
        if n >= warmup:
            samples[n - warmup] = end - start
    if len(frame) != 4 + 5 + 2 * controls:
        raise SystemExit(f"{controls} objects: a STIMULUSEVENT of {len(frame)} bytes, expected {9 + 2 * controls}")
    samples.sort()
    return {
        "controls": controls, "frames": frames,
        "medianNs": percentile(samples, 50), "p99Ns": percentile(samples, 99), "p999Ns": percentile(samples, 99.9),
        "minNs": samples[0], "maxNs": samples[-1], "meanNs": sum(samples) / frames, "frameBytes": len(frame),
    }


def timer_overhead():
    """Median cost of two back-to-back perf_counter_ns() calls."""
    clock = time.perf_counter_ns
    deltas = sorted(-(clock() - clock()) for _ in range(100_001))
    return deltas[len(deltas) // 2]


def median(values):
    ordered = sorted(values)
    middle = len(ordered) // 2
    return ordered[middle] if len(ordered) % 2 else (ordered[middle - 1] + ordered[middle]) / 2


def merged(reports):
    """One report whose figures are the medians over `reports` (rounds)."""
    first = reports[0]
    results = []
    for index, row in enumerate(first["results"]):
        rows = [r["results"][index] for r in reports]
        results.append({"controls": row["controls"], **({"path": row["path"]} if "path" in row else {}),
                        **{key: round(median([r[key] for r in rows])) for key in ("medianNs", "p99Ns", "p999Ns")}})
    return {**first, "results": results, "rounds": len(reports),
            "timerOverheadNs": round(median([r["timerOverheadNs"] for r in reports]))}


def comparison(swift, sdk, rounds=None):
    """The combined table: Swift figures per path (`engine` alone, `full` with
    the recorder and a ZeroMQ link) and control count, the SDK's for the same
    control count, and the ratios; with `rounds` (pairs of reports), each
    round's ratio of medians."""
    sdk_rows = {r["controls"]: r for r in sdk["results"]}
    head = ("path", "controls", "Swift med", "p99", "p99.9", "SDK med", "p99", "p99.9", "SDK/Swift med", "p99")
    taken = f"median of {swift['rounds']} alternating rounds, " if "rounds" in swift else ""
    lines = [
        f"per-frame time in ns, {taken}{swift['frames']} frames each; Swift {swift['build']} build "
        f"(timer {swift['timerOverheadNs']} ns); SDK mindaffectBCI 0.9.24 (timer {sdk['timerOverheadNs']} ns)",
        "  ".join(f"{h:>9}" for h in head),
    ]
    for w in swift["results"]:
        s = sdk_rows.get(w["controls"])
        if s is None:
            continue
        cells = [w.get("path", "engine"), w["controls"], w["medianNs"], w["p99Ns"], w["p999Ns"],
                 s["medianNs"], s["p99Ns"], s["p999Ns"],
                 f"{s['medianNs'] / w['medianNs']:.0f}x", f"{s['p99Ns'] / w['p99Ns']:.0f}x"]
        lines.append("  ".join(f"{c:>9}" for c in cells))
    if rounds:
        lines.append("SDK/Swift ratio of medians in each round:")
        for index, w in enumerate(swift["results"]):
            s_index = next((i for i, r in enumerate(sdk["results"]) if r["controls"] == w["controls"]), None)
            if s_index is None:
                continue
            ratios = [f"{b['results'][s_index]['medianNs'] / a['results'][index]['medianNs']:.0f}x" for a, b in rounds]
            lines.append(f"{w.get('path', 'engine'):>9}  {w['controls']:>9}  " + " ".join(ratios))
    return "\n".join(lines)


def load(path):
    with open(path) as f:
        return json.load(f)


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--codebook", help="codebook file (MindAffect text format); needed to measure")
    parser.add_argument("--frames", type=int, default=20_000, help="timed frames per control count")
    parser.add_argument("--warmup", type=int, default=2_000, help="untimed frames first")
    parser.add_argument("--controls", default="9,36,64,255", help="object counts, comma separated")
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    parser.add_argument("--swift-json", help="`noisetag bench frames --json` output to compare with")
    parser.add_argument("--compare", nargs="+", metavar="SWIFT_JSON", help="Swift reports of alternating rounds")
    parser.add_argument("--with", dest="sdk_reports", nargs="+", metavar="SDK_JSON", help="SDK reports of the same rounds")
    args = parser.parse_args()
    if args.compare:
        if not args.sdk_reports or len(args.sdk_reports) != len(args.compare):
            raise SystemExit("--compare needs --with and one SDK report per Swift report")
        swift, sdk = [load(p) for p in args.compare], [load(p) for p in args.sdk_reports]
        print(comparison(merged(swift), merged(sdk), rounds=list(zip(swift, sdk))))
        return
    if not args.codebook:
        parser.error("--codebook is needed to measure the SDK")
    counts = [int(c) for c in args.controls.split(",")]
    report = {
        "benchmark": "frames", "sdk": "mindaffectBCI 0.9.24", "frames": args.frames, "warmupFrames": args.warmup,
        "timerOverheadNs": timer_overhead(),
        "results": [bench(args.codebook, n, args.frames, args.warmup) for n in counts],
    }
    if args.swift_json:
        print(comparison(load(args.swift_json), report))
    elif args.json:
        print(json.dumps(report, sort_keys=True))
    else:
        for r in report["results"]:
            print(f"{r['controls']:>4} objects: median {r['medianNs']} ns, p99 {r['p99Ns']} ns, p99.9 {r['p999Ns']} ns")


if __name__ == "__main__":
    main()
