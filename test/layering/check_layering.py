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

Inside the runtime, each folder is a sub-layer that includes only those
below it (RUNTIME_LAYERS; runtime/README.md): data never includes train,
the core (the files at runtime/'s root) no device, and a new folder is
refused until it is given its place.

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

# The runtime's sub-layers, lowest first, each with the sub-layers it uses;
# it may include those and whatever they may include. "core" is the files
# at runtime/'s root: Executable, Verifier, the Device and Communicator
# interfaces, the device registry, plug-in loading.
RUNTIME_LAYERS = {
    "format": (),
    "score": (),
    "core": ("format",),
    "collective": ("core",),
    "cpu": ("core",),
    "cuda": ("core",),
    "data": ("core",),
    "report": ("core",),
    "decode": ("data", "report"),
    "train": ("decode", "report", "score"),
}

SOURCES = ("*.h", "*.cpp", "*.inc.in")


def below(layer: str) -> list:
    """The sub-layers `layer` may include, lowest first."""
    reached, todo = set(), list(RUNTIME_LAYERS[layer])
    while todo:
        used = todo.pop()
        if used not in reached:
            reached.add(used)
            todo.extend(RUNTIME_LAYERS.get(used, ()))
    return [name for name in RUNTIME_LAYERS if name in reached]


def runtime_layer(path: str) -> str:
    """The sub-layer of a path that starts with runtime/."""
    parts = pathlib.PurePosixPath(path).parts
    return parts[1] if len(parts) > 2 else "core"


def folder(layer: str) -> str:
    return "runtime/ (the core)" if layer == "core" else f"runtime/{layer}/"


def runtime_violations(root: pathlib.Path):
    found, unplaced = [], set()
    for pattern in SOURCES:
        for path in sorted((root / "runtime").rglob(pattern)):
            relative = path.relative_to(root).as_posix()
            layer = runtime_layer(relative)
            if layer not in RUNTIME_LAYERS:
                if layer not in unplaced:
                    unplaced.add(layer)
                    found.append(
                        f"{relative}: error: runtime/{layer}/ is no sub-layer "
                        "of the runtime\nnote: give it its place in "
                        "RUNTIME_LAYERS (test/layering/check_layering.py) "
                        "and runtime/README.md")
                continue
            allowed = below(layer)
            text = path.read_text(errors="replace")
            for match in INCLUDE.finditer(text):
                included = match.group(1)
                if not included.startswith("runtime/"):
                    continue
                used = runtime_layer(included)
                if used == layer or used in allowed:
                    continue
                line = text.count("\n", 0, match.start()) + 1
                may = ", ".join(folder(name) for name in allowed) or "nothing"
                found.append(
                    f"{relative}:{line}: error: includes {included}\n"
                    "note: the runtime's sub-layers depend one way "
                    f"(runtime/README.md): {folder(layer)} may include "
                    f"only {may}")
    return found


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
    return found + runtime_violations(root)


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
        return runtime_self_test(root)


def runtime_self_test(root: pathlib.Path) -> int:
    order = list(RUNTIME_LAYERS)
    for layer, uses in RUNTIME_LAYERS.items():
        for used in uses:
            if used not in order or order.index(used) >= order.index(layer):
                print(f"self-test: {layer} uses {used}, which is not a "
                      "sub-layer listed before it")
                return 1
    allowed = {"decode/Ok.cpp": ("runtime/data/X.h", "runtime/report/X.h",
                                 "runtime/X.h", "runtime/format/X.h"),
               "train/Ok.cpp": ("runtime/decode/X.h", "runtime/score/X.h",
                                "runtime/data/X.h", "runtime/X.h")}
    for name, includes in allowed.items():
        (root / "runtime" / name).parent.mkdir(parents=True, exist_ok=True)
        (root / "runtime" / name).write_text(
            "".join(f'#include "{included}"\n' for included in includes))
    if violations(root):
        print("self-test: an allowed include of a runtime sub-layer was "
              "refused")
        return 1
    forbidden = {"data/Bad.cpp": "runtime/train/X.h",
                 "Bad.cpp": "runtime/cpu/X.h",
                 "cpu/Bad.cpp": "runtime/data/X.h",
                 "format/Bad.cpp": "runtime/Device.h",
                 "extra/Bad.cpp": "runtime/X.h"}
    for name, included in forbidden.items():
        bad = root / "runtime" / name
        bad.parent.mkdir(parents=True, exist_ok=True)
        bad.write_text(f'#include "{included}"\n')
        if not violations(root):
            print(f"self-test: runtime/{name} including {included} passed")
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
