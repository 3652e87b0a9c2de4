#!/usr/bin/python3
"""The player's verification page (tools/web/verify.html) in a real browser:
Debian's headless Chromium driven by python3-selenium through Debian's
chromedriver (nothing downloaded). Run with /usr/bin/python3, which sees
Debian's python3-selenium.

Checks, each a line "ok ..." or "FAIL ...":
- the page is sealed (CSP hashes, verify.html.sha256 = sha256sum), < 60 KiB;
- its SHA-256 and HMAC-SHA-256 against FIPS 180-4 / RFC 4231 vectors and
  against the browser's WebCrypto on random inputs;
- the draws past the end of S (round_lines exhaust) as the C library;
- docs/VERIFY.md's vectors verify, with the orders verify.py gives, and each
  of verify.py's five tamperings of each vector is rejected;
- 3 x COUNT random rounds from the host dealer, COUNT in each mode (verifiable,
  SHUFFLE drbg, SHUFFLE full): the page's verdict and order equal
  tools/verify.py's, round by round; one tampering of each round (S, seed,
  order, salt, a dealt card, the SHUFFLE commitment, a card repeated) is
  rejected with the check it breaks; a 50-round transcript pasted whole; a
  RECALL reply, and two edits of it;
- the malformed inputs of tests/tools/, each rejected with its reason;
- no network request (the browser's performance log), no console error,
  and the CSP blocks a fetch and an image from elsewhere;
- keyboard only, the accessibility tree (names, the live region), 360 px
  without sideways scrolling, light and dark colours with enough contrast;
- screenshots of a passing and a failing round in OUT_DIR.

usage: test_verify_page.py --dealer DEALER --round-lines ROUND_LINES --out OUT_DIR [--count N] [--seed S] [--screenshots-only]
  --count: dealer rounds per mode (default 100: 300 rounds, about 20 s in all)
"""
import argparse
import base64
import hashlib
import hmac
import importlib.util
import json
import os
import random
import re
import subprocess
import sys
import time
from pathlib import Path

from selenium import webdriver
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys

ROOT = Path(__file__).resolve().parents[2]
PAGE = ROOT / "tools" / "web" / "verify.html"
PAGE_MAX = 60 * 1024

failures = 0


def ok(name):
    print("ok   " + name)


def fail(name):
    global failures
    failures += 1
    print("FAIL " + name)


def expect(cond, name):
    (ok if cond else fail)(name)
    return cond


def load_verify_py():
    spec = importlib.util.spec_from_file_location("verify", ROOT / "tools" / "verify.py")
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


verify = load_verify_py()
VECTOR1 = next(l.strip() for l in verify.vector_lines(str(ROOT / "docs" / "VERIFY.md")) if l.strip())


# --- the browser ---------------------------------------------------------------

def browser():
    opts = webdriver.ChromeOptions()
    opts.binary_location = "/usr/bin/chromium"
    for arg in ("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
                "--no-first-run", "--disable-extensions", "--disable-background-networking",
                "--disable-component-update", "--disable-sync", "--disable-default-apps",
                "--window-size=1024,900", "--font-render-hinting=none"):
        opts.add_argument(arg)
    opts.set_capability("goog:loggingPrefs", {"browser": "ALL", "performance": "ALL"})
    return webdriver.Chrome(service=Service("/usr/bin/chromedriver"), options=opts)


# One paste through the page's own form: fill the fields, press the button
# (a submit, as Enter would), read what the page shows.
CHECK_JS = """
const out = [];
for (const [text, seed, enc] of arguments[0]) {
  document.getElementById('paste').value = text;
  document.getElementById('seed').value = seed;
  document.getElementById('enc-' + enc).checked = true;
  document.getElementById('check').click();
  const v = document.getElementById('verdict');
  out.push({verdict: v.dataset.verdict, text: v.textContent,
    rounds: Array.from(document.querySelectorAll('section.round')).map(s => ({
      verdict: s.dataset.verdict, id: s.dataset.id, mode: s.dataset.mode, order: s.dataset.order,
      checks: Array.from(s.querySelectorAll('li[data-check]')).map(li => [li.dataset.check, li.querySelector('.t').textContent, li.querySelector('.why').textContent])}))});
}
return out;
"""


def check_page(driver, pastes):
    """[(text, seed, enc)] -> the page's results, 40 pastes per round trip."""
    results = []
    for at in range(0, len(pastes), 40):
        results += driver.execute_script(CHECK_JS, [list(p) for p in pastes[at:at + 40]])
    return results


def failed_checks(result):
    return [title for r in result["rounds"] for state, title, _ in r["checks"] if state == "fail"]


def failed_reasons(result):
    """What the page says of each failed check: its title and its explanation."""
    return [title + ": " + why for r in result["rounds"] for state, title, why in r["checks"] if state == "fail"]


# --- reference results from tools/verify.py ------------------------------------

def verify_round_line(line):
    """(verdict, order) of a round line by verify.py: 'pass' or the reason."""
    try:
        r = verify.parse_line(line)
        commit, order = verify.derive(r)
        verify.verify(r)
        return "pass", order
    except verify.Reject as why:
        return "fail: %s" % why, None
    except (KeyError, ValueError, IndexError) as why:
        return "fail: malformed (%s)" % why, None


