"""Checks bench/decoding.py's tc_executable() without tc or a model
(test/bench/decoding-executable.test): a --model compiled in bf16 (the main
job's choice on a CPU with bf16 instructions) is compiled again in f32,
since every tc row is a --compute-type of an f32 executable (a bf16 one
was reported as the f32 row); an f32 one with an incremental decoder is
taken as it is."""

import os
import stat
import sys
import tempfile
import types

sys.path.insert(0, sys.argv[1])
import decoding  # noqa: E402

work = tempfile.mkdtemp()
build = os.path.join(work, "build")
os.makedirs(os.path.join(build, "bin"))


def script(name, text):
    path = os.path.join(build, "bin", name)
    with open(path, "w") as f:
        f.write("#!/bin/sh\n" + text)
    os.chmod(path, os.stat(path).st_mode | stat.S_IEXEC)


# tc-inspect prints the precision named in the file; tc-compile writes its
# --precision flag into the executable and logs its arguments.
script("tc-inspect", 'echo "$1: tc executable"; cat "$1"; '
                     'echo "functions: 2"; echo "  train_step_8x16x16"; echo "  decode_step_8"\n')
script("tc-compile", 'echo "$@" >> "$(dirname "$0")/compiled"; out=""; p=f32\n'
                     'while [ $# -gt 0 ]; do case "$1" in -o) out="$2"; shift;; '
                     '--precision=*) p="${1#--precision=}";; esac; shift; done\n'
                     'echo "precision: $p - GEMMs" > "$out"\n')
with open(os.path.join(work, "train.tok"), "w") as f:
    f.write("tokens")
for precision in ("bf16", "f32"):
    model = os.path.join(work, precision + ".tcx")
    with open(model, "w") as f:
        f.write(f"precision: {precision} - GEMMs\n")
    args = types.SimpleNamespace(build=build, model=model, train_tokens=os.path.join(work, "train.tok"),
                                 description="models/bible_en_es.toml", work=os.path.join(work, "w" + precision))
    os.makedirs(args.work)
    chosen = decoding.tc_executable(args)
    with open(chosen) as f:
        print(f"--model in {precision}: runs {'--model' if chosen == model else 'a new one'},",
              f.read().split(" - ")[0])
compiled = os.path.join(build, "bin", "compiled")
print("compiled:", open(compiled).read().strip().replace(work, "W") if os.path.exists(compiled) else "nothing")
