#!/usr/bin/python3
"""Builds tc's demo parallel corpus: the Bible, English -> Spanish, one verse a line.

Usage: scripts/build-corpus.py [--force] [OUTDIR]      (OUTDIR defaults to build/corpus)

Writes OUTDIR/{train,valid,test}.{en,es}, one verse a line (line n of X.en translates
line n of X.es), and OUTDIR/README.txt: this text from "Sources" on, then the books,
counts, module versions and cleaning counts it prints. Refuses an OUTDIR that holds
other files, unless --force. test/scripts/corpus-check.py checks the result.

Sources (Debian packages diatheke, sword-text-kjv, sword-text-sparv), read through the
SWORD command line reader diatheke:
  English: engKJV2006eb, the King James Version (1769 text),
  Spanish: spaRV1909eb, the Reina-Valera of 1909.

Whole books are held out, so that no chapter of a held-out book is seen in training:
  test:  1 Samuel (OT narrative, ~790 verses) and 1 Corinthians (a Pauline letter, 437).
  valid: Ruth and Esther (OT narrative) and Galatians and Philippians (letters), ~500.
  train: the other 60 books, ~29,000 verses.
None of them has a near-verbatim twin in training. That rules out the synoptic gospels
(Matthew, Mark and Luke share whole passages), 2 Samuel and Kings (retold in Chronicles),
Ezra and Nehemiah (the same lists), Ephesians and Colossians, 2 Peter and Jude: a test
on those measures recall of the twin more than translation. 1 Samuel's one exception is
its last chapter, retold in 1 Chronicles 10 (about a dozen verses).

How the text is cleaned, and why:
  English, from `diatheke -f plain` of the whole Bible:
  - psalm titles: diatheke prints a psalm's title before verse 1 and then again before
    every later verse of its answer, across psalms and books, so the lines between
    verses are ignored, and each psalm's title is asked for with the psalm alone. It is
    put in front of verse 1, as the Spanish has it inside verse 1.
  - paragraph marks (the pilcrow), square brackets (1 John 2:23) and a USFM marker
    the source has for a lost divine-name tag ("the \\nd LORD") are removed.
  Spanish, from `diatheke -f internal` (the module's OSIS markup), rendered here:
  - the plain output of this module shows Strong's numbers ("<G5547>") after some
    words, and it runs words together where the source has no space between a word and
    a translator's addition ("para siempreessu misericordia"). Rendering the markup
    drops the numbers; at each point where two words meet without a space, the space
    is restored unless the joined form is the word (díjo+le = díjole), judged by how
    the text writes the pair elsewhere. The rendering is checked, letter for letter,
    against diatheke's plain output.
  - the acrostic letters of Psalm 119 (ALEPH., BETH, ...), which the English lacks.
  - the capitalised first words of each chapter (EN el principio, DE SIETE años) get
    the case the word has in the rest of the text.
  - the subscriptions after the last verse of the epistles ("Amén. Escrita de Roma..."),
    absent from this KJV.
  Both: Unicode NFC (both modules already are), spaces collapsed and trimmed, none
  before , ; : . ? !
Alignment is by reference (book chapter:verse): the Spanish module is stored in KJV
versification, but in about twenty places its text follows the Hebrew numbering or two
verses are merged, so that the text stands one to five verses away from its slot (Job
39-40, 1 Samuel 24, ...). A verse is kept when both sides are non-empty and two checks
agree that it pairs with its own slot: an alignment of each book by verse lengths (Gale
and Church, 1993) and a comparison of words, through a lexicon learnt from the verses
themselves. Left in: some places where the Spanish moves a clause to the next verse
(perhaps a few dozen pairs, e.g. 1 Samuel 15:24-25, Psalm 137:3-4).

The output does not depend on the machine or the run: the fetches run in parallel, but
their answers are used in a fixed order, and every decision depends on the text alone.
"""

import argparse
import collections
import concurrent.futures
import configparser
import glob
import html
import math
import os
import re
import shutil
import subprocess
import sys
import textwrap
import time
import unicodedata

