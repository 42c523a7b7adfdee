#!/usr/bin/env python3
"""A scripted external decoder for the interop tests.

It binds a ZeroMQ ROUTER on the endpoint given as argument and behaves as a
real decoder does towards a presentation engine (Protocols/decoder-bridge.md):

- answers the first message of a new peer with a HEARTBEAT (v1, a state
  text) and sends every known peer a HEARTBEAT every second;
- keeps each peer's SUBSCRIBE and sends it only the ids it subscribed to;
- echoes every MODECHANGE back (the confirmation);
- stamps its predictions with the timestamp of the newest STIMULUSEVENT it
  has seen, and forgets the prediction at each NEWTARGET.

Every message is framed with the MindAffect SDK's own classes
(`RawMessage.fromUtopiaMessage(msg).serialize()`) and every received frame is
decoded with the SDK's deserializers, except SUBSCRIBE, whose SDK
deserializer reads int32s where the serializer writes one byte per id.

The test drives it through JSON lines: commands on standard input, reports on
standard output (one JSON object per line). Commands:

    {"cmd": "predict", "objID": 3, "perr": 0.05}  send P now and every 0.1 s
                                                  until the next NEWTARGET
    {"cmd": "send_hex", "hex": "5a000400..."}     send these bytes as one frame
    {"cmd": "quit"}                               close the socket and exit

Reports: {"event": "bound"}, {"event": "received", "id": "E", ...fields},
{"event": "sent", "id": "P", ...}, {"event": "error", "text": ...}, and
{"event": "frame", "direction": "in"|"out", "hex": ...} for every frame
exactly as it crossed the socket.
"""
import json
import os
import struct
import sys
import time

import zmq
from mindaffectBCI.utopiaclient import (Heartbeat, ModeChange, NewTarget, PredictedTargetProb, RawMessage,
                                        Selection, StimulusEvent, decodeRawMessage)

HEARTBEAT_INTERVAL = 1.0
PREDICTION_INTERVAL = 0.1

# The SDK prints its complaints about short buffers to stdout; keep stdout for
# our reports only.
_report_stream = os.fdopen(os.dup(sys.stdout.fileno()), "w", buffering=1)
sys.stdout = sys.stderr


def report(**fields):
    _report_stream.write(json.dumps(fields, sort_keys=True) + "\n")
    _report_stream.flush()


def timestamp():
    return int(time.monotonic() * 1000) % (1 << 31)


def frame(message):
    return RawMessage.fromUtopiaMessage(message).serialize()


class Peer:
    def __init__(self, identity):
        self.identity = identity
        self.subscription = None  # None: heartbeats only (before the first SUBSCRIBE)


