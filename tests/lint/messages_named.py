"""Every message gpuplan prints on stderr starts "gpuplan <command>:" (issue
#39): each line of each golden case's expected stderr (tests/golden/*/stderr)
starts with the command its args run ("gpuplan import <format>:" for
import's own usage errors), or is the usage hint "try 'gpuplan <command>
--help'" that follows a usage error.  A case whose first argument is no
command (an unknown command, the overview) is left out: it prints the help.

usage: messages_named.py GOLDEN_DIR
"""
import os
import sys

COMMANDS = ("simulate", "recommend", "forecast", "classify", "validate",
            "import")


def line_ok(cmd, args, line):
    if line.startswith("gpuplan %s: " % cmd) or \
            line == "try 'gpuplan %s --help'" % cmd:
        return True
    # import's own usage errors name the format: "gpuplan import dcgm: "
    return cmd == "import" and len(args) > 1 and \
        line.startswith("gpuplan import %s: " % args[1])


def main(golden):
    bad = 0
    for case in sorted(os.listdir(golden)):
        d = os.path.join(golden, case)
        if not os.path.exists(os.path.join(d, "args")):
            continue
        args = open(os.path.join(d, "args")).read().split("\n")
        if args[0] not in COMMANDS:
            continue
        with open(os.path.join(d, "stderr"), encoding="utf-8",
                  errors="replace") as f:
            for n, line in enumerate(f.read().splitlines(), 1):
                if not line_ok(args[0], args, line):
                    print("%s/stderr:%d: does not start 'gpuplan %s:': %s"
                          % (case, n, args[0], line[:100]))
                    bad += 1
    print("messages_named: %d lines not named" % bad)
    return 1 if bad else 0


sys.exit(main(sys.argv[1]))