def verify_transcript(lines):
    """verify.py's verdict on reply lines (its transcript check: every mode,
    the dealt cards, left=): 'pass' or 'fail: reason'."""
    t = verify.Transcript()
    try:
        for line in lines:
            t.on_line(line)
        if t.round is not None:
            raise verify.Reject("round %d was never revealed" % t.round["id"])
        return "pass" if t.rounds else "fail: no revealed round"
    except verify.Reject as why:
        return "fail: %s" % why


# --- rounds from the host dealer ---------------------------------------------------

def dealer_rounds(dealer, count, seed):
    out = subprocess.run([sys.executable, str(ROOT / "tests" / "web" / "dealer_rounds.py"), dealer, str(count), str(seed)],
                         capture_output=True, text=True, check=False)
    if out.returncode != 0:
        fail("dealer_rounds.py: %s" % out.stderr.strip())
        return []
    rounds, cur = [], None
    for line in out.stdout.splitlines():
        if line.startswith("OK NEW "):
            cur = [line]
        elif cur is not None:
            cur.append(line)
            if line.startswith("OK REVEAL "):
                rounds.append(cur)
                cur = None
    return rounds


def line_of(lines, prefix):
    return next((l for l in lines if l.startswith(prefix)), None)


def tamper(lines, which, rng):
    """One change a cheat might try on a round's lines; (name, lines) or None
    when this round has nothing to change that way."""
    lines = list(lines)
    reveal_at = next(i for i, l in enumerate(lines) if l.startswith("OK REVEAL "))
    reveal = lines[reveal_at]
    verifiable = " device=" in reveal
    flip_hex = lambda h: ("1" if h[0] == "0" else "0") + h[1:]
    if which == "S" and verifiable:
        lines[reveal_at] = re.sub(r" secret=([0-9a-f]+)", lambda m: " secret=" + flip_hex(m.group(1)), reveal)
        return "changed S", lines
    if which == "seed" and verifiable and "seeds=none" not in reveal:
        lines[reveal_at] = re.sub(r" seeds=([0-7]):([0-9a-f]+)", lambda m: " seeds=%s:%s" % (m.group(1), flip_hex(m.group(2))), reveal)
        return "changed seed", lines
    if which == "order":
        if verifiable:
            head, order = reveal.split(" order=")
            ids, rest = order.split(" ", 1)
            ids = ids.split(",")
            j = next((k for k in range(1, len(ids)) if ids[k] != ids[0]), None)
            ids[0], ids[j] = ids[j], ids[0]
            lines[reveal_at] = "%s order=%s %s" % (head, ",".join(ids), rest)
        else:
            head, order = reveal.split(" order=")
            codes = order.split(" ")
            j = next((k for k in range(1, len(codes)) if codes[k] != codes[0]), None)
            codes[0], codes[j] = codes[j], codes[0]
            lines[reveal_at] = "%s order=%s" % (head, " ".join(codes))
        return "two cards of the order swapped", lines
    if which == "salt" and not verifiable:
        lines[reveal_at] = re.sub(r" salt=([0-9a-f]+)", lambda m: " salt=" + flip_hex(m.group(1)), reveal)
        return "changed salt", lines
    if which == "dealt":
        deals = [i for i, l in enumerate(lines) if l.startswith("OK DEAL ")]
        if not deals:
            return None
        at = rng.choice(deals)
        words = lines[at].split(" ")
        card_words = [k for k, w in enumerate(words[2:], 2) if not w.startswith(("left=", "reshuffle="))]
        k = rng.choice(card_words)
        kind = line_of(lines, "OK NEW ").split(" ")[2][5:]
        first, second = ("AS", "KD") if kind == "french" else ("1O", "2O")
        other = lambda code: first if code != first else second  # another card of the shoe
        if ":" in words[k]:
            seat, cards = words[k].split(":")
            cards = cards.split(",")
            cards[0] = other(cards[0])
            words[k] = seat + ":" + ",".join(cards)
        else:
            words[k] = other(words[k])
        lines[at] = " ".join(words)
        return "a dealt card changed", lines
    if which == "commitment":
        at = next(i for i, l in enumerate(lines) if l.startswith("OK SHUFFLE "))
        lines[at] = re.sub(r" (commitment|commit)=([0-9a-f]+)", lambda m: " %s=%s" % (m.group(1), flip_hex(m.group(2))), lines[at])
        return "SHUFFLE's commitment changed", lines
    if which == "repeat" and not verifiable:
        head, order = reveal.split(" order=")
        codes = order.split(" ")
        codes[-1] = codes[0] if codes[0] != codes[-1] else codes[1]
        lines[reveal_at] = "%s order=%s" % (head, " ".join(codes))
        return "a card repeated in the order", lines
    return None