class Decoder:
    def __init__(self, endpoint):
        self.context = zmq.Context()
        self.socket = self.context.socket(zmq.ROUTER)
        self.socket.setsockopt(zmq.LINGER, 0)
        self.socket.bind(endpoint)
        self.peers = {}
        self.newest_stimulus = None  # timestamp of the newest STIMULUSEVENT since the last NEWTARGET
        self.prediction = None  # (objID, perr)
        self.last_prediction_sent = 0.0
        self.last_heartbeat = time.monotonic()
        self.stdin_buffer = b""
        self.running = True

    # sending

    def send(self, peer, message):
        if message.msgID != Heartbeat.msgID:
            if peer.subscription is None or chr(message.msgID) not in peer.subscription:
                return False
        self.send_bytes(peer, frame(message))
        return True

    def send_bytes(self, peer, data):
        try:
            self.socket.send_multipart([peer.identity, data], flags=zmq.DONTWAIT)
            report(event="frame", direction="out", hex=bytes(data).hex())
        except zmq.ZMQError as error:
            report(event="error", text="send failed: %s" % error)

    def heartbeat(self, peer):
        self.send(peer, Heartbeat(timestamp(), "decoder ready"))

    def send_prediction(self):
        objID, perr = self.prediction
        stamp = self.newest_stimulus
        for peer in self.peers.values():
            if self.send(peer, PredictedTargetProb(stamp, objID, perr)):
                report(event="sent", id="P", timestamp=stamp, Yest=objID, Perr=perr)
        self.last_prediction_sent = time.monotonic()

    # receiving

    def on_frame(self, identity, data):
        report(event="frame", direction="in", hex=bytes(data).hex())
        peer = self.peers.get(identity)
        if peer is None:
            peer = self.peers[identity] = Peer(identity)
            report(event="peer", identity=identity.hex())
            self.heartbeat(peer)
        raws, consumed = RawMessage.deserializeMany(data)
        if consumed != len(data):
            report(event="error", text="malformed frame from the engine: %s" % data.hex())
        for raw in raws:
            self.on_message(peer, raw)

    def on_message(self, peer, raw):
        kind = chr(raw.msgID)
        if kind == "B":
            # The SDK's Subscribe.deserialize reads int32s; the bytes are one per id.
            (stamp,) = struct.unpack("<i", raw.payload[:4])
            peer.subscription = raw.payload[4:].decode("ascii")
            report(event="received", id="B", timestamp=stamp, ids=peer.subscription)
            return
        message = decodeRawMessage(raw)
        if isinstance(message, StimulusEvent):
            self.newest_stimulus = message.timestamp
            report(event="received", id="E", timestamp=message.timestamp,
                   objIDs=list(message.objIDs), states=list(message.objState))
        elif isinstance(message, ModeChange):
            report(event="received", id="M", timestamp=message.timestamp, mode=message.newmode)
            if self.send(peer, ModeChange(timestamp(), message.newmode)):
                report(event="sent", id="M", mode=message.newmode)
        elif isinstance(message, NewTarget):
            self.prediction = None
            self.newest_stimulus = None
            report(event="received", id="N", timestamp=message.timestamp)
        elif isinstance(message, Selection):
            report(event="received", id="S", timestamp=message.timestamp, objID=message.objID)
        elif isinstance(message, Heartbeat):
            report(event="received", id="H", timestamp=message.timestamp, version=raw.version)
        else:
            report(event="received", id=kind, payload=(raw.payload or b"").hex())

    # commands

    def on_command(self, line):
        try:
            command = json.loads(line)
        except ValueError:
            report(event="error", text="bad command %r" % line)
            return
        name = command.get("cmd")
        if name == "predict":
            self.prediction = (int(command["objID"]), float(command["perr"]))
            if self.newest_stimulus is None:
                report(event="error", text="predict before any STIMULUSEVENT of this trial")
                self.prediction = None
                return
            self.send_prediction()
        elif name == "send_hex":
            data = bytes.fromhex(command["hex"])
            for peer in self.peers.values():
                self.send_bytes(peer, data)
            report(event="sent", id="raw", hex=command["hex"], peers=len(self.peers))
        elif name == "quit":
            self.running = False
        else:
            report(event="error", text="unknown command %r" % name)

    def read_commands(self):
        chunk = os.read(sys.stdin.fileno(), 65536)
        if not chunk:  # the test went away: stop
            self.running = False
            return
        self.stdin_buffer += chunk
        while b"\n" in self.stdin_buffer:
            line, self.stdin_buffer = self.stdin_buffer.split(b"\n", 1)
            if line.strip():
                self.on_command(line.decode())

    # loop

    def run(self):
        poller = zmq.Poller()
        poller.register(self.socket, zmq.POLLIN)
        poller.register(sys.stdin.fileno(), zmq.POLLIN)
        report(event="bound")
        while self.running:
            ready = dict(poller.poll(50))
            if self.socket in ready:
                while True:
                    try:
                        parts = self.socket.recv_multipart(flags=zmq.DONTWAIT)
                    except zmq.Again:
                        break
                    if len(parts) != 2:
                        report(event="error", text="expected [identity, data], got %d frames" % len(parts))
                    self.on_frame(parts[0], parts[-1])
            if sys.stdin.fileno() in ready:
                self.read_commands()
            now = time.monotonic()
            if now - self.last_heartbeat >= HEARTBEAT_INTERVAL:
                self.last_heartbeat = now
                for peer in self.peers.values():
                    self.heartbeat(peer)
            if self.prediction is not None and now - self.last_prediction_sent >= PREDICTION_INTERVAL:
                self.send_prediction()
        self.socket.close()
        self.context.term()
        report(event="closed")


def main():
    if len(sys.argv) != 2:
        print("usage: utopia_decoder.py ENDPOINT", file=sys.stderr)
        return 2
    Decoder(sys.argv[1]).run()
    return 0


if __name__ == "__main__":
    sys.exit(main())
