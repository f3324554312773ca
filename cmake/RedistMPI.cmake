# How tests and benchmarks launch MPI programs here: OpenMPI, oversubscribed so
# that 16 ranks on 2 cores yield the CPU instead of spinning, and allowed to run
# as root (CI runs as root).
find_program(REDIST_MPIEXEC NAMES ${MPIEXEC_EXECUTABLE} mpirun mpiexec
             REQUIRED)
set(REDIST_MPIEXEC_FLAGS --oversubscribe CACHE STRING
    "Flags mpirun gets in tests and benchmarks")
set(REDIST_MPI_ENV
    OMPI_ALLOW_RUN_AS_ROOT=1
    OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
    OMPI_MCA_rmaps_base_oversubscribe=1
    # Single-node runs: shared memory and self only, no network probing.
    OMPI_MCA_btl=self,vader
    OMPI_MCA_btl_vader_single_copy_mechanism=none)
