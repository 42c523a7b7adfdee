"""Interop of the decoder bridge: `noisetag demo --headless` against an
external decoder written with pyzmq and the MindAffect SDK's message classes
(`utopia_decoder.py`, a separate process so that it can be SIGKILLed).

Each test starts its own decoder and engine; the `interop` fixture ends them.
"""
import pytest
from mindaffectBCI.utopiaclient import PredictedTargetDist, PredictedTargetProb, RawMessage

from interop_harness import stamp_not_older, wrap_int32

CONTROLS = 4
# Generous bounds for a shared 2-core machine; each wait returns as soon as
# its event arrives.
CONNECT = 10.0  # engine start to the first trial
EVENT = 5.0  # one step of a running trial
EXIT = 10.0  # last trial to process exit


def test_handshake_subscribe_heartbeat_and_mode_confirmation(interop):
    decoder = interop.start_decoder()
    engine = interop.start_engine(trials=1, controls=CONTROLS)

    b_index, subscribe = decoder.wait_received("B", CONNECT)
    assert subscribe["ids"] == "PFTVCMHLQ"  # one byte per id, read from the raw payload
    _, heartbeat = decoder.wait_received("H", CONNECT, what="a HEARTBEAT from the engine")
    assert heartbeat["version"] in (0, 1)
    engine.wait_event("decoderConnection", CONNECT, state="connected")
    # Once it hears the decoder, the engine sends its current mode after its
    # SUBSCRIBE; the decoder confirms by echoing it.
    _, mode = decoder.wait_received("M", EVENT, start=b_index, what="MODECHANGE after SUBSCRIBE")
    assert mode["mode"] == "Prediction.static"
    decoder.wait_sent("M", EVENT, what="the decoder's MODECHANGE echo")
    assert all(m["mode"] == "Prediction.static" for m in decoder.received("M"))

    _, changed = engine.wait_event("modeChanged", EVENT)
    assert changed["to"] == "Test"
    _, started = engine.wait_event("trialStarted", EVENT)
    assert started["mode"] == "Test"
    assert started["controls"] == [str(k) for k in range(1, CONTROLS + 1)]
    assert not decoder.errors()


def test_each_trial_starts_with_newtarget_and_flickers_stimulus_events(interop):
    decoder = interop.start_decoder()
    engine = interop.start_engine(trials=2, controls=CONTROLS)
    ids = list(range(1, CONTROLS + 1))
    event_cursor = 0
    decoder_cursor = 0
    for trial, target in ((1, 1), (2, CONTROLS)):
        event_cursor, started = engine.wait_event("trialStarted", CONNECT, start=event_cursor, trial=trial)
        n_index, newtarget = decoder.wait_received("N", EVENT, start=decoder_cursor,
                                                   what="NEWTARGET of trial %d" % trial)
        # NEWTARGET carries the trial's start time (engine clock, int32 ms).
        lag = wrap_int32(int(started["time"] * 1000) - newtarget["timestamp"])
        assert 0 <= lag <= 100, (started, newtarget)
        # No flicker before the trial started (nor between trials).
        assert [m for m in decoder.log.snapshot()[decoder_cursor:n_index]
                if m.get("event") == "received" and m.get("id") == "E"] == []
        # Half a second of flicker (30 frames at 60 Hz), then a confident prediction.
        cursor = n_index
        for _ in range(30):
            cursor, _ = decoder.wait_received("E", EVENT, start=cursor + 1)
        decoder.predict(target, 0.05)
        decoder_cursor, selection = decoder.wait_received("S", EVENT, start=cursor,
                                                          what="SELECTION of trial %d" % trial)
        assert selection["objID"] == target
        frames = [m for m in decoder.log.snapshot()[n_index:decoder_cursor]
                  if m.get("event") == "received" and m.get("id") == "E"]
        assert len(frames) >= 30
        for frame in frames:
            # Decoded by the SDK's StimulusEvent deserializer: ids 1..N, states 0/1,
            # stamped on or after the trial's NEWTARGET.
            assert frame["objIDs"] == ids, frame
            assert set(frame["states"]) <= {0, 1}, frame
            assert stamp_not_older(frame["timestamp"], newtarget["timestamp"]), (frame, newtarget)
        stamps = [f["timestamp"] for f in frames]
        assert all(stamp_not_older(b, a) for a, b in zip(stamps, stamps[1:])), stamps
        # The codes flicker: every object is on in some frame and off in another,
        # and the objects do not all show the same sequence.
        for k in range(CONTROLS):
            assert {f["states"][k] for f in frames} == {0, 1}, "object %d never changes" % ids[k]
        assert len({tuple(f["states"][k] for f in frames) for k in range(CONTROLS)}) > 1
        event_cursor, press = engine.wait_event("press", EVENT, start=event_cursor, trial=trial)
        assert press["objectID"] == target

    assert engine.wait_exit(EXIT) == 0
    assert len(decoder.received("N")) == len(engine.of_type("trialStarted")) == 2
    assert not decoder.errors()


