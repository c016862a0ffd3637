#!/usr/bin/env python3
"""bench/report/function_colours.py - the colour of a kernel function in the
per-function plots (profile-kill), by its name: the same in every run and
on every kernel, whatever its rank, and from hues that none of the kernels'
colours (bench/report/gnuplot/palette.gp: stock and commoncap grey, naive orange,
cached blue, percred green) uses.

Usage: bench/report/function_colours.py FUNCTION...
Prints one #rrggbb a line, FUNCTION's, in the order given. "other", the
rest of a check, is white.
"""
import sys
import zlib

# The functions of a capability check that the profiles show.
KNOWN = {
    "security_capable": "#9467bd",
    "cap_capable": "#8c564b",
    "ns_capable_common": "#c49c94",
    "capable": "#f7b6d2",
    "apparmor_capable": "#d62728",
    "bpf_lsm_capable": "#17becf",
    "groups_search": "#bcbd22",
    "__x86_indirect_thunk_array": "#dbdb8d",
    "__x86_return_thunk": "#9edae5",
    "usercaps_cred_capable": "#e377c2",
    "usercaps_naive_capable": "#7b4173",
    "usercaps_policy_get": "#393b79",
    "usercaps_cred_granted": "#ce6dbd",
    "usercaps_cred_eligible": "#a55194",
    "usercaps_percred_refill": "#843c39",
    "usercaps_entry_grants": "#5254a3",
    "other": "#ffffff",
}
# Any other function: one of these by a checksum of its name (two such
# functions may share one).
HASHED = ["#6b6ecf", "#9c9ede", "#637939", "#8c6d31", "#bd9e39", "#ad494a",
          "#d6616b", "#e7969c", "#de9ed6", "#c5b0d5", "#17a2a2", "#5e3c99"]


def colour(function):
    """FUNCTION's colour, #rrggbb."""
    if function in KNOWN:
        return KNOWN[function]
    return HASHED[zlib.crc32(function.encode()) % len(HASHED)]


def main(argv):
    if not argv:
        print("bench/report/function_colours.py: no function named (see --help)", file=sys.stderr)
        return 1
    if argv[0] in ("-h", "--help"):
        print(__doc__.strip())
        return 0
    for function in argv:
        print(colour(function))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