def check_dealer_rounds(driver, dealer, count, seed):
    rounds = dealer_rounds(dealer, count, seed)
    modes = {}
    for lines in rounds:
        shuffle = line_of(lines, "OK SHUFFLE ")
        mode = "round" if " mode=round" in shuffle else re.search(r" mode=(\w+)", shuffle).group(1)
        modes.setdefault(mode, []).append(lines)
    expect(sorted((m, len(v)) for m, v in modes.items()) == [("drbg", count), ("full", count), ("round", count)],
           "dealer rounds: %s (want %d of each mode)" % ({m: len(v) for m, v in modes.items()}, count))
    text = "\n".join(l for r in rounds for l in r)
    cover = {"house-only": "label=house-only" in text, "seeded": "label=seeded" in text,
             "beacon": re.search(r"REVEAL device=.* beacon=\d", text) is not None, "CLOSE": "OK CLOSE" in text,
             "BURN": "OK BURN" in text, "seats": re.search(r"OK DEAL 1:", text) is not None,
             "spanish40": "shoe=spanish40" in text, "spanish48": "deck=spanish48" in text,
             "8 decks, 2 jokers": "decks=8 jokers=2" in text}
    expect(all(cover.values()), "dealer rounds cover %s" % ", ".join(k for k, v in cover.items() if v))

    # each round alone, as a player pastes it: the page against verify.py
    t0 = time.time()
    results = check_page(driver, [("\n".join(r), "", "hex") for r in rounds])
    page_s = time.time() - t0
    disagree = []
    for lines, res in zip(rounds, results):
        reveal = line_of(lines, "OK REVEAL ")
        shown = res["rounds"][0] if len(res["rounds"]) == 1 else None
        if " device=" in reveal:
            want, order = verify_round_line(reveal[len("OK REVEAL "):])
            got_order = [int(c) for c in shown["order"].split(",")] if shown and shown["order"] else None
            if want != "pass" or res["verdict"] != "pass" or got_order != order:
                disagree.append((reveal[:80], want, res["verdict"], failed_checks(res)))
        else:
            got_order = shown["order"].split(",") if shown else None
            if res["verdict"] != "pass" or got_order != reveal.split(" order=")[1].split(" "):
                disagree.append((reveal[:80], res["verdict"], failed_checks(res)))
        want = verify_transcript(lines)
        if want != "pass":
            disagree.append((reveal[:80], "verify.py transcript: " + want, res["verdict"]))
    expect(not disagree, "%d dealer rounds: the page and verify.py (round line and transcript) agree, verdict and order, on every one%s"
           % (len(rounds), "; first disagreement: %s" % (disagree[:1],) if disagree else ""))
    print("     (page: %.1f ms per round)" % (1000 * page_s / max(1, len(rounds))))

    # the cards drawn as the shoe's kind: Spanish 8C is the 8 of copas, French 8C the 8 of clubs
    sample = [r for r in rounds if "deck=spanish" in r[0]][:6] + [r for r in rounds if "deck=french" in r[0]][:6]
    faces = driver.execute_script("""
      return arguments[0].map(text => {
        document.getElementById('paste').value = text; document.getElementById('seed').value = '';
        document.getElementById('check').click();
        return Array.from(document.querySelectorAll('ol.cards li > .sr')).map(e => e.textContent); });""",
                                  ["\n".join(r) for r in sample])
    spanish = re.compile(r"^\d+: (\d+|sota 10|caballo 11|rey 12) of (oros|copas|espadas|bastos) ")
    french = re.compile(r"^\d+: ((ace|\d+|jack|queen|king) of (spades|hearts|diamonds|clubs)|joker)")
    bad = [f for r, names in zip(sample, faces) for f in names
           if not (spanish if "deck=spanish" in r[0] else french).match(f)]
    expect(len(sample) == 12 and not bad and all(faces),
           "every card of 6 Spanish and 6 French rounds is named as its shoe's card%s" % ("; not: %s" % bad[:3] if bad else ""))

    # one tampering of every round: the page rejects it, naming the broken check;
    # verify.py rejects the same REVEAL line where the tampering is in it
    kinds = ["S", "seed", "order", "salt", "dealt", "commitment", "repeat"]
    rng = random.Random(seed)
    cases = []
    for i, lines in enumerate(rounds):
        for step in range(len(kinds)):
            t = tamper(lines, kinds[(i + step) % len(kinds)], rng)
            if t:
                cases.append((t[0], t[1]))
                break
    results = check_page(driver, [("\n".join(l), "", "hex") for _, l in cases])
    accepted, per_kind = [], {}
    for (name, lines), res in zip(cases, results):
        per_kind[name] = per_kind.get(name, 0) + 1
        reveal = line_of(lines, "OK REVEAL ")
        py = verify_round_line(reveal[len("OK REVEAL "):])[0] if " device=" in reveal else None
        py_should_fail = name in ("changed S", "changed seed", "two cards of the order swapped")
        py_transcript = verify_transcript(lines)
        if res["verdict"] != "fail" or not failed_checks(res) or (py_should_fail and py == "pass") or py_transcript == "pass":
            accepted.append((name, res["verdict"], py, py_transcript))
    expect(not accepted and len(cases) == len(rounds),
           "%d tampered rounds (%s) all rejected by the page, with the check named, and by verify.py%s"
           % (len(cases), ", ".join("%s %d" % kv for kv in sorted(per_kind.items())),
              "; accepted: %s" % accepted[:2] if accepted else ""))

    # a whole transcript of 50 rounds at once, and one with a round replaced before its REVEAL
    whole = [l for r in rounds[:50] for l in r]
    res = check_page(driver, [("\n".join(whole), "", "hex")])[0]
    expect(res["verdict"] == "pass" and len(res["rounds"]) == 50 and all(r["verdict"] == "pass" for r in res["rounds"]),
           "a 50-round transcript pasted whole: 50 rounds, each verified")
    dropped = [l for l in whole if l != line_of(rounds[3], "OK REVEAL ")]
    res = check_page(driver, [("\n".join(dropped), "", "hex")])[0]
    expect(res["verdict"] == "fail" and any("never revealed" in t for t in failed_checks(res)),
           "a transcript with a round never revealed is rejected: %s" % failed_checks(res)[:1])
    return rounds


