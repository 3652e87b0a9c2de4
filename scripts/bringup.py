#!/usr/bin/env python3
"""Day-one bring-up of a real board over its USB serial port (docs/HARDWARE.md).

  scripts/bringup.py suites BOARD   flash each on-target unit-test image, read
                                    its result on the UART, fail if any fails
  scripts/bringup.py dealer BOARD   flash the dealer, check its banner and SELFTEST
  scripts/bringup.py trng BOARD --bytes N --out FILE
                                    flash the raw-sample image, record N raw
                                    samples (one per byte: the form NIST's
                                    SP 800-90B tools read), report the rate
                                    and the board's own health tests

Options: --build DIR (default build/BOARD), --port P (default: found as
scripts/console.sh finds it), --timeout S per image, --only NAME (suites).
--qemu runs the images under QEMU instead of flashing (the script's own
test, tests/hw/bringup_qemu.sh). Python 3 standard library only. Exit 0
only if everything passed.
"""
import argparse
import glob
import os
import re
import select
import signal
import subprocess
import sys
import termios
import time
import tty

HERE = os.path.dirname(os.path.abspath(__file__))
SUMMARY = re.compile(rb"\[==========\] (\d+) passed, (\d+) failed")


class SerialLink:
    """The board's UART at 115200 8N1, raw, opened before the board resets."""

    def __init__(self, port):
        self.fd = os.open(port, os.O_RDWR | os.O_NOCTTY)
        tty.setraw(self.fd)
        attrs = termios.tcgetattr(self.fd)
        attrs[2] = (attrs[2] & ~(termios.PARENB | termios.CSTOPB | termios.CSIZE | termios.CRTSCTS)) | termios.CS8 | termios.CLOCAL | termios.CREAD
        attrs[4] = attrs[5] = termios.B115200
        termios.tcsetattr(self.fd, termios.TCSANOW, attrs)
        termios.tcflush(self.fd, termios.TCIOFLUSH)

    def start(self, board, image):
        run([os.path.join(HERE, "flash.sh"), board, image])

    def read(self, timeout):
        ready, _, _ = select.select([self.fd], [], [], timeout)
        return os.read(self.fd, 65536) if ready else b""

    def write(self, data):
        os.write(self.fd, data)

    def close(self):
        os.close(self.fd)


class QemuLink:
    """The same image under QEMU (console on a pipe), for testing this script."""

    def __init__(self, machine):
        self.machine = machine
        self.proc = None

    def start(self, board, image):
        script = os.path.join(HERE, "..", "tests", "qemu", "run.sh")
        self.proc = subprocess.Popen([script, self.machine, image, "-"],
                                     stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                     start_new_session=True)

    def read(self, timeout):
        ready, _, _ = select.select([self.proc.stdout], [], [], timeout)
        if not ready:
            return b""
        data = os.read(self.proc.stdout.fileno(), 65536)
        if not data:
            raise EOFError("the image stopped")
        return data

    def write(self, data):
        self.proc.stdin.write(data)
        self.proc.stdin.flush()

    def close(self):
        if self.proc:
            os.killpg(self.proc.pid, signal.SIGKILL)  # run.sh, timeout and QEMU
            self.proc.wait()
            self.proc = None


def run(cmd):
    print("bringup: running:", " ".join(cmd), flush=True)
    subprocess.run(cmd, check=True)


def find_port(board):
    out = subprocess.run([os.path.join(HERE, "console.sh"), "--dry-run", board],
                         capture_output=True, text=True)
    if "no serial port found" in out.stderr:
        sys.exit("bringup: no serial port found for %s: plug it in, or give --port" % board)
    return out.stdout.split()[-1]


def image_path(build, board, name):
    found = sorted(glob.glob(os.path.join(build, "**", "fairdeal-%s-%s-*.elf" % (name, board)),
                             recursive=True))
    if not found:
        sys.exit("bringup: no %s image for %s under %s: build the %s preset first"
                 % (name, board, build, board))
    return found[-1]


def read_until(link, pattern, timeout, buf=b""):
    """Read until pattern matches; returns (match, everything read)."""
    deadline = time.monotonic() + timeout
    while True:
        m = pattern.search(buf)
        if m:
            return m, buf
        left = deadline - time.monotonic()
        if left <= 0:
            return None, buf
        try:
            buf += link.read(min(left, 1.0))
        except EOFError:
            return pattern.search(buf), buf


def read_exact(link, count, timeout, buf):
    deadline = time.monotonic() + timeout
    while len(buf) < count and time.monotonic() < deadline:
        try:
            buf += link.read(min(deadline - time.monotonic(), 1.0))
        except EOFError:
            break
    return buf


