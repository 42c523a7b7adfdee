#!/usr/bin/env python3
"""Stream EEG from an amplifier to the noisetag decoder.

An acquisition client of the decoder bridge (Protocols/decoder-bridge.md):
connects a ZeroMQ DEALER to the decoder's ROUTER, sends SUBSCRIBE and
HEARTBEAT, one DATAHEADER, then DATAPACKETs as the amplifier delivers
samples, and a HEARTBEAT every second. Frames are serialized exactly as the
MindAffect SDK's utopiaclient.py does (4-byte header: id, version, uint16 LE
payload length; little-endian payload).

Sources:
  brainflow   any BrainFlow board (pip install brainflow); the default
              --board-id -1 is BrainFlow's synthetic board, which needs no
              hardware. E.g. an OpenBCI Cyton: --board-id 0 --serial-port /dev/ttyUSB0
  lsl         the first Lab Streaming Layer stream of --lsl-type (pip install pylsl)

Timestamps: each DATAPACKET is stamped with the time its last sample was
received, in milliseconds of CLOCK_MONOTONIC (Python's time.monotonic() on
Linux) -- the clock the engine stamps its STIMULUSEVENTs with, so the
decoder can line samples up with the stimulus when both run on this machine.

Examples:
  noisetag decoder &                                   # the decoder, default endpoint
  python3 Examples/acquisition_streamer.py             # synthetic board, default endpoint
  python3 Examples/acquisition_streamer.py --source lsl --lsl-type EEG --channels 8
"""
import argparse
import os
import struct
import sys
import time

import zmq

MAX_PAYLOAD = 65535


def default_endpoint():
    """The per-user socket the engine and decoder use by default."""
    runtime = os.environ.get("XDG_RUNTIME_DIR")
    folder = runtime + "/noisetag" if runtime else "/tmp/noisetag-%d" % os.getuid()
    return "ipc://%s/decoder.sock" % folder


def stamp(seconds=None):
    """Wire timestamp: int32 milliseconds of the monotonic clock, wrapping."""
    millis = int((time.monotonic() if seconds is None else seconds) * 1000)
    return (millis + 2**31) % 2**32 - 2**31


def frame(msg_id, payload, version=0):
    """One Utopia message: id, version, uint16 LE payload length, payload."""
    if len(payload) > MAX_PAYLOAD:
        raise ValueError("payload of %d bytes is over the 64 KiB limit" % len(payload))
    return struct.pack("<BBH", ord(msg_id), version, len(payload)) + payload


def subscribe(ts, ids):
    return frame("B", struct.pack("<i", ts) + ids.encode("ascii"))


def heartbeat(ts):
    return frame("H", struct.pack("<i", ts))


def data_header(ts, nchannels, fsample, labels):
    text = ", ".join(labels).encode("utf-8") if labels else b""
    return frame("A", struct.pack("<iif", ts, nchannels, fsample) + text)


def data_packet(ts, samples):
    """`samples`: rows of one float per channel, one row per sample."""
    payload = struct.pack("<ii", ts, len(samples))
    for row in samples:
        payload += struct.pack("<%df" % len(row), *row)
    return frame("D", payload)