def check_skipped_shown(driver):
    """Positions skipped at power loss (docs/PROTOCOL.md "Power loss") shown to
    the player: tests/tools/skipped_session's output (frozen in
    make_malformed.py, host.tools.skipped keeps it the dealer's) in both modes
    and its RECALL pass and name cards 8-9 and 10-12 (positions 7-8, 9-11)
    as skipped; with skipped= left out the check that fails says so."""
    sys.path.insert(0, str(ROOT / "tests" / "tools"))
    from make_malformed import BASES
    want = "Skipped at power loss: cards 8 to 9, cards 10 to 12 of the order"
    hidden = BASES["tk"].replace(" skipped=7-8,9-11", "")
    results = check_page(driver, [(BASES[k], "", "hex") for k in ("tk", "tkd", "rk")] + [(hidden, "", "hex")])
    shown = [res["verdict"] == "pass" and any(title == want for r in res["rounds"] for _, title, _ in r["checks"])
             for res in results[:3]]
    expect(all(shown), "skipped positions shown by the page: a verifiable and a drbg session with two power cuts "
           "and their RECALL pass, each naming '%s' (%s)" % (want, shown))
    expect(results[3]["verdict"] != "pass" and
           any("skipped at power loss do NOT match" in t for t in failed_checks(results[3])),
           "the session with skipped= left out fails on the skipped check: %s" % failed_reasons(results[3])[:1])


def check_recall(driver, dealer):
    script = ("NEW french 2 1\nSHUFFLE slots=3 beacon=2:77\nSEED 0 706c61796572\nSEED 2 0123\nCLOSE\nDEAL 3 2\nBURN\n"
              "REVEAL\nNEW spanish48 1\nSHUFFLE drbg\nDEAL 4\nBURN\nREVEAL\nNEW spanish40 3\nSHUFFLE full\nDEAL 2 5\n"
              "REVEAL\nSHUFFLE\nDEAL 1\nREVEAL\nRECALL 10\n")
    out = subprocess.run([dealer], input=script, capture_output=True, text=True, check=False).stdout
    recall = next((l.rstrip("\r") for l in out.splitlines() if l.startswith("OK RECALL ")), "")
    res = check_page(driver, [(recall, "player", "text")])[0]
    expect(res["verdict"] == "pass" and len(res["rounds"]) == 4 and
           sorted(r["mode"] for r in res["rounds"]) == ["drbg", "full", "round", "round"],
           "a RECALL reply of 4 hands in every mode verifies, my seed (text) found: %s" % res["text"])
    # the same rounds from the transcript give the same orders
    trans = check_page(driver, [("\n".join(l.rstrip("\r") for l in out.splitlines()), "", "hex")])[0]
    expect([r["order"] for r in trans["rounds"][:4]] == [r["order"] for r in res["rounds"]],
           "RECALL and the transcript give the same four orders")
    other = lambda m: m.group(1) + ("AS" if m.group(2) != "AS" else "KD")  # another card of the French shoe
    edits = {"a listed card changed": re.sub(r"(cards@0=1:)(\w+)", other, recall, count=1),
             "S changed": re.sub(r"reveal0=(.)", lambda m: "reveal0=" + ("1" if m.group(1) == "0" else "0"), recall, count=1),
             "a burned card changed": re.sub(r"(burn:)(\w+)", other, recall, count=1)}
    for name, text in edits.items():
        res = check_page(driver, [(text, "", "hex")])[0]
        expect(text != recall and res["verdict"] == "fail", "RECALL with %s is rejected: %s" % (name, failed_checks(res)[:1]))


# --- the rest --------------------------------------------------------------------

def check_hashes(driver):
    vectors = [(b"", "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"),
               (b"abc", "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"),
               (b"abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq",
                "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1"),
               (b"abcdefghbcdefghicdefghijdefghijkefghijklfghijklmghijklmnhijklmnoijklmnopjklmnopqklmnopqrlmnopqrsmnopqrstnopqrstu",
                "cf5b16a778af8380036ce59e7b0492370b249b11e8f07a51afac45037afee9d1"),
               (b"a" * 1000000, "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0")]
    got = driver.execute_script("return arguments[0].map(h => toHex(sha256(fromHex(h))))", [m.hex() for m, _ in vectors])
    expect(got == [d for _, d in vectors], "SHA-256: the FIPS 180-4 vectors (empty, abc, 448 and 896 bits, a million a)")
    rfc4231 = [("0b" * 20, b"Hi There".hex(), "b0344c61d8db38535ca8afceaf0bf12b881dc200c9833da726e9376c2e32cff7"),
               (b"Jefe".hex(), b"what do ya want for nothing?".hex(), "5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843"),
               ("aa" * 20, "dd" * 50, "773ea91e36800e46854db8ebd09181a72959098b3ef8c122d9635514ced565fe"),
               ("aa" * 131, b"Test Using Larger Than Block-Size Key - Hash Key First".hex(),
                "60e431591ee0b67f0d8a26aacbf5b77f8e0bc6213728c5140546040f0ee37f54")]
    got = driver.execute_script("return arguments[0].map(([k, m]) => toHex(hmacSha256(fromHex(k), fromHex(m))))",
                                [[k, m] for k, m, _ in rfc4231])
    expect(got == [d for _, _, d in rfc4231], "HMAC-SHA-256: RFC 4231 test cases 1, 2, 3, 6")
    # lengths around every padding boundary, against WebCrypto and hashlib
    rng = random.Random(5)
    msgs = [rng.randbytes(n) for n in list(range(0, 140)) + [rng.randint(140, 5000) for _ in range(60)]]
    got = driver.execute_async_script("""
      const done = arguments[arguments.length - 1];
      Promise.all(arguments[0].map(async h => [toHex(sha256(fromHex(h))),
        toHex(new Uint8Array(await crypto.subtle.digest('SHA-256', fromHex(h))))])).then(done);""", [m.hex() for m in msgs])
    expect(all(a == b == hashlib.sha256(m).hexdigest() for (a, b), m in zip(got, msgs)),
           "SHA-256 equals WebCrypto's and hashlib's on %d random messages of 0..5000 bytes" % len(msgs))
    keys = [rng.randbytes(rng.choice([1, 32, 64, 65, 200])) for _ in range(40)]
    got = driver.execute_script("return arguments[0].map(([k, m]) => toHex(hmacSha256(fromHex(k), fromHex(m))))",
                                [[k.hex(), m.hex()] for k, m in zip(keys, msgs)])
    expect(got == [hmac.new(k, m, hashlib.sha256).hexdigest() for k, m in zip(keys, msgs)],
           "HMAC-SHA-256 equals Python's hmac on 40 random keys of 1..200 bytes")


