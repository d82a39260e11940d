#!/usr/bin/env python3
"""Fails when a source file includes a layer it must not depend on.

The layers and the one direction of their dependencies (docs/README.md,
"The source tree"):

    tools -> compiler -> dialects -> support
    tools -> runtime  -> support
    compiler -> runtime/format   (the .tcx contract the export writes)

So runtime/ includes neither dialects/ nor compiler/ (nor MLIR or LLVM: a
training job ships without them), dialects/ and support/ never include
compiler/, and support/ includes nothing of tc but itself.

    check_layering.py SOURCE_ROOT      check the tree
    check_layering.py --self-test      check that a forbidden include fails
"""

import pathlib
import re
import sys
import tempfile

INCLUDE = re.compile(r'^\s*#\s*include\s*[<"]([^>"]+)[>"]', re.M)

# (directory, forbidden include prefixes, why); a prefix in an allowed tuple
# is exempt from the rule's forbidden prefixes.
RULES = [
    ("runtime", ("dialects/", "compiler/", "tools/", "mlir/", "llvm/"), (),
     "the runtime reads only the .tcx: it links no MLIR, LLVM or compiler"),
    ("dialects", ("compiler/", "runtime/", "tools/"), (),
     "the dialects sit below the compiler and beside the runtime"),
    ("support", ("dialects/", "compiler/", "runtime/", "tools/", "mlir/",
                 "llvm/", "flatbuffers/", "tcx_generated"), (),
     "support is plain C++ that every layer may use; it uses none of them"),
    ("compiler", ("tools/", "runtime/"), ("runtime/format/",),
     "the compiler uses only runtime/format, the .tcx contract it writes"),
    ("tools/tc-compile", ("runtime/",), ("runtime/format/",),
     "tc-compile writes executables; it uses only the contract of the runtime"),
    ("tools/tc-opt", ("runtime/",), ("runtime/format/",),
     "tc-opt runs passes; it uses only the contract of the runtime"),
    ("tools/tc-run", ("compiler/", "dialects/", "mlir/", "llvm/"), (),
     "tc-run links only the runtime"),
    ("tools/tc-inspect", ("compiler/", "dialects/", "mlir/", "llvm/"), (),
     "tc-inspect links only the runtime"),
]

SOURCES = ("*.h", "*.cpp", "*.inc.in")


def violations(root: pathlib.Path):
    found = []
    for directory, forbidden, allowed, why in RULES:
        for pattern in SOURCES:
            for path in sorted((root / directory).rglob(pattern)):
                text = path.read_text(errors="replace")
                for match in INCLUDE.finditer(text):
                    included = match.group(1)
                    if (included.startswith(forbidden) and
                            not included.startswith(allowed or ("\0",))):
                        line = text.count("\n", 0, match.start()) + 1
                        found.append(f"{path.relative_to(root)}:{line}: error: "
                                     f"includes {included}\nnote: {why}")
    return found


def self_test() -> int:
    with tempfile.TemporaryDirectory() as tmp:
        root = pathlib.Path(tmp)
        for directory, _, _, _ in RULES:
            (root / directory).mkdir(parents=True, exist_ok=True)
        (root / "runtime" / "Ok.cpp").write_text('#include "support/Philox.h"\n')
        (root / "compiler" / "Ok.cpp").write_text(
            '#include "runtime/format/Contract.h"\n')
        if violations(root):
            print("self-test: an allowed include was refused")
            return 1
        for directory, forbidden, _, _ in RULES:
            bad = root / directory / "Bad.cpp"
            bad.write_text(f'#include "{forbidden[0]}X.h"\n')
            if not violations(root):
                print(f"self-test: {directory}/ including {forbidden[0]} passed")
                return 1
            bad.unlink()
    print("self-test: every forbidden include is caught")
    return 0


def main() -> int:
    if sys.argv[1:] == ["--self-test"]:
        return self_test()
    if len(sys.argv) != 2:
        print(__doc__)
        return 2
    found = violations(pathlib.Path(sys.argv[1]))
    for message in found:
        print(message)
    print(f"layering: {len(found)} forbidden includes")
    return 1 if found else 0


if __name__ == "__main__":
    sys.exit(main())