ENGLISH = ("engKJV2006eb", "sword-text-kjv")
SPANISH = ("spaRV1909eb", "sword-text-sparv")

# Book names as diatheke's English locale writes them, in canonical order.
BOOKS = (
    "Genesis", "Exodus", "Leviticus", "Numbers", "Deuteronomy", "Joshua", "Judges",
    "Ruth", "I Samuel", "II Samuel", "I Kings", "II Kings", "I Chronicles",
    "II Chronicles", "Ezra", "Nehemiah", "Esther", "Job", "Psalms", "Proverbs",
    "Ecclesiastes", "Song of Solomon", "Isaiah", "Jeremiah", "Lamentations", "Ezekiel",
    "Daniel", "Hosea", "Joel", "Amos", "Obadiah", "Jonah", "Micah", "Nahum", "Habakkuk",
    "Zephaniah", "Haggai", "Zechariah", "Malachi",
    "Matthew", "Mark", "Luke", "John", "Acts", "Romans", "I Corinthians",
    "II Corinthians", "Galatians", "Ephesians", "Philippians", "Colossians",
    "I Thessalonians", "II Thessalonians", "I Timothy", "II Timothy", "Titus",
    "Philemon", "Hebrews", "James", "I Peter", "II Peter", "I John", "II John",
    "III John", "Jude", "Revelation of John",
)
SPLITS = {
    "test": ("I Samuel", "I Corinthians"),
    "valid": ("Ruth", "Esther", "Galatians", "Philippians"),
}
OUTPUT_FILES = {f"{s}.{l}" for s in ("train", "valid", "test") for l in ("en", "es")}
OUTPUT_FILES.add("README.txt")

LETTER = r"[^\W\d_]"
VERSE_LINE = re.compile(r"^\s*(.+?) (\d+):(\d+): ?(.*)$")
TAG = re.compile(r"<[^>]*>")
# Markup between two letters: the source has no space there (see joins()).
WORD_BREAK = re.compile(rf"(?<={LETTER})(?:<[^>]*>)+(?={LETTER})")
STRONGS = re.compile(r"<[GH]\d+>")

# The noise looked for in the raw and in the clean text (summary and README.txt).
PATTERNS = {
    "Strong's number <G123>": STRONGS,
    "< or >": re.compile(r"[<>]"),
    "[ ] or { }": re.compile(r"[\[\]{}]"),
    "backslash": re.compile(r"\\"),
    "pilcrow": re.compile("¶"),
    "digit": re.compile(r"\d"),
    "doubled space": re.compile(r"\S  +\S"),
    "space before , ; : . ? !": re.compile(r" [,;:.?!]"),
    "leading/trailing space": re.compile(r"^\s|\s$"),
    "lower+upper in a word": re.compile(r"[a-zà-ÿ][A-ZÀ-Þ]"),
    "all-capital word": re.compile(r"\b[A-ZÀ-Þ]{2,}\b"),
}


def die(message):
    sys.exit(f"build-corpus: error: {message}")


def diatheke(module, fmt, key):
    result = subprocess.run(["diatheke", "-b", module, "-f", fmt, "-l", "en", "-k", key],
                            capture_output=True, text=True, encoding="utf-8", check=False)
    if result.returncode != 0:
        die(f"diatheke -b {module} -k '{key}' failed: {result.stderr.strip()}")
    return result.stdout


def require_sources():
    """Exits naming the Debian package when diatheke or a module is missing."""
    if shutil.which("diatheke") is None:
        die("diatheke not found; install the Debian package 'diatheke'")
    listed = diatheke("system", "plain", "modulelist")
    for module, package in (ENGLISH, SPANISH):
        if not re.search(rf"^{module} : ", listed, re.M):
            die(f"SWORD module {module} not found; install the Debian package '{package}'")