def check_exhaust(driver, round_lines):
    """S crafted so that every draw is rejected until the order bytes run past
    S (VERIFY.md section 6, `round_lines exhaust`): the page's shuffle gives the
    C library's order, as verify.py's does (host.verify.py)."""
    lines = subprocess.run([round_lines, "exhaust"], capture_output=True, text=True, check=True).stdout.split("\n")
    cases = [dict(item.split("=", 1) for item in l.split(" ")) for l in lines if l]
    got = driver.execute_script("return arguments[0].map(([n, k, s]) => shuffleCards(Array.from({length: n}, (_, i) => i), "
                                "fromHex(k), fromHex(s)).join(','))", [[int(c["n"]), c["key"], c["secret"]] for c in cases])
    expect(len(cases) >= 3 and got == [c["order"] for c in cases],
           "S that runs out (every draw rejected past its end): %d orders as the C library's, n = %s"
           % (len(cases), ", ".join(c["n"] for c in cases)))


def check_vectors(driver):
    lines = [l.strip() for l in verify.vector_lines(str(ROOT / "docs" / "VERIFY.md")) if l.strip()]
    results = check_page(driver, [(l, "", "hex") for l in lines])
    agree = all(res["verdict"] == "pass" and [int(c) for c in res["rounds"][0]["order"].split(",")] == verify.parse_line(l)["order"]
                for l, res in zip(lines, results))
    expect(len(lines) == 6 and agree, "docs/VERIFY.md: %d vectors verify, each with verify.py's order" % len(lines))
    cases = [(what, verify.format_line(bad)) for l in lines for what, bad in verify.tamperings(verify.parse_line(l))]
    results = check_page(driver, [(l, "", "hex") for _, l in cases])
    missed = [what for (what, _), res in zip(cases, results) if res["verdict"] != "fail"]
    expect(len(cases) == 30 and not missed, "verify.py's 5 tamperings of each vector rejected (%d)%s"
           % (len(cases), "; accepted: %s" % missed if missed else ""))
    # my seed: vector 1 holds "player" in slot 0
    res = check_page(driver, [(lines[0], "player", "text"), (lines[0], "706C6179 6572", "hex"), (lines[0], "playe", "text"),
                              (lines[0], "zz", "hex"), (lines[1], "00", "hex")])
    expect([r["verdict"] for r in res] == ["pass", "pass", "fail", "fail", "fail"] and "slot 0" in str(res[0]["rounds"][0]["checks"])
           and "NOT" in str(res[4]["rounds"][0]["checks"]),
           "my seed: found in slot 0 as text and as hex; another seed, bad hex and a house-only round fail")
    return lines


MALFORMED_OWN = [  # (what, edit of VERIFY.md vector 1, the reason the page must give); more in tests/tools/malformed.txt
    ("a duplicate seed slot", lambda l: l.replace("seeds=0:", "seeds=0:cafebabe;0:"), "duplicate slot"),
    ("slot 9", lambda l: l.replace("seeds=0:706c61796572", "seeds=0:706c61796572;9:cafebabe"), "out of range"),
    ("a seed outside the mask", lambda l: l.replace("seeds=0:706c61796572", "seeds=0:706c61796572;3:cafebabe"), "not accepted"),
    ("two seeds= keys", lambda l: l + " seeds=0:706c61796572", "duplicate key"),
    ("a fullwidth digit", lambda l: l.replace("id=1 ", "id=\uff11 "), "not a decimal number"),
    ("upper-case hex", lambda l: l.replace("secret=0001", "secret=0A01"), "not lower-case hex"),
    ("a missing key", lambda l: re.sub(r" commitment=\w+", "", l), "missing key"),
    ("a 65-byte seed", lambda l: l.replace("seeds=0:706c61796572", "seeds=0:" + "ab" * 65), "out of range"),
    ("a beacon index of 2^64", lambda l: l.replace("slots=01 beacon=none", "slots=01 beacon=0:18446744073709551616"),
     "out of range"),
    ("an order one card short", lambda l: l.replace(",0,27", ",0"), "order does not match"),
    ("jokers in a Spanish deck", lambda l: l.replace("french:1:0", "spanish48:1:1"), "out of range"),
]