def packets(ts, samples):
    """DATAPACKETs for `samples`, split so that none exceeds 64 KiB; each
    packet is stamped with its last sample's time (the last one with `ts`)."""
    if not samples:
        return []
    per_packet = max(1, (MAX_PAYLOAD - 8) // (4 * len(samples[0])))
    return [data_packet(ts, samples[i:i + per_packet]) for i in range(0, len(samples), per_packet)]


def describe(data):
    """A received frame as one line (SIGNALQUALITY, LOG, HEARTBEAT), or None."""
    out = []
    offset = 0
    while offset + 4 <= len(data):
        msg_id, _version, length = struct.unpack_from("<BBH", data, offset)
        payload = data[offset + 4: offset + 4 + length]
        offset += 4 + length
        if msg_id == ord("Q") and len(payload) >= 4:
            values = struct.unpack_from("<%df" % ((len(payload) - 4) // 4), payload, 4)
            out.append("SIGNALQUALITY " + " ".join("%.2f" % v for v in values))
        elif msg_id == ord("L") and len(payload) >= 4:
            out.append("LOG " + payload[4:].decode("utf-8", errors="replace"))
        elif msg_id == ord("H"):
            out.append("HEARTBEAT")
    return "\n".join(out) or None


class BrainFlowSource:
    """Samples from a BrainFlow board, in microvolts."""

    def __init__(self, args):
        from brainflow.board_shim import BoardShim, BrainFlowInputParams
        BoardShim.disable_board_logger()
        params = BrainFlowInputParams()
        params.serial_port = args.serial_port or ""
        self.board = BoardShim(args.board_id, params)
        self.rows = BoardShim.get_eeg_channels(args.board_id)[: args.channels or None]
        names = []
        try:
            names = BoardShim.get_eeg_names(args.board_id)[: len(self.rows)]
        except Exception:
            pass
        self.labels = names if len(names) == len(self.rows) else ["ch%d" % (i + 1) for i in range(len(self.rows))]
        self.rate = float(BoardShim.get_sampling_rate(args.board_id))
        self.board.prepare_session()
        self.board.start_stream()

    def read(self):
        data = self.board.get_board_data()
        if data.shape[1] == 0:
            return []
        return data[self.rows, :].T.tolist()

    def close(self):
        try:
            self.board.stop_stream()
        finally:
            self.board.release_session()


class LSLSource:
    """Samples from the first LSL stream of a type."""

    def __init__(self, args):
        import pylsl
        streams = pylsl.resolve_byprop("type", args.lsl_type, timeout=10)
        if not streams:
            raise RuntimeError("no LSL stream of type %s found" % args.lsl_type)
        self.inlet = pylsl.StreamInlet(streams[0])
        info = self.inlet.info()
        count = info.channel_count()
        self.columns = list(range(count))[: args.channels or None]
        self.labels = ["ch%d" % (i + 1) for i in self.columns]
        self.rate = float(info.nominal_srate())

    def read(self):
        chunk, _times = self.inlet.pull_chunk(timeout=0.0)
        return [[row[c] for c in self.columns] for row in chunk]

    def close(self):
        self.inlet.close_stream()


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--endpoint", default=default_endpoint(), help="decoder endpoint (default: %(default)s)")
    parser.add_argument("--source", choices=["brainflow", "lsl"], default="brainflow")
    parser.add_argument("--board-id", type=int, default=-1, help="BrainFlow board id (-1: synthetic board)")
    parser.add_argument("--serial-port", help="BrainFlow serial port, for boards that need one")
    parser.add_argument("--lsl-type", default="EEG", help="LSL stream type to resolve")
    parser.add_argument("--channels", type=int, default=8, help="first N EEG channels to send (0: all)")
    parser.add_argument("--packet-ms", type=float, default=40, help="how often to send a packet")
    parser.add_argument("--duration", type=float, default=0, help="stop after this many seconds (0: until Ctrl-C)")
    parser.add_argument("--print-incoming", action="store_true", help="print SIGNALQUALITY, LOG and HEARTBEAT lines")
    args = parser.parse_args(argv)

    source = BrainFlowSource(args) if args.source == "brainflow" else LSLSource(args)
    context = zmq.Context.instance()
    socket = context.socket(zmq.DEALER)
    socket.setsockopt(zmq.LINGER, 250)
    socket.connect(args.endpoint)
    socket.send(subscribe(stamp(), "HQL" if args.print_incoming else "H"))
    socket.send(heartbeat(stamp()))
    socket.send(data_header(stamp(), len(source.labels), source.rate, source.labels))
    print("streaming %d channels at %g Hz to %s" % (len(source.labels), source.rate, args.endpoint), flush=True)
    start = time.monotonic()
    last_heartbeat = start
    sent = 0
    dropped = 0
    try:
        while args.duration <= 0 or time.monotonic() - start < args.duration:
            samples = source.read()
            if samples:
                for packet in packets(stamp(), samples):
                    try:
                        socket.send(packet, zmq.NOBLOCK)
                    except zmq.Again:
                        dropped += 1          # no decoder there, or its queue is full: never wait
                sent += len(samples)
            if time.monotonic() - last_heartbeat >= 1:
                try:
                    socket.send(heartbeat(stamp()), zmq.NOBLOCK)
                except zmq.Again:
                    pass
                last_heartbeat = time.monotonic()
            while socket.poll(0):
                line = describe(socket.recv())
                if line and args.print_incoming:
                    print(line, flush=True)
            time.sleep(args.packet_ms / 1000)
    except KeyboardInterrupt:
        pass
    finally:
        source.close()
        socket.close()
    print("sent %d samples; %d packets dropped" % (sent, dropped), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
