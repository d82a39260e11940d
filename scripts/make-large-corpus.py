#!/usr/bin/env python3
"""A parallel corpus of WMT's size made from the demo corpus (issue 34):
pair n is one verse pair of build/corpus/train.{en,es} (two consecutive
ones in 3 of 10), drawn with a seeded generator, both sides tagged with n,
so that every line is distinct and the text is real language. 4.5M pairs
(English-German WMT 2014's count) come to ~0.8 GB a side, ~33 words a
line. For measuring tc-run prepare and train at scale, not for learning.

    scripts/make-large-corpus.py --pairs 4500000 -o build/large
"""
import argparse
import os
import random


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--pairs", type=int, default=4_500_000)
    parser.add_argument("--corpus", default="build/corpus",
                        help="where train.en and train.es are "
                             "(scripts/build-corpus.py writes them)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("-o", required=True, help="directory for train.en "
                        "and train.es")
    args = parser.parse_args()
    sides = []
    for language in ("en", "es"):
        with open(os.path.join(args.corpus, "train." + language),
                  encoding="utf-8") as f:
            sides.append(f.read().splitlines())
    source, target = sides
    assert len(source) == len(target), "the demo corpus is misaligned"
    os.makedirs(args.o, exist_ok=True)
    draw = random.Random(args.seed)
    with open(os.path.join(args.o, "train.en"), "w", encoding="utf-8") as en, \
            open(os.path.join(args.o, "train.es"), "w", encoding="utf-8") as es:
        for n in range(args.pairs):
            i = draw.randrange(len(source) - 1)
            verses = 2 if draw.random() < 0.3 else 1
            tag = f" ({n})"
            en.write(" ".join(source[i:i + verses]) + tag + "\n")
            es.write(" ".join(target[i:i + verses]) + tag + "\n")


if __name__ == "__main__":
    main()
