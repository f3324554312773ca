//===- StubHeaders.cpp - Small stand-ins for the headers programs include -===//

#include "StubHeaders.h"

namespace redist {
namespace fuzz {

namespace {

const char *const CStddef = R"(#pragma once
namespace std {
typedef __SIZE_TYPE__ size_t;
typedef __PTRDIFF_TYPE__ ptrdiff_t;
typedef decltype(nullptr) nullptr_t;
}
using std::size_t;
using std::ptrdiff_t;
)";

const char *const CStdint = R"(#pragma once
namespace std {
typedef __INT8_TYPE__ int8_t;
typedef __INT16_TYPE__ int16_t;
typedef __INT32_TYPE__ int32_t;
typedef __INT64_TYPE__ int64_t;
typedef __UINT8_TYPE__ uint8_t;
typedef __UINT16_TYPE__ uint16_t;
typedef __UINT32_TYPE__ uint32_t;
typedef __UINT64_TYPE__ uint64_t;
}
using std::int8_t; using std::int16_t; using std::int32_t; using std::int64_t;
using std::uint8_t; using std::uint16_t; using std::uint32_t;
using std::uint64_t;
#define INT64_MAX __INT64_MAX__
#define INT32_MAX __INT32_MAX__
)";

const char *const CStdio = R"(#pragma once
#include <cstddef>
namespace std {
struct FILE;
extern "C" int printf(const char *, ...);
extern "C" int fprintf(FILE *, const char *, ...);
extern "C" int snprintf(char *, size_t, const char *, ...);
extern "C" int puts(const char *);
}
extern std::FILE *stderr;
extern std::FILE *stdout;
using std::printf; using std::fprintf; using std::snprintf; using std::puts;
)";

const char *const CStdlib = R"(#pragma once
#include <cstddef>
namespace std {
extern "C" [[noreturn]] void abort();
extern "C" [[noreturn]] void exit(int);
extern "C" void *malloc(size_t);
extern "C" void free(void *);
extern "C" int atoi(const char *);
}
using std::abort; using std::exit; using std::malloc; using std::free;
using std::atoi;
#define EXIT_SUCCESS 0
#define EXIT_FAILURE 1
)";

const char *const CString = R"(#pragma once
#include <cstddef>
namespace std {
extern "C" void *memcpy(void *, const void *, size_t);
extern "C" void *memset(void *, int, size_t);
extern "C" int memcmp(const void *, const void *, size_t);
extern "C" size_t strlen(const char *);
extern "C" int strcmp(const char *, const char *);
}
using std::memcpy; using std::memset; using std::memcmp; using std::strlen;
using std::strcmp;
)";

const char *const Utility = R"(#pragma once
namespace std {
template <class T> struct remove_reference { typedef T type; };
template <class T> struct remove_reference<T &> { typedef T type; };
template <class T> struct remove_reference<T &&> { typedef T type; };
template <class T>
typename remove_reference<T>::type &&move(T &&t) {
  return static_cast<typename remove_reference<T>::type &&>(t);
}
template <class T> void swap(T &a, T &b) { T c = a; a = b; b = c; }
template <class A, class B> struct pair {
  A first;
  B second;
};
}
)";

const char *const Vector = R"(#pragma once
#include <algorithm>
#include <cstddef>
#include <initializer_list>
#include <iterator>
#include <utility>
namespace std {
template <class T> class allocator {};
template <class T, class Alloc = allocator<T>> class vector {
  T *p = nullptr;
  size_t n = 0;
public:
  typedef T value_type;
  typedef size_t size_type;
  typedef T *iterator;
  typedef const T *const_iterator;
  vector() {}
  explicit vector(size_t n) : n(n) {}
  vector(size_t n, const T &) : n(n) {}
  vector(initializer_list<T> values) : n(values.size()) {}
  template <class It> vector(It, It) {}
  T *data() { return p; }
  const T *data() const { return p; }
  size_t size() const { return n; }
  size_t capacity() const { return n; }
  bool empty() const { return n == 0; }
  void resize(size_t m) { n = m; }
  void resize(size_t m, const T &) { n = m; }
  void reserve(size_t) {}
  void clear() { n = 0; }
  void assign(size_t m, const T &) { n = m; }
  template <class It> void assign(It, It) {}
  void push_back(const T &) { ++n; }
  template <class... Args> T &emplace_back(Args &&...) { return p[n++]; }
  void pop_back() { --n; }
  void swap(vector &o) { std::swap(p, o.p); std::swap(n, o.n); }
  T &operator[](size_t i) { return p[i]; }
  const T &operator[](size_t i) const { return p[i]; }
  T &at(size_t i) { return p[i]; }
  const T &at(size_t i) const { return p[i]; }
  T &front() { return p[0]; }
  const T &front() const { return p[0]; }
  T &back() { return p[n - 1]; }
  const T &back() const { return p[n - 1]; }
  iterator begin() { return p; }
  const_iterator begin() const { return p; }
  iterator end() { return p + n; }
  const_iterator end() const { return p + n; }
  bool operator==(const vector &o) const { return n == o.n; }
  bool operator!=(const vector &o) const { return n != o.n; }
};
}
)";

