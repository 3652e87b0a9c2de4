#!/usr/bin/python3
"""A release build cannot compile in the open cleartext console
(docs/LINK.md "Roles"): firmware/link_console.h stops the compilation when
FD_DEALER_RELEASE and FD_CLEARTEXT_CONSOLE are both defined. Compiles
firmware/link_console.c with the build tree's own command
(compile_commands.json) three ways: release + cleartext must fail with the
guard's message; release alone and cleartext alone must compile (so the
failure is the guard's, not a broken command).
usage: check_cleartext_guard.py BUILD_DIR"""
import json
import os
import shlex
import subprocess
import sys


def main():
    build = sys.argv[1]
    with open(os.path.join(build, "compile_commands.json")) as f:
        entries = [e for e in json.load(f) if e["file"].endswith("firmware/link_console.c")]
    if not entries:
        print("FAIL: no compile command for firmware/link_console.c in " + build)
        return 1
    e = entries[0]
    args = shlex.split(e["command"]) if "command" in e else list(e["arguments"])
    if "-o" in args:
        i = args.index("-o")
        del args[i:i + 2]
    args = [a for a in args if not a.startswith("-DFD_DEALER_RELEASE") and not a.startswith("-DFD_CLEARTEXT")]

    def compile_with(*defs):
        r = subprocess.run(args + ["-fsyntax-only"] + list(defs), cwd=e["directory"], capture_output=True, text=True)
        return r.returncode, r.stderr

    rc, err = compile_with("-DFD_DEALER_RELEASE=1", "-DFD_CLEARTEXT_CONSOLE=1")
    ok = rc != 0 and "the open cleartext console is for development builds" in err
    rc_release, err_release = compile_with("-DFD_DEALER_RELEASE=1")
    rc_dev, err_dev = compile_with("-DFD_CLEARTEXT_CONSOLE=1")
    if ok and rc_release == 0 and rc_dev == 0:
        print("ok   a release build with the cleartext console does not compile; release alone and development "
              "alone do")
        return 0
    print("FAIL: release+cleartext rc=%d %s\nrelease rc=%d %s\ndevelopment rc=%d %s" %
          (rc, err, rc_release, err_release, rc_dev, err_dev))
    return 1


sys.exit(main())
