#!/usr/bin/env python3
"""Reference verifier for fairdeal's player-verifiable rounds (docs/VERIFY.md).

Written to be read by an auditor: Python 3 standard library only (hashlib,
hmac), one function per step of the derivation, in the document's order.

usage:
  verify.py derive --device HEX --id N --shoe KIND:DECKS:JOKERS --secret HEX
                   [--slots MASK] [--beacon SLOT:INDEX] [--seed SLOT:HEX ...]
      print the round line (commitment and order) for these inputs
  verify.py check [FILE] [--tamper-every K]   check round lines (default:
      stdin); every line must verify, and each of five tamperings of it
      (client seed, S, id, shoe, two cards swapped) must be rejected (only
      every K-th line's tamperings with --tamper-every: they cost 5 rounds)
  verify.py vectors FILE      check the round lines of FILE's vectors block
                              (docs/VERIFY.md), tamperings included
  verify.py exhaust [FILE]    lines "n=N key=HEX secret=HEX order=..." whose
      S makes the draws run past its end (VERIFY.md §6): the order must match
      and more than len(S) order bytes must have been read
Exit status 0 only if every check passed.

A round line is space-separated key=value fields:
  device=HEX id=DEC shoe=KIND:DECKS:JOKERS slots=HH beacon=SLOT:INDEX|none
  secret=HEX seeds=SLOT:HEX;SLOT:HEX...|none commitment=HEX order=ID,ID,...
"""
import hashlib
import hmac
import sys

VERSION = 1
SLOTS = 8
SEED_MAX = 64
DEVICE_ID_MAX = 32
SECRET_MAX = 544
NO_BEACON = 0xFF
DS_COMMIT = b"fairdeal/round/commit\x00"
DS_KEY = b"fairdeal/round/key\x00"
DS_STREAM = b"fairdeal/round/stream\x00"
KINDS = {"french": 1, "spanish40": 2, "spanish48": 3}


class Reject(Exception):
    """The round does not verify (or its input is malformed)."""


def be(value, size):
    return value.to_bytes(size, "big")


# --- 1. the shoe in canonical order ---------------------------------------

def canonical_shoe(kind, decks, jokers):
    """Card ids copy * 64 + face, deck by deck, face by face ascending."""
    if kind == "french":
        if not 0 <= jokers <= 2:
            raise Reject("french decks have 0..2 jokers")
        faces = list(range(52 + jokers))
    elif kind in ("spanish40", "spanish48"):
        if jokers != 0:
            raise Reject("spanish decks have no jokers")
        faces = [f for f in range(48) if not (kind == "spanish40" and f % 12 + 1 in (8, 9))]
    else:
        raise Reject("unknown deck kind %r" % kind)
    if not 1 <= decks <= 8:
        raise Reject("a shoe holds 1..8 decks")
    return [copy * 64 + face for copy in range(decks) for face in faces]


def secret_min(n):
    """Fewest bytes of S for n cards: ceil((sum ceil(log2 i), i=2..n, + 64) / 8)."""
    bits = 64 + sum((i - 1).bit_length() for i in range(2, n + 1))
    return (bits + 7) // 8


# --- 2. the commitment ------------------------------------------------------

def header_bytes(r):
    if not 1 <= len(r["device"]) <= DEVICE_ID_MAX:
        raise Reject("device id must be 1..32 bytes")
    beacon_slot, beacon_index = r["beacon"]
    if beacon_slot == NO_BEACON:
        if beacon_index != 0:
            raise Reject("beacon index without a beacon slot")
    elif beacon_slot >= SLOTS or not r["slots"] >> beacon_slot & 1:
        raise Reject("beacon slot is not an accepted slot")
    return (bytes([VERSION, len(r["device"])]) + r["device"] + be(r["id"], 4)
            + bytes([KINDS[r["kind"]], r["decks"], r["jokers"], r["slots"], beacon_slot])
            + be(beacon_index, 8))


def commitment(r):
    n = len(canonical_shoe(r["kind"], r["decks"], r["jokers"]))
    s = r["secret"]
    if not secret_min(n) <= len(s) <= SECRET_MAX:
        raise Reject("S must be %d..%d bytes for %d cards" % (secret_min(n), SECRET_MAX, n))
    return hashlib.sha256(DS_COMMIT + header_bytes(r) + be(len(s), 2) + s).digest()


# --- 3. the keystream key ---------------------------------------------------

