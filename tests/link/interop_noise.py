#!/usr/bin/python3
"""The link against an independent Noise implementation: a controller
written with python3-dissononce (Noise_NNpsk0_25519_ChaChaPoly_SHA256,
docs/LINK.md's frames and padding) talks to fairdeal's device side
(tests/link/link_peer.c): a full handshake, frames both ways, then a
replayed, a flipped, a dropped-before and a foreign-session frame, a
replayed handshake and a wrong device secret, each refused with the
session unchanged, and the teardown after FD_LINK_MAX_FAILURES.
usage: interop_noise.py LINK_PEER"""
import hashlib
import hmac
import os
import sys

from dissononce.cipher.chachapoly import ChaChaPolyCipher
from dissononce.dh.x25519.x25519 import X25519DH
from dissononce.hash.sha256 import SHA256Hash
from dissononce.processing.handshakepatterns.interactive.NN import NNHandshakePattern
from dissononce.processing.impl.cipherstate import CipherState
from dissononce.processing.impl.handshakestate import HandshakeState
from dissononce.processing.impl.symmetricstate import SymmetricState
from dissononce.processing.modifiers.psk import PSKPatternModifier

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from peer import Peer  # noqa: E402

BUCKETS = (64, 128, 256, 512)
MAX_FAILURES = 8


def header(kind, n):
    return bytes([0xFD, kind, n >> 8, n & 0xFF])


def pad(data):
    size = next(b for b in BUCKETS if len(data) + 2 <= b)
    return len(data).to_bytes(2, "big") + data + bytes(size - 2 - len(data))


def unpad(buf):
    n = int.from_bytes(buf[:2], "big")
    assert len(buf) in BUCKETS and not any(buf[2 + n:]), "bad padding"
    return bytes(buf[2:2 + n])


class Controller:
    def __init__(self, secret):
        self.psk = hmac.new(secret, b"fairdeal link psk v1", hashlib.sha256).digest()

    def hello(self):
        self.hs = HandshakeState(SymmetricState(CipherState(ChaChaPolyCipher()), SHA256Hash()), X25519DH())
        assert self.hs.protocol_name is None
        self.hs.initialize(PSKPatternModifier(0).modify(NNHandshakePattern()), True, b"fairdeal-link-1",
                           psks=(self.psk,))
        assert self.hs.protocol_name == "Noise_NNpsk0_25519_ChaChaPoly_SHA256"
        buf = bytearray()
        self.hs.write_message(pad(b""), buf)
        return header(1, len(buf)) + bytes(buf)

    def welcome(self, frame):
        assert frame[:2] == b"\xfd\x02" and int.from_bytes(frame[2:4], "big") == len(frame) - 4
        payload = bytearray()
        self.tx, self.rx = self.hs.read_message(frame[4:], payload)
        self.hash = self.hs.symmetricstate.get_handshake_hash()
        return unpad(bytes(payload))

    def seal(self, text):
        p = pad(text)
        h = header(3, len(p) + 16)
        return h + self.tx.encrypt_with_ad(h, p)

    def open(self, frame):
        h = frame[:4]
        assert h[:2] == b"\xfd\x03" and int.from_bytes(h[2:], "big") == len(frame) - 4
        return unpad(self.rx.decrypt_with_ad(h, frame[4:]))


def connect(peer, ctl):
    hello = ctl.hello()
    answer = peer.ask("frame", hello)
    assert answer.startswith("WELCOME "), answer
    ident = ctl.welcome(bytes.fromhex(answer.split()[1]))
    assert ident.startswith(b"FAIRDEAL link-peer counter="), ident
    state = peer.ask("state")
    assert state.startswith("open=1") and state.endswith("hash=" + ctl.hash.hex()), (state, ctl.hash.hex())
    return hello, answer


def command(peer, ctl, text):
    answer = peer.ask("frame", ctl.seal(text))
    assert answer.startswith("REPLY "), answer
    assert ctl.open(bytes.fromhex(answer.split()[1])) == b"OK " + text


def refused(peer, frame, rejected):
    answer = peer.ask("frame", frame)
    assert answer.startswith("ERR auth") or answer.startswith("ERR parse"), answer
    assert "rejected=%d " % rejected in answer, (answer, rejected)


def main():
    exe = sys.argv[1]
    secret = os.urandom(32)
    dev, other = Peer(exe), Peer(exe)
    for p in (dev, other):
        assert p.ask("dev", secret) == "OK"
    ctl = Controller(secret)
    hello1, welcome1 = connect(dev, ctl)
    for text in (b"NEW", b"SHUFFLE", b"DEAL 2 3", b"BURN", b"REVEAL"):
        command(dev, ctl, text)
    rejected = 0
    # a replayed frame
    f = ctl.seal(b"TIME 1700000000")
    answer = dev.ask("frame", f)
    assert answer.startswith("REPLY ") and ctl.open(bytes.fromhex(answer.split()[1])) == b"OK TIME 1700000000"
    rejected += 1
    refused(dev, f, rejected)
    # a flipped ciphertext bit, then the untouched frame goes through
    f = ctl.seal(b"CUT 17")
    for i in (1, 10, len(f) - 1):
        bad = bytearray(f)
        bad[i] ^= 0x10
        rejected += 1
        refused(dev, bytes(bad), rejected)
    answer = dev.ask("frame", f)
    assert answer.startswith("REPLY ") and ctl.open(bytes.fromhex(answer.split()[1])) == b"OK CUT 17"
    # a dropped frame: the one after it is refused until it comes
    f1, f2 = ctl.seal(b"MODE LAB"), ctl.seal(b"SELFTEST")
    rejected += 1
    refused(dev, f2, rejected)
    for f, text in ((f1, b"MODE LAB"), (f2, b"SELFTEST")):
        answer = dev.ask("frame", f)
        assert answer.startswith("REPLY ") and ctl.open(bytes.fromhex(answer.split()[1])) == b"OK " + text
    # a frame from another session with the same device secret
    ctl2 = Controller(secret)
    connect(other, ctl2)
    assert ctl2.hash != ctl.hash
    rejected += 1
    refused(dev, ctl2.seal(b"NEW"), rejected)
    command(dev, ctl, b"NEW")  # the session survived all of it
    # a replayed handshake: the device answers with a new ephemeral key
    # (its counter moved on, the TRNG here is stuck at zero), so the replay
    # gets a different session that the replayer cannot read
    answer = other.ask("frame", hello1)
    assert answer.startswith("WELCOME ") and answer != welcome1
    assert other.ask("state").split("hash=")[1] != ctl.hash.hex()
    # a wrong device secret: the handshake is refused
    wrong = Peer(exe)
    assert wrong.ask("dev", os.urandom(32)) == "OK"
    assert wrong.ask("frame", Controller(secret).hello()) == "ERR auth"
    assert wrong.ask("state").startswith("open=0")
    # rejections up to the threshold close the session
    junk = ctl.seal(b"NEW")
    junk = junk[:8] + bytes([junk[8] ^ 1]) + junk[9:]
    while rejected < MAX_FAILURES - 1:
        rejected += 1
        refused(dev, junk, rejected)
    answer = dev.ask("frame", junk)
    assert answer.startswith("ERR") and answer.endswith("open=0"), answer
    assert dev.ask("frame", ctl.seal(b"NEW")).startswith("ERR state")
    for p in (dev, other, wrong):
        assert p.close() == 0
    print("ok: dissononce controller <-> fairdeal device: handshake, %d rejections, teardown" % MAX_FAILURES)


main()
