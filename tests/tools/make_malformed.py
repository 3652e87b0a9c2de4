#!/usr/bin/env python3
"""Writes tests/tools/malformed.txt, the shared table of malformed inputs
that every verifier must reject (and a few well-formed ones it must accept,
so that a rejection is never the base input's fault).

usage: make_malformed.py SOURCE_ROOT > tests/tools/malformed.txt

Each case is a base input (a docs/VERIFY.md vector, or a transcript / a
RECALL reply the host dealer printed, frozen below) with one change. The
format of the table is described in its header (HEADER below).
"""
import sys

HEADER = """\
# The verifiers' shared table of malformed inputs (docs/VERIFY.md section 10).
# Written by tests/tools/make_malformed.py; run by tests/tools/test_malformed.py
# against every verifier that reads the case's kind, and by the verify page's
# browser test (tests/web).
#
# One case per line, four fields separated by one TAB character:
#   KIND <TAB> NAME <TAB> EXPECT <TAB> INPUT
# KIND    round       one docs/VERIFY.md round line (verify.py check,
#                     fairdeal-tool verify --round)
#         transcript  dealer reply lines (verify.py transcript,
#                     fairdeal-tool verify --transcript)
#         session     a transcript as above, for checks of SEED and CLOSE
#                     replies the verify page does not make (the same two
#                     verifiers)
#         recall      a RECALL reply (fairdeal-tool verify --recall)
#         key         the --key argument of fairdeal-tool verify --journal,
#                     given with a real journal of the host dealer
# NAME    unique, [a-z0-9-]
# EXPECT  "accept": the verifier must accept (exit 0); else the reason: a
#         lower-case phrase that must appear in the verifier's one error
#         line (exit status non-zero, exactly one line on stderr, no
#         traceback)
# INPUT   the input, with escapes: \\n newline, \\t tab, \\\\ backslash,
#         \\xHH the byte HH (so a UTF-8 character is its bytes); no other
#         backslash sequences. The decoded bytes are the verifier's whole
#         input (for kind key: the argument).
# Lines starting with # and empty lines are comments.
"""
BASES = {
    'tv': (
        'OK SHUFFLE mode=round device=1e32457ab70fef54 id=1 shoe=french:1:0 slots=03 beacon=none cards=52 com'
        'mitment=0d2cb1dd4fcbb3368caef04e975c67ec0fa450485bd66042739beb5dd4b34e46 state=seeding\n'
        'OK SEED id=1 slot=0 state=seeding\n'
        'OK CLOSE id=1 state=closed label=seeded\n'
        'OK DEAL 1:JC,8H 2:AH,QS left=48\n'
        'OK BURN left=47\n'
        'OK DEAL 9H left=46\n'
        'OK REVEAL device=1e32457ab70fef54 id=1 shoe=french:1:0 slots=03 beacon=none secret=3180fc8d7222eb467'
        'fd2cc2d031f4b2e3915d3c49240c63f9dc0d642c1b34fda5e81d515833fb295 seeds=0:706c61796572 commitment=0d2c'
        'b1dd4fcbb3368caef04e975c67ec0fa450485bd66042739beb5dd4b34e46 order=49,13,20,11,29,21,31,19,5,40,17,7'
        ',25,18,9,26,2,32,3,37,0,15,44,22,41,33,42,12,8,39,45,23,51,6,28,16,27,14,35,30,48,4,36,43,38,10,34,4'
        '6,24,50,47,1 seq=12 head=81fdaf926a799c4795a512e9592362eab093a5b2cf643ffff7d373ecde4b25d5 label=seed'
        'ed\n'
    ),
    'tc': (
        'OK SHUFFLE id=1 mode=drbg cards=52 commit=bc6ef30f620239d83f326d512fde2000eeec31ae55e787c5e6c63edfa6'
        '32d52a\n'
        'OK DEAL 8D 6H AD left=49\n'
        'OK BURN left=48\n'
        'OK DEAL 1:4C,QC 2:6D,AS left=44\n'
        'OK REVEAL id=1 seq=11 head=a5dccdd4cf5aeaf2d547d84811dc48e6792322fdc122c3bfc9267205e6aa07a3 salt=f62'
        '24fce704a57160d74af9802cf5abd order=8D 6H AD TH 4C 6D QC AS 6C KS QS 6S JC 5S 2D 3C 3S QD JS AH 2H A'
        'C 4H JD KC TC 3H 5H 8S 3D JH TD TS 2S 9S 9H KD KH 4D 2C 8C 9C 7H 9D 8H 5D 7D 5C QH 7C 7S 4S\n'
    ),
    'tf': (
        'OK NEW deck=french decks=1 jokers=2 cards=54\n'
        'OK SHUFFLE id=1 mode=full cards=54 commit=3ffc70e0b150a97109bd75db334d0ad2aa7b5d59aa144ff961bf35ea46'
        'de5eb2\n'
        'OK DEAL QD JD TH left=51\n'
        'OK REVEAL id=1 seq=9 head=57926a6c661aea6fe19ece9c4a3de0e91aaa136e7e8332dfe3d9818965418b3f salt=cfa9'
        '1f3c1c66ecd2b4342056c7eb906a order=QD JD TH QC 2C 6C 8C 7C KS KD AC TS 3C JK 4C 2D 9S 4S 9C 9D 9H TC'
        ' 6H 8S QS 4H JK AD 6S 3S JC JH 3D AS AH 5D 7D 2H TD 5S 5H 4D 8D JS 7H KH KC 3H 6D QH 7S 5C 2S 8H\n'
    ),
    'rt': (
        'OK NEW deck=spanish40 decks=1 jokers=0 cards=40\n'
        'OK SHUFFLE mode=round device=1e32457ab70fef54 id=1 shoe=spanish40:1:0 slots=07 beacon=2:1000000 card'
        's=40 commitment=9c7e880cfc753772d0d9f2da2cc1bb59c5ba7640653a0c674f16eb0ec10c21a6 state=seeding\n'
        'OK SEED id=1 slot=1 state=seeding\n'
        'OK SEED id=1 slot=2 state=seeding\n'
        'OK CLOSE id=1 state=closed label=seeded\n'
        'OK DEAL 1:10B,3E 2:12C,5O 3:5E,7B left=34\n'
        'OK BURN left=33\n'
        'OK REVEAL device=1e32457ab70fef54 id=1 shoe=spanish40:1:0 slots=07 beacon=2:1000000 secret=a4bd5f1c4'
        'f0dced47ef4c3abc2c21d1b9a5b848b05ffb33b7cf60fe8999837 seeds=1:616c696365;2:b3ac0e commitment=9c7e880'
        'cfc753772d0d9f2da2cc1bb59c5ba7640653a0c674f16eb0ec10c21a6 order=45,23,28,26,4,42,37,16,24,40,36,2,15'
        ',9,5,11,10,27,29,35,3,33,21,0,25,17,46,39,41,22,38,1,18,34,47,14,13,6,30,12 seq=12 head=e4f519e5c4d6'
        'ec0d60dc9c8cb36975947407eb5a91cf941e811730c0ef8caa5b label=seeded\n'
        'OK SHUFFLE id=2 mode=drbg cards=40 commit=a2687731860d9a514488a5e5f7ff506cd481f846f2d8feb8454944502c'
        'a7d265\n'
        'OK DEAL 6O left=39\n'
        'OK BURN left=38\n'
        'OK DEAL 1:4O,11O 2:6B,6E left=34\n'
        'OK REVEAL id=2 seq=19 head=3145ea2255fb24fd5f12f545124b768a5b75bbb407fe2c61e40e21a034c5eb0e salt=409'
        '04baa3a47d370e0d11b8dec57c307 order=6O 7E 4O 6B 11O 6E 3C 10B 3B 12O 4C 3E 12E 6C 1E 1B 2E 2C 2B 5E '
        '1C 4B 4E 1O 12C 7C 11E 5B 10E 11B 11C 7O 5C 5O 7B 2O 10C 12B 3O 10O\n'
    ),
    'rc': (
        'OK RECALL newest=2 n=2 | id=1 reveal0=a4bd5f1c4f0dced47ef4c3abc2c21d1b9a5b848b05ffb33b7cf60fe8999837'
        ' mode=round shoe=spanish40:1:0 commitment=9c7e880cfc753772d0d9f2da2cc1bb59c5ba7640653a0c674f16eb0ec1'
        '0c21a6 parts=1 device=1e32457ab70fef54 slots=07 beacon=2:1000000 seed=1:616c696365 seed=2:b3ac0e car'
        'ds@0=1:10B,2:12C,3:5E,1:3E,2:5O,3:7B cards@6=burn:2B revealed=9c7e880cfc753772d0d9f2da2cc1bb59c5ba76'
        '40653a0c674f16eb0ec10c21a6 reveal_hash=1d9b8b35cbe6d415a1e4c966703bd9d77a63c3a3aa945ab04eb6bf647fd08'
        '6a6 | id=2 reveal0=40904baa3a47d370e0d11b8dec57c30705001e00030029000a001d000e002d0026000b000f001a002'
        '30011001800240019000d0025001c000c0027001b000000 reveal1=170012002200280021002e0016000600100004002a00'
        '010015002f0002000900 mode=drbg shoe=spanish40:1:0 commitment=a2687731860d9a514488a5e5f7ff506cd481f84'
        '6f2d8feb8454944502ca7d265 parts=2 device= slots=00 cards@0=1:6O cards@1=burn:7E cards@2=1:4O,2:6B,1:'
        '11O,2:6E revealed=a2687731860d9a514488a5e5f7ff506cd481f846f2d8feb8454944502ca7d265 reveal_hash=ae644'
        'f38e2403a5f1f3349f10189b0978f356f4fc926c96bc6059b969be1b047 seq=19 head=3145ea2255fb24fd5f12f545124b'
        '768a5b75bbb407fe2c61e40e21a034c5eb0e\n'
    ),
    # tests/tools/skipped_session (and "skipped_session drbg"): two power cuts
    # after a write-ahead, the first before DEAL 1 2's reply (positions 7-8
    # never shown), the second after DEAL 3's (9-11 shown); its OK lines and
    # RECOVERED banners (the verifiers read nothing else), and its RECALL
    'tk': (
        'OK SHUFFLE mode=round device=1e32457ab70fef54 id=1 shoe=french:1:0 slots=00 beacon=none cards=52 com'
        'mitment=ca3c372eb01e95f3718c90d6d1489a9257859b913f67fbf76c98a120bc86cfa3 state=closed label=house-on'
        'ly\nOK DEAL 1:TH,7D 2:4C,4D 3:5D,6C left=46\nOK BURN left=45\n*** RECOVERED open round id=1 after a pow'
        'er cut at card 9: DEAL continues, REVEAL reveals. ***\nOK DEAL 3C KH AD left=40\n*** RECOVERED open ro'
        'und id=1 after a power cut at card 12: DEAL continues, REVEAL reveals. ***\nOK DEAL 9C 4H left=38\nOK '
        'REVEAL device=1e32457ab70fef54 id=1 shoe=french:1:0 slots=00 beacon=none secret=cc222081d6f05d4c267b'
        'b390349e1c45ac7a065c8edf453fb78c0445776cc2df3fee52d563e52e95 seeds=none commitment=ca3c372eb01e95f37'
        '18c90d6d1489a9257859b913f67fbf76c98a120bc86cfa3 order=22,42,30,32,29,44,38,7,11,41,25,26,47,16,45,31'
        ',2,46,34,40,1,10,50,4,24,5,9,37,18,12,0,27,48,49,3,6,23,15,19,43,36,20,51,35,21,33,13,17,14,28,39,8 '
        'skipped=7-8,9-11 seq=20 head=0b186045aa3d11e85870b330e424d4cdb088b1b0abe01dac70e831af65bfbd66 label='
        'house-only\n'
    ),
    'tkd': (
        'OK SHUFFLE id=1 mode=drbg cards=52 commit=6ede2e0152dbeade9a79ce6e00bef44ccfd60a0763b835cf8e6fa3e687'
        'a74b72\nOK DEAL 1:TD,3H 2:8H,5C 3:6D,2D left=46\nOK BURN left=45\n*** RECOVERED open round id=1 after a'
        ' power cut at card 9: DEAL continues, REVEAL reveals. ***\nOK DEAL 2C TH 7C left=40\n*** RECOVERED ope'
        'n round id=1 after a power cut at card 12: DEAL continues, REVEAL reveals. ***\nOK DEAL 6S 6H left=38'
        '\nOK REVEAL id=1 seq=21 head=858c1e88d74a81211547e965ed806819223b168d0d36ce574e9b2b79622c8b59 skipped'
        '=7-8,9-11 salt=6fb8e388f1acdba9ea02aaa3b69f0c25 order=TD 8H 6D 3H 5C 2D KH 6C JD 2C TH 7C 6S 6H 4S 8'
        'S TC 8D QD 5D 4C AD 3S TS QH JS 5S 9S 3C AC 7S 7H 9H 7D QS 2H KC JH AH 8C KD JC 3D 2S 9C 4H QC AS 5H'
        ' 9D 4D KS\n'
    ),
    'rk': (
        'OK RECALL newest=1 n=1 | id=1 reveal0=cc222081d6f05d4c267bb390349e1c45ac7a065c8edf453fb78c0445776cc2'
        'df3fee52d563e52e95 mode=round shoe=french:1:0 commitment=ca3c372eb01e95f3718c90d6d1489a9257859b913f6'
        '7fbf76c98a120bc86cfa3 parts=1 device=1e32457ab70fef54 slots=00 cards@0=1:TH,2:4C,3:5D,1:7D,2:4D,3:6C'
        ' cards@6=burn:KD cards@7=1:8S,2:QS skipped=7-8 cards@9=1:3C,1:KH,1:AD skipped=9-11 cards@12=1:9C,1:4'
        'H revealed=ca3c372eb01e95f3718c90d6d1489a9257859b913f67fbf76c98a120bc86cfa3 reveal_hash=5fc5f2b131e9'
        '7b74c74d5146adb727beca573a7b235bc1bc5b5640996c21b010 seq=20 head=0b186045aa3d11e85870b330e424d4cdb08'
        '8b1b0abe01dac70e831af65bfbd66\n'
    ),
}


