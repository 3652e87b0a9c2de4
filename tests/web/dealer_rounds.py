#!/usr/bin/env python3
"""Random rounds from the host dealer, in every mode it reveals: verifiable
rounds (seeded, house-only, slots left empty at CLOSE, beacons) and the
commit-only SHUFFLE drbg / SHUFFLE full, over every deck kind and 1..8
decks, with DEALs to 1..8 players and BURNs. Drives one dealer process in
machine mode and prints its reply lines, one round per block from OK NEW to
OK REVEAL. Standard library only.

usage: dealer_rounds.py DEALER COUNT_PER_MODE SEED
Exit status 1 if the dealer answers any command with ERR.
"""
import random
import subprocess
import sys

BATCH = 50
SHOES = [("french", 2), ("spanish40", 0), ("spanish48", 0)]


def commands(count, rng):
    beacon_index = {}  # increasing per slot: the dealer may refuse a reused index
    modes = ["round"] * count + ["drbg"] * count + ["full"] * count
    rng.shuffle(modes)
    for mode in modes:
        yield None  # a round starts
        kind, max_jokers = rng.choice(SHOES)
        decks = rng.choice([1, 1, 1, 2, 6, 8]) if rng.random() < 0.7 else rng.randint(1, 8)
        jokers = rng.randint(0, max_jokers)
        yield "NEW %s %d %d" % (kind, decks, jokers)
        if mode == "round":
            slots = rng.choice([0, 0, 1, 2, 3, 8]) if rng.random() < 0.7 else rng.randint(0, 8)
            line = "SHUFFLE slots=%d" % slots if slots else "SHUFFLE"
            if slots and rng.random() < 0.3:
                slot = rng.randrange(slots)
                beacon_index[slot] = beacon_index.get(slot, rng.randint(0, 1000)) + rng.randint(1, 1 << 40)
                line += " beacon=%d:%d" % (slot, beacon_index[slot])
            yield line
            filled = [s for s in range(slots) if rng.random() < 0.7]
            rng.shuffle(filled)
            for s in filled:
                yield "SEED %d %s" % (s, rng.randbytes(rng.choice([1, 6, 32, 64, rng.randint(1, 64)])).hex())
            if len(filled) < slots:
                yield "CLOSE"
        else:
            yield "SHUFFLE " + mode
        cards = (52 + jokers if kind == "french" else 40 if kind == "spanish40" else 48) * decks
        dealt = 0
        for _ in range(rng.randint(0, 4)):
            if rng.random() < 0.25 and dealt < cards:
                yield "BURN"
                dealt += 1
                continue
            n, players = rng.randint(1, 5), rng.randint(1, 8)
            if dealt + n * players > cards:
                break
            yield "DEAL %d %d" % (n, players) if players > 1 else "DEAL %d" % n
            dealt += n * players
        yield "REVEAL"


def main(argv):
    if len(argv) != 4:
        print(__doc__, file=sys.stderr)
        return 2
    dealer, count, seed = argv[1], int(argv[2]), int(argv[3])
    rounds, sent, replies = [], 0, []
    for line in commands(count, random.Random(seed)):
        if line is None:
            rounds.append([])
        else:
            rounds[-1].append(line)
    # the host dealer's journal is in memory: a fresh dealer every BATCH rounds
    for at in range(0, len(rounds), BATCH):
        script = "".join(line + "\n" for r in rounds[at:at + BATCH] for line in r)
        sent += script.count("\n")
        out = subprocess.run([dealer], input=script, capture_output=True, text=True, check=False).stdout
        replies += [l.rstrip("\r") for l in out.splitlines() if l.startswith(("OK ", "ERR "))]
    errors = [l for l in replies if l.startswith("ERR")]
    for line in replies:
        print(line)
    if errors or len(replies) != sent:
        print("dealer_rounds.py: %d ERR replies (first: %s), %d replies to %d commands"
              % (len(errors), errors[:1], len(replies), sent), file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