@pytest.mark.parametrize("k", [3])
def test_confident_prediction_presses_object_k(interop, k):
    decoder = interop.start_decoder()
    engine = interop.start_engine(trials=1, controls=CONTROLS)
    engine.wait_event("trialStarted", CONNECT, trial=1)
    _, newtarget = decoder.wait_received("N", EVENT)
    decoder.wait_received("E", EVENT)
    decoder.predict(k, 0.05)

    _, selection = decoder.wait_received("S", EVENT, what="the SELECTION")
    assert selection["objID"] == k
    _, press = engine.wait_event("press", EVENT)
    assert press["source"] == "brain"
    assert press["certainty"] == pytest.approx(0.95, abs=1e-6)
    assert press["objectID"] == k
    assert press["control"] == str(k)
    assert press["trial"] == 1
    # No brain press before minTrialDuration (1 s) of flicker. A Test trial
    # flickers from its start, stamped (int32 ms, engine clock) on NEWTARGET.
    assert wrap_int32(int(press["time"] * 1000) - newtarget["timestamp"]) >= 999, (press, newtarget)
    _, ended = engine.wait_event("trialEnded", EVENT, trial=1)
    assert ended["ending"] == "pressed-brain"
    assert ended["pressed"] == str(k)
    # Every prediction the decoder sent carried the newest STIMULUSEVENT's timestamp.
    stamps = {m["timestamp"] for m in decoder.received("E")}
    assert all(p["timestamp"] in stamps for p in decoder.log.snapshot()
               if p.get("event") == "sent" and p.get("id") == "P")

    assert engine.wait_exit(EXIT) == 0
    assert len(engine.of_type("press")) == 1
    assert not decoder.errors()


def test_uncertain_prediction_presses_nothing(interop):
    decoder = interop.start_decoder()
    engine = interop.start_engine(trials=1, controls=CONTROLS, settings={"maxTestTrialDuration": 2.0})
    engine.wait_event("trialStarted", CONNECT, trial=1)
    decoder.wait_received("E", EVENT)
    decoder.predict(2, 0.5)  # repeated every 0.1 s for the whole trial

    _, ended = engine.wait_event("trialEnded", 2.0 + EVENT, trial=1)
    assert ended["ending"] == "noPress"
    assert ended.get("pressed") is None
    assert ended["duration"] >= 2.0 - 1e-3
    assert engine.of_type("noPress")
    assert engine.wait_exit(EXIT) == 0
    assert engine.of_type("press") == []
    assert decoder.received("S") == []
    # The engine kept heartbeating about every second while the trial ran.
    heartbeats = decoder.received("H")
    assert len(heartbeats) >= 2
    gaps = [(b["timestamp"] - a["timestamp"]) / 1000 for a, b in zip(heartbeats, heartbeats[1:])]
    assert all(0.5 <= gap <= 2.5 for gap in gaps), gaps
    assert not decoder.errors()


