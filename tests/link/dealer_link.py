#!/usr/bin/python3
"""The dealer firmware over the link, end to end (docs/LINK.md "The
dealer's console over the link"): an independent controller
(python3-dissononce, tests/link/controller.py) drives a dealer over its
console byte stream: the host dealer, or an image under QEMU (run.sh ... -).
A full round; then a replayed frame, a flipped ciphertext bit, a dropped
frame, a frame from an earlier session, a replayed handshake and a wrong
device secret, each refused with the dealer's state unchanged (the next
authenticated STATUS and the journal's seq/head are what they were);
cleartext state-changing commands refused once a session has opened; DEAL
replies of the same card count and seats the same length on the wire
whatever the cards.
usage: dealer_link.py DEALER_COMMAND..."""
import os
import re
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from controller import TEST_SECRET, Controller  # noqa: E402


class Wire:
    """The dealer's console stream: frames and cleartext lines interleaved."""

    def __init__(self, argv):
        self.p = subprocess.Popen(argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE, bufsize=0)
        self.frames_seen = []

    def send(self, data):
        self.p.stdin.write(data)
        self.p.stdin.flush()

    def read(self, n):
        out = b""
        while len(out) < n:
            chunk = self.p.stdout.read(n - len(out))
            if not chunk:
                raise RuntimeError("dealer closed its output; got %r" % out)
            out += chunk
        return out

    def line(self):
        """The next cleartext reply line ("OK ..." or "ERR ..."), skipping a
        board's echo and prompts; a frame here is an error."""
        while True:
            out = b""
            while not out.endswith(b"\r\n"):
                b = self.read(1)
                assert b != b"\xfd", "a frame where a cleartext line was expected"
                out += b
            text = out[:-2].decode()
            while text.startswith("> "):
                text = text[2:]
            if text.startswith("OK ") or text.startswith("ERR "):
                return text

    def frame(self):
        """The next frame, skipping cleartext bytes before it (the banner)."""
        while self.read(1) != b"\xfd":
            pass
        head = b"\xfd" + self.read(3)
        return head + self.read(int.from_bytes(head[2:4], "big"))

    def close(self):
        self.p.stdin.close()
        self.p.stdout.close()
        self.p.terminate()  # run.sh's timeout passes it on to QEMU
        self.p.wait()


class Session:
    def __init__(self, wire, secret=TEST_SECRET):
        self.wire = wire
        self.ctl = Controller(secret)
        self.hello = self.ctl.hello()
        wire.send(self.hello)
        self.welcome = wire.frame()
        self.ident = self.ctl.welcome(self.welcome).decode()
        assert self.ident.startswith("OK ID version="), self.ident

    def ask(self, text):
        """One command line in, one reply line back (one or more frames)."""
        self.wire.send(self.ctl.seal(text.encode()))
        return self.reply()

    def reply(self):
        out, sizes = b"", []
        while not out.endswith(b"\r\n"):
            f = self.wire.frame()
            sizes.append(len(f))
            out += self.ctl.open(f)
        self.sizes = sizes
        return out[:-2].decode()


def state(s):
    """What the dealer's state is: STATUS without the counters a read changes."""
    st = s.ask("STATUS")
    assert st.startswith("OK STATUS "), st
    return st


def check(ok, what):
    if not ok:
        raise AssertionError(what)
    print("ok   " + what)


def main():
    w = Wire(sys.argv[1:])
    try:
        run(w)
    finally:
        w.close()


def run(w):
    # before any session: the cleartext console of a development build
    w.send(b"ID\n")
    ident = w.line()
    check(re.search(r" device=[0-9a-f]{16}", ident) is not None, "cleartext ID before a session: " + ident)

    s = Session(w)
    check(s.ident.split(" seq=")[0] == ident.split(" seq=")[0], "WELCOME carries the ID line")
    # a full round
    replies = [s.ask(c) for c in ("NEW french", "SHUFFLE", "DEAL 2 3", "BURN", "REVEAL")]
    check(all(r.startswith("OK ") for r in replies) and replies[2].startswith("OK DEAL "),
          "a full round over the link: " + " / ".join(r[:40] for r in replies))

    # cleartext orders are refused once a controller has a session
    w.send(b"NEW french\n")
    refusal = w.line()
    check(refusal.startswith("ERR link "), "cleartext NEW refused after a session opened: " + refusal)
    w.send(b"HELP\n")
    check(w.line().startswith("OK HELP "), "cleartext HELP still answered")

    s.ask("NEW spanish48")
    s.ask("SHUFFLE")
    before = state(s)

    # a replayed frame
    f = s.ctl.seal(b"DEAL 1")
    w.send(f)
    dealt = s.reply()
    after_deal = state(s)
    w.send(f)
    check(state(s) == after_deal and dealt.startswith("OK DEAL"), "a replayed DEAL frame is refused, state unchanged")
    before = after_deal

    # a flipped ciphertext bit: refused; the untouched frame (resent byte for
    # byte, never re-encrypted) then shows the state as it was
    f = s.ctl.seal(b"STATUS")
    for i in (6, len(f) - 20, len(f) - 1):
        bad = bytearray(f)
        bad[i] ^= 0x01
        w.send(bytes(bad))
    w.send(f)
    check(s.reply() == before, "flipped ciphertext and tag bits are refused, state unchanged")

    # a dropped frame: the one after it is refused until it comes
    f1, f2 = s.ctl.seal(b"DEAL 1"), s.ctl.seal(b"STATUS")
    w.send(f2)
    w.send(f1)
    r1 = s.reply()
    w.send(f2)
    r2 = s.reply()
    check(r1.startswith("OK DEAL") and r2.startswith("OK STATUS") and r2 != before,
          "a dropped frame: the next refused until the dropped one arrives, then both in order")
    before = r2

    # a frame from an earlier session
    old = s
    stale = old.ctl.seal(b"DEAL 1")
    s = Session(w)
    w.send(stale)
    check(state(s) == before, "a frame from an earlier session is refused, state unchanged")

    # a replayed handshake: a new WELCOME (new keys), nothing else
    w.send(s.hello)
    replayed = w.frame()
    check(replayed[:2] == b"\xfd\x02" and replayed != s.welcome, "a replayed HELLO gets a different WELCOME")
    w.send(s.ctl.seal(b"DEAL 1"))  # the replayed session is not the controller's: refused
    s = Session(w)
    check(state(s) == before, "a replayed handshake changes nothing (its session cannot be used)")

    # a wrong device secret: no WELCOME; the cleartext ID answers next
    w.send(Controller(os.urandom(32)).hello())
    w.send(b"ID\n")
    line = w.line()
    check(line.startswith("OK ID "), "a HELLO under a wrong device secret is not answered")
    s = Session(w)
    check(state(s) == before, "... and changes nothing")

    # lengths on the wire: DEAL 2 3 (6 cards) over many shuffles, French and Spanish
    sizes = set()
    lengths = set()
    for deck in ("french", "spanish48", "spanish40"):
        for _ in range(4):
            s.ask("REVEAL")
            s.ask("NEW " + deck)
            s.ask("SHUFFLE")
            r = s.ask("DEAL 2 3")
            sizes.add(tuple(s.sizes))
            lengths.add(len(r))
    check(len(sizes) == 1 and len(lengths) > 1,
          "DEAL 2 3 replies of %d lengths all take frames of %s bytes" % (len(lengths), sizes))
    s.ask("REVEAL")


if __name__ == "__main__":
    main()