def stream_key(r):
    msg = DS_KEY + header_bytes(r)
    for slot in range(SLOTS):
        seed = r["seeds"].get(slot, b"")
        if not r["slots"] >> slot & 1:
            if seed:
                raise Reject("a seed in slot %d, which the round does not accept" % slot)
            continue
        if len(seed) > SEED_MAX:
            raise Reject("client seeds are at most 64 bytes")
        msg += bytes([slot, len(seed)]) + seed
    return hashlib.sha256(msg).digest()


# --- 4. the order bytes -----------------------------------------------------

def order_bytes(key, secret):
    """Byte p is S[p] XOR K[p] for p < len(S), then K[p]; K is the
    concatenation of HMAC-SHA-256(key, DS_STREAM || version || be32(j))."""
    j = 0
    while True:
        block = hmac.new(key, DS_STREAM + bytes([VERSION]) + be(j, 4), hashlib.sha256).digest()
        for offset, k in enumerate(block):
            p = 32 * j + offset
            yield k ^ secret[p] if p < len(secret) else k
        j += 1


# --- 5. exact bounded integers (fairdeal's full-entropy method) -------------

class ExactUniform:
    """State: z uniform in [0, m). Starts at z = 0, m = 1 every round."""

    def __init__(self, byte_iter):
        self.bytes = byte_iter
        self.z, self.m = 0, 1
        self.read = 0                                # order bytes consumed so far

    def below(self, bound):
        while True:
            while self.m < 1 << 56:                  # top up with whole bytes
                self.z = self.z << 8 | next(self.bytes)
                self.m <<= 8
                self.read += 1
            q = self.m // bound
            if self.z < q * bound:                   # accepted: z in whole blocks of bound
                x = self.z % bound
                self.z, self.m = self.z // bound, q
                return x
            self.z, self.m = self.z - q * bound, self.m - q * bound  # keep the rest, retry


# --- 6. the order -----------------------------------------------------------

def shuffle(cards, key, secret):
    """Durstenfeld over cards (in place) from the order bytes; returns the
    number of order bytes consumed."""
    gen = ExactUniform(order_bytes(key, secret))
    n = len(cards)
    draws = [gen.below(n - t) for t in range(n - 1)]   # every draw before any swap
    for t, j in enumerate(draws):                        # Durstenfeld: i = n-1 .. 1
        i = n - 1 - t
        cards[i], cards[j] = cards[j], cards[i]
    return gen.read


def derive(r):
    """(commitment, order) of round r."""
    commit = commitment(r)
    cards = canonical_shoe(r["kind"], r["decks"], r["jokers"])
    shuffle(cards, stream_key(r), r["secret"])
    return commit, cards


def verify(r):
    commit, order = derive(r)
    if commit != r["commitment"]:
        raise Reject("commitment does not match the header and S")
    if order != r["order"]:
        raise Reject("order is not the one the derivation gives")


# --- round lines --------------------------------------------------------------

def parse_line(line):
    f = dict(item.split("=", 1) for item in line.split())
    kind, decks, jokers = f["shoe"].split(":")
    beacon = (NO_BEACON, 0) if f["beacon"] == "none" else tuple(int(v) for v in f["beacon"].split(":"))
    seeds = {}
    if f["seeds"] != "none":
        for item in f["seeds"].split(";"):
            slot, hexseed = item.split(":")
            seeds[int(slot)] = bytes.fromhex(hexseed)
    return {"device": bytes.fromhex(f["device"]), "id": int(f["id"]), "kind": kind, "decks": int(decks),
            "jokers": int(jokers), "slots": int(f["slots"], 16), "beacon": beacon,
            "secret": bytes.fromhex(f["secret"]), "seeds": seeds,
            "commitment": bytes.fromhex(f["commitment"]), "order": [int(c) for c in f["order"].split(",")]}


def format_line(r):
    beacon = "none" if r["beacon"][0] == NO_BEACON else "%d:%d" % r["beacon"]
    seeds = ";".join("%d:%s" % (s, r["seeds"][s].hex()) for s in sorted(r["seeds"])) or "none"
    return ("device=%s id=%d shoe=%s:%d:%d slots=%02x beacon=%s secret=%s seeds=%s commitment=%s order=%s"
            % (r["device"].hex(), r["id"], r["kind"], r["decks"], r["jokers"], r["slots"], beacon,
               r["secret"].hex(), seeds, r["commitment"].hex(), ",".join(map(str, r["order"]))))