def module_versions():
    """Version= of each module's .conf, where SWORD keeps them."""
    versions = {}
    confs = sorted(glob.glob("/usr/share/sword/mods.d/*.conf"))
    confs += sorted(glob.glob(os.path.expanduser("~/.sword/mods.d/*.conf")))
    for path in confs:
        conf = configparser.ConfigParser(strict=False, interpolation=None)
        try:
            conf.read(path, encoding="utf-8")
        except configparser.Error:
            continue
        for section in conf.sections():
            versions.setdefault(section, conf[section].get("Version", "unknown"))
    return versions


def parse_output(output):
    """{book: {(chapter, verse): (text, heading)}} of a diatheke answer, where heading
    is the line before the verse if that is not a verse, else None."""
    bible, heading = collections.defaultdict(dict), None
    for line in output.splitlines():
        match = VERSE_LINE.match(line)
        if match:
            bible[match[1]][int(match[2]), int(match[3])] = (match[4], heading)
            heading = None
        elif line.strip() and not re.fullmatch(r"\(\w+\)", line.strip()):
            heading = line.strip()
    return bible


def fetch_bible(module, fmt):
    """({book: {(chapter, verse): text}}, {lines between verses}) of the whole Bible."""
    bible = parse_output(diatheke(module, fmt, f"{BOOKS[0]} 1:1-{BOOKS[-1]} 22:21"))
    if set(bible) != set(BOOKS):
        die(f"{module} has the books {sorted(bible)}, expected {sorted(BOOKS)}")
    headings = {h for verses in bible.values() for _, h in verses.values() if h}
    return {b: {key: text for key, (text, _) in bible[b].items()} for b in BOOKS}, headings


def psalm_title(chapter):
    """The English title of a psalm, or None.

    diatheke prints a psalm's title before verse 1, and then again before every later
    verse of its answer, until it prints another title, even across books. Asked for
    one psalm only, the title before verse 1 is that psalm's own.
    """
    psalm = parse_output(diatheke(ENGLISH[0], "plain", f"Psalms {chapter}")).get("Psalms", {})
    if (chapter, 1) not in psalm:
        die(f"diatheke did not return Psalm {chapter}")
    return psalm[chapter, 1][1]


def fetch_all():
    """The raw texts: English plain, psalm titles, Spanish markup, Spanish plain."""
    with concurrent.futures.ThreadPoolExecutor(max_workers=os.cpu_count() or 2) as pool:
        answers = [pool.submit(fetch_bible, *source) for source in
                   ((ENGLISH[0], "plain"), (SPANISH[0], "internal"), (SPANISH[0], "plain"))]
        (english, english_lines), (markup, markup_lines), (plain, plain_lines) = \
            [answer.result() for answer in answers]
        psalms = range(1, max(c for c, _ in english["Psalms"]) + 1)
        titles = {c: t for c, t in zip(psalms, pool.map(psalm_title, psalms)) if t}
    # A line between verses that is not a psalm title would be text left out.
    unknown = sorted((english_lines - set(titles.values())) | markup_lines | plain_lines)
    if unknown:
        die(f"diatheke printed lines outside verses: {unknown[:3]}")
    return english, titles, markup, plain


def normalise_spaces(text):
    text = re.sub(r"\s+", " ", text).strip()
    return re.sub(r" +(?=[,;:.?!])", "", text)


def normalise(text, language, counts):
    text = counts.apply(f"{language}: Unicode NFC applied",
                        lambda t: unicodedata.normalize("NFC", t), text)
    return counts.apply(f"{language}: spaces collapsed or trimmed", normalise_spaces, text)


class Counts(collections.Counter):
    """How many verses each cleaning rule changed."""

    def apply(self, rule, function, text, *args):
        result = function(text, *args)
        if result != text:
            self[rule] += 1
        return result


# --- English ---------------------------------------------------------------------------


