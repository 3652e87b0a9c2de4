#!/bin/sh
# fairdeal-tool update over a pipe to the host dealer (docs/PROTOCOL.md
# UPDATE): the tool waits for the banner, switches to machine mode, sends
# UPDATE BEGIN and reports the dealer's refusal (the host dealer was not
# started by a bootloader: nothing to update) with exit status 1; the dealer
# answers every UPDATE form with one ERR line and keeps serving; a release
# build runs UPDATE only inside an authenticated link session (docs/LINK.md). The QEMU boards' <b>.update runs
# the whole sequence.
# usage: update_pipe.sh DEALER DEALER_RELEASE FAIRDEAL_TOOL
set -u
dealer=$1
release=$2
tool=$3
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
status=0
fail() { echo "FAIL $*"; status=1; }

# a signed image for the tool to send (any key: the dealer refuses before it looks)
head -c 3000 /dev/urandom >"$work/body.bin"
"$tool" lms-keygen --key "$work/k.state" --pub "$work/k.pub" >/dev/null &&
  "$tool" image-sign --key "$work/k.state" --pub "$work/k.pub" --in "$work/body.bin" --version 7 --load 0x4200 \
    --out "$work/image.bin" >/dev/null || { echo "FAIL cannot sign"; exit 1; }

mkfifo "$work/to" "$work/from"
timeout 60 "$dealer" <"$work/to" >"$work/from" &
dpid=$!
timeout 60 "$tool" update --image "$work/image.bin" >"$work/to" <"$work/from" 2>"$work/tool.err"
rc=$?
wait "$dpid"
if [ $rc -ne 1 ] ||
  ! grep -qx "fairdeal-tool: update: refused: ERR state this image was not started by a bootloader: nothing to update" \
    "$work/tool.err"; then
  fail "tool over the pipe: exit $rc"; cat "$work/tool.err"
else
  echo "ok   fairdeal-tool update over a pipe: the host dealer's refusal reported, exit 1"
fi

# the tool without an image, or with a file that is no signed image: usage errors (exit 2)
"$tool" update </dev/null >/dev/null 2>&1
[ $? -eq 2 ] || fail "update without --image: not a usage error"
"$tool" update --image "$work/body.bin" </dev/null >/dev/null 2>&1
[ $? -eq 2 ] || fail "update of a file that is no image: not a usage error"

# every UPDATE form: one ERR line each, and the dealer still answers
printf 'UPDATE\nUPDATE BEGIN\nUPDATE FOO 1\nUPDATE DATA 0\nUPDATE BEGIN 4096\nUPDATE DATA 0 00112233\nUPDATE END\nSTATUS\nQUIT\n' |
  timeout 60 "$dealer" | tr -d '\r' | grep -E '^(OK|ERR) ' >"$work/replies"
cat >"$work/want" <<'W'
ERR syntax usage: UPDATE BEGIN <bytes>|DATA <offset> <hex>|END
ERR syntax usage: UPDATE BEGIN <bytes>|DATA <offset> <hex>|END
ERR syntax usage: UPDATE BEGIN <bytes>|DATA <offset> <hex>|END
ERR syntax usage: UPDATE BEGIN <bytes>|DATA <offset> <hex>|END
ERR state this image was not started by a bootloader: nothing to update
ERR state this image was not started by a bootloader: nothing to update
ERR state this image was not started by a bootloader: nothing to update
W
head -7 "$work/replies" | diff "$work/want" - >"$work/diff" || { fail "UPDATE replies"; cat "$work/diff"; }
sed -n 8p "$work/replies" | grep -q '^OK STATUS' && sed -n 9p "$work/replies" | grep -q '^OK BYE' ||
  fail "the dealer stopped answering after UPDATE"
[ "$status" -eq 0 ] && echo "ok   UPDATE forms refused one ERR line each, the dealer answers on"

printf 'UPDATE END\nQUIT\n' | timeout 60 "$release" 2>/dev/null | tr -d '\r' >"$work/release"
grep -q "^ERR link outside an authenticated link session" "$work/release" &&
  echo "ok   a release build refuses UPDATE outside an authenticated link session" || { fail "release build"; cat "$work/release"; }
exit $status
