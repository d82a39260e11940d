# lit configuration of tc's regression tests. ctest runs each test file as one
# ctest test (see test/CMakeLists.txt); `lit-22 build/test` runs them all.
import os
import lit.formats

config.name = "tc"
config.test_format = lit.formats.ShTest(execute_external=False)
config.suffixes = [".mlir", ".test"]
config.test_source_root = os.path.dirname(__file__)
config.test_exec_root = os.path.join(config.tc_binary_dir, "test")
config.excludes = ["Inputs", "CMakeLists.txt", "lit.cfg.py", "lit.site.cfg.py"]

# tc's tools first, then LLVM's FileCheck, not, count, split-file.
config.environment["PATH"] = os.pathsep.join(
    [config.tc_tools_dir, config.llvm_tools_dir, config.environment.get("PATH", os.environ["PATH"])])
# Numeric references use Debian's Python, which has python3-torch and numpy.
config.substitutions.append(("%python", config.python_reference))
config.substitutions.append(("%tc_src", config.tc_source_dir))