def clean_english(bible, titles, counts):
    """{book: {(c, v): text}} from the raw text and the psalm titles."""
    english = {}
    for book, verses in bible.items():
        english[book] = {}
        for (c, v), text in verses.items():
            if book == "Psalms" and v == 1 and c in titles:
                text = counts.apply("English: psalm title put before verse 1",
                                    lambda t: f"{titles[c]} {t}", text)
            text = counts.apply("English: pilcrow removed", lambda t: t.replace("¶", ""), text)
            text = counts.apply("English: square brackets removed",
                                lambda t: re.sub(r"[\[\]]", "", t), text)
            # The source has a USFM marker where it lost a <divineName> (\nd LORD).
            text = counts.apply("English: USFM marker removed",
                                lambda t: re.sub(r"\\[a-z]+\*? ?", "", t), text)
            english[book][c, v] = normalise(text, "English", counts)
    return english


# --- Spanish ---------------------------------------------------------------------------

ENCLITICS = {"me", "te", "se", "nos", "os", "le", "lo", "la", "les", "los", "las"}


class WordBreaks:
    """Decides whether two words that the markup runs together are one word or two.

    The counts come from the rest of the text: `words`, the words that touch no such
    meeting point, and `pairs`, two words written with a space between them.
    """

    def __init__(self, markups):
        self.words, self.pairs = collections.Counter(), collections.Counter()
        for markup in markups:
            text = TAG.sub("", WORD_BREAK.sub("\0", markup))
            self.words.update(re.findall(rf"(?<![\w\0]){LETTER}+(?![\w\0])", text))
            self.pairs.update(
                re.findall(rf"(?<![\w\0])({LETTER}+) (?=({LETTER}+)(?![\w\0]))", text))

    def joins(self, left, right):
        joined, spaced = self.words[left + right] > 0, self.pairs[left, right] > 0
        if joined != spaced:
            return joined
        # Neither (or both) written elsewhere: an object pronoun joins an infinitive, a
        # gerund, an imperative (haced), a verb stressed on its last vowel (invocaréle),
        # or a form never written alone, such as díjo (RV1909 accents the stem when a
        # pronoun follows: díjole, fáltale, aderézala).
        return right.lower() in ENCLITICS and (
            re.search(r"(ar|er|ir|ír|ndo|[aei]d|[áéíó][sn]?)$", left) is not None
            or self.words[left] == 0)

    def render(self, markup, counts):
        def space(match):
            left = re.search(rf"{LETTER}+$", markup[:match.start()])[0]
            right = re.match(rf"{LETTER}+", markup[match.end():])[0]
            if self.joins(left, right):
                counts["Spanish: words meeting in the markup kept as one word"] += 1
                return ""
            counts["Spanish: words meeting in the markup given a space"] += 1
            return " "

        return html.unescape(TAG.sub("", WORD_BREAK.sub(space, markup)))


def check_rendering(book, key, rendered, plain):
    """Our rendering has the letters of diatheke's plain one, less Strong's numbers."""
    def letters(text):
        return re.sub(r"[\W\d_]", "", STRONGS.sub("", text))

    if letters(rendered) != letters(plain):
        die(f"Spanish {book} {key[0]}:{key[1]}: the markup renders as\n  {rendered}\n"
            f"but diatheke -f plain gives\n  {plain}")


def strip_acrostic(text, book, key):
    """Psalm 119 starts each stanza of eight verses with a Hebrew letter's name."""
    if book == "Psalms" and key[0] == 119 and key[1] % 8 == 1:
        return re.sub(r"^[A-Z]+\.? ", "", text)
    return text


def strip_subscription(text, english_text):
    """The epistles' last verse: text after "Amén." that the English lacks."""
    if english_text.endswith("Amen."):
        return re.sub(r"^(.*Amén\.) .*$", r"\1", text)
    return text


CAPITALS = r"\b[A-ZÁÉÍÓÚÑÜ]{2,}(?: [A-ZÁÉÍÓÚÑÜ]{2,})*\b"