const char *const InitializerList = R"(#pragma once
#include <cstddef>
namespace std {
template <class T> class initializer_list {
  const T *b;
  size_t n;
public:
  const T *begin() const { return b; }
  const T *end() const { return b + n; }
  size_t size() const { return n; }
};
}
)";

const char *const Array = R"(#pragma once
#include <cstddef>
#include <iterator>
namespace std {
template <class T, size_t N> struct array {
  T elems[N ? N : 1];
  T *data() { return elems; }
  const T *data() const { return elems; }
  constexpr size_t size() const { return N; }
  constexpr T &operator[](size_t i) { return elems[i]; }
  constexpr const T &operator[](size_t i) const { return elems[i]; }
  T *begin() { return elems; }
  T *end() { return elems + N; }
  const T *begin() const { return elems; }
  const T *end() const { return elems + N; }
};
}
)";

const char *const List = R"(#pragma once
#include <cstddef>
namespace std {
template <class T> class list {
  size_t n = 0;
public:
  size_t size() const { return n; }
  void push_back(const T &) { ++n; }
};
}
)";

const char *const Iterator = R"(#pragma once
namespace std {
template <class C> auto begin(C &c) -> decltype(c.begin()) { return c.begin(); }
template <class C> auto end(C &c) -> decltype(c.end()) { return c.end(); }
template <class T, decltype(sizeof 0) N> T *begin(T (&a)[N]) { return a; }
template <class T, decltype(sizeof 0) N> T *end(T (&a)[N]) { return a + N; }
}
)";

const char *const String = R"(#pragma once
#include <cstddef>
namespace std {
class string {
public:
  string();
  string(const char *);
  string(const string &);
  ~string();
  string &operator=(const string &);
  string &operator+=(const string &);
  string &append(const string &);
  const char *c_str() const;
  size_t size() const;
  bool empty() const;
  bool operator==(const string &) const;
};
string operator+(const string &, const string &);
string to_string(int);
string to_string(long);
string to_string(long long);
string to_string(unsigned long);
string to_string(double);
}
)";

const char *const Algorithm = R"(#pragma once
namespace std {
template <class T> constexpr const T &min(const T &a, const T &b) {
  return b < a ? b : a;
}
template <class T> constexpr const T &max(const T &a, const T &b) {
  return a < b ? b : a;
}
template <class T>
constexpr const T &clamp(const T &v, const T &lo, const T &hi) {
  return v < lo ? lo : hi < v ? hi : v;
}
template <class It, class T> void fill(It first, It last, const T &value) {
  for (; first != last; ++first)
    *first = value;
}
template <class In, class Out> Out copy(In first, In last, Out out) {
  for (; first != last; ++first, ++out)
    *out = *first;
  return out;
}
template <class It> void sort(It first, It last);
}
)";

const char *const Numeric = R"(#pragma once
namespace std {
template <class It, class T> void iota(It first, It last, T value) {
  for (; first != last; ++first, ++value)
    *first = value;
}
template <class It, class T> T accumulate(It first, It last, T init) {
  for (; first != last; ++first)
    init = init + *first;
  return init;
}
}
)";

const char *const Functional = R"(#pragma once
namespace std {
template <class Signature> class function;
template <class R, class... Args> class function<R(Args...)> {
  R (*f)(Args...) = nullptr;
public:
  function() {}
  template <class F> function(F) {}
  R operator()(Args... args) const { return f(args...); }
};
}
)";

