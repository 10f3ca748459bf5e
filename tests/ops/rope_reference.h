// The float64 reference of rotary position embedding, shared by the
// RotaryPositionEmbedding and ApplyRotaryPosEmb suites: one row under each of
// CANN's modes (0 half, 1 interleave, 2 quarter, 3 interleave-half), a rank-4
// x against broadcast cos/sin tables, and the magnitudes its error scales with.
#ifndef CANOPY_TESTS_OPS_ROPE_REFERENCE_H_
#define CANOPY_TESTS_OPS_ROPE_REFERENCE_H_

#include <algorithm>
#include <cmath>
#include <vector>

#include "op_test_support.h"

namespace canopy_test {

// y for one row of D values under `mode` (CANN's formulas).
inline std::vector<double> RotateRow(int64_t mode, const std::vector<double>& x, const std::vector<double>& c,
                                     const std::vector<double>& s) {
  const size_t d = x.size();
  std::vector<double> base = x, rotated(d);
  if (mode == 0) {
    for (size_t i = 0; i < d / 2; ++i) {
      rotated[i] = -x[i + d / 2];
      rotated[i + d / 2] = x[i];
    }
  } else if (mode == 1) {
    for (size_t i = 0; i < d; i += 2) {
      rotated[i] = -x[i + 1];
      rotated[i + 1] = x[i];
    }
  } else if (mode == 2) {
    const size_t q = d / 4;
    for (size_t i = 0; i < q; ++i) {
      rotated[i] = -x[i + q];
      rotated[i + q] = x[i];
      rotated[i + 2 * q] = -x[i + 3 * q];
      rotated[i + 3 * q] = x[i + 2 * q];
    }
  } else {  // interleave-half: part1 = cat(x[::2], x[1::2]), part2 = cat(-x[1::2], x[::2])
    for (size_t i = 0; i < d / 2; ++i) {
      base[i] = x[2 * i];
      base[i + d / 2] = x[2 * i + 1];
      rotated[i] = -x[2 * i + 1];
      rotated[i + d / 2] = x[2 * i];
    }
  }
  std::vector<double> y(d);
  for (size_t i = 0; i < d; ++i) y[i] = base[i] * c[i] + rotated[i] * s[i];
  return y;
}

inline Values ReferenceRope(int64_t mode, const Values& x, const Shape& xs, const Values& c, const Values& s,
                            const Shape& cs) {
  const int64_t d = xs[3];
  Values y(x.size());
  for (int64_t row = 0; row < NumElements(xs) / d; ++row) {
    Shape index = Unravel(row * d, xs);
    Shape cos_index = index;
    for (size_t k = 0; k < 3; ++k) cos_index[k] = cs[k] == 1 ? 0 : index[k];
    const int64_t cos_base = Ravel(cos_index, cs);
    std::vector<double> xr(d), cr(d), sr(d);
    for (int64_t i = 0; i < d; ++i) {
      xr[i] = x[static_cast<size_t>(row * d + i)].real();
      cr[i] = c[static_cast<size_t>(cos_base + i)].real();
      sr[i] = s[static_cast<size_t>(cos_base + i)].real();
    }
    const std::vector<double> yr = RotateRow(mode, xr, cr, sr);
    for (int64_t i = 0; i < d; ++i) y[static_cast<size_t>(row * d + i)] = yr[i];
  }
  return y;
}

// |x| cos + |x| sin, what the error of each output scales with.
inline std::vector<double> Magnitudes(const Values& x, const Shape& xs) {
  std::vector<double> m(x.size());
  const int64_t d = xs[3];
  for (size_t r = 0; r < x.size() / static_cast<size_t>(d); ++r) {
    double row = 0;
    for (int64_t i = 0; i < d; ++i) row = std::max(row, std::abs(x[r * d + i].real()));
    for (int64_t i = 0; i < d; ++i) m[r * d + i] = 2 * row;
  }
  return m;
}

}  // namespace canopy_test

#endif  // CANOPY_TESTS_OPS_ROPE_REFERENCE_H_
