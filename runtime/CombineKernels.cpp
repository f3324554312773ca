//===- CombineKernels.cpp - Unpacking that scales, adds and conjugates ----===//
//
// The loops of a combining unpack (Combine.h). They follow the cases of
// PBLAS's local kernels (alpha = 1 adds without multiplying, beta = 0 does
// not read the target, beta = 1 adds to it), and multiply complex numbers
// with the plain formula Fortran uses, so that the results are the ones
// PBLAS computes, bit for bit.
//
//===----------------------------------------------------------------------===//
#include "Combine.h"

#include <complex>

namespace redist {
namespace detail {
namespace {

thread_local const Combine *Active = nullptr;

/// A real or complex number as two components (Im = 0 for reals).
template <typename R> struct Num { R Re, Im; };

template <typename T> struct Traits;
template <> struct Traits<float> {
  using Real = float;
  static constexpr bool Complex = false;
};
template <> struct Traits<double> {
  using Real = double;
  static constexpr bool Complex = false;
};
template <> struct Traits<std::complex<float>> {
  using Real = float;
  static constexpr bool Complex = true;
};
template <> struct Traits<std::complex<double>> {
  using Real = double;
  static constexpr bool Complex = true;
};

/// How alpha and beta enter: PBLAS's special cases.
enum class Scale { One, Zero, Other };

template <typename T, Scale A, Scale B, bool Conj> struct Kernel {
  using R = typename Traits<T>::Real;
  static constexpr bool Cx = Traits<T>::Complex;
  Num<R> Alpha, Beta;

  /// One element: T is stored as one (real) or two (complex) R.
  void apply(R *D, const R *S) const {
    const R SRe = S[0];
    const R SIm = Cx ? (Conj ? -S[1] : S[1]) : R(0);
    // alpha * op(s)
    R ARe = SRe, AIm = SIm;
    if (A == Scale::Zero) {
      ARe = R(0);
      AIm = R(0);
    } else if (A == Scale::Other) {
      if (Cx) {
        ARe = Alpha.Re * SRe - Alpha.Im * SIm;
        AIm = Alpha.Re * SIm + Alpha.Im * SRe;
      } else {
        ARe = Alpha.Re * SRe;
      }
    }
    if (B == Scale::Zero) {
      D[0] = ARe;
      if (Cx)
        D[1] = AIm;
    } else if (B == Scale::One) {
      D[0] = ARe + D[0];
      if (Cx)
        D[1] = AIm + D[1];
    } else if (Cx) {
      const R TRe = D[0], TIm = D[1];
      D[0] = ARe + (Beta.Re * TRe - Beta.Im * TIm);
      D[1] = AIm + (Beta.Re * TIm + Beta.Im * TRe);
    } else {
      D[0] = ARe + Beta.Re * D[0];
    }
  }

  void run(const CopyProgram &P, const char *From, char *To) const {
    constexpr int64_t E = sizeof(T);
    for (const CopySegment &Sg : P.Segments)
      forEachRepeat(
          Sg, From, To, E,
          [&](Repeats Rp, const char *F, char *D) { runRepeats(Sg, Rp, F, D); },
          [&](const TileRepeats &Tl, const char *F, char *D) {
            forEachTileElement(Tl, F + Sg.Runs[0].From * E,
                               D + Sg.Runs[0].To * E, E,
                               [&](char *Dst, const char *Src) {
                                 apply(reinterpret_cast<R *>(Dst),
                                       reinterpret_cast<const R *>(Src));
                               });
          });
  }

  /// Sg's runs (or element tables) Rp.Count times from From and To.
  void runRepeats(const CopySegment &Sg, Repeats Rp, const char *From,
                  char *To) const {
    constexpr int64_t E = sizeof(T);
    constexpr int64_t Step = Cx ? 2 : 1;
    auto At = [](const char *Base, int64_t Element) {
      return reinterpret_cast<const R *>(Base + Element * E);
    };
    auto AtMut = [](char *Base, int64_t Element) {
      return reinterpret_cast<R *>(Base + Element * E);
    };
    for (int64_t Rep = 0; Rep < Rp.Count; ++Rep) {
      const int64_t F0 = Rep * Rp.FromStride, T0 = Rep * Rp.ToStride;
      if (Sg.Elementwise) {
        const std::size_t N =
            Sg.FromIndex.empty() ? Sg.ToIndex.size() : Sg.FromIndex.size();
        for (std::size_t J = 0; J < N; ++J) {
          const int64_t F = Sg.FromIndex.empty()
                                ? static_cast<int64_t>(J)
                                : static_cast<int64_t>(Sg.FromIndex[J]);
          const int64_t T1 = Sg.ToIndex.empty()
                                 ? static_cast<int64_t>(J)
                                 : static_cast<int64_t>(Sg.ToIndex[J]);
          apply(AtMut(To, Sg.ToBase + T0 + T1), At(From, Sg.FromBase + F0 + F));
        }
        continue;
      }
      for (const CopyRun &Run : Sg.Runs) {
        R *D = AtMut(To, T0 + Run.To);
        const R *S = At(From, F0 + Run.From);
        for (int64_t K = 0; K < Run.Length; ++K)
          apply(D + K * Step, S + K * Step);
      }
    }
  }
};

Scale scaleOf(const double V[2], bool Complex) {
  if (V[0] == 1 && (!Complex || V[1] == 0))
    return Scale::One;
  if (V[0] == 0 && (!Complex || V[1] == 0))
    return Scale::Zero;
  return Scale::Other;
}

template <typename T, Scale A, Scale B>
void runWith(const CopyProgram &P, const char *From, char *To,
             const Combine &C) {
  using R = typename Traits<T>::Real;
  const Num<R> Alpha{static_cast<R>(C.Alpha[0]), static_cast<R>(C.Alpha[1])};
  const Num<R> Beta{static_cast<R>(C.Beta[0]), static_cast<R>(C.Beta[1])};
  if (Traits<T>::Complex && C.Conjugate)
    Kernel<T, A, B, true>{Alpha, Beta}.run(P, From, To);
  else
    Kernel<T, A, B, false>{Alpha, Beta}.run(P, From, To);
}

template <typename T, Scale A>
void runWithAlpha(const CopyProgram &P, const char *From, char *To,
                  const Combine &C) {
  switch (scaleOf(C.Beta, Traits<T>::Complex)) {
  case Scale::One:
    return runWith<T, A, Scale::One>(P, From, To, C);
  case Scale::Zero:
    return runWith<T, A, Scale::Zero>(P, From, To, C);
  case Scale::Other:
    return runWith<T, A, Scale::Other>(P, From, To, C);
  }
}

template <typename T>
void runTyped(const CopyProgram &P, const char *From, char *To,
              const Combine &C) {
  switch (scaleOf(C.Alpha, Traits<T>::Complex)) {
  case Scale::One:
    return runWithAlpha<T, Scale::One>(P, From, To, C);
  case Scale::Zero:
    return runWithAlpha<T, Scale::Zero>(P, From, To, C);
  case Scale::Other:
    return runWithAlpha<T, Scale::Other>(P, From, To, C);
  }
}

} // namespace

const Combine *activeCombine() { return Active; }

bool isPlainCopy(const Combine &C) {
  const bool Complex = C.Type == ElementType::ComplexFloat ||
                       C.Type == ElementType::ComplexDouble;
  return scaleOf(C.Alpha, Complex) == Scale::One &&
         scaleOf(C.Beta, Complex) == Scale::Zero && !(Complex && C.Conjugate);
}

CombineScope::CombineScope(const Combine &C) : Saved(Active) {
  Active = isPlainCopy(C) ? nullptr : &C;
}
CombineScope::~CombineScope() { Active = Saved; }

std::size_t elementBytesOf(ElementType T) {
  switch (T) {
  case ElementType::Float:
    return sizeof(float);
  case ElementType::Double:
    return sizeof(double);
  case ElementType::ComplexFloat:
    return 2 * sizeof(float);
  case ElementType::ComplexDouble:
    return 2 * sizeof(double);
  }
  return 0;
}

void runCombineProgram(const CopyProgram &P, const char *From, char *To,
                       const Combine &C) {
  switch (C.Type) {
  case ElementType::Float:
    return runTyped<float>(P, From, To, C);
  case ElementType::Double:
    return runTyped<double>(P, From, To, C);
  case ElementType::ComplexFloat:
    return runTyped<std::complex<float>>(P, From, To, C);
  case ElementType::ComplexDouble:
    return runTyped<std::complex<double>>(P, From, To, C);
  }
}

} // namespace detail
} // namespace redist
