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
(a REVEAL line adds seq=, head=, label= and, after a power cut, skipped=).
"""
import hashlib
import hmac
import re
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
        raise Reject("order does not match the one S, the seeds and the header derive")


# --- round lines (docs/VERIFY.md section 10) ------------------------------------
#
# Strict: space-separated key=value fields, exactly the documented keys once
# each (seq=, head= and label= of a REVEAL line optional), numbers in ASCII
# decimal without sign or leading zero and within range, hex in lower case.

ROUND_KEYS = ("device", "id", "shoe", "slots", "beacon", "secret", "seeds", "commitment", "order")
REVEAL_KEYS = ("seq", "head", "label", "skipped")
SKIPPED_MAX = 4                              # SKIPPED records a round may hold (docs/RECORDS.md)
DECIMAL = re.compile(r"0|[1-9][0-9]*")
HEX = re.compile(r"(?:[0-9a-f]{2})*")


def decimal(key, text, low, high):
    if not DECIMAL.fullmatch(text):
        raise Reject("%s=%s is not a decimal number" % (key, printable(text)))
    value = int(text)
    if not low <= value <= high:
        raise Reject("%s=%s out of range %d..%d" % (key, text, low, high))
    return value


def hex_bytes(key, text, low, high):
    if not HEX.fullmatch(text):
        raise Reject("%s= is not lower-case hex" % key)
    if not low <= len(text) // 2 <= high:
        raise Reject("%s= out of range: %d bytes, not %d..%d" % (key, len(text) // 2, low, high))
    return bytes.fromhex(text)


def printable(text):
    """At most 40 characters of text for an error line, anything but
    printable ASCII as '?' (an error is always one line)."""
    return "".join(c if " " <= c < "\x7f" else "?" for c in text[:40])


def fields(text, required, optional=()):
    """key=value fields separated by single spaces, each key once."""
    f = {}
    for item in text.split(" ") if text else ():
        key, eq, value = item.partition("=")
        if not eq or not key:
            raise Reject("malformed field %r: not key=value" % printable(item))
        if key not in required and key not in optional:
            raise Reject("unknown key %s=" % printable(key))
        if key in f:
            raise Reject("duplicate key %s=" % key)
        f[key] = value
    for key in required:
        if key not in f:
            raise Reject("missing key %s=" % key)
    return f


def parse_shoe(text):
    parts = text.split(":")
    if len(parts) != 3:
        raise Reject("malformed shoe=%s: not kind:decks:jokers" % printable(text))
    kind = parts[0]
    if kind not in KINDS:
        raise Reject("unknown deck kind %s" % printable(kind))
    decks = decimal("decks", parts[1], 1, 8)
    jokers = decimal("jokers", parts[2], 0, 2 if kind == "french" else 0)
    return kind, decks, jokers


def parse_beacon(text, slots):
    """"SLOT:INDEX" (a slot the mask accepts) or "none", as (slot, index)."""
    if text == "none":
        return (NO_BEACON, 0)
    slot, colon, index = text.partition(":")
    if not colon:
        raise Reject("malformed beacon=%s: not SLOT:INDEX or none" % printable(text))
    beacon = (decimal("beacon slot", slot, 0, SLOTS - 1), decimal("beacon index", index, 0, (1 << 64) - 1))
    if not slots >> beacon[0] & 1:
        raise Reject("beacon slot %d not accepted by slots=%02x" % (beacon[0], slots))
    return beacon


def parse_skipped(text, n):
    """skipped=P,A-B,... (docs/PROTOCOL.md "Power loss"): positions 0..n-1
    skipped at power loss, one range per power cut: at most 4, each P or
    A-B with A < B, ascending and disjoint. As [(first, last), ...]."""
    items = text.split(",")
    if len(items) > SKIPPED_MAX:
        raise Reject("skipped= more than %d ranges" % SKIPPED_MAX)
    out = []
    for item in items:
        first_text, dash, last_text = item.partition("-")
        first = decimal("skipped", first_text, 0, n - 1)
        last = decimal("skipped", last_text, 0, n - 1) if dash else first
        if dash and last <= first:
            raise Reject("skipped= range %s is not ascending" % printable(item))
        if out and first <= out[-1][1]:
            raise Reject("skipped= ranges overlap or are out of order")
        out.append((first, last))
    return out


def check_skipped(round_id, skipped, cuts):
    """A transcript's skipped= against its power cuts (docs/VERIFY.md
    section 10). cuts: (shown, at, last) per RECOVERED banner of the round:
    the next position the transcript had shown, the banner's card P, and
    where the last DEAL or BURN reply shown began (None: none). A power cut
    marks the journal's newest deal: the one it hid (from shown to P - 1)
    or, when it hid none, the last one shown. So every range ends at a cut
    (last position P - 1) and starts at that cut's deal, and every position
    a cut hid is in a range."""
    for first, last in skipped:
        cut = next((c for c in cuts if c[1] == last + 1), None)
        if cut is None:
            raise Reject("round %d: skipped=%d-%d ends at no power cut" % (round_id, first, last))
        if first != (cut[0] if cut[0] < cut[1] else cut[2]):
            raise Reject("round %d: skipped=%d-%d does not start where the cut deal started" % (round_id, first, last))
    for shown, at, _ in cuts:
        if shown < at and not any(last + 1 == at for _, last in skipped):
            raise Reject("round %d: positions %d-%d hidden by a power cut are not in skipped="
                         % (round_id, shown, at - 1))


def parse_line(line):
    """A round line as a dict for derive(); Reject when malformed."""
    f = fields(line.rstrip("\r\n"), ROUND_KEYS, REVEAL_KEYS)
    device = hex_bytes("device", f["device"], 1, DEVICE_ID_MAX)
    round_id = decimal("id", f["id"], 0, (1 << 32) - 1)
    kind, decks, jokers = parse_shoe(f["shoe"])
    slots = hex_bytes("slots", f["slots"], 1, 1)[0]
    beacon = parse_beacon(f["beacon"], slots)
    n = len(canonical_shoe(kind, decks, jokers))
    secret = hex_bytes("secret", f["secret"], secret_min(n), SECRET_MAX)
    seeds = {}
    if f["seeds"] != "none":
        for item in f["seeds"].split(";"):
            slot, colon, hexseed = item.partition(":")
            if not colon:
                raise Reject("malformed seeds=: %r is not SLOT:HEX" % printable(item))
            slot = decimal("seed slot", slot, 0, SLOTS - 1)
            if slot in seeds:
                raise Reject("seeds= duplicate slot %d" % slot)
            if seeds and slot < max(seeds):
                raise Reject("seeds= slots out of order (%d after %d)" % (slot, max(seeds)))
            if not slots >> slot & 1:
                raise Reject("seed slot %d not accepted by slots=%02x" % (slot, slots))
            seeds[slot] = hex_bytes("seed", hexseed, 1, SEED_MAX)
    commit = hex_bytes("commitment", f["commitment"], 32, 32)
    order = [decimal("order", c, 0, 8 * 64 - 1) for c in f["order"].split(",")]
    r = {"device": device, "id": round_id, "kind": kind, "decks": decks, "jokers": jokers, "slots": slots,
         "beacon": beacon, "secret": secret, "seeds": seeds, "commitment": commit, "order": order}
    if "seq" in f:
        decimal("seq", f["seq"], 0, (1 << 32) - 1)
    if "head" in f:
        hex_bytes("head", f["head"], 32, 32)
    r["skipped"] = parse_skipped(f["skipped"], n) if "skipped" in f else []
    if "label" in f and f["label"] != ("seeded" if seeds else "house-only"):
        raise Reject("mislabelled: label=%s, the round is %s"
                     % (printable(f["label"]), "seeded" if seeds else "house-only"))
    return r


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


def fail(number, why):
    print("verify.py: line %d: %s" % (number, why), file=sys.stderr)


def check_lines(lines, tamper_every=1):
    """Every round line must verify and each of its tamperings be rejected:
    one line on stderr per failure, the count on stdout when all pass."""
    rounds = 0
    for number, line in enumerate(lines, 1):
        line = line.rstrip("\n")
        line = line[:-1] if line.endswith("\r") else line
        if not line or line.startswith("#"):
            continue
        rounds += 1
        try:
            r = parse_line(line)
            verify(r)
        except Reject as why:
            fail(number, why)                 # the first failure ends the check: one error line
            return 1
        if (rounds - 1) % tamper_every:
            continue
        for what, bad in tamperings(r):
            try:
                verify(bad)
            except Reject:
                continue
            fail(number, "a changed %s was accepted" % what)
            return 1
    if not rounds:
        print("verify.py: no round line", file=sys.stderr)
        return 1
    print("verify.py: %d rounds, 0 failures" % rounds)
    return 0


# --- transcripts (docs/PROTOCOL.md "Round") ---------------------------------
#
# The dealer's reply lines: a line is a reply only if it starts "OK " or
# "ERR " (prompt and echo lines start "> ", banner lines with neither), and
# only NEW, SHUFFLE, SEED, CLOSE, DEAL, BURN and REVEAL replies are read,
# each in its documented grammar; a verifiable round's REVEAL must list
# exactly the seed slots its SEED replies acknowledged. Rounds of every mode: verifiable (VERIFY.md) and
# commit-only (SHUFFLE drbg / full: SHA-256 of salt and order,
# ROUND_RECORD.md).

FRENCH_RANKS, FRENCH_SUITS = "A23456789TJQK", "SHDC"
SPANISH_SUITS = "OCEB"


def card_code(kind, face):
    """The dealer's code of a face (card id mod 64)."""
    if kind == "french":
        return "JK" if face >= 52 else FRENCH_RANKS[face % 13] + FRENCH_SUITS[face // 13]
    return "%d%s" % (face % 12 + 1, SPANISH_SUITS[face // 12])


def shoe_codes(kind, decks, jokers):
    """Each code of the shoe with its count."""
    counts = {}
    for card in canonical_shoe(kind, decks, jokers):
        code = card_code(kind, card % 64)
        counts[code] = counts.get(code, 0) + 1
    return counts


class Transcript:
    def __init__(self):
        self.shoe = ("french", 1, 0)         # power-on: one French deck
        self.round = None                    # the open round
        self.rounds = self.dealt_total = 0

    def cards(self):
        return len(canonical_shoe(*self.shoe))

    def on_new(self, rest):
        f = fields(rest, ("deck", "decks", "jokers", "cards"))
        if self.round is not None:
            raise Reject("round %d was never revealed: NEW replaced its shoe" % self.round["id"])
        shoe = parse_shoe("%s:%s:%s" % (f["deck"], f["decks"], f["jokers"]))
        if decimal("cards", f["cards"], 1, 432) != len(canonical_shoe(*shoe)):
            raise Reject("NEW reply describes no valid shoe: cards=%s" % f["cards"])
        self.shoe = shoe

    def on_shuffle(self, rest):
        f = fields(rest, ("mode",), ("device", "id", "shoe", "slots", "beacon", "cards", "commitment", "state",
                                     "label", "commit"))
        if f["mode"] == "round":
            f = fields(rest, ("mode", "device", "id", "shoe", "slots", "beacon", "cards", "commitment", "state"),
                       ("label",))
            header = {k: f[k] for k in ("device", "id", "shoe", "slots", "beacon")}
            hex_bytes("device", f["device"], 1, DEVICE_ID_MAX)
            parse_beacon(f["beacon"], hex_bytes("slots", f["slots"], 1, 1)[0])
            commit = hex_bytes("commitment", f["commitment"], 32, 32)
            self.check_state(f)
            if "label" in f and f["label"] != "house-only":
                raise Reject("mislabelled: a round closed at SHUFFLE is house-only")
            if parse_shoe(f["shoe"]) != self.shoe:
                raise Reject("SHUFFLE shoe=%s, NEW set up %s:%d:%d" % ((printable(f["shoe"]),) + self.shoe))
        elif f["mode"] in ("drbg", "full"):
            f = fields(rest, ("id", "mode", "cards", "commit"))
            header = {"id": f["id"]}
            commit = hex_bytes("commit", f["commit"], 32, 32)
        else:
            raise Reject("SHUFFLE mode=%s is not round, drbg or full" % printable(f["mode"]))
        round_id = decimal("id", f["id"], 0, (1 << 32) - 1)
        if self.round is not None:
            raise Reject("round %d was never revealed: round %d replaced it" % (self.round["id"], round_id))
        if decimal("cards", f["cards"], 1, 432) != self.cards():
            raise Reject("cards=%s, the shoe holds %d" % (f["cards"], self.cards()))
        self.round = {"id": round_id, "mode": f["mode"], "header": header, "commit": commit, "dealt": {}, "next": 0,
                      "acked": set(), "cuts": [], "last": None}

    def on_seed(self, rest):
        """OK SEED id= slot= state= [label=]: the slot, to find in REVEAL's seeds=."""
        f = fields(rest, ("id", "slot", "state"), ("label",))
        r = self.round
        if r is None or r["mode"] != "round":
            raise Reject("SEED outside a verifiable round")
        if decimal("id", f["id"], 0, (1 << 32) - 1) != r["id"]:
            raise Reject("round %d: SEED id=%s, differ from SHUFFLE's" % (r["id"], f["id"]))
        slot = decimal("slot", f["slot"], 0, SLOTS - 1)
        if slot in r["acked"]:
            raise Reject("round %d: seed slot %d acknowledged twice" % (r["id"], slot))
        r["acked"].add(slot)
        self.check_state(f)

    def on_close(self, rest):
        f = fields(rest, ("id", "state", "label"))
        r = self.round
        if r is None or r["mode"] != "round":
            raise Reject("CLOSE outside a verifiable round")
        if decimal("id", f["id"], 0, (1 << 32) - 1) != r["id"]:
            raise Reject("round %d: CLOSE id=%s, differ from SHUFFLE's" % (r["id"], f["id"]))
        self.check_state(f)

    @staticmethod
    def check_state(f):
        if f["state"] not in ("seeding", "closed"):
            raise Reject("malformed state=%s: not seeding or closed" % printable(f["state"]))
        if ("label" in f) != (f["state"] == "closed") or f.get("label", "seeded") not in ("seeded", "house-only"):
            raise Reject("mislabelled: label= goes with state=closed, and is seeded or house-only")

    def check_left(self, f):
        r = self.round
        if "reshuffle" in f and f["reshuffle"] != "due":
            raise Reject("malformed reshuffle=%s: only reshuffle=due" % printable(f["reshuffle"]))
        left = decimal("left", f["left"], 0, 432)
        if left != self.cards() - r["next"]:
            raise Reject("left=%d does not agree with %d cards dealt of %d" % (left, r["next"], self.cards()))

    def code(self, text):
        if text not in shoe_codes(*self.shoe):
            raise Reject("%r is not a card of the shoe" % printable(text))
        return text

    def on_deal(self, rest):
        if self.round is None:
            raise Reject("DEAL outside a round")
        words = rest.split(" ")
        at = next((i for i, w in enumerate(words) if "=" in w), len(words))
        groups, f = words[:at], fields(" ".join(words[at:]), ("left",), ("reshuffle",))
        if not groups or "" in groups:
            raise Reject("malformed DEAL reply: no cards, or an empty field")
        r = self.round
        if all(":" not in g for g in groups):
            dealt = [self.code(g) for g in groups]
        else:
            hands = []
            for number, group in enumerate(groups, 1):
                seat, colon, cards = group.partition(":")
                if not colon or seat != str(number):
                    raise Reject("seat %r where seat %d was due (seats 1..players in order)"
                                 % (printable(seat), number))
                hands.append([self.code(c) for c in cards.split(",")])
            if any(len(h) != len(hands[0]) for h in hands):
                raise Reject("seats hold different numbers of cards")
            players = len(hands)
            dealt = [hands[k % players][k // players] for k in range(players * len(hands[0]))]
        r["last"] = r["next"]
        for code in dealt:
            r["dealt"][r["next"]] = code
            r["next"] += 1
        self.check_left(f)
        self.dealt_total += len(dealt)

    def on_burn(self, rest):
        if self.round is None:
            raise Reject("BURN outside a round")
        f = fields(rest, ("left",), ("reshuffle",))
        self.round["last"] = self.round["next"]
        self.round["next"] += 1
        self.check_left(f)

    def on_reveal(self, rest):
        r = self.round
        if r is None:
            raise Reject("REVEAL outside a round")
        if r["mode"] == "round":
            line = parse_line(rest)
            f = fields(rest, ROUND_KEYS, REVEAL_KEYS)
            if any(f[k] != v for k, v in r["header"].items()):
                raise Reject("round %d: REVEAL's device, id, shoe, slots or beacon differ from SHUFFLE's" % r["id"])
            if line["commitment"] != r["commit"]:
                raise Reject("round %d: REVEAL's commitment is not the one SHUFFLE published" % r["id"])
            if set(line["seeds"]) != r["acked"]:
                raise Reject("round %d: %s: seeds= slots %s are not the slots SEED acknowledged %s"
                             % (r["id"], "a seed the dealer accepted is missing" if r["acked"] - set(line["seeds"])
                                else "a seed the dealer never accepted is revealed",
                                sorted(line["seeds"]), sorted(r["acked"])))
            verify(line)
            skipped = line["skipped"]
            order = [card_code(self.shoe[0], c % 64) for c in line["order"]]
        else:
            head, sep, order_text = rest.partition(" order=")
            if not sep:
                raise Reject("missing key order=")
            f = fields(head, ("id", "salt"), ("seq", "head", "skipped"))
            if f["id"] != r["header"]["id"]:
                raise Reject("round %d: REVEAL id=%s, differ from SHUFFLE's" % (r["id"], printable(f["id"])))
            if "seq" in f:
                decimal("seq", f["seq"], 0, (1 << 32) - 1)
            if "head" in f:
                hex_bytes("head", f["head"], 32, 32)
            skipped = parse_skipped(f["skipped"], self.cards()) if "skipped" in f else []
            salt = hex_bytes("salt", f["salt"], 16, 16)
            order = [self.code(c) for c in order_text.split(" ")]
            counts = {}
            for c in order:
                counts[c] = counts.get(c, 0) + 1
            if counts != shoe_codes(*self.shoe):
                raise Reject("round %d: order is not a permutation of the shoe" % r["id"])
            digest = hashlib.sha256((salt.hex() + " " + order_text).encode("ascii")).digest()
            if digest != r["commit"]:
                raise Reject("round %d: commitment does not match the revealed salt and order" % r["id"])
        check_skipped(r["id"], skipped, r["cuts"])
        for position, code in sorted(r["dealt"].items()):
            if position >= len(order) or order[position] != code:
                raise Reject("round %d: dealt card %d was %s, the order's card is %s"
                             % (r["id"], position + 1, code, order[position] if position < len(order) else "none"))
        self.round = None
        self.rounds += 1

    def on_recovered(self, line):
        """"*** RECOVERED open round id=N after a power cut at card P: ...":
        cards up to position P were journalled as dealt (those whose reply
        was lost are not in the transcript); dealing continues at P."""
        m = re.fullmatch(r"\*\*\* RECOVERED open round id=(\S*) after a power cut at card ([^:]*)(:.*)?", line)
        if not m:
            raise Reject("malformed RECOVERED banner")
        round_id = decimal("id", m.group(1), 0, (1 << 32) - 1)
        position = decimal("card", m.group(2), 0, 432)
        r = self.round
        if r is None or r["id"] != round_id:
            return
        if not r["next"] <= position <= self.cards():
            raise Reject("round %d: a power cut at card %d, but %d cards were dealt" % (r["id"], position, r["next"]))
        r["cuts"].append((r["next"], position, r["last"]))
        r["next"] = position

    def on_line(self, line):
        if line.startswith("*** RECOVERED open round id="):
            self.on_recovered(line)
            return
        words = line.split(" ", 2)
        if words[0] != "OK" or len(words) < 2:
            return                            # not a reply we read (ERR, banner, prompt and echo)
        handler = {"NEW": self.on_new, "SHUFFLE": self.on_shuffle, "SEED": self.on_seed, "CLOSE": self.on_close,
                   "DEAL": self.on_deal, "BURN": self.on_burn, "REVEAL": self.on_reveal}.get(words[1])
        if handler is not None:
            handler(words[2] if len(words) > 2 else "")


def check_transcript(lines):
    t = Transcript()
    number = 0
    try:
        for number, line in enumerate(lines, 1):
            line = line.rstrip("\n")
            t.on_line(line[:-1] if line.endswith("\r") else line)
        if t.round is not None:
            raise Reject("round %d was never revealed" % t.round["id"])
        if not t.rounds:
            raise Reject("no revealed round in the transcript")
    except Reject as why:
        fail(number, why)
        return 1
    print("verify.py: transcript rounds=%d dealt=%d" % (t.rounds, t.dealt_total))
    return 0


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
        f = fields(line, ("n", "key", "secret", "order"))
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


def read_lines(path):
    """The lines of a file ("-" or None: stdin) as text, any bytes kept
    (undecodable ones as surrogates, which no field accepts)."""
    if path in (None, "-"):
        data = sys.stdin.buffer.read()
    else:
        with open(path, "rb") as f:
            data = f.read()
    text = data.decode("utf-8", "surrogateescape")
    lines = text.split("\n")
    return lines[:-1] if lines and lines[-1] == "" else lines


def derive_command(args):
    """derive: the options as a round line (strictly parsed), then its
    commitment and order."""
    opts = {}
    seeds = []
    if len(args) % 2:
        raise Reject("options come in pairs: --name value")
    for name, value in zip(args[::2], args[1::2]):
        if name == "--seed":
            seeds.append(value)
        elif name in ("--device", "--id", "--shoe", "--slots", "--beacon", "--secret") and name not in opts:
            opts[name] = value
        else:
            raise Reject("unknown or repeated option %s" % printable(name))
    opts.setdefault("--slots", "00")
    opts.setdefault("--beacon", "none")
    for name in ("--device", "--id", "--shoe", "--secret"):
        if name not in opts:
            raise Reject("missing option %s" % name)
    r = parse_line("device=%s id=%s shoe=%s slots=%s beacon=%s secret=%s seeds=%s commitment=%s order=0"
                   % (opts["--device"], opts["--id"], opts["--shoe"], opts["--slots"], opts["--beacon"],
                      opts["--secret"], ";".join(seeds) or "none", "00" * 32))
    r["commitment"], r["order"] = derive(r)
    print(format_line(r))
    return 0


def main(argv):
    cmd, args = (argv[1], argv[2:]) if len(argv) >= 2 else (None, [])
    try:
        if cmd == "check":
            every = 1
            if "--tamper-every" in args:
                at = args.index("--tamper-every")
                every = decimal("--tamper-every", (args[at + 1:] or [""])[0], 1, 1 << 30)
                del args[at:at + 2]
            if len(args) <= 1:
                return check_lines(read_lines(args[0] if args else None), every)
        elif cmd == "transcript" and len(args) <= 1:
            return check_transcript(read_lines(args[0] if args else None))
        elif cmd == "exhaust" and len(args) <= 1:
            return check_exhaust(read_lines(args[0] if args else None))
        elif cmd == "vectors" and len(args) == 1:
            return check_lines(vector_lines(args[0]))
        elif cmd == "derive":
            return derive_command(args)
    except Reject as why:
        print("verify.py: %s" % why, file=sys.stderr)
        return 1
    except (OSError, UnicodeError) as why:
        print("verify.py: %s" % why, file=sys.stderr)
        return 2
    print(__doc__, file=sys.stderr)
    return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv))
