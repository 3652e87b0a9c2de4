"""Drive tests/link/link_peer.c over a pipe: one command line, one answer line."""
import subprocess


class Peer:
    def __init__(self, exe):
        self.p = subprocess.Popen([exe], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)

    def ask(self, *words):
        line = " ".join(w.hex() if isinstance(w, (bytes, bytearray)) and w else
                        ("-" if isinstance(w, (bytes, bytearray)) else str(w)) for w in words)
        self.p.stdin.write(line + "\n")
        self.p.stdin.flush()
        answer = self.p.stdout.readline()
        if not answer:
            raise RuntimeError("link_peer exited")
        return answer.strip()

    def close(self):
        self.p.stdin.close()
        return self.p.wait()