// As Open MPI declares them: handles are pointers to incomplete structs and
// the predefined ones addresses of globals, so MPI_Comm is a distinct type.
const char *const MPI = R"(#pragma once
typedef struct ompi_communicator_t *MPI_Comm;
typedef struct ompi_datatype_t *MPI_Datatype;
typedef struct ompi_op_t *MPI_Op;
typedef struct ompi_request_t *MPI_Request;
typedef struct ompi_status_public_t {
  int MPI_SOURCE, MPI_TAG, MPI_ERROR;
} MPI_Status;
extern "C" {
extern struct ompi_communicator_t ompi_mpi_comm_world, ompi_mpi_comm_self,
    ompi_mpi_comm_null;
extern struct ompi_datatype_t ompi_mpi_int, ompi_mpi_long, ompi_mpi_long_long,
    ompi_mpi_double, ompi_mpi_char, ompi_mpi_byte, ompi_mpi_int64_t;
extern struct ompi_op_t ompi_mpi_op_sum, ompi_mpi_op_max, ompi_mpi_op_min;
int MPI_Init(int *, char ***);
int MPI_Finalize(void);
int MPI_Abort(MPI_Comm, int);
int MPI_Comm_rank(MPI_Comm, int *);
int MPI_Comm_size(MPI_Comm, int *);
int MPI_Comm_dup(MPI_Comm, MPI_Comm *);
int MPI_Comm_split(MPI_Comm, int, int, MPI_Comm *);
int MPI_Comm_free(MPI_Comm *);
int MPI_Barrier(MPI_Comm);
int MPI_Bcast(void *, int, MPI_Datatype, int, MPI_Comm);
int MPI_Reduce(const void *, void *, int, MPI_Datatype, MPI_Op, int, MPI_Comm);
int MPI_Allreduce(const void *, void *, int, MPI_Datatype, MPI_Op, MPI_Comm);
int MPI_Gather(const void *, int, MPI_Datatype, void *, int, MPI_Datatype, int,
               MPI_Comm);
int MPI_Allgather(const void *, int, MPI_Datatype, void *, int, MPI_Datatype,
                  MPI_Comm);
int MPI_Send(const void *, int, MPI_Datatype, int, int, MPI_Comm);
int MPI_Recv(void *, int, MPI_Datatype, int, int, MPI_Comm, MPI_Status *);
int MPI_Sendrecv(const void *, int, MPI_Datatype, int, int, void *, int,
                 MPI_Datatype, int, int, MPI_Comm, MPI_Status *);
}
#define MPI_COMM_WORLD (&ompi_mpi_comm_world)
#define MPI_COMM_SELF (&ompi_mpi_comm_self)
#define MPI_COMM_NULL (&ompi_mpi_comm_null)
#define MPI_INT (&ompi_mpi_int)
#define MPI_LONG (&ompi_mpi_long)
#define MPI_LONG_LONG (&ompi_mpi_long_long)
#define MPI_DOUBLE (&ompi_mpi_double)
#define MPI_CHAR (&ompi_mpi_char)
#define MPI_BYTE (&ompi_mpi_byte)
#define MPI_INT64_T (&ompi_mpi_int64_t)
#define MPI_SUM (&ompi_mpi_op_sum)
#define MPI_MAX (&ompi_mpi_op_max)
#define MPI_MIN (&ompi_mpi_op_min)
#define MPI_STATUS_IGNORE ((MPI_Status *)0)
#define MPI_SUCCESS 0
#define MPI_PROC_NULL (-2)
#define MPI_ANY_SOURCE (-1)
#define MPI_ANY_TAG (-1)
)";

// The declarations of the MPI test programs' helpers
// (test/redistc/mpi/Inputs/check.h), which the richest seeds include.
const char *const TestCheck = R"(#pragma once
#include <mpi.h>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>
struct Elem {
  std::int64_t Global;
  std::int32_t Tag;
  bool operator==(const Elem &O) const;
};
Elem makeElem(std::int64_t G);
struct TestFormat {
  std::int64_t B;
  std::vector<std::int64_t> Sizes;
};
TestFormat blockCyclic(std::int64_t B);
TestFormat blockOf(std::int64_t N, std::int64_t P);
TestFormat genBlock(std::vector<std::int64_t> Sizes);
std::vector<std::int64_t> expectedGlobals(const TestFormat &F, std::int64_t N,
                                          std::int64_t P, int Rank);
std::vector<Elem> localPart(const TestFormat &F, std::int64_t N,
                            std::int64_t P, int Rank);
bool checkPart(const char *Label, const Elem *Data, std::int64_t Count,
               const TestFormat &F, std::int64_t N, std::int64_t P);
bool checkPart(const char *Label, const std::vector<Elem> &V,
               const TestFormat &F, std::int64_t N, std::int64_t P);
void applyNodeOptions(int argc, char **argv);
int worldSize();
)";

const char *const RedistError = R"(#pragma once
namespace redist {
class InvalidArgument {
public:
  const char *what() const;
};
}
)";

} // namespace

const std::map<std::string, std::string> &stubHeaders() {
  static const std::map<std::string, std::string> Headers = {
      {"check.h", TestCheck},
      {"include/algorithm", Algorithm},
      {"include/array", Array},
      {"include/cstddef", CStddef},
      {"include/cstdint", CStdint},
      {"include/cstdio", CStdio},
      {"include/cstdlib", CStdlib},
      {"include/cstring", CString},
      {"include/functional", Functional},
      {"include/initializer_list", InitializerList},
      {"include/iterator", Iterator},
      {"include/list", List},
      {"include/mpi.h", MPI},
      {"include/numeric", Numeric},
      {"include/redist/Error.h", RedistError},
      {"include/string", String},
      {"include/utility", Utility},
      {"include/vector", Vector},
  };
  return Headers;
}

} // namespace fuzz
} // namespace redist
