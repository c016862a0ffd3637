#!/bin/bash
# The usercaps suite (tests/guest/usercaps_test.c) in a guest booted with
# usercaps.mode=percred.
set -eu
. "$(dirname "$0")/guest-lib.sh"
run_usercaps_suite percred
