"""Checks two pieces of bench/decoding.py without CTranslate2 or a model
(test/bench/decoding-peer-settings.test):

- vocabulary_model() takes the SentencePiece bytes from after a token
  file's header: 64 bytes in version 4, 40 in version 3, 32 before
  (runtime/format/TokenFile.h); it read version 4's from byte 40.
- peer_rows() in a later round passes CTranslate2 the latency's
  intra_threads the first round chose (--latency-intra), so that every
  round's latency runs join one row (rows merge by their settings)."""

import os
import sys
import tempfile
import types

sys.path.insert(0, sys.argv[1])
import decoding  # noqa: E402

work = tempfile.mkdtemp()
vocabulary = bytes(range(200)) * 3
for version, header_bytes in [(4, 64), (3, 40), (2, 32)]:
    path = os.path.join(work, f"v{version}.tok")
    header = (b"TCTOKENS" + version.to_bytes(4, "little") + bytes(12) +
              len(vocabulary).to_bytes(8, "little"))
    with open(path, "wb") as f:
        f.write(header.ljust(header_bytes, b"\xee") + vocabulary + bytes(64))
    with open(decoding.vocabulary_model(path, os.path.join(work, f"w{version}")), "rb") as f:
        got = f.read()
    print(f"version {version}:", "the vocabulary" if got == vocabulary else "other bytes")

calls = []


def fake_child(args, script, output, *extra):
    calls.append(list(extra))
    # The first round's pass chose 1 thread; a later one is told it.
    intra = int(extra[extra.index("--latency-intra") + 1]) if "--latency-intra" in extra else 1
    return {"best": {"batch": 32, "intra_threads": 1, "inter_threads": 2},
            "latency_intra_threads": intra, "version": "4.8.5", "seconds": [1.0],
            "loads": [1.0], "check": "ok", "deterministic": True, "sweep": [],
            "latency": [[0.02, 0.03]], "latency_loads": [1.0]}


decoding.child = fake_child
args = types.SimpleNamespace(work=work, beam=4, ct2_compute_types="int8", ct2_batches="32",
                             ct2_splits="1x2", sweep_every=8, latency=2, threads=2)
rows, best = [], None
for round_index in range(2):
    more = decoding.peer_rows(args, {"torch"}, 10, best)
    best = {r["compute"]: r["best"] for r in more if "best" in r}
    rows = decoding.merged(rows, more, round_index)
print("round 2 asked for:", calls[-1][calls[-1].index("--latency-intra"):]
      if "--latency-intra" in calls[-1] else "nothing")
latency = [r for r in rows if "one sentence" in r["decoding"]]
print("latency rows:", len(latency), latency[0]["settings"], "runs", len(latency[0]["seconds"]))