def tamperings(r):
    """Five changes a cheat might try; each must be rejected."""
    flip = lambda b: bytes([b[0] ^ 1]) + b[1:]
    seeds = dict(r["seeds"])
    if seeds:
        slot = min(seeds)
        seeds[slot] = flip(seeds[slot])
    else:  # a house-only round: a seed appearing afterwards must not verify either
        free = [s for s in range(SLOTS) if r["slots"] >> s & 1]
        seeds = {free[0]: b"\x00"} if free else {0: b"\x00"}
    other_shoe = {"kind": r["kind"], "decks": r["decks"] % 8 + 1}
    order = list(r["order"])
    order[0], order[-1] = order[-1], order[0]
    if order == r["order"]:
        order = order[1:] + order[:1] if len(set(order)) > 1 else order + order
    yield "client seed", dict(r, seeds=seeds)
    yield "S", dict(r, secret=flip(r["secret"]))
    yield "id", dict(r, id=(r["id"] + 1) % (1 << 32))
    yield "shoe", dict(r, **other_shoe)
    yield "swapped card", dict(r, order=order)


def check_lines(lines, tamper_every=1):
    rounds = failures = 0
    for number, line in enumerate(lines, 1):
        line = line.strip()
        if not line or line.startswith("#"):
            continue
        rounds += 1
        try:
            r = parse_line(line)
        except (KeyError, ValueError) as why:
            failures += 1
            print("line %d: malformed round line: %s" % (number, why))
            continue
        try:
            verify(r)
        except Reject as why:
            failures += 1
            print("line %d: round id=%d does not verify: %s" % (number, r["id"], why))
            continue
        if (rounds - 1) % tamper_every:
            continue
        for what, bad in tamperings(r):
            try:
                verify(bad)
            except Reject:
                continue
            failures += 1
            print("line %d: a changed %s was accepted" % (number, what))
    print("verify.py: %d rounds, %d failures" % (rounds, failures))
    return 0 if rounds and not failures else 1


def vector_lines(path):
    """The lines between ```rounds and ``` in a markdown file."""
    inside, out = False, []
    with open(path, encoding="utf-8") as f:
        for line in f:
            if line.strip() == "```rounds":
                inside = True
            elif inside and line.strip() == "```":
                inside = False
            elif inside:
                out.append(line)
    return out


def check_exhaust(lines):
    count = failures = 0
    for line in lines:
        if not line.strip():
            continue
        f = dict(item.split("=", 1) for item in line.split())
        count += 1
        cards = list(range(int(f["n"])))
        secret = bytes.fromhex(f["secret"])
        read = shuffle(cards, bytes.fromhex(f["key"]), secret)
        if cards != [int(c) for c in f["order"].split(",")] or read <= len(secret):
            failures += 1
            print("n=%s: order %s, %d order bytes read of %d in S"
                  % (f["n"], "differs" if cards != [int(c) for c in f["order"].split(",")] else "agrees",
                     read, len(secret)))
    print("verify.py: %d exhausted rounds, %d failures" % (count, failures))
    return 0 if count and not failures else 1


def main(argv):
    if len(argv) >= 2 and argv[1] == "check":
        args = argv[2:]
        every = 1
        if "--tamper-every" in args:
            at = args.index("--tamper-every")
            every = int(args[at + 1])
            del args[at:at + 2]
        if args:
            with open(args[0], encoding="utf-8") as f:
                return check_lines(f, every)
        return check_lines(sys.stdin, every)
    if len(argv) in (2, 3) and argv[1] == "exhaust":
        if len(argv) == 3:
            with open(argv[2], encoding="utf-8") as f:
                return check_exhaust(f)
        return check_exhaust(sys.stdin)
    if len(argv) == 3 and argv[1] == "vectors":
        return check_lines(vector_lines(argv[2]))
    if len(argv) >= 2 and argv[1] == "derive":
        opts = {"--slots": "00", "--beacon": "none"}
        seeds = {}
        args = argv[2:]
        for name, value in zip(args[::2], args[1::2]):
            if name == "--seed":
                slot, hexseed = value.split(":")
                seeds[int(slot)] = bytes.fromhex(hexseed)
            else:
                opts[name] = value
        kind, decks, jokers = opts["--shoe"].split(":")
        beacon = (NO_BEACON, 0) if opts["--beacon"] == "none" else tuple(map(int, opts["--beacon"].split(":")))
        r = {"device": bytes.fromhex(opts["--device"]), "id": int(opts["--id"]), "kind": kind,
             "decks": int(decks), "jokers": int(jokers), "slots": int(opts["--slots"], 16), "beacon": beacon,
             "secret": bytes.fromhex(opts["--secret"]), "seeds": seeds}
        try:
            r["commitment"], r["order"] = derive(r)
        except Reject as why:
            print("verify.py: %s" % why, file=sys.stderr)
            return 1
        print(format_line(r))
        return 0
    print(__doc__, file=sys.stderr)
    return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv))
