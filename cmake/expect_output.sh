#!/bin/sh
# A test that must both exit 0 and print a line matching PATTERN (CTest's PASS_REGULAR_EXPRESSION
# alone ignores the exit status): expect_output.sh PATTERN COMMAND [ARG...]
pattern=$1
shift
out=$("$@" 2>&1)
status=$?
printf '%s\n' "$out"
if [ "$status" -ne 0 ]; then
  echo "expect_output: exit status $status (0 required)"
  exit 1
fi
if ! printf '%s\n' "$out" | grep -Eq -- "$pattern"; then
  echo "expect_output: no line matches '$pattern'"
  exit 1
fi
