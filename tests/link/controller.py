"""A table controller on python3-dissononce (Noise_NNpsk0_25519_ChaChaPoly_SHA256
with docs/LINK.md's frames and padding): independent of fairdeal's C code.
Used by interop_noise.py (against tests/link/link_peer.c) and dealer_link.py
(against the dealer firmware)."""
import hashlib
import hmac

from dissononce.cipher.chachapoly import ChaChaPolyCipher
from dissononce.dh.x25519.x25519 import X25519DH
from dissononce.hash.sha256 import SHA256Hash
from dissononce.processing.handshakepatterns.interactive.NN import NNHandshakePattern
from dissononce.processing.impl.cipherstate import CipherState
from dissononce.processing.impl.handshakestate import HandshakeState
from dissononce.processing.impl.symmetricstate import SymmetricState
from dissononce.processing.modifiers.psk import PSKPatternModifier

BUCKETS = (64, 128, 256, 512)
MAX_FAILURES = 8
# the development builds' public test secret (firmware/device_secret.c)
TEST_SECRET = hashlib.sha256(b"fairdeal/test-secret: development builds only, never at a table").digest()


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