class Truecaser:
    """A chapter's first words are in capitals (EN el principio, Y ACONTECIÓ, DE SIETE
    años); so is Luke 1:5, where the narrative starts. Each such word gets the form it
    has most often in the rest of the text, capitalised where it starts a sentence."""

    def __init__(self, texts):
        self.forms = collections.Counter(w for t in texts for w in re.findall(rf"{LETTER}+", t))

    def __call__(self, text, verse):
        if verse == 1:
            match = re.search(f"({CAPITALS})", text)
        else:
            match = re.match(rf"\W*({CAPITALS})(?= [a-záéíóúñ])", text)
        if match is None:
            return text
        # The commonest form; on a tie the first listed.
        words = [max((w.lower(), w.capitalize(), w), key=self.forms.__getitem__)
                 for w in match[1].split()]
        if not re.search(rf"{LETTER}[^.?!]*$", text[:match.start(1)]):
            words[0] = words[0][0].upper() + words[0][1:]  # it starts a sentence
        return text[:match.start(1)] + " ".join(words) + text[match.end(1):]


def clean_spanish(markup, plain, english, counts):
    """{book: {(c, v): text}} from the markup, checked against the plain text."""
    breaks = WordBreaks(m for verses in markup.values() for m in verses.values())
    spanish = {}
    for book, verses in markup.items():
        spanish[book] = {}
        for key, text in verses.items():
            text = breaks.render(text, counts)
            check_rendering(book, key, text, plain[book].get(key, ""))
            counts["Spanish: verses whose Strong's numbers (plain output) were left out"] += \
                bool(STRONGS.search(plain[book].get(key, "")))
            text = normalise(text, "Spanish", counts)
            spanish[book][key] = counts.apply("Spanish: Psalm 119 acrostic letter removed",
                                              strip_acrostic, text, book, key)
        last = max(spanish[book])
        spanish[book][last] = counts.apply("Spanish: epistle subscription removed",
                                           strip_subscription, spanish[book][last],
                                           english[book].get(last, ""))
    truecase = Truecaser(t for verses in spanish.values() for k, t in verses.items() if k[1] != 1)
    for verses in spanish.values():
        for key in verses:
            verses[key] = counts.apply("Spanish: capitalised first words of a chapter recased",
                                       truecase, verses[key], key[1])
    return spanish


# --- Alignment -------------------------------------------------------------------------
#
# Where the Spanish text stands a few verses away from its KJV slot, two checks see it:
# the lengths (a verse that holds two, next to an empty one) and the words (a run of
# poetry whose lengths look alike, such as Job 40). A verse is kept if both agree that
# it pairs with its own slot.

# Gale and Church's priors of the ways verses pair up: (English verses, Spanish verses).
BEADS = {(1, 1): 0.89, (1, 0): 0.005, (0, 1): 0.005, (2, 1): 0.045, (1, 2): 0.045,
         (2, 2): 0.011}
BAND = 8  # no shift is farther than this many verses from the diagonal
VARIANCE = 6.8


def length_pairs(xs, ys, ratio):
    """Indices i where the likeliest alignment of lengths xs, ys (characters) pairs
    xs[i] with ys[i] alone."""
    n = len(xs)
    xsum, ysum = [0], [0]
    for x, y in zip(xs, ys):
        xsum.append(xsum[-1] + x)
        ysum.append(ysum[-1] + y)
    beads = [(di, dj, -math.log(prior)) for (di, dj), prior in BEADS.items()]
    best = {(0, 0): (0.0, None)}
    for i in range(n + 1):
        for j in range(max(0, i - BAND), min(n, i + BAND) + 1):
            if (i, j) not in best:
                continue
            cost = best[i, j][0]
            for di, dj, bead in beads:
                end = (i + di, j + dj)
                if end[0] > n or end[1] > n or abs(end[0] - end[1]) > BAND:
                    continue
                x, y = xsum[end[0]] - xsum[i], ysum[end[1]] - ysum[j]
                # -log P(y | x): Gale and Church's normal model of the length ratio
                delta = (y - x * ratio) / math.sqrt(max(1.0, (x + y / ratio) / 2) * VARIANCE)
                total = cost + bead - math.log(max(math.erfc(abs(delta) / math.sqrt(2)), 1e-300))
                if end not in best or total < best[end][0]:
                    best[end] = (total, (di, dj))
    kept, (i, j) = set(), (n, n)
    while (i, j) != (0, 0):
        di, dj = best[i, j][1]
        i, j = i - di, j - dj
        if (di, dj) == (1, 1) and i == j:
            kept.add(i)
    return kept


