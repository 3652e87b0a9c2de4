#!/usr/bin/python3
"""fairdeal's X25519, Poly1305, ChaCha20-Poly1305 and Noise HKDF against
python3-cryptography (OpenSSL) on random inputs.
usage: interop_crypto.py LINK_PEER [CASES]"""
import os
import random
import sys

from cryptography.hazmat.primitives import hashes
from cryptography.hazmat.primitives.serialization import Encoding, PublicFormat
from cryptography.hazmat.primitives.asymmetric.x25519 import X25519PrivateKey, X25519PublicKey
from cryptography.hazmat.primitives.ciphers.aead import ChaCha20Poly1305
from cryptography.hazmat.primitives.kdf.hkdf import HKDF
from cryptography.hazmat.primitives.poly1305 import Poly1305

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from peer import Peer  # noqa: E402

P = 2**255 - 19


def main():
    peer = Peer(sys.argv[1])
    cases = int(sys.argv[2]) if len(sys.argv) > 2 else 200
    rnd = random.Random(int.from_bytes(os.urandom(8), "little"))
    seed = rnd.getrandbits(64)
    rnd.seed(seed)
    print("seed", seed)
    checked = 0
    for i in range(cases):
        k = rnd.randbytes(32)
        kind = i % 4
        if kind == 0:
            u = rnd.randbytes(32)
        elif kind == 1:  # a non-canonical u: p <= u < 2^255, or with the top bit set
            u = (P + rnd.randrange(0, 19)).to_bytes(32, "little")
        elif kind == 2:
            u = X25519PrivateKey.from_private_bytes(rnd.randbytes(32)).public_key().public_bytes(Encoding.Raw, PublicFormat.Raw)
        else:
            u = bytes(b | (0x80 if j == 31 else 0) for j, b in enumerate(rnd.randbytes(32)))
        want = X25519PrivateKey.from_private_bytes(k).exchange(X25519PublicKey.from_public_bytes(u)) \
            if int.from_bytes(u, "little") % 2**255 % P not in (0, 1) else None
        got = peer.ask("x25519", k, u)
        if want is not None:
            assert got == want.hex(), ("x25519", k.hex(), u.hex(), got, want.hex())
            checked += 1
        # Poly1305 on a random length
        key = rnd.randbytes(32)
        msg = rnd.randbytes(rnd.randrange(0, 300))
        assert peer.ask("poly", key, msg) == Poly1305.generate_tag(key, msg).hex(), ("poly", key.hex(), msg.hex())
        # the AEAD, both ways, and a flipped bit refused
        key, nonce = rnd.randbytes(32), rnd.randbytes(12)
        ad, pt = rnd.randbytes(rnd.randrange(0, 40)), rnd.randbytes(rnd.randrange(0, 300))
        ct = ChaCha20Poly1305(key).encrypt(nonce, pt, ad)
        assert peer.ask("aead_enc", key, nonce, ad, pt) == ct.hex(), ("aead", key.hex(), nonce.hex())
        assert peer.ask("aead_dec", key, nonce, ad, ct) == (pt.hex() if pt else ""), "aead_dec"
        bad = bytearray(ct)
        bad[rnd.randrange(len(bad))] ^= 1 << rnd.randrange(8)
        assert peer.ask("aead_dec", key, nonce, ad, bytes(bad)) == "ERR auth", "tampered accepted"
        # Noise's HKDF is RFC 5869 with salt = ck and empty info
        ck, ikm = rnd.randbytes(32), rnd.randbytes(rnd.choice([0, 32, 33]))
        want = HKDF(algorithm=hashes.SHA256(), length=96, salt=ck, info=b"").derive(ikm)
        assert peer.ask("hkdf", ck, ikm) == want.hex(), ("hkdf", ck.hex(), ikm.hex())
    # a sanity check of the checker itself: the RFC 7748 §5.2 vector
    assert peer.ask("x25519", bytes.fromhex("a546e36bf0527c9d3b16154b82465edd62144c0ac1fc5a18506a2244ba449ac4"),
                    bytes.fromhex("e6db6867583030db3594c1a424b15f7c726624ec26b3353b10a903a6d0ab1c4c")) == \
        "c3da55379de9c6908e94ea4df28d084f32eccf03491c71f754b4075577a28552"
    assert peer.close() == 0
    print("ok: %d X25519 (%d compared), %d Poly1305, %d AEAD, %d HKDF against python3-cryptography"
          % (cases, checked, cases, cases, cases))


main()