def vector_lines(root):
    lines, inside = [], False
    with open(root + "/docs/VERIFY.md", encoding="utf-8") as f:
        for line in f:
            if line.strip() == "```rounds":
                inside = True
            elif inside and line.strip() == "```":
                break
            elif inside:
                lines.append(line.rstrip("\n"))
    return lines


# a verifiable round with a beacon in slot 7 (verify.py derive)
BEACON = ("device=666169726465616c2d6b6174 id=7 shoe=french:1:0 slots=81 beacon=7:1000000 "
          "secret=000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f2021222324252627 "
          "seeds=0:626f62;7:01264b70 commitment=9d52bcff8295fcfff4550703e87e7f8b6ca17b22fc878b14138fec4e1f5f717e "
          "order=31,43,21,44,24,48,20,8,47,38,45,4,46,3,39,11,26,17,2,23,9,15,12,16,50,49,37,25,13,41,19,32,51,42,"
          "34,10,35,36,27,22,33,30,0,29,14,5,40,7,28,18,6,1")


def one(text, old, new):
    """text with its one occurrence of old replaced (the case must change something)."""
    if text.count(old) != 1:
        raise SystemExit("make_malformed.py: %r occurs %d times" % (old, text.count(old)))
    return text.replace(old, new)


def field(line, key):
    for item in line.split(" "):
        if item.startswith(key + "="):
            return item[len(key) + 1:]
    raise SystemExit("no %s= in %s" % (key, line[:40]))