def word_set(text):
    return {w.lower() for w in re.findall(rf"{LETTER}{{3,}}", text)}


def lexicon(verse_pairs):
    """English word -> the Spanish words that often share its verses (in 2 or more, with
    a Dice coefficient of 0.25 or more).

    Only words of 3 to 400 verses count: rarer ones say little, commoner ones are
    function words that match anywhere.
    """
    english, spanish = collections.Counter(), collections.Counter()
    for e, s in verse_pairs:
        english.update(e)
        spanish.update(s)
    together = collections.Counter()
    for e, s in verse_pairs:
        useful = [u for u in s if 3 <= spanish[u] <= 400]
        together.update((w, u) for w in e if 3 <= english[w] <= 400 for u in useful)
    translations = collections.defaultdict(set)
    for (w, u), n in together.items():
        if n >= 2 and 2 * n / (english[w] + spanish[u]) >= 0.25:
            translations[w].add(u)
    return translations


def word_shifted(verse_pairs, translations):
    """Indices i where, over the 5 verses around i, the English words find their
    translations clearly more often in the Spanish verses d slots away (d != 0)."""
    def match(i, j):
        known = [w for w in verse_pairs[i][0] if w in translations]
        found = sum(1 for w in known if translations[w] & verse_pairs[j][1])
        return found / len(known) if known else 0.0

    n, shifted = len(verse_pairs), set()
    own = [match(k, k) for k in range(n)]
    for d in [d for d in range(-BAND, BAND + 1) if d]:
        gain = {k: match(k, k + d) - own[k] for k in range(max(0, -d), min(n, n - d))}
        for i in range(n):
            window = range(max(0, i - 2), min(n, i + 3))
            if all(k in gain for k in window) and sum(gain[k] for k in window) > 1.0:
                shifted.add(i)
    return shifted


def align(english, spanish):
    """{book: [(en, es)]} of the verses that pair with each other; {reason: count}."""
    dropped = collections.Counter()
    keys = {b: sorted(english[b]) for b in BOOKS}
    texts = {b: [(english[b][k], spanish[b].get(k, "")) for k in keys[b]] for b in BOOKS}
    for book in BOOKS:
        dropped["Spanish verse missing"] += len(set(keys[book]) - set(spanish[book]))
        dropped["in Spanish but not in English"] += len(set(spanish[book]) - set(keys[book]))
    both = [p for b in BOOKS for p in texts[b] if p[0] and p[1]]
    ratio = sum(len(s) for _, s in both) / sum(len(e) for e, _ in both)
    words = {b: [(word_set(e), word_set(s)) for e, s in texts[b]] for b in BOOKS}
    translations = lexicon([p for b in BOOKS for p in words[b]])
    pairs = {}
    for book in BOOKS:
        lengths = [[len(t) for t in side] for side in zip(*texts[book])]
        by_length = length_pairs(*lengths, ratio)
        by_words = word_shifted(words[book], translations)
        pairs[book] = []
        for i, (en, es) in enumerate(texts[book]):
            if not en or not es:
                dropped["empty in " + ("English" if not en else "Spanish")] += 1
            elif i not in by_length:
                dropped["lengths pair it with a neighbour (versification differs)"] += 1
            elif i in by_words:
                dropped["words pair it with a neighbour (versification differs)"] += 1
            else:
                pairs[book].append((en, es))
    return pairs, dropped


# --- Output ----------------------------------------------------------------------------


def split_of(book):
    return next((s for s, books in SPLITS.items() if book in books), "train")


def prepare_outdir(outdir, force):
    if os.path.exists(outdir) and not os.path.isdir(outdir):
        die(f"{outdir} exists and is not a directory")
    strangers = sorted(set(os.listdir(outdir)) - OUTPUT_FILES) if os.path.isdir(outdir) else []
    if strangers and not force:
        die(f"{outdir} holds files this script does not write ({', '.join(strangers[:5])}); "
            "use --force to write there anyway")
    os.makedirs(outdir, exist_ok=True)


