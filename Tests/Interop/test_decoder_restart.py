"""A decoder that dies or restarts while the engine runs, through the
decoder bridge: `noisetag demo --headless` against `utopia_decoder.py`, an
external decoder written with pyzmq (a separate process, so that it can be
SIGKILLed). Whether the decoder comes back after the engine's decoderTimeout
or before it, the engine greets the new one (SUBSCRIBE, the mode) and its
predictions press again.

Each test starts its own decoder and engine; the `interop` fixture ends them.
"""
import time

from test_decoder_bridge import CONNECT, CONTROLS, EVENT, EXIT

DECODER_TIMEOUT = 3.0  # the engine's default decoderTimeout
TIMEOUT_MARGIN = 2.5


def first_trial_flickering(interop):
    """A decoder and an engine (one trial asked for) whose first trial flickers."""
    first = interop.start_decoder()
    engine = interop.start_engine(trials=1, controls=CONTROLS)
    engine.wait_event("decoderConnection", CONNECT, state="connected")
    engine.wait_event("trialStarted", CONNECT, trial=1)
    first.wait_received("E", EVENT)
    return first, engine


def test_killed_decoder_is_reported_and_a_new_decoder_takes_over(interop):
    first, engine = first_trial_flickering(interop)

    cursor = len(engine.events)
    killed = time.monotonic()
    first.kill()
    _, lost = engine.wait_event("decoderConnection", DECODER_TIMEOUT + TIMEOUT_MARGIN, start=cursor,
                                state="disconnected")
    _, stopped = engine.wait_event("trialEnded", EVENT, start=cursor, trial=1)
    assert stopped["ending"] == "stopped-decoderLost"
    # Reported within the timeout (plus margin), and not long before it: the
    # decoder's last heartbeat came at most about a second before the kill.
    waited = lost["_arrived"] - killed
    assert DECODER_TIMEOUT - 1.5 <= waited <= DECODER_TIMEOUT + TIMEOUT_MARGIN, waited

    # A second decoder process binds the same endpoint: the engine reconnects
    # by itself, handshakes again and runs the next trial.
    second = interop.start_decoder()
    cursor, _ = engine.wait_event("decoderConnection", CONNECT, start=cursor, state="connected")
    greeted_and_pressing(engine, second, cursor, 2)
    assert engine.wait_exit(EXIT) == 0
    assert not second.errors()


def greeted_and_pressing(engine, decoder, cursor, obj_id):
    """The new `decoder` is subscribed and told the mode, hears trial 2 start,
    and its prediction for `obj_id` presses."""
    _, subscribe = decoder.wait_received("B", EVENT)
    assert subscribe["ids"] == "PFTVCMHLQ"
    _, mode = decoder.wait_received("M", EVENT)
    assert mode["mode"] == "Prediction.static"
    engine.wait_event("trialStarted", CONNECT, start=cursor, trial=2)
    decoder.wait_received("N", EVENT)
    decoder.wait_received("E", EVENT)
    decoder.predict(obj_id, 0.05)
    _, selection = decoder.wait_received("S", EVENT)
    assert selection["objID"] == obj_id
    _, press = engine.wait_event("press", EVENT, start=cursor)
    assert (press["trial"], press["objectID"], press["source"]) == (2, obj_id, "brain")


def test_a_decoder_restarted_within_the_timeout_is_greeted_again(interop):
    """A decoder killed and started again on the same endpoint before the
    engine's decoderTimeout: libzmq reconnects the engine's socket by itself,
    the engine never hears silence, yet the new decoder knows neither the
    subscription nor the mode. The engine sees the new connection, stops the
    trial the old decoder held the evidence of, and greets the new one."""
    first, engine = first_trial_flickering(interop)

    cursor = len(engine.events)
    first.kill()
    second = interop.start_decoder()
    _, again = engine.wait_event("decoderConnection", DECODER_TIMEOUT + TIMEOUT_MARGIN, start=cursor, state="connected")
    _, stopped = engine.wait_event("trialEnded", EVENT, start=cursor, trial=1)
    assert stopped["ending"] == "stopped-decoderLost"
    greeted_and_pressing(engine, second, cursor, 3)
    assert engine.wait_exit(EXIT) == 0
    # The restart came well within the timeout: the decoder never counted as lost.
    assert not any(e.get("type") == "decoderConnection" and e.get("state") == "disconnected" for e in engine.events.snapshot())
    assert not second.errors()
