//===- MemoryFile.cpp - Memory that other processes of the node can map ---===//

#include "MemoryFile.h"

#include <cstdio>

#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

namespace redist {
namespace {

/// Maps Fd; nullptr on failure. Populated: no page faults in execute().
void *mapFile(int Fd, std::size_t Bytes, int Protection) {
  int Flags = MAP_SHARED;
#ifdef MAP_POPULATE
  Flags |= MAP_POPULATE;
#endif
  void *P = mmap(nullptr, Bytes, Protection, Flags, Fd, 0);
  return P == MAP_FAILED ? nullptr : P;
}

} // namespace

std::string createMemoryFile(const char *Label, std::size_t Bytes,
                             void *&Address, int &Fd) {
  Fd = memfd_create(Label, MFD_CLOEXEC);
  if (Fd < 0)
    return "";
  Address = posix_fallocate(Fd, 0, static_cast<off_t>(Bytes)) == 0
                ? mapFile(Fd, Bytes, PROT_READ | PROT_WRITE)
                : nullptr;
  if (!Address) {
    close(Fd);
    Fd = -1;
    return "";
  }
  char Name[MemoryFileNameBytes];
  std::snprintf(Name, sizeof Name, "/proc/%ld/fd/%d",
                static_cast<long>(getpid()), Fd);
  return Name;
}

void *openMemoryFile(const char *Name, std::size_t &Bytes, bool Writable) {
  int Fd = open(Name, (Writable ? O_RDWR : O_RDONLY) | O_CLOEXEC);
  if (Fd < 0)
    return nullptr;
  struct stat St;
  void *P = nullptr;
  if (fstat(Fd, &St) == 0 && St.st_size > 0) {
    Bytes = static_cast<std::size_t>(St.st_size);
    P = mapFile(Fd, Bytes, Writable ? PROT_READ | PROT_WRITE : PROT_READ);
  }
  close(Fd);
  return P;
}

} // namespace redist