def write_splits(outdir, pairs):
    """Writes the six text files; returns {split: [(en, es)]}."""
    splits = {"train": [], "valid": [], "test": []}
    for book in BOOKS:
        splits[split_of(book)] += pairs[book]
    for split, lines in splits.items():
        for side, index in (("en", 0), ("es", 1)):
            path = os.path.join(outdir, f"{split}.{side}")
            with open(path, "w", encoding="utf-8", newline="\n") as f:
                f.writelines(pair[index] + "\n" for pair in lines)
    return splits


def pattern_table(raw_texts, clean_texts):
    rows = []
    for side in ("en", "es"):
        for name, pattern in PATTERNS.items():
            before = sum(1 for t in raw_texts[side] if pattern.search(t))
            after = sum(1 for t in clean_texts[side] if pattern.search(t))
            rows.append(f"  {side}  {name:<28} {before:>6} -> {after:>6}")
    return rows


def summary(splits, pairs, dropped, counts, patterns, versions):
    lines = ["Modules (diatheke, SWORD):"]
    for (module, package), language in ((ENGLISH, "English"), (SPANISH, "Spanish")):
        lines.append(f"  {language}: {module} version {versions.get(module, 'unknown')}"
                     f" (Debian package {package})")
    lines.append("")
    for split in ("train", "valid", "test"):
        books = [b for b in BOOKS if split_of(b) == split]
        verses = splits[split]
        words = [sum(len(p[i].split()) for p in verses) for i in (0, 1)]
        longest = [max(len(p[i]) for p in verses) for i in (0, 1)]
        lines.append(f"{split}: {len(verses)} verses, {words[0]} English words, {words[1]} Spanish"
                     f" words; longest line {longest[0]} / {longest[1]} characters")
        if split != "train":
            lines += [f"  {b}: {len(pairs[b])} verses" for b in books]
        else:
            lines += textwrap.wrap(f"{len(books)} books: {', '.join(books)}.",
                                   initial_indent="  ", subsequent_indent="    ")
    lines += ["", "Verses left out:"] + [f"  {n:>5}  {r}" for r, n in sorted(dropped.items()) if n]
    lines += ["", "Cleaning (verses changed; for words meeting in the markup, places):"]
    lines += [f"  {n:>5}  {r}" for r, n in sorted(counts.items())]
    lines += ["", "Verses with each pattern, raw diatheke -f plain -> clean:"] + patterns
    return lines


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("outdir", nargs="?", default="build/corpus")
    parser.add_argument("--force", action="store_true",
                        help="write into OUTDIR even if it holds other files")
    args = parser.parse_args()
    start = time.monotonic()
    require_sources()
    prepare_outdir(args.outdir, args.force)
    raw_english, titles, markup, plain = fetch_all()
    counts = Counts()
    english = clean_english(raw_english, titles, counts)
    spanish = clean_spanish(markup, plain, english, counts)
    pairs, dropped = align(english, spanish)
    splits = write_splits(args.outdir, pairs)
    patterns = pattern_table(
        {"en": [t for v in raw_english.values() for t in v.values()],
         "es": [t for v in plain.values() for t in v.values()]},
        {"en": [t for v in english.values() for t in v.values()],
         "es": [t for v in spanish.values() for t in v.values()]})
    report = summary(splits, pairs, dropped, counts, patterns, module_versions())
    with open(os.path.join(args.outdir, "README.txt"), "w", encoding="utf-8") as f:
        f.write("Demo parallel corpus of tc, English -> Spanish, "
                "written by scripts/build-corpus.py.\n"
                "One verse a line; line n of X.en translates line n of X.es.\n\n"
                + __doc__[__doc__.index("Sources (Debian"):] + "\n" + "\n".join(report) + "\n")
    print("\n".join(report))
    print(f"\nWrote {args.outdir} in {time.monotonic() - start:.1f} s")


if __name__ == "__main__":
    main()
