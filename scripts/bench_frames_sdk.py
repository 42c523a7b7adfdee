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


def comparison(swift, sdk):
    """The combined table: Swift and SDK figures per control count, and the ratios."""
    rows = {r["controls"]: r for r in swift["results"]}
    head = ("controls", "Swift med", "p99", "p99.9", "SDK med", "p99", "p99.9", "SDK/Swift med", "p99")
    lines = [
        f"per-frame time in ns; Swift {swift['build']} build, {swift['frames']} frames "
        f"(timer {swift['timerOverheadNs']} ns); SDK mindaffectBCI 0.9.24, {sdk['frames']} frames "
        f"(timer {sdk['timerOverheadNs']} ns)",
        "  ".join(f"{h:>9}" for h in head),
    ]
    for s in sdk["results"]:
        w = rows.get(s["controls"])
        if w is None:
            continue
        cells = [w["controls"], w["medianNs"], w["p99Ns"], w["p999Ns"], s["medianNs"], s["p99Ns"], s["p999Ns"],
                 f"{s['medianNs'] / w['medianNs']:.0f}x", f"{s['p99Ns'] / w['p99Ns']:.0f}x"]
        lines.append("  ".join(f"{c:>9}" for c in cells))
    return "\n".join(lines)


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--codebook", required=True, help="codebook file (MindAffect text format)")
    parser.add_argument("--frames", type=int, default=20_000, help="timed frames per control count")
    parser.add_argument("--warmup", type=int, default=2_000, help="untimed frames first")
    parser.add_argument("--controls", default="9,36,64,255", help="object counts, comma separated")
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    parser.add_argument("--swift-json", help="`noisetag bench frames --json` output to compare with")
    args = parser.parse_args()
    counts = [int(c) for c in args.controls.split(",")]
    report = {
        "benchmark": "frames", "sdk": "mindaffectBCI 0.9.24", "frames": args.frames, "warmupFrames": args.warmup,
        "timerOverheadNs": timer_overhead(),
        "results": [bench(args.codebook, n, args.frames, args.warmup) for n in counts],
    }
    if args.swift_json:
        with open(args.swift_json) as f:
            print(comparison(json.load(f), report))
    elif args.json:
        print(json.dumps(report, sort_keys=True))
    else:
        for r in report["results"]:
            print(f"{r['controls']:>4} objects: median {r['medianNs']} ns, p99 {r['p99Ns']} ns, p99.9 {r['p999Ns']} ns")


if __name__ == "__main__":
    main()