def cmd_suites(args, link):
    names = sorted({re.sub(r"^fairdeal-(test_\w+)-%s-.*$" % re.escape(args.board), r"\1",
                           os.path.basename(p))
                    for p in glob.glob(os.path.join(args.build, "tests",
                                                    "fairdeal-test_*-%s-*.elf" % args.board))})
    if args.only:
        names = [n for n in names if n == "test_" + args.only or n == args.only]
    if not names:
        sys.exit("bringup: no test images under %s/tests" % args.build)
    failed = []
    for name in names:
        link.start(args.board, image_path(args.build, args.board, name))
        m, out = read_until(link, SUMMARY, args.timeout)
        sys.stdout.write(out.decode("latin-1"))
        if m is None:
            print("bringup: %s: no result within %d s" % (name, args.timeout))
            failed.append(name)
        elif int(m.group(2)) != 0 or int(m.group(1)) == 0:
            failed.append(name)
        link.close()
    print("bringup: %d image(s), %d failed%s" % (len(names), len(failed),
                                                ": " + " ".join(failed) if failed else ""))
    return 1 if failed else 0


def cmd_dealer(args, link):
    link.start(args.board, image_path(args.build, args.board, "dealer"))
    m, out = read_until(link, re.compile(rb"fairdeal dealer [^\r\n]*\r?\n"), args.timeout)
    if m is None:
        print(out.decode("latin-1"))
        print("bringup: no banner within %d s" % args.timeout)
        return 1
    print("bringup: banner:", m.group(0).decode("latin-1").strip())
    link.write(b"SELFTEST\r")
    m, out = read_until(link, re.compile(rb"(OK|ERR) SELFTEST[^\r\n]*\r?\n"), args.timeout)
    link.close()
    print("bringup:", m.group(0).decode("latin-1").strip() if m else "no SELFTEST reply")
    return 0 if m and m.group(1) == b"OK" else 1


def cmd_trng(args, link):
    link.start(args.board, image_path(args.build, args.board, "trng_raw"))
    m, buf = read_until(link, re.compile(rb"TRNG-RAW [^\r\n]*\r\n"), args.timeout)
    if m is None:
        print("bringup: no TRNG-RAW banner within %d s" % args.timeout)
        return 1
    print("bringup:", m.group(0).decode("latin-1").strip())
    buf = buf[m.end():]
    samples = 0
    micros = 0
    healthy = True
    with open(args.out, "wb") as out:
        while samples < args.bytes:
            link.write(b"R")
            m, buf = read_until(link, re.compile(rb"(RAW (\d+)|ERR [^\r\n]*)\r\n"), args.timeout, buf)
            if m is None or m.group(0).startswith(b"ERR"):
                print("bringup:", m.group(0).decode().strip() if m else "no block")
                return 1
            count = int(m.group(2))
            buf = read_exact(link, m.end() + count, args.timeout, buf)
            block = buf[m.end():m.end() + count]
            buf = buf[m.end() + count:]
            end, buf = read_until(link, re.compile(rb"\r\nEND us=(\d+) health=(\w+)\r\n"), args.timeout, buf)
            if len(block) != count or end is None or end.start() != 0:
                err = re.search(rb"\r\nERR [^\r\n]*", block + buf)
                print("bringup: block %d incomplete or framing lost%s" % (
                    samples // max(count, 1), ": " + err.group(0).decode().strip() if err else ""))
                return 1
            buf = buf[end.end():]
            keep = min(count, args.bytes - samples)
            out.write(block[:keep])
            samples += keep
            micros += int(end.group(1))
            healthy = healthy and end.group(2) == b"ok"
    link.close()
    rate = samples / (micros / 1e6) if micros else 0.0
    print("bringup: %d raw samples -> %s; TRNG raw rate %.0f samples/s (%.1f us/sample); "
          "health tests %s" % (samples, args.out, rate, micros / samples, "passed" if healthy else "FAILED"))
    return 0 if healthy else 1


def main():
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("what", choices=["suites", "dealer", "trng"])
    p.add_argument("board")
    p.add_argument("--build")
    p.add_argument("--port")
    p.add_argument("--timeout", type=int, default=300)
    p.add_argument("--only")
    p.add_argument("--bytes", type=int, default=4 << 20)
    p.add_argument("--out", default="trng-raw.bin")
    p.add_argument("--qemu", metavar="MACHINE")
    args = p.parse_args()
    args.build = os.path.abspath(args.build or os.path.join(HERE, "..", "build", args.board))
    if args.qemu:
        link = QemuLink(args.qemu)
    else:
        link = SerialLink(args.port or find_port(args.board))
    try:
        return {"suites": cmd_suites, "dealer": cmd_dealer, "trng": cmd_trng}[args.what](args, link)
    finally:
        link.close()


if __name__ == "__main__":
    sys.exit(main())