def test_malformed_frames_are_reported_and_ignored(interop):
    decoder = interop.start_decoder()
    engine = interop.start_engine(trials=1, controls=CONTROLS)
    engine.wait_event("trialStarted", CONNECT, trial=1)
    _, flicker = engine.wait_event("trialPhase", EVENT, trial=1, phase="flicker")
    _, frame = decoder.wait_received("E", EVENT)
    cursor = len(engine.events)

    # A well-framed message with an unknown id ("Z").
    unknown = bytes([ord("Z"), 0, 4, 0]) + frame["timestamp"].to_bytes(4, "little", signed=True)
    decoder.send_hex(unknown)
    cursor, first = engine.wait_event("decoderProblem", EVENT, start=cursor, what="a problem for the unknown id")
    # A confident prediction for object 3, cut short: its header says 9 payload bytes, 6 arrive.
    whole = RawMessage.fromUtopiaMessage(PredictedTargetProb(frame["timestamp"], 3, 0.05)).serialize()
    decoder.send_hex(whole[:-3])
    _, second = engine.wait_event("decoderProblem", EVENT, start=cursor + 1, what="a problem for the cut frame")
    # Each report names the frame and the reason.
    assert 'unknown id "Z"' in first["value"], first
    assert "declares a 9-byte payload" in second["value"] and "only 6 bytes" in second["value"], second
    # And keeps the frame's bytes: the recording shows what the decoder sent.
    assert first["value"].endswith("bytes " + unknown.hex()), first
    assert second["value"].endswith("bytes " + whole[:-3].hex()), second

    # The engine keeps running. Past minTrialDuration (1 s) of flicker, where a
    # decoded copy of the cut prediction would have pressed object 3, object 1
    # is predicted: it is the one pressed.
    past_minimum = wrap_int32(int(flicker["time"] * 1000) + 1300)
    decoder.wait_received("E", EVENT, start=len(decoder.log),
                          where=lambda m: stamp_not_older(m["timestamp"], past_minimum),
                          what="flicker past 1.3 s")
    assert engine.process.poll() is None
    decoder.predict(1, 0.05)
    _, press = engine.wait_event("press", EVENT)
    assert (press["objectID"], press["source"]) == (1, "brain")
    _, selection = decoder.wait_received("S", EVENT)
    assert selection["objID"] == 1
    assert engine.wait_exit(EXIT) == 0
    assert len(engine.of_type("press")) == 1
    assert len(engine.of_type("decoderProblem")) == 2


def test_decoder_csv_holds_exactly_the_bytes_that_crossed_the_socket(interop):
    """The recording's decoder.csv: every frame the decoder received, byte for
    byte and in order, as `out` lines, and every frame the engine took from
    the decoder as `in` lines (the decoder's own log of the socket is the
    reference)."""
    import csv
    import glob
    import os

    root = os.path.join(interop.folder, "recordings")
    decoder = interop.start_decoder()
    engine = interop.start_engine(trials=1, controls=CONTROLS, recordings=root)
    engine.wait_event("trialStarted", CONNECT, trial=1)
    decoder.wait_received("E", EVENT)
    decoder.predict(2, 0.05)
    decoder.wait_received("S", EVENT, what="the SELECTION")
    assert engine.wait_exit(EXIT) == 0
    decoder.stop()

    folders = [f for f in glob.glob(os.path.join(root, "*")) if os.path.isdir(f)]
    assert len(folders) == 1, folders
    with open(os.path.join(folders[0], "decoder.csv"), newline="") as handle:
        rows = list(csv.DictReader(handle))
    out_lines = [r["hex"] for r in rows if r["direction"] == "out"]
    in_lines = [r["hex"] for r in rows if r["direction"] == "in"]
    unsent_lines = [r["hex"] for r in rows if r["direction"] == "unsent"]
    received = decoder.frames("in")
    sent = decoder.frames("out")
    assert received and sent
    # Sends before the connection completes are dropped by the link (IMMEDIATE)
    # and listed again as `unsent`: the `out` lines without them are exactly
    # what the decoder received, in order, byte for byte.
    delivered = list(out_lines)
    for line in unsent_lines:
        delivered.remove(line)
    assert delivered == received
    assert all(r["id"] == bytes.fromhex(r["hex"])[:1].decode() for r in rows if r["direction"] == "unsent")
    assert all(line == bytes.fromhex(line).hex() for line in out_lines), "lowercase hex of whole frames"
    # The engine read a prefix of what the decoder sent (it stops reading at exit).
    assert len(in_lines) >= 2
    assert in_lines == sent[:len(in_lines)]


def test_decoder_endpoint_setting_is_used_without_a_decoder_flag(interop):
    """`decoderEndpoint` from a settings file decides where the engine connects."""
    decoder = interop.start_decoder()
    engine = interop.start_engine(trials=1, controls=CONTROLS, decoder_flag=False,
                                  settings={"decoderEndpoint": interop.endpoint})
    assert "--decoder" not in engine.args
    engine.wait_event("trialStarted", CONNECT, trial=1)
    decoder.wait_received("N", EVENT, what="NEWTARGET through the endpoint named by the setting")
    decoder.wait_received("E", EVENT)
    decoder.predict(1, 0.05)
    assert engine.wait_exit(EXIT) == 0


