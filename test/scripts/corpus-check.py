#!/usr/bin/python3
"""Checks a parallel corpus written by scripts/build-corpus.py.

Usage: corpus-check.py OUTDIR

Exits 0 if OUTDIR/{train,valid,test}.{en,es} keep the corpus's invariants, else prints
what is wrong and exits 1. The invariants:
  - each split has lines, as many on both sides, in UTF-8 and Unicode NFC;
  - no line is empty, has spaces at its ends, a tab or control character, a doubled
    space, a space before , ; : . ? !, or more than MAX_LINE characters;
  - no markup left: < > [ ] { } \\ or the pilcrow, and no digit (both translations
    spell their numbers, so a digit is a Strong's number or a verse number);
  - no word with a capital after a small letter (words run together, "enJesús");
  - nothing the source's headings or notes could have left behind: no 4-word ending
    shared by more than 1% of a side's lines, and no first or last sentence repeated
    in more than 0.1% (genuine formulas such as "the LORD spake unto Moses, saying,"
    end 0.25% of the training lines; a heading repeated after each verse ends most);
  - no pair whose lengths differ by more than a factor of 4 (a shifted alignment);
  - the held-out splits do not repeat the training pairs (at most 1% of their lines).
"""

import collections
import os
import re
import sys
import unicodedata

SPLITS = ("train", "valid", "test")
MAX_LINE = 1000
MAX_RATIO = 4.0

LINE_RULES = {
    "empty": lambda s: s == "",
    "space at an end": lambda s: s != s.strip(),
    "tab or control character": lambda s: any(unicodedata.category(c)[0] == "C" for c in s),
    "doubled space": lambda s: "  " in s,
    "space before punctuation": lambda s: re.search(r" [,;:.?!]", s) is not None,
    f"longer than {MAX_LINE} characters": lambda s: len(s) > MAX_LINE,
    "markup character": lambda s: re.search(r"[<>\[\]{}\\¶]", s) is not None,
    "digit": lambda s: re.search(r"\d", s) is not None,
    "words run together": lambda s: re.search(r"[^\W\d_A-ZÀ-Þ][A-ZÀ-Þ]", s) is not None,
    "not NFC": lambda s: unicodedata.normalize("NFC", s) != s,
}


def read_lines(path, errors):
    try:
        with open(path, encoding="utf-8", newline="") as f:
            text = f.read()
    except (OSError, UnicodeDecodeError) as e:
        errors.append(f"{path}: {e}")
        return []
    if text and not text.endswith("\n"):
        errors.append(f"{path}: last line has no newline")
    if "\r" in text:
        errors.append(f"{path}: has carriage returns")
    return text.split("\n")[:-1] if text else []


def check_lines(path, lines, errors):
    for rule, broken in LINE_RULES.items():
        bad = [n for n, line in enumerate(lines, 1) if broken(line)]
        if bad:
            errors.append(f"{path}: {len(bad)} lines {rule}, first line {bad[0]}: "
                          f"{lines[bad[0] - 1][:120]!r}")


def check_repeats(path, lines, errors):
    """Text repeated at the ends of many lines, as a leaked heading or note would be."""
    endings = collections.Counter(" ".join(s.split()[-4:]) for s in lines if len(s.split()) >= 4)
    sentences = collections.Counter()
    for line in lines:
        # Whole sentences at either end of a line that holds more than one.
        first = re.match(r"(.+?[.?!]) \S", line)
        last = re.search(r"\S[.?!] ([^.?!]+[.?!])$", line)
        for match in (first, last):
            if match and len(match[1].split()) >= 3:
                sentences[match[1]] += 1
    for counter, share, what in ((endings, 0.01, "ends"), (sentences, 0.001, "starts or ends")):
        for text, n in counter.most_common(3):
            if n >= 10 and n > share * len(lines):
                errors.append(f"{path}: {n} of {len(lines)} lines {what} with {text!r}")


def check_pairs(outdir, split, en, es, errors):
    if len(en) != len(es):
        errors.append(f"{outdir}/{split}: {len(en)} English lines but {len(es)} Spanish ones")
        return
    if not en:
        errors.append(f"{outdir}/{split}: no lines")
    for n, (e, s) in enumerate(zip(en, es), 1):
        if e and s and max(len(e) / len(s), len(s) / len(e)) > MAX_RATIO:
            errors.append(f"{outdir}/{split}.*:{n}: lengths {len(e)} and {len(s)} differ too much: "
                          f"{e[:60]!r} / {s[:60]!r}")


def check_overlap(outdir, pairs, errors):
    train = set(pairs["train"])
    for split in ("valid", "test"):
        shared = sum(1 for p in pairs[split] if p in train)
        if shared > 0.01 * len(pairs[split]):
            errors.append(f"{outdir}/{split}: {shared} of {len(pairs[split])} pairs "
                          "are also in train")


def main():
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    outdir, errors, pairs = sys.argv[1], [], {}
    for split in SPLITS:
        sides = {}
        for side in ("en", "es"):
            path = os.path.join(outdir, f"{split}.{side}")
            sides[side] = read_lines(path, errors)
            check_lines(path, sides[side], errors)
            check_repeats(path, sides[side], errors)
        check_pairs(outdir, split, sides["en"], sides["es"], errors)
        pairs[split] = list(zip(sides["en"], sides["es"]))
    check_overlap(outdir, pairs, errors)
    if errors:
        print("\n".join(f"corpus-check: {e}" for e in errors))
        sys.exit(1)
    print(f"corpus-check: {outdir}: ok, "
          + ", ".join(f"{s} {len(pairs[s])}" for s in SPLITS) + " pairs")


if __name__ == "__main__":
    main()