def dropped_seed(root, tv):
    """tv with its REVEAL and deals as a dishonest dealer would show them had
    it dropped the seed of slot 0 after acknowledging it: S and the header
    as committed, seeds=none, the order derived without the seed."""
    sys.path.insert(0, root + "/tools")
    import verify
    lines = tv.splitlines()
    reveal = [l for l in lines if l.startswith("OK REVEAL ")][0]
    r = verify.parse_line(reveal[len("OK REVEAL "):])
    r["seeds"] = {}
    commit, order = verify.derive(r)
    assert commit == r["commitment"]
    codes = [verify.card_code("french", c % 64) for c in order]
    new_reveal = reveal.replace(" seeds=" + field(reveal, "seeds") + " ", " seeds=none ")
    new_reveal = new_reveal.replace(" order=" + field(reveal, "order") + " ", " order=" + ",".join(map(str, order)) + " ")
    new_reveal = new_reveal.replace(" label=seeded", " label=house-only")
    out = []
    for line in lines:
        if line.startswith("OK DEAL 1:"):
            line = "OK DEAL 1:%s,%s 2:%s,%s left=48" % (codes[0], codes[2], codes[1], codes[3])
        elif line.startswith("OK DEAL "):
            line = "OK DEAL %s left=46" % codes[5]
        elif line.startswith("OK REVEAL "):
            line = new_reveal
        elif line.startswith("OK CLOSE "):
            line = line.replace("label=seeded", "label=house-only")
        out.append(line)
    return "".join(l + "\n" for l in out)


