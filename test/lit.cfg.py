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
# MPI jobs oversubscribe 2 cores: one at a time. Each launch holds a lock
# (flock -o: not inherited by the ranks), so that a folder whose tests also
# translate and compile can run its tests side by side (redistc/mpi); folders
# of MPI jobs only run their tests one at a time (the "mpi" group below).
config.substitutions.append(
    ("%mpirun", "flock -o %s %s %s" % (
        os.path.join(config.test_exec_root, "mpi.lock"), config.mpiexec,
        config.mpiexec_flags)))
config.substitutions.append(
    ("%mpicxx", " ".join(filter(None, [config.mpicxx, config.sanitize_flags]))))
config.substitutions.append(("%redist_src", config.redist_src_root))
config.substitutions.append(("%redist_obj", config.redist_obj_root))
if config.have_runtime:
    config.available_features.add("mpi")


def single_copy_works():
    """Whether a process may read another's memory with process_vm_readv
    (Linux cross-memory attach), as the runtime's single copies need: a
    child reads its parent, which seccomp profiles, Yama's ptrace_scope
    (1 and up) and kernels without CMA refuse. Where they do, the runtime
    falls back, and the tests that require single copies to be used are
    unsupported."""
    import ctypes

    class IoVec(ctypes.Structure):
        _fields_ = [("base", ctypes.c_void_p), ("len", ctypes.c_size_t)]

    try:
        readv = ctypes.CDLL(None, use_errno=True).process_vm_readv
    except (OSError, AttributeError):
        return False
    readv.restype = ctypes.c_ssize_t
    readv.argtypes = [ctypes.c_int, ctypes.c_void_p, ctypes.c_ulong,
                      ctypes.c_void_p, ctypes.c_ulong, ctypes.c_ulong]
    data = ctypes.create_string_buffer(b"redist!", 8)
    parent = os.getpid()
    child = os.fork()
    if child == 0:
        got = ctypes.create_string_buffer(8)
        local = IoVec(ctypes.cast(got, ctypes.c_void_p), 8)
        remote = IoVec(ctypes.cast(data, ctypes.c_void_p), 8)
        read = readv(parent, ctypes.byref(local), 1, ctypes.byref(remote), 1,
                     0)
        os._exit(0 if read == 8 and got.raw == data.raw else 1)
    _, status = os.waitpid(child, 0)
    return os.WIFEXITED(status) and os.WEXITSTATUS(status) == 0


if config.have_runtime and single_copy_works():
    config.available_features.add("single-copy")

# A REDIST_SANITIZE build (cmake/RedistSanitize.cmake): %mpicxx above adds its
# flags, so programs the tests compile link with the sanitized libraries; the
# sanitizers get their options here, since lit scrubs the environment.
# - halt_on_error=1: the first report fails the test (the build also has
#   -fno-sanitize-recover=all).
# - allocator_may_return_null=1: a request too large for the address space
#   makes malloc return null, as it does without ASan, instead of aborting;
#   test/mpi/errors.test asks for 2^48 bytes and expects std::bad_alloc.
# The folders whose tests run MPI programs (mpi, redistc/mpi, bench) use
# config.mpi_asan_options instead, which also turns leak detection off: Open
# MPI 4.1 leaves about 3300 allocations (120 KB) unfreed at MPI_Finalize even
# in a program that only calls MPI_Allreduce, many of them from MCA components
# it has unloaded by then, so no suppression by library name can cover them.
config.mpi_asan_options = ""
if config.sanitize:
    config.available_features.add("sanitize")
    sanitizers = config.sanitize.split(",")
    if "address" in sanitizers:
        config.available_features.add("asan")
    if "undefined" in sanitizers:
        config.available_features.add("ubsan")
    config.environment["ASAN_OPTIONS"] = \
        "halt_on_error=1:allocator_may_return_null=1"
    config.mpi_asan_options = \
        config.environment["ASAN_OPTIONS"] + ":detect_leaks=0"
    config.environment["UBSAN_OPTIONS"] = "halt_on_error=1:print_stacktrace=1"
    # Sanitized MPI programs run several times slower (redist-edge-cases:
    # about 300 s against 40 on a loaded 2-core machine), so every
    # `timeout N` of a RUN line allows ten times as long.
    config.substitutions.append((r"\btimeout ([0-9]+) ", r"timeout \g<1>0 "))

# Long tests (REQUIRES: slow, "slow" in the file name) run only when asked:
# `lit --param slow=1`, which ctest's "lit-slow" test (label slow) passes.
if lit_config.params.get("slow", "0") not in ("", "0"):
    config.available_features.add("slow")

# Folders of MPI jobs (parallelism_group = "mpi") run one test at a time.
lit_config.parallelism_groups["mpi"] = 1
