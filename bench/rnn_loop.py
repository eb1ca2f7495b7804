"""Recurrent ops at static shapes: the scf.for over the steps (nn-to-linalg's
default) against the unrolled lowering (nn-to-linalg{unroll-rnn=true}), both
lowered by strata-opt from one nn file and run by strata-run through the CPU
pipeline in the same run, alternating, uncached.

Usage: /usr/bin/python3 bench/rnn_loop.py [--rounds N] [--repeat N]
(strata-opt and strata-run from build/tools). Prints per case the compile
time and the median run time of each form and the ratios loop / unrolled."""
import argparse
import os
import re
import statistics
import subprocess
import tempfile

# (cell, T, N, I, H, directions)
CASES = [("lstm", 64, 8, 64, 128, 1), ("gru", 32, 4, 32, 64, 2), ("gru", 16, 1, 16, 16, 1),
         ("lstm", 4, 3, 5, 3, 2), ("rnn", 4, 3, 5, 3, 1)]
GATES = {"rnn": 1, "gru": 3, "lstm": 4}


def function(name, cell, T, N, I, H, D):
    g, nres = GATES[cell], 3 if cell == "lstm" else 2
    res = ["tensor<%dx%dx%dx%dxf32>" % (T, D, N, H)] + ["tensor<%dx%dx%dxf32>" % (D, N, H)] * (nres - 1)
    args = ["tensor<%dx%dx%dxf32>" % (T, N, I), "tensor<%dx%dx%dxf32>" % (D, g * H, I),
            "tensor<%dx%dx%dxf32>" % (D, g * H, H), "tensor<%dx%dxf32>" % (D, 2 * g * H)]
    seg = "1, 1, 1, 1, 0, 0" + (", 0, 0" if cell == "lstm" else "")
    return "\n".join([
        "func.func @%s(%s) -> (%s) {" % (name, ", ".join("%%a%d: %s" % (i, t) for i, t in enumerate(args)), ", ".join(res)),
        '  %%y:%d = "nn.%s"(%%a0, %%a1, %%a2, %%a3) {direction = "%s", operandSegmentSizes = array<i32: %s>} : (%s) -> (%s)'
        % (nres, cell, "bidirectional" if D == 2 else "forward", seg, ", ".join(args), ", ".join(res)),
        "  return %s : %s" % (", ".join("%%y#%d" % i for i in range(nres)), ", ".join(res)), "}"])


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--rounds", type=int, default=2)
    ap.add_argument("--repeat", type=int, default=30)
    a = ap.parse_args()
    tools = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "build", "tools")
    env = dict(os.environ, STRATA_CACHE_DIR="")
    with tempfile.TemporaryDirectory() as work:
        names = ["%s_T%d_N%d_I%d_H%d_D%d" % c for c in CASES]
        src = os.path.join(work, "rnn.mlir")
        open(src, "w").write("\n".join(function(n, *c) for n, c in zip(names, CASES)) + "\n")
        files = {}
        for form, unroll in (("loop", "false"), ("unrolled", "true")):
            files[form] = os.path.join(work, form + ".mlir")
            subprocess.run([os.path.join(tools, "strata-opt"), src, "-o", files[form],
                            "--pass-pipeline=builtin.module(func.func(nn-to-linalg{unroll-rnn=%s}))" % unroll], check=True)
        print("%-28s %12s %12s %12s %12s %8s %8s" % ("case", "loop comp", "unroll comp", "loop run", "unroll run",
                                                    "comp x", "run x"))
        for n in names:
            t = {f: ([], []) for f in files}
            for _ in range(a.rounds):
                for form in ("loop", "unrolled"):
                    out = subprocess.run([os.path.join(tools, "strata-run"), files[form], "--entry", n, "--repeat",
                                          str(a.repeat)], capture_output=True, text=True, env=env, check=True).stdout
                    t[form][0].append(float(re.search(r"compiled '[^']*' in ([0-9.]+) ms", out).group(1)))
                    t[form][1].append(float(re.search(r"median ([0-9.]+) ms", out).group(1)))
            m = {f: (statistics.median(c), statistics.median(r)) for f, (c, r) in t.items()}
            print("%-28s %10.1fms %10.1fms %10.4fms %10.4fms %7.3fx %7.3fx" % (
                n, m["loop"][0], m["unrolled"][0], m["loop"][1], m["unrolled"][1], m["loop"][0] / m["unrolled"][0],
                m["loop"][1] / m["unrolled"][1]))


if __name__ == "__main__":
    main()
