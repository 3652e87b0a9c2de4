#!/usr/bin/python3
"""The link against an independent Noise implementation: a controller
written with python3-dissononce (Noise_NNpsk0_25519_ChaChaPoly_SHA256,
docs/LINK.md's frames and padding) talks to fairdeal's device side
(tests/link/link_peer.c): a full handshake, frames both ways, then a
replayed, a flipped, a dropped-before and a foreign-session frame, a
replayed handshake and a wrong device secret, each refused with the
session unchanged, and the teardown after FD_LINK_MAX_FAILURES.
usage: interop_noise.py LINK_PEER"""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from controller import MAX_FAILURES, Controller  # noqa: E402
from peer import Peer  # noqa: E402


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