def check_malformed(driver, vector1):
    cases = [(what, edit(vector1), "fail", why) for what, edit, why in MALFORMED_OWN]
    cases += [("nothing at all", "", "info", "Nothing to check"),
              ("only a banner, an ERR and an echoed REVEAL (human mode)",
               "fairdeal dealer 0.2.0\nERR syntax\n> OK REVEAL " + vector1, "info", "Nothing to check"),
              ("a commit-only REVEAL without its SHUFFLE", "OK REVEAL id=3 salt=000102030405060708090a0b0c0d0e0f order=AS 2S",
               "fail", "No commitment to check"),
              ("a SHUFFLE never revealed", "OK SHUFFLE id=2 mode=drbg cards=52 commit=" + "00" * 32, "fail", "never revealed")]
    results = check_page(driver, [(text, "", "hex") for _, text, _, _ in cases])
    wrong = []
    for (what, _, verdict, why), res in zip(cases, results):
        said = failed_reasons(res) + [res["text"]]
        if res["verdict"] != verdict or not any(why.lower() in s.lower() for s in said):
            wrong.append((what, said[0]))
    expect(not wrong, "%d malformed inputs of our own refused, each with its reason%s"
           % (len(cases), "; wrong: %s" % wrong[:3] if wrong else ""))
    for (what, _, _, _), res in list(zip(cases, results))[:2]:
        print("     e.g. %s: %s" % (what, (failed_checks(res) or [res["text"]])[0]))


def check_shared_table(driver):
    """tests/tools/malformed.txt (format in its header): every case of a kind
    the page reads (round, transcript, recall) accepted or refused as the
    table says, a refusal naming the table's reason."""
    sys.path.insert(0, str(ROOT / "tests" / "tools"))
    from test_malformed import unescape
    cases = []
    for line in (ROOT / "tests" / "tools" / "malformed.txt").read_text(encoding="utf-8").splitlines():
        if not line.strip() or line.startswith("#"):
            continue
        kind, name, want, text = line.split("\t")
        if kind in ("round", "transcript", "recall"):
            cases.append((kind, name, want, unescape(text).decode("utf-8", "replace")))
    results = check_page(driver, [(text, "", "hex") for _, _, _, text in cases])
    wrong = []
    for (kind, name, want, _), res in zip(cases, results):
        said = " / ".join(failed_reasons(res) + [res["text"]])
        if (want == "accept") != (res["verdict"] == "pass") or (want != "accept" and want not in said.lower()):
            wrong.append("%s %s (want %s): %s" % (kind, name, want, said[:150]))
    kinds = {k: sum(1 for c in cases if c[0] == k) for k in ("round", "transcript", "recall")}
    expect(len(cases) >= 60 and not wrong, "the shared table tests/tools/malformed.txt: %d cases (%s), %d to accept, "
           "each accepted or refused with its reason%s" % (len(cases), ", ".join("%s %d" % kv for kv in kinds.items()),
                                                            sum(1 for c in cases if c[2] == "accept"),
                                                            "; %d wrong:\n       %s" % (len(wrong), "\n       ".join(wrong)) if wrong else ""))


def network_and_console(driver, page_url):
    requests = []
    for entry in driver.get_log("performance"):
        msg = json.loads(entry["message"])["message"]
        if msg["method"] in ("Network.requestWillBeSent", "Network.webSocketCreated"):
            requests.append(msg["params"].get("request", {}).get("url", msg["params"].get("url")))
    others = [u for u in requests if u != page_url]
    expect(not others and requests.count(page_url) >= 1,
           "no network request: the browser's log shows only the page itself (%d loads of it)%s"
           % (requests.count(page_url), "; also: %s" % others[:3] if others else ""))
    errors = [e["message"] for e in driver.get_log("browser") if e["level"] in ("SEVERE", "WARNING")]
    expect(not errors, "no console error or CSP violation%s" % ("; got: %s" % errors[:2] if errors else ""))
    # the policy itself: a fetch and an image from elsewhere are blocked
    blocked = driver.execute_async_script("""
      const done = arguments[arguments.length - 1], seen = [];
      document.addEventListener('securitypolicyviolation', e => seen.push(e.violatedDirective + ' ' + e.blockedURI));
      fetch('http://127.0.0.1:9/x').catch(() => {});
      const img = new Image(); img.src = 'http://127.0.0.1:9/y.png'; document.body.append(img);
      const s = document.createElement('script'); s.textContent = 'window.injected = 1'; document.body.append(s);
      setTimeout(() => { img.remove(); s.remove(); done([seen, window.injected === 1]); }, 300);""")
    expect(len(blocked[0]) == 3 and not blocked[1],
           "the CSP blocks a fetch, an image and an injected script: %s" % blocked[0])
    driver.get_log("browser")


def contrast(fg, bg):
    def lum(c):
        vals = [int(v) / 255 for v in re.findall(r"[\d.]+", c)[:3]]
        vals = [v / 12.92 if v <= 0.03928 else ((v + 0.055) / 1.055) ** 2.4 for v in vals]
        return 0.2126 * vals[0] + 0.7152 * vals[1] + 0.0722 * vals[2]
    a, b = sorted((lum(fg), lum(bg)), reverse=True)
    return (a + 0.05) / (b + 0.05)


