#!/usr/bin/env python3
"""Fails when a function of the product's C++ is longer than it may be.

A function over 120 lines (from its signature to its closing brace, as
lizard counts them) in compiler/, runtime/, tools/ or support/ has grown
sections that want names of their own; the training loop, `tc::rt::train`,
must read as its named pieces and stays under 80. Generated and test code is
not checked. lizard (PyPI, pinned in scripts/test-venv.sh) parses C++
without a compiler.

    check_function_lengths.py SOURCE_ROOT   check the tree
    check_function_lengths.py --self-test   check that a long function fails
"""

import pathlib
import sys
import tempfile

import lizard

DIRECTORIES = ("compiler", "runtime", "tools", "support")
LIMIT = 120
# Functions held to a tighter limit: (lizard's qualified name, limit).
TIGHTER = {"tc::rt::train": 80}


def too_long(root: pathlib.Path):
    found = []
    for directory in DIRECTORIES:
        paths = sorted(str(p) for pattern in ("*.cpp", "*.h")
                       for p in (root / directory).rglob(pattern))
        for analysed in lizard.analyze_files(paths):
            for function in analysed.function_list:
                limit = TIGHTER.get(function.name, LIMIT)
                if function.length > limit:
                    path = pathlib.Path(analysed.filename).relative_to(root)
                    found.append(f"{path}:{function.start_line}: error: "
                                 f"{function.name} has {function.length} lines "
                                 f"(at most {limit})\nnote: split it along its "
                                 f"sections into functions named for them")
    return found


def self_test() -> int:
    with tempfile.TemporaryDirectory() as tmp:
        root = pathlib.Path(tmp)
        (root / "runtime").mkdir()
        body = "".join(f"  x += {i};\n" for i in range(LIMIT - 3))
        source = root / "runtime" / "Long.cpp"
        source.write_text(f"int fits(int x) {{\n{body}  return x;\n}}\n")
        if too_long(root):
            print(f"self-test: a function of {LIMIT} lines was refused")
            return 1
        source.write_text(f"int tooLong(int x) {{\n{body}  x += 1;\n  return x;\n}}\n")
        if not too_long(root):
            print(f"self-test: a function of {LIMIT + 1} lines passed")
            return 1
        source.write_text("namespace tc::rt {\nint train(int x) {\n" +
                          "  x += 1;\n" * 80 + "  return x;\n}\n}\n")
        if not too_long(root):
            print("self-test: a train of 83 lines passed")
            return 1
    print("self-test: long functions are caught")
    return 0


def main() -> int:
    if sys.argv[1:] == ["--self-test"]:
        return self_test()
    if len(sys.argv) != 2:
        print(__doc__)
        return 2
    found = too_long(pathlib.Path(sys.argv[1]).resolve())
    for message in found:
        print(message)
    print(f"function lengths: {len(found)} functions too long")
    return 1 if found else 0


if __name__ == "__main__":
    sys.exit(main())
