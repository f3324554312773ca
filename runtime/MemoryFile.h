//===- MemoryFile.h - Memory that other processes of the node can map -----===//
//
// Private to the runtime. An anonymous memory file (memfd) that a rank
// creates and maps, and that the other ranks of its node open by its name,
// "/proc/PID/fd/FD", while the creator keeps it open. Nothing is ever in
// /dev/shm, so no rank that dies, however it dies, leaves one behind. The
// handover's rings (NodeHandover.h) and node memory (NodeMemory.h) use it.
//
//===----------------------------------------------------------------------===//
#ifndef REDIST_RUNTIME_MEMORYFILE_H
#define REDIST_RUNTIME_MEMORYFILE_H

#include <cstddef>
#include <string>

namespace redist {

/// Room for a memory file's name, "/proc/PID/fd/FD".
constexpr int MemoryFileNameBytes = 48;

/// Creates a memory file of Bytes, reserved (so that a full node fails here,
/// not with SIGBUS later) and mapped read-write at Address; Fd stays open
/// for others to open it by the name returned. Empty on failure.
std::string createMemoryFile(const char *Label, std::size_t Bytes,
                             void *&Address, int &Fd);

/// Maps another rank's memory file, read-only unless Writable, its size in
/// Bytes; nullptr on failure.
void *openMemoryFile(const char *Name, std::size_t &Bytes,
                     bool Writable = false);

} // namespace redist

#endif // REDIST_RUNTIME_MEMORYFILE_H