def test_prints_to_the_console_mirrors_every_event_on_stderr(interop):
    """`noiseTaggingPrintsToTheConsole`: every engine event also goes to standard error as one JSON line."""
    import json

    decoder = interop.start_decoder()
    engine = interop.start_engine(trials=1, controls=CONTROLS, settings={"noiseTaggingPrintsToTheConsole": True})
    engine.wait_event("trialStarted", CONNECT, trial=1)
    decoder.wait_received("E", EVENT)
    decoder.predict(2, 0.05)
    assert engine.wait_exit(EXIT) == 0
    with open(engine.stderr_path) as handle:
        mirrored = [json.loads(line) for line in handle if line.startswith("{")]
    printed = [{k: v for k, v in e.items() if k != "_arrived"} for e in engine.events.snapshot()]  # the log's own stamp

    def from_first_trial(events):
        return events[[e["type"] for e in events].index("trialStarted"):]

    # Every event from the first trial on, the same on both streams.
    assert from_first_trial(mirrored) == from_first_trial(printed)
    assert {"press", "trialEnded"} <= {e["type"] for e in mirrored}


def test_without_the_setting_nothing_is_mirrored(interop):
    decoder = interop.start_decoder()
    engine = interop.start_engine(trials=1, controls=CONTROLS)
    engine.wait_event("trialStarted", CONNECT, trial=1)
    decoder.wait_received("E", EVENT)
    decoder.predict(2, 0.05)
    assert engine.wait_exit(EXIT) == 0
    with open(engine.stderr_path) as handle:
        assert not [line for line in handle if line.startswith("{")]


def test_predictions_the_engine_cannot_take_are_reported_once_per_trial_and_never_press(interop):
    # A decoder team's easy mistakes: a log-probability for Perr (negative: it would read as
    # certainty above 1), an object that is not on screen, a distribution that is not one, object 0
    # (the cued target's stand-in) in a Test trial. Each is one decoderProblem in its trial, no
    # press; a proper P then presses.
    decoder = interop.start_decoder()
    engine = interop.start_engine(trials=4, controls=CONTROLS)
    cursor = 0
    for trial, bad, expected in [
        (1, lambda frame: decoder.predict(1, -0.5), "Perr -0.5 is not a probability"),
        (2, lambda frame: decoder.predict(77, 0.01), "no such object on screen in trial 2 (objects 1, 2, 3, 4)"),
        (3, lambda frame: decoder.send_hex(RawMessage.fromUtopiaMessage(
            PredictedTargetDist(frame["timestamp"], [1, 2], [-0.5, 1.5])).serialize()),
         "PREDICTEDTARGETDIST ignored: its probability -0.5 for object 1 is not a probability"),
        (4, lambda frame: decoder.predict(0, 0.01), "object 0 stands for the cued target"),
    ]:
        _, flicker = engine.wait_event("trialPhase", CONNECT if trial == 1 else EVENT, start=cursor, trial=trial, phase="flicker")
        _, frame = decoder.wait_received("E", EVENT, start=len(decoder.log),
                                         where=lambda m: stamp_not_older(m["timestamp"], wrap_int32(int(flicker["time"] * 1000))))
        bad(frame)
        cursor, problem = engine.wait_event("decoderProblem", EVENT, start=cursor, what="the trial's problem")
        assert expected in problem["value"], problem
        # Past minTrialDuration (1 s) a bad P would have pressed; reported once, not at each 0.1 s update.
        past_minimum = wrap_int32(int(flicker["time"] * 1000) + 1500)
        decoder.wait_received("E", EVENT, start=len(decoder.log), where=lambda m: stamp_not_older(m["timestamp"], past_minimum))
        assert not [e for e in engine.events.snapshot()[cursor:] if e.get("type") == "press"]
        assert len(engine.of_type("decoderProblem")) == trial
        decoder.predict(1, 0.05)
        cursor, press = engine.wait_event("press", EVENT, start=cursor)
        assert (press["trial"], press["objectID"]) == (trial, 1)
    assert engine.wait_exit(EXIT) == 0