def escape(data):
    out = []
    for byte in data.encode("utf-8") if isinstance(data, str) else data:
        if byte == 0x5C:
            out.append("\\\\")
        elif byte == 0x0A:
            out.append("\\n")
        elif byte == 0x09:
            out.append("\\t")
        elif 0x20 <= byte < 0x7F:
            out.append(chr(byte))
        else:
            out.append("\\x%02x" % byte)
    return "".join(out)


def cases(root):
    v = vector_lines(root)
    v1, v3 = v[0], v[2]
    s1 = field(v1, "seeds")
    yield "round", "vector-1", "accept", v1
    yield "round", "vector-3", "accept", v3
    yield "round", "beacon-round", "accept", BEACON
    yield "round", "reveal-keys", "accept", v1 + " seq=12 head=" + "ab" * 32 + " label=seeded"
    yield "round", "crlf-line-end", "accept", v1 + "\r"
    # issue list: duplicate slot, slot 9, two seeds= keys, fullwidth digit, -1, slots=100, id 2^32+1
    yield "round", "duplicate-slot", "duplicate slot", one(v1, "seeds=0:", "seeds=0:cafebabe;0:")
    yield "round", "slot-9", "out of range", one(v1, "seeds=" + s1, "seeds=" + s1 + ";9:cafebabe")
    yield "round", "two-seeds-keys", "duplicate key", one(v1, " commitment=", " seeds=0:cafebabe commitment=")
    yield "round", "fullwidth-id", "not a decimal number", one(v1, " id=1 ", " id=\uff11 ")
    yield "round", "negative-id", "not a decimal number", one(v1, " id=1 ", " id=-1 ")
    yield "round", "slots-100", "not lower-case hex", one(v1, " slots=01 ", " slots=100 ")
    yield "round", "id-2-32-plus-1", "out of range", one(v1, " id=1 ", " id=4294967297 ")
    # own attacks on the round line
    yield "round", "id-2-32", "out of range", one(v1, " id=1 ", " id=4294967296 ")
    yield "round", "id-leading-zero", "not a decimal number", one(v1, " id=1 ", " id=01 ")
    yield "round", "id-empty", "not a decimal number", one(v1, " id=1 ", " id= ")
    yield "round", "id-plus", "not a decimal number", one(v1, " id=1 ", " id=+1 ")
    yield "round", "id-hex", "not a decimal number", one(v1, " id=1 ", " id=0x1 ")
    yield "round", "id-nul", "not a decimal number", one(v1, " id=1 ", " id=1\x00 ")
    yield "round", "slot-not-accepted", "not accepted", one(v1, "seeds=" + s1, "seeds=" + s1 + ";1:cafebabe")
    yield "round", "slots-out-of-order", "out of order", one(
        v3, "seeds=0:00;1:7461626c6520636f6e74726f6c6c6572", "seeds=1:7461626c6520636f6e74726f6c6c6572;0:00")
    yield "round", "slots-0100", "out of range", one(v1, " slots=01 ", " slots=0100 ")
    yield "round", "slots-upper", "not lower-case hex", one(v3, " slots=03 ", " slots=0F ")
    yield "round", "device-upper", "not lower-case hex", one(v1, "device=666169726465616c2d6b6174", "device=666169726465616C2D6B6174")
    yield "round", "device-odd", "not lower-case hex", one(v1, "device=666169726465616c2d6b6174", "device=666169726465616c2d6b617")
    yield "round", "device-empty", "out of range", one(v1, "device=666169726465616c2d6b6174", "device=")
    yield "round", "device-33-bytes", "out of range", one(v1, "device=666169726465616c2d6b6174", "device=" + "ab" * 33)
    secret = field(v1, "secret")
    yield "round", "secret-upper", "not lower-case hex", one(v1, secret, secret.upper())
    yield "round", "secret-short", "out of range", one(v1, secret, secret[:-2])
    yield "round", "secret-changed", "commitment does not match", one(v1, secret, "ff" + secret[2:])
    commit = field(v1, "commitment")
    yield "round", "commitment-63-digits", "not lower-case hex", one(v1, commit, commit[:-1])
    yield "round", "commitment-31-bytes", "out of range", one(v1, commit, commit[:-2])
    yield "round", "commitment-fullwidth", "not lower-case hex", one(v1, commit, "\uff41" + commit[1:])
    # only the first digit bad, upper case or not hex at all (a check from the second digit on accepted both)
    yield "round", "commitment-first-upper", "not lower-case hex", one(v1, commit, "A" + commit[1:])
    yield "round", "device-first-not-hex", "not lower-case hex", one(v1, "device=666169726465616c2d6b6174", "device=g66169726465616c2d6b6174")
    order = field(v1, "order")
    ids = order.split(",")
    yield "round", "order-swapped", "order does not match", one(v1, order, ",".join([ids[1], ids[0]] + ids[2:]))
    yield "round", "order-short", "order does not match", one(v1, order, ",".join(ids[:-1]))
    yield "round", "order-trailing-comma", "not a decimal number", one(v1, order, order + ",")
    yield "round", "order-fullwidth", "not a decimal number", one(v1, order, "\uff13\uff10" + order[2:])
    yield "round", "order-huge-id", "out of range", one(v1, order, "99999999999999999999" + order[2:])
    yield "round", "unknown-key", "unknown key", v1 + " foo=1"
    yield "round", "upper-case-key", "unknown key", one(v1, " id=1 ", " ID=1 ")
    yield "round", "missing-commitment", "missing key", one(v1, " commitment=" + commit, "")
    yield "round", "field-without-equals", "malformed", one(v1, " id=1 ", " id=1 junk ")
    yield "round", "double-space", "malformed", one(v1, " id=1 ", "  id=1 ")
    yield "round", "tab-separator", "missing key", one(v1, " id=1 ", "\tid=1 ")
    yield "round", "trailing-space", "malformed", v1 + " "
    yield "round", "shoe-9-decks", "out of range", one(v1, "shoe=french:1:0", "shoe=french:9:0")
    yield "round", "shoe-3-jokers", "out of range", one(v1, "shoe=french:1:0", "shoe=french:1:3")
    yield "round", "shoe-spanish-joker", "out of range", one(v3, "shoe=spanish40:1:0", "shoe=spanish40:1:1")
    yield "round", "shoe-unknown-kind", "unknown deck", one(v1, "shoe=french:1:0", "shoe=poker:1:0")
    yield "round", "shoe-two-parts", "malformed", one(v1, "shoe=french:1:0", "shoe=french:1")
    yield "round", "beacon-slot-8", "out of range", one(BEACON, "beacon=7:1000000", "beacon=8:1000000")
    yield "round", "beacon-slot-not-accepted", "not accepted", one(BEACON, "beacon=7:1000000", "beacon=1:1000000")
    yield "round", "beacon-index-2-64", "out of range", one(BEACON, "beacon=7:1000000", "beacon=7:18446744073709551616")
    yield "round", "beacon-index-negative", "not a decimal number", one(BEACON, "beacon=7:1000000", "beacon=7:-1")
    yield "round", "beacon-no-index", "malformed", one(BEACON, "beacon=7:1000000", "beacon=7")
    yield "round", "beacon-leading-zero", "not a decimal number", one(BEACON, "beacon=7:1000000", "beacon=07:1000000")
    yield "round", "beacon-index-changed", "commitment does not match", one(BEACON, "beacon=7:1000000", "beacon=7:1000001")
    yield "round", "seed-empty", "out of range", one(v1, "seeds=" + s1, "seeds=0:")
    yield "round", "seed-65-bytes", "out of range", one(v1, "seeds=" + s1, "seeds=0:" + "ab" * 65)
    yield "round", "seed-upper", "not lower-case hex", one(v1, "seeds=" + s1, "seeds=" + s1.upper())
    yield "round", "seeds-empty", "malformed", one(v1, "seeds=" + s1, "seeds=")
    yield "round", "seeds-none-and-slot", "malformed", one(v1, "seeds=" + s1, "seeds=none;" + s1)
    yield "round", "seed-changed", "order does not match", one(v1, "seeds=" + s1, "seeds=0:706c61796573")
    yield "round", "label-house-only", "mislabelled", v1 + " label=house-only"
    yield "round", "label-unknown", "mislabelled", v1 + " label=fair"
    yield "round", "seq-negative", "not a decimal number", v1 + " seq=-1"
    yield "round", "head-short", "out of range", v1 + " head=abcd"

    tv, tc, tf, rt = BASES["tv"], BASES["tc"], BASES["tf"], BASES["rt"]
    yield "transcript", "verifiable", "accept", tv
    yield "transcript", "drbg", "accept", tc
    yield "transcript", "full-jokers", "accept", tf
    yield "transcript", "spanish-beacon-and-drbg", "accept", rt
    yield "transcript", "crlf", "accept", tv.replace("\n", "\r\n")
    # a human-mode session: prompt and echo lines are never replies
    human = "".join("> %s\n%s\n" % (line.split(" ")[1], line) for line in tv.splitlines()) + "> "
    yield "transcript", "human-mode-echo", "accept", human
    yield "transcript", "echo-injection", "accept", one(tv, "OK BURN left=47\n", "> OK BURN left=49\nOK BURN left=47\n")
    # issue list: cards shown twice (seat 1 twice), seat 0
    yield "transcript", "seat-repeated", "seat", one(tv, "1:JC,8H 2:AH,QS", "1:JC,8H 1:JC,8H")
    yield "transcript", "seat-zero", "seat", one(tv, "OK DEAL 9H left=46", "OK DEAL 0:9H left=46")
    yield "transcript", "seats-swapped", "seat", one(tv, "1:JC,8H 2:AH,QS", "2:AH,QS 1:JC,8H")
    yield "transcript", "seat-3-of-2", "seat", one(tv, "1:JC,8H 2:AH,QS", "1:JC,8H 3:AH,QS")
    yield "transcript", "seat-short", "seat", one(tv, "1:JC,8H 2:AH,QS left=48", "1:JC,8H 2:AH left=49")
    # a power cut: card 5 journalled but its reply lost; dealing continues at card 6 (6D)
    cut = "*** RECOVERED open round id=1 after a power cut at card %d: DEAL continues, REVEAL reveals. ***\n"
    # (the REVEAL marks position 5 skipped: skipped= is not in the commitment)
    tv5 = one(tv, " seq=12 ", " skipped=5 seq=12 ")
    yield "transcript", "recovered-after-cut", "accept", one(tv5, "OK BURN left=47\nOK DEAL 9H left=46", "OK BURN left=47\n" + cut % 6 + "OK DEAL 6D left=45")
    yield "transcript", "recovered-card-shown-again", "dealt card", one(tv5, "OK BURN left=47\nOK DEAL 9H left=46", "OK BURN left=47\n" + cut % 6 + "OK DEAL 9H left=45")
    yield "transcript", "recovered-skip-undeclared", "hidden by a power cut", one(tv, "OK BURN left=47\nOK DEAL 9H left=46", "OK BURN left=47\n" + cut % 6 + "OK DEAL 6D left=45")
    yield "transcript", "recovered-backwards", "power cut", one(tv, "OK BURN left=47\n", "OK BURN left=47\n" + cut % 4)
    # a dealer that drops an acknowledged seed: REVEAL derives (consistently) without it
    yield "transcript", "seed-dropped", "seed the dealer accepted is missing", dropped_seed(root, tv)
    yield "transcript", "left-wrong", "left=", one(tv, "OK BURN left=47", "OK BURN left=48")
    yield "transcript", "left-missing", "missing key", one(tv, "OK DEAL 9H left=46", "OK DEAL 9H")
    yield "transcript", "left-leading-zero", "not a decimal number", one(tv, "OK BURN left=47", "OK BURN left=047")
    yield "transcript", "extra-burn", "left=", one(tv, "OK BURN left=47\n", "OK BURN left=47\nOK BURN left=47\n")
    yield "transcript", "dealt-card-wrong", "dealt card", one(tv, "OK DEAL 9H left=46", "OK DEAL 9C left=46")
    yield "transcript", "deal-no-cards", "malformed", one(tv, "OK DEAL 9H left=46", "OK DEAL left=46")
    yield "transcript", "deal-double-space", "malformed", one(tv, "1:JC,8H 2:AH,QS", "1:JC,8H  2:AH,QS")
    yield "transcript", "deal-not-a-card", "not a card", one(tv, "OK DEAL 9H left=46", "OK DEAL \uff19H left=46")
    yield "transcript", "burn-unknown-key", "unknown key", one(tv, "OK BURN left=47", "OK BURN left=47 card=AS")
    yield "transcript", "deal-reshuffle-bad", "malformed", one(tv, "OK DEAL 9H left=46", "OK DEAL 9H left=46 reshuffle=no")
    reveal = [l for l in tv.splitlines() if l.startswith("OK REVEAL")][0]
    yield "transcript", "reveal-unknown-key", "unknown key", one(tv, "25d5 label=seeded\n", "25d5 label=seeded foo=1\n")
    yield "transcript", "reveal-two-seeds", "duplicate key", one(tv, "6572 commitment=0d2c", "6572 seeds=0:706c61796572 commitment=0d2c")
    yield "transcript", "reveal-two-seq", "duplicate key", one(tv, " seq=12 ", " seq=12 seq=12 ")
    yield "transcript", "reveal-id-differs", "differ from shuffle", one(tv, "OK REVEAL device=1e32457ab70fef54 id=1 ", "OK REVEAL device=1e32457ab70fef54 id=2 ")
    yield "transcript", "reveal-seed-changed", "order does not match", one(tv, " seeds=0:706c61796572 ", " seeds=0:706c61796573 ")
    yield "transcript", "reveal-mislabelled", "mislabelled", one(tv, "25d5 label=seeded\n", "25d5 label=house-only\n")
    yield "transcript", "shuffle-commitment-upper", "not lower-case hex", one(tv, "commitment=0d2cb1dd4fcbb3368caef04e975c67ec0fa450485bd66042739beb5dd4b34e46 state=", "commitment=0D2CB1DD4FCBB3368CAEF04E975C67EC0FA450485BD66042739BEB5DD4B34E46 state=")
    yield "transcript", "shuffle-unknown-key", "unknown key", one(tv, "4e46 state=seeding\n", "4e46 state=seeding x=1\n")
    yield "transcript", "shuffle-no-mode", "missing key", one(tv, "OK SHUFFLE mode=round ", "OK SHUFFLE ")
    yield "transcript", "shuffle-cards-wrong", "cards=", one(tc, " cards=52 ", " cards=53 ")
    yield "transcript", "reveal-never", "never revealed", "".join(l + "\n" for l in tv.splitlines() if not l.startswith("OK REVEAL"))
    yield "transcript", "round-replaced", "never revealed", one(tv, "OK BURN left=47\n", "OK BURN left=47\n" + tc.splitlines()[0] + "\n")
    yield "transcript", "deal-outside-round", "outside a round", "OK DEAL 9H left=51\n" + tc
    yield "transcript", "empty", "no revealed round", ""
    salt = "salt=f6224fce704a57160d74af9802cf5abd"
    yield "transcript", "salt-upper", "not lower-case hex", one(tc, salt, salt.upper().replace("SALT", "salt"))
    yield "transcript", "salt-31-digits", "not lower-case hex", one(tc, salt, salt[:-1])
    yield "transcript", "drbg-cards-swapped", "commitment does not match", one(tc, "4C 6D QC AS 6C KS", "6D 4C QC AS 6C KS")
    yield "transcript", "drbg-card-twice", "not a permutation", one(tc, "4C 6D QC AS 6C KS", "4C 4C QC AS 6C KS")
    yield "transcript", "drbg-not-a-card", "not a card", one(tc, "4C 6D QC AS 6C KS", "4C 6X QC AS 6C KS")
    yield "transcript", "drbg-reveal-id", "differ from shuffle", one(tc, "OK REVEAL id=1 ", "OK REVEAL id=2 ")
    yield "transcript", "drbg-dealt-wrong", "dealt card", one(tc, "OK DEAL 8D 6H AD", "OK DEAL 8D AD 6H")
    yield "transcript", "drbg-reveal-unknown-key", "unknown key", one(tc, " salt=", " mode=drbg salt=")
    yield "transcript", "new-cards-wrong", "no valid shoe", one(tf, "jokers=2 cards=54", "jokers=2 cards=53")
    yield "transcript", "full-joker-count", "not a permutation", one(tf, "TC 6H 8S QS 4H JK AD", "TC 6H 8S QS 4H 4H AD")

    seed_reply = "OK SEED id=1 slot=0 state=seeding\n"
    yield "session", "seed-acknowledged-twice", "acknowledged twice", one(tv, seed_reply, seed_reply * 2)
    yield "session", "seed-id-differs", "differ from shuffle", one(tv, seed_reply, seed_reply.replace("id=1", "id=2"))
    yield "session", "seed-never-acknowledged", "never accepted", one(tv, seed_reply, "")
    yield "session", "seed-unknown-key", "unknown key", one(tv, seed_reply, seed_reply.replace("\n", " len=6\n"))
    yield "session", "seed-closed-unlabelled", "mislabelled", one(tv, seed_reply, seed_reply.replace("seeding", "closed"))
    yield "session", "close-without-label", "missing key", one(tv, "OK CLOSE id=1 state=closed label=seeded", "OK CLOSE id=1 state=closed")
    yield "session", "seed-in-drbg-round", "outside a verifiable round", one(tc, "OK DEAL 8D", seed_reply + "OK DEAL 8D")

    rc = BASES["rc"]
    yield "recall", "recall", "accept", rc
    yield "recall", "recall-crlf", "accept", rc.replace("\n", "\r\n")
    # issue list: seats swapped, a dealt card relabelled as a burn, a hand without its mode
    yield "recall", "recall-seats-swapped", "seat", one(rc, "cards@0=1:10B,2:12C,3:5E", "cards@0=2:10B,1:12C,3:5E")
    yield "recall", "card-relabelled-burn", "burn", one(rc, "cards@0=1:10B,2:12C,3:5E,1:3E", "cards@0=1:10B,2:12C,burn:5E,1:3E")
    yield "recall", "mode-removed", "missing key", one(rc, " mode=round ", " ")
    yield "recall", "recall-seat-4-of-3", "seat", one(rc, "1:3E,2:5O,3:7B", "1:3E,2:5O,4:7B")
    yield "recall", "recall-seat-zero", "seat", one(rc, "cards@0=1:6O ", "cards@0=0:6O ")
    yield "recall", "position-twice", "position", one(rc, "cards@1=burn:7E", "cards@0=burn:7E")
    yield "recall", "position-huge", "out of range", one(rc, "cards@6=burn:2B", "cards@99999=burn:2B")
    yield "recall", "recall-dealt-card-wrong", "dealt card", one(rc, "cards@6=burn:2B", "cards@6=burn:3B")
    yield "recall", "duplicate-mode", "duplicate key", one(rc, " mode=drbg ", " mode=drbg mode=drbg ")
    yield "recall", "recall-unknown-key", "unknown key", one(rc, " parts=2 ", " parts=2 extra=1 ")
    yield "recall", "reveal-upper", "not lower-case hex", one(rc, "reveal1=170012", "reveal1=17001A")
    yield "recall", "seed-slot-9", "out of range", one(rc, "seed=2:b3ac0e", "seed=9:b3ac0e")
    yield "recall", "seed-slot-not-accepted", "not accepted", one(rc, " slots=07 ", " slots=05 ")
    yield "recall", "seed-duplicate-slot", "duplicate slot", one(rc, "seed=2:b3ac0e", "seed=1:b3ac0e")
    yield "recall", "recall-id-fullwidth", "not a decimal number", one(rc, "| id=2 ", "| id=\uff12 ")
    yield "recall", "recall-id-negative", "not a decimal number", one(rc, "| id=2 ", "| id=-2 ")
    yield "recall", "recall-id-2-32", "out of range", one(rc, "| id=2 ", "| id=4294967298 ")
    yield "recall", "parts-zero", "out of range", one(rc, " parts=2 ", " parts=0 ")
    yield "recall", "recall-shoe-9-decks", "out of range", one(rc, "mode=drbg shoe=spanish40:1:0", "mode=drbg shoe=spanish40:9:0")
    yield "recall", "recall-commitment-changed", "commitment does not match", rc.replace("a2687731860d9a51", "a2687731860d9a52")
    yield "recall", "reveal-hash-changed", "reveal hash", one(rc, "reveal_hash=ae644f", "reveal_hash=ae645f")
    yield "recall", "recall-beacon-slot-8", "out of range", one(rc, "beacon=2:1000000", "beacon=8:1000000")
    yield "recall", "no-recall-line", "no ok recall", "OK STATUS board=host\n"
    yield "recall", "n-too-small", "n=", one(rc, "n=2 ", "n=1 ")
    yield "recall", "newest-too-small", "newest=", one(rc, "newest=2 ", "newest=1 ")
    yield "recall", "no-chain", "missing key", one(rc, " seq=19 head=3145ea2255fb24fd5f12f545124b768a5b75bbb407fe2c61e40e21a034c5eb0e", "")
    yield "recall", "recall-device-upper", "not lower-case hex", one(rc, "device=1e32457ab70fef54", "device=1E32457AB70FEF54")
    yield "recall", "empty-group", "malformed", one(rc, " | id=2 ", " |  | id=2 ")

    # skipped= (docs/PROTOCOL.md "Power loss"): a real session with two power
    # cuts after a write-ahead; REVEAL says skipped=7-8,9-11
    tk, tkd, rk = BASES["tk"], BASES["tkd"], BASES["rk"]
    sk = "skipped=7-8,9-11"
    yield "transcript", "skipped-session", "accept", tk
    yield "transcript", "skipped-session-drbg", "accept", tkd
    # a mark over a deal that was shown (9-11) may be left out: its cards were seen
    yield "transcript", "skipped-shown-deal-left-out", "accept", one(tk, sk, "skipped=7-8")
    yield "transcript", "skipped-removed", "hidden by a power cut", one(tk, " " + sk, "")
    yield "transcript", "skipped-hidden-left-out", "hidden by a power cut", one(tk, sk, "skipped=9-11")
    yield "transcript", "skipped-drbg-removed", "hidden by a power cut", one(tkd, " " + sk, "")
    yield "transcript", "skipped-invented", "ends at no power cut", one(tk, sk, sk + ",20")
    yield "transcript", "skipped-drbg-invented", "ends at no power cut", one(tkd, sk, "skipped=3,7-8,9-11")
    yield "transcript", "skipped-extended", "ends at no power cut", one(tk, sk, "skipped=7-8,9-12")
    yield "transcript", "skipped-late-start", "does not start where", one(tk, sk, "skipped=8,9-11")
    yield "transcript", "skipped-early-start", "does not start where", one(tk, sk, "skipped=6-8,9-11")
    yield "transcript", "skipped-merged", "does not start where", one(tk, sk, "skipped=7-11")
    yield "transcript", "skipped-split", "ends at no power cut", one(tk, sk, "skipped=7-8,9,10-11")
    yield "transcript", "skipped-banner-removed", "left=", one(tk, cut.replace("%d", "9"), "")
    yield "transcript", "skipped-drbg-overlap", "overlap", one(tkd, sk, "skipped=7-9,9-11")
    line = [l for l in tk.splitlines() if l.startswith("OK REVEAL ")][0][len("OK REVEAL "):]
    yield "round", "skipped-round-line", "accept", line
    yield "round", "skipped-one-position", "accept", one(line, sk, "skipped=51")
    yield "round", "skipped-four-ranges", "accept", one(line, sk, "skipped=0,2-3,4-5,51")
    for name, value, why in (("empty", "", "not a decimal number"),
                             ("empty-item", "7-8,,9-11", "not a decimal number"),
                             ("trailing-comma", "7-8,9-11,", "not a decimal number"),
                             ("duplicate", "7-8,7-8", "overlap"),
                             ("overlap", "7-9,9-11", "overlap"),
                             ("descending", "9-11,7-8", "out of order"),
                             ("range-descending", "8-7", "not ascending"),
                             ("range-of-one", "7-7", "not ascending"),
                             ("beyond-shoe", "7-52", "out of range"),
                             ("five-ranges", "0,2,4,6,8", "more than 4"),
                             ("fullwidth-digit", "\uff17-8", "not a decimal number"),
                             ("arabic-indic-digit", "\u0667-8", "not a decimal number"),
                             ("leading-zero", "07-8", "not a decimal number"),
                             ("negative", "-7", "not a decimal number"),
                             ("open-range", "7-", "not a decimal number"),
                             ("three-part-range", "7-8-9", "not a decimal number"),
                             ("semicolon", "7-8;9-11", "not a decimal number"),
                             ("plus", "+7", "not a decimal number"),
                             ("hex", "0x7", "not a decimal number"),
                             ("huge", "99999999999999999999999", "out of range"),
                             ("space", "7-8, 9-11", "malformed"),
                             ("none", "none", "not a decimal number")):
        yield "round", "skipped-" + name, why, one(line, sk, "skipped=" + value)
    yield "round", "skipped-twice", "duplicate key", one(line, sk, sk + " " + sk)
    yield "recall", "recall-skipped", "accept", rk
    yield "recall", "recall-skipped-never-dealt", "never dealt", one(rk, "skipped=7-8", "skipped=20-21")
    yield "recall", "recall-skipped-part-of-deal", "not one deal", one(rk, "skipped=9-11", "skipped=10-11")
    yield "recall", "recall-skipped-two-deals", "not one deal", one(rk, "skipped=7-8", "skipped=6-8")
    yield "recall", "recall-skipped-beyond-deal", "not one deal", one(rk, "skipped=9-11", "skipped=9-12")
    yield "recall", "recall-skipped-overlap", "overlap", one(rk, "skipped=9-11", "skipped=8-11")
    yield "recall", "recall-skipped-duplicate", "overlap", one(rk, " skipped=7-8 ", " skipped=7-8 skipped=7-8 ")
    yield "recall", "recall-skipped-list", "more than one range", one(rk, "skipped=7-8", "skipped=7-8,9-11")
    yield "recall", "recall-skipped-five", "more than 4", one(rk, " skipped=7-8 ", " skipped=7-8" * 5 + " ")
    yield "recall", "recall-skipped-fullwidth", "not a decimal number", one(rk, "skipped=7-8", "skipped=\uff17-8")
    yield "recall", "recall-skipped-descending", "not ascending", one(rk, "skipped=7-8", "skipped=8-7")
    yield "recall", "recall-skipped-empty", "not a decimal number", one(rk, "skipped=7-8", "skipped=")

    key = "ab" * 32
    yield "key", "key-upper", "not lower-case hex", key.upper()
    yield "key", "key-63-digits", "not lower-case hex", key[:-1]
    yield "key", "key-31-bytes", "out of range", key[:-2]
    yield "key", "key-fullwidth", "not lower-case hex", "\uff41" + key[1:]
    yield "key", "key-first-upper", "not lower-case hex", "A" + key[1:]
    yield "key", "key-empty", "out of range", ""


def main(argv):
    root = argv[1] if len(argv) > 1 else "."
    names = set()
    sys.stdout.write(HEADER)
    for kind, name, expect, text in cases(root):
        if name in names:
            raise SystemExit("make_malformed.py: two cases named %s" % name)
        names.add(name)
        sys.stdout.write("%s\t%s\t%s\t%s\n" % (kind, name, expect, escape(text)))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
