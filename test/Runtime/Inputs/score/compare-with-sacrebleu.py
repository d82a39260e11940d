#!/usr/bin/env python3
"""Runs the real sacreBLEU and `tc-run score` on the same files and fails
unless their BLEU and chrF agree within 0.01, with the same signatures (but
the version, which tc marks "+tc") and the same BLEU details (precisions,
BP, ratio, lengths) and text lines.

sacreBLEU runs as its command line does (`python -m sacrebleu REF... -i HYP
-m bleu chrf`) from the virtual environment that scripts/test-venv.sh
makes (the build tree's test-venv/); this script itself needs only the
standard library.

    compare-with-sacrebleu.py --sacrebleu-python BUILD/test-venv/bin/python3
                              --tc-run tc-run --work DIR
"""

import argparse
import json
import os
import shutil
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
TOLERANCE = 0.01

# (case, hypothesis, references); names are files beside this script, or
# files that write_generated_inputs makes in the work directory.
CASES = [
    ("spanish", "es.hyp", ["es.ref"]),
    ("spanish, 2 references", "es.hyp", ["es.ref", "es.ref2"]),
    ("spanish, hyp = ref", "es.ref", ["es.ref"]),
    ("one-line corpus", "one-line.hyp", ["one-line.ref"]),
    ("empty hypothesis, 12 lines", "empty.hyp", ["es.ref"]),
    ("numbers, quotes, entities", "numbers.hyp", ["numbers.ref"]),
    ("hypothesis much shorter", "short.hyp", ["short.ref"]),
    ("whitespace, CRLF, no final \\n", "whitespace.hyp", ["whitespace.ref"]),
]


def write_generated_inputs(work):
    """Inputs whose bytes matter (CRLF, a lone CR, no final newline,
    Unicode spaces) are written here rather than kept in git, where an
    editor or a checkout setting could change them."""
    hyp = ("El  Señor\tes mi pastor;\u00a0nada me falta.  \r\n"
           "¿Quién\u3000subirá al monte?\r\n"
           "a\rb c\r\n"
           "   espacios   al principio y al final \u2003 \r\n"
           "sin salto de línea final")
    ref = ("El Señor es mi pastor; nada me faltará.\r\n"
           "¿Quién subirá al monte del Señor?\n"
           "a\rb c d\n"
           "espacios al principio y al final\n"
           "sin salto de línea al final\n")
    for name, text in (("whitespace.hyp", hyp), ("whitespace.ref", ref)):
        with open(os.path.join(work, name), "wb") as f:
            f.write(text.encode("utf-8"))


def locate(name, work):
    path = os.path.join(HERE, name)
    return path if os.path.exists(path) else os.path.join(work, name)


def run(command, stdin=None):
    result = subprocess.run(command, capture_output=True, stdin=stdin)
    if result.returncode != 0:
        sys.exit(f"error: {' '.join(command)} exited {result.returncode}:\n"
                 f"{result.stderr.decode(errors='replace')}")
    return result.stdout.decode("utf-8")


def check_venv(python):
    venv = os.path.dirname(os.path.dirname(python))
    build = (os.path.dirname(venv) if os.path.basename(venv) == "test-venv"
             else "BUILD_DIR")
    fix = (f"run scripts/test-venv.sh {build} (it needs Debian's "
           f"python3-venv and PyPI) to install the pinned sacreBLEU")
    if not os.path.exists(python):
        sys.exit(f"error: no sacreBLEU to compare with: {venv} is missing; "
                 f"{fix}")
    probe = subprocess.run([python, "-c", "import sacrebleu"],
                           capture_output=True)
    if probe.returncode != 0:
        sys.exit(f"error: {python} cannot import sacrebleu; {fix}")


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--sacrebleu-python", required=True)
    parser.add_argument("--tc-run", required=True)
    parser.add_argument("--work", required=True)
    args = parser.parse_args()
    check_venv(args.sacrebleu_python)
    # The executable file on PATH (a directory named tc-run on PATH made
    # subprocess fail with "Permission denied").
    args.tc_run = shutil.which(args.tc_run) or args.tc_run
    os.makedirs(args.work, exist_ok=True)
    write_generated_inputs(args.work)

    failures = []
    largest = 0.0
    rows = []
    version = None
    for case, hyp_name, ref_names in CASES:
        hyp = locate(hyp_name, args.work)
        refs = [locate(r, args.work) for r in ref_names]
        sacre_command = [args.sacrebleu_python, "-m", "sacrebleu", *refs,
                         "-i", hyp, "-m", "bleu", "chrf"]
        sacre = json.loads(run(sacre_command + ["-f", "json", "-w", "10"]))
        tc_command = [args.tc_run, "score", hyp]
        for ref in refs:
            tc_command += ["--reference", ref]
        tc = json.loads(run(tc_command + ["--json"]))
        version = sacre[0]["version"]

        row = [case]
        for s, t in zip(sacre, tc):
            name = s["name"]
            if t["name"] != name:
                failures.append(f"{case}: tc's {t['name']} for {name}")
            diff = abs(s["score"] - t["score"])
            largest = max(largest, diff)
            if diff > TOLERANCE:
                failures.append(f"{case}: {name} {t['score']} but sacreBLEU "
                                f"{s['score']}")
            expected = s["signature"].replace(
                f"version:{s['version']}", f"version:{s['version']}+tc")
            if t["signature"] != expected:
                failures.append(f"{case}: {name} signature {t['signature']} "
                                f"but sacreBLEU's with +tc is {expected}")
            if s.get("verbose_score") != t.get("verbose_score"):
                failures.append(f"{case}: {name} details "
                                f"{t.get('verbose_score')!r} but sacreBLEU "
                                f"{s.get('verbose_score')!r}")
            row += [s["score"], t["score"]]
        rows.append(row)

        # The text lines, 2 decimals, are sacreBLEU's but for "+tc".
        sacre_text = run(sacre_command + ["-f", "text", "-w", "2"])
        tc_text = run(tc_command)
        expected_text = sacre_text.replace(f"version:{version} ",
                                           f"version:{version}+tc ")
        if tc_text != expected_text:
            failures.append(f"{case}: tc-run printed\n{tc_text}sacreBLEU "
                            f"(with +tc)\n{expected_text}")
        # A hypothesis from standard input scores the same.
        if case == "spanish":
            with open(hyp, "rb") as stdin:
                piped = run([args.tc_run, "score", "-"] + tc_command[3:],
                            stdin=stdin)
            if piped != tc_text:
                failures.append(f"{case}: standard input scored differently:"
                                f"\n{piped}")

    print(f"{'case':32} {'sacreBLEU BLEU':>14} {'tc BLEU':>10} "
          f"{'sacreBLEU chrF2':>15} {'tc chrF2':>10}")
    for case, sb, tb, sc, tcf in rows:
        print(f"{case:32} {sb:14.4f} {tb:10.4f} {sc:15.4f} {tcf:10.4f}")
    for failure in failures:
        print(f"FAIL: {failure}")
    if failures:
        return 1
    print(f"{len(CASES)} cases: BLEU and chrF agree with sacreBLEU {version} "
          f"within {TOLERANCE} (largest difference {largest:.1e})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