def check_access(driver, vector1):
    # keyboard only: Tab to the text area, type, Tab through the seed and the choice, Enter on the button
    driver.execute_script("document.getElementById('paste').value=''; document.getElementById('seed').value='';"
                          "document.getElementById('verdict').textContent=''; document.activeElement.blur(); window.scrollTo(0,0)")
    body = driver.find_element(By.TAG_NAME, "body")
    body.send_keys(Keys.TAB)
    order = []
    for _ in range(6):
        order.append(driver.execute_script("return document.activeElement.id"))
        if order[-1] == "paste":
            driver.switch_to.active_element.send_keys(vector1)
        if order[-1] == "seed":
            driver.switch_to.active_element.send_keys("706c61796572")
        if order[-1] == "check":
            break
        driver.switch_to.active_element.send_keys(Keys.TAB)
    driver.switch_to.active_element.send_keys(Keys.ENTER)
    verdict = driver.find_element(By.ID, "verdict").text
    expect(order == ["paste", "seed", "enc-hex", "check"] and verdict.startswith("\u2714 Verified: the round checks out"),
           "keyboard only: Tab order %s, Enter checks: %s" % (order, verdict[:40]))
    # focus is visible
    outline = driver.execute_script("const b = document.getElementById('check'); b.focus(); return getComputedStyle(b).outlineStyle")
    expect(outline == "solid", "the focused control shows an outline")

    tree = driver.execute_cdp_cmd("Accessibility.getFullAXTree", {})["nodes"]
    def named(role):
        return [(n.get("name") or {}).get("value", "") for n in tree if (n.get("role") or {}).get("value") == role and not n.get("ignored")]
    boxes, buttons, radios = named("textbox"), named("button"), named("radio")
    by_id = {n["nodeId"]: n for n in tree}
    def text_of(node):  # what a screen reader reads inside a node
        own = (node.get("name") or {}).get("value", "") if (node.get("role") or {}).get("value") == "StaticText" else ""
        return own + "".join(text_of(by_id[c]) for c in node.get("childIds", []) if c in by_id)
    statuses = [text_of(n) for n in tree if (n.get("role") or {}).get("value") == "status"]
    items = named("listitem")
    cards = [n for n in tree if (n.get("role") or {}).get("value") == "StaticText" and re.match(r"^\d+: (ace|king|\d+|queen|jack) of ", (n.get("name") or {}).get("value", ""))]
    live = [n for n in tree if (n.get("role") or {}).get("value") == "status" and
            any(p["name"] == "live" and p["value"]["value"] == "polite" for p in n.get("properties", []))]
    expect(boxes == ["What the table showed", "My seed (optional)"] and buttons == ["Check the round"]
           and radios == ["hex digits", "text (UTF-8)"] and len(live) == 1 and statuses[0].startswith("\u2714 Verified")
           and len(cards) == 52,
           "accessibility tree: text boxes %s, button %s, radios %s, %d polite live status (%s), %d cards named (%s)"
           % (boxes, buttons, radios, len(live), statuses[:1], len(cards), (cards[0]["name"]["value"] if cards else "none")))
    checks = [n for n in tree if (n.get("role") or {}).get("value") == "StaticText" and (n.get("name") or {}).get("value", "").startswith(("Passed:", "FAILED:", "Note:"))]
    expect(len(checks) >= 4, "each check result is spoken with its word (Passed:/FAILED:/Note:), not its colour alone (%d)" % len(checks))

    # 360 px and a desktop; light and dark; a French round with dealt cards and a Spanish one (vector 3)
    vector3 = [l.strip() for l in verify.vector_lines(str(ROOT / "docs" / "VERIFY.md")) if l.strip()][2]
    check_page(driver, [("\n".join(SHOT_LINES + ["OK REVEAL " + vector1 + " label=seeded", vector3]), "", "hex")])
    for width, scheme in ((360, "light"), (360, "dark"), (1280, "light"), (1280, "dark")):
        driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride", {"width": width, "height": 800, "deviceScaleFactor": 1, "mobile": width < 500})
        driver.execute_cdp_cmd("Emulation.setEmulatedMedia", {"features": [{"name": "prefers-color-scheme", "value": scheme}]})
        m = driver.execute_script("""
          const cs = e => getComputedStyle(e), b = document.body, v = document.getElementById('verdict');
          const red = document.querySelector('.face.r'), blk = document.querySelector('.face.k');
          return {scroll: document.documentElement.scrollWidth, client: document.documentElement.clientWidth,
                  bg: cs(b).backgroundColor, fg: cs(b).color, verdict: cs(v).color, red: red && cs(red).color,
                  blk: blk && cs(blk).color, card: cs(document.querySelector('ol.cards li')).backgroundColor,
                  faces: Array.from(document.querySelectorAll('.face')).map(f => [cs(f).color, cs(f.parentNode).backgroundColor])}""")
        ratios = [contrast(m["fg"], m["bg"]), contrast(m["verdict"], m["bg"]), contrast(m["red"], m["card"]), contrast(m["blk"], m["card"]),
                  min(contrast(fg, bg) for fg, bg in m["faces"])]
        dark = contrast("rgb(0,0,0)", m["bg"]) < 2
        expect(m["scroll"] <= m["client"] and min(ratios) >= 4.5 and dark == (scheme == "dark"),
               "%d px, %s: no sideways scroll (%d <= %d), contrast text/verdict/red/black cards/least of all 92 faces %s"
               % (width, scheme, m["scroll"], m["client"], "/".join("%.1f" % r for r in ratios)))
    driver.execute_cdp_cmd("Emulation.setEmulatedMedia", {"features": []})
    driver.execute_cdp_cmd("Emulation.clearDeviceMetricsOverride", {})


