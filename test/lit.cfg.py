# lit configuration for redist's test suites. Each test is self-describing:
# its RUN and CHECK lines live in the test file itself.
import os

import lit.formats
from lit.llvm import llvm_config

config.name = "redist"
config.test_format = lit.formats.ShTest(execute_external=False)
config.suffixes = [".test", ".cpp"]
config.excludes = ["Inputs", "CMakeLists.txt", "unit"]
config.test_source_root = os.path.dirname(__file__)
config.test_exec_root = os.path.join(config.redist_obj_root, "test")

# Our tools first, then LLVM's FileCheck, not, count, split-file.
llvm_config.with_environment("PATH", config.llvm_tools_dir, append_path=True)
llvm_config.with_environment("PATH", config.redist_tools_dir, append_path=True)
llvm_config.use_default_substitutions()

# lit scrubs the environment: hand MPI what it needs to run here.
for assignment in config.mpi_env:
    name, _, value = assignment.partition("=")
    config.environment[name] = value
config.substitutions.append(
    ("%mpirun", "%s %s" % (config.mpiexec, config.mpiexec_flags)))
config.substitutions.append(("%mpicxx", config.mpicxx))
config.substitutions.append(("%redist_src", config.redist_src_root))
config.substitutions.append(("%redist_obj", config.redist_obj_root))
if config.have_runtime:
    config.available_features.add("mpi")
# Long tests (REQUIRES: slow, "slow" in the file name) run only when asked:
# `lit --param slow=1`, which ctest's "lit-slow" test (label slow) passes.
if lit_config.params.get("slow", "0") not in ("", "0"):
    config.available_features.add("slow")

# MPI programs oversubscribe 2 cores: run them one at a time.
lit_config.parallelism_groups["mpi"] = 1