SHOT_LINES = [  # VERIFY.md's vector 1 as the table shows it: SHUFFLE, the seed, 8 cards dealt and burned
    "OK SHUFFLE mode=round device=666169726465616c2d6b6174 id=1 shoe=french:1:0 slots=01 beacon=none cards=52 "
    "commitment=a021e04a5ee3b0362620a915180df2d389d5255e3447f2d12b2d7a200592d533 state=seeding",
    "OK SEED id=1 slot=0 state=closed label=seeded", "OK DEAL 1:5D,9H 2:8D,AC 3:TH,2S left=46", "OK BURN left=45",
    "OK DEAL AD left=44"]


def screenshot(driver, path, width, scheme):
    driver.execute_cdp_cmd("Emulation.setEmulatedMedia", {"features": [{"name": "prefers-color-scheme", "value": scheme}]})
    driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride", {"width": width, "height": 800, "deviceScaleFactor": 1, "mobile": width < 500})
    height = driver.execute_script("document.activeElement.blur(); window.scrollTo(0, 0); return document.documentElement.scrollHeight")
    shot = driver.execute_cdp_cmd("Page.captureScreenshot", {"format": "png", "captureBeyondViewport": True,
                                                            "clip": {"x": 0, "y": 0, "width": width, "height": height, "scale": 1}})
    Path(path).write_bytes(base64.b64decode(shot["data"]))
    driver.execute_cdp_cmd("Emulation.setEmulatedMedia", {"features": []})
    driver.execute_cdp_cmd("Emulation.clearDeviceMetricsOverride", {})


def screenshots(driver, out, vector1):
    """A passing and a failing round as a player sees them, from VERIFY.md's vector 1 with its deal."""
    good = "\n".join(SHOT_LINES + ["OK REVEAL " + vector1 + " label=seeded"])
    bad = good.replace("OK DEAL AD left=44", "OK DEAL KS left=44")
    res = check_page(driver, [(good, "player", "text")])[0]
    expect(res["verdict"] == "pass", "screenshot round verifies: %s" % res["text"])
    screenshot(driver, out / "verify-pass.png", 1024, "light")
    screenshot(driver, out / "verify-pass-360-dark.png", 360, "dark")
    res = check_page(driver, [(bad, "player", "text")])[0]
    expect(res["verdict"] == "fail" and failed_checks(res) == ["The dealt cards are NOT the order's first cards"],
           "screenshot round with a wrong card dealt fails on exactly that check")
    screenshot(driver, out / "verify-fail.png", 360, "dark")
    screenshot(driver, out / "verify-fail-desktop.png", 1024, "light")
    ok("screenshots in %s: verify-pass.png, verify-fail.png (+ -360-dark, -desktop)" % out)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--dealer", required=True)
    ap.add_argument("--round-lines", required=True, help="tests/tools/round_lines.c's binary (its exhaust lines)")
    ap.add_argument("--out", required=True)
    ap.add_argument("--count", type=int, default=100, help="dealer rounds per mode (default 100: 300 rounds)")
    ap.add_argument("--seed", type=int, default=int(time.time()))
    ap.add_argument("--screenshots-only", action="store_true", help="only write the screenshots (scripts/web_screenshots.sh)")
    args = ap.parse_args()
    start = time.time()
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    print("test_verify_page.py: random rounds from seed %d" % args.seed)

    sealed = subprocess.run([sys.executable, str(ROOT / "tools" / "web" / "seal.py"), "--check"], capture_output=True, text=True)
    expect(sealed.returncode == 0, sealed.stdout.strip())
    sums = subprocess.run(["sha256sum", "-c", "verify.html.sha256"], cwd=PAGE.parent, capture_output=True, text=True)
    expect(sums.returncode == 0, "sha256sum -c tools/web/verify.html.sha256: %s" % sums.stdout.strip())
    size = PAGE.stat().st_size
    expect(size < PAGE_MAX, "page weight %d bytes (%.1f KiB) < 60 KiB, nothing else loaded" % (size, size / 1024))

    driver = browser()
    try:
        driver.set_script_timeout(120)
        url = PAGE.as_uri()
        driver.get(url)
        if args.screenshots_only:
            screenshots(driver, out, VECTOR1)
            return 1 if failures else 0
        expect(driver.execute_script("return typeof sha256 === 'function' && document.getElementById('verdict').textContent === ''"),
               "the page's script runs under its CSP (%s)" % driver.capabilities.get("browserVersion"))
        phases = []
        def timed(name, fn, *a):
            t0 = time.time()
            try:
                return fn(*a)
            except Exception as why:  # a page that throws or hangs fails its phase, and the next phases still run
                fail("%s: %s" % (name, str(why).splitlines()[0] if str(why) else type(why).__name__))
                return None
            finally:
                phases.append("%s %.1f s" % (name, time.time() - t0))
        timed("hashes", check_hashes, driver)
        vectors = timed("vectors", check_vectors, driver) or [VECTOR1]
        timed("exhaust", check_exhaust, driver, args.round_lines)
        timed("malformed", check_malformed, driver, vectors[0])
        timed("table", check_shared_table, driver)
        timed("dealer rounds", check_dealer_rounds, driver, args.dealer, args.count, args.seed)
        timed("recall", check_recall, driver, args.dealer)
        timed("skipped", check_skipped_shown, driver)
        timed("network", network_and_console, driver, url)
        timed("access", check_access, driver, vectors[0])
        timed("screenshots", screenshots, driver, out, vectors[0])
        print("     (%s)" % ", ".join(phases))
    finally:
        driver.quit()
    print("test_verify_page.py: %d failure(s), %.1f s" % (failures, time.time() - start))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
