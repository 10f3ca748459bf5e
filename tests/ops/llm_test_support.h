// Shared by the GLU, RoPE and attention suites: a rejection's status and
// message, and the float64-reference comparison those ops need (a relative
// tolerance in units of the dtype's roundoff, since the kernels compute in f32).
#ifndef CANOPY_TESTS_OPS_LLM_TEST_SUPPORT_H_
#define CANOPY_TESTS_OPS_LLM_TEST_SUPPORT_H_

#include <gtest/gtest.h>

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdint>
#include <numeric>
#include <string>
#include <vector>

#include "op_test_support.h"

namespace canopy_test {

// Sequence lengths as the prefix sums (each sequence's end) the varlen ops take.
inline std::vector<int64_t> PrefixSums(const std::vector<int64_t>& lengths) {
  std::vector<int64_t> ends(lengths.size());
  std::partial_sum(lengths.begin(), lengths.end(), ends.begin());
  return ends;
}

// The largest of `values` (not empty).
inline int64_t MaxOf(const std::vector<int64_t>& values) { return *std::max_element(values.begin(), values.end()); }

inline std::string LowerCase(std::string text) {
  std::transform(text.begin(), text.end(), text.begin(), [](unsigned char c) { return std::tolower(c); });
  return text;
}

// Phase 1 failed with `status` and a message naming each keyword.
inline void ExpectRejectedWith(const OpRun& run, aclnnStatus status, const std::vector<std::string>& keywords) {
  EXPECT_EQ(run.phase1, status) << Describe(run);
  for (const std::string& keyword : keywords) {
    EXPECT_NE(LowerCase(run.message).find(LowerCase(keyword)), std::string::npos)
        << "the message should name '" << keyword << "': '" << run.message << "'";
  }
}

// `want` computed in float64 from the stored inputs; each element may be off
// by `ulps` roundoffs of the dtype (f32 rounding at least) relative to
// `scale[i]` (the magnitude the error scales with; the value itself if empty).
inline Expected RelativeTolerance(const Values& want, aclDataType dtype, double ulps,
                                  const std::vector<double>& scale = {}) {
  Expected e;
  e.values = want;
  const double unit = std::max(UnitRoundoff(dtype), UnitRoundoff(ACL_FLOAT));
  for (size_t i = 0; i < want.size(); ++i) {
    const double magnitude = scale.empty() ? std::abs(want[i].real()) : scale[i];
    e.tolerance.push_back(ulps * unit * (magnitude + 1e-3));
  }
  return e;
}

// FlashAttentionScore's softmax statistics against their float64 values: the
// max is one score (f32 products of stored inputs), the sum adds up to Skv terms
// of at most 1; rows with no key (max -inf) compare as equal.
inline void ExpectSoftmaxStats(const DeviceTensor& max_out, const DeviceTensor& sum_out, Values want_max,
                               const Values& want_sum) {
  std::vector<double> score_scale(want_max.size(), 8.0), sum_scale;
  for (const Value& x : want_sum) sum_scale.push_back(4.0 * std::max(1.0, x.real()));
  Values got_max = max_out.ReadView();
  for (size_t i = 0; i < got_max.size() && i < want_max.size(); ++i) {
    if (std::isinf(want_max[i].real()) && got_max[i].real() == want_max[i].real()) got_max[i] = want_max[i] = 0.0;
  }
  ExpectNear(got_max, RelativeTolerance(want_max, ACL_FLOAT, 64, score_scale), "softmaxMaxOut");
  ExpectNear(sum_out.ReadView(), RelativeTolerance(want_sum, ACL_FLOAT, 64, sum_scale), "softmaxSumOut");
}

inline const std::vector<aclDataType>& HalfAndSingle() {
  static const std::vector<aclDataType> dtypes = {ACL_FLOAT, ACL_FLOAT16, ACL_BF16};
  return dtypes;
}

// The `count` quantised values of a quantisation's output: INT8 elements of its view, or the INT4
// nibbles of its bytes, low nibble first (INT4 and INT32 holding eight INT4 share this image).
inline std::vector<int> QuantisedValues(const DeviceTensor& y, aclDataType dtype, int64_t count) {
  std::vector<int> q;
  if (dtype == ACL_INT8) {
    for (const Value& v : y.ReadView()) q.push_back(static_cast<int>(v.real()));
    return q;
  }
  const std::vector<uint8_t> bytes = y.DownloadBytes();
  for (int64_t i = 0; i < count; ++i) {
    const int nibble = (bytes[static_cast<size_t>(i / 2)] >> (i % 2 == 0 ? 0 : 4)) & 0xF;
    q.push_back(nibble >= 8 ? nibble - 16 : nibble);
  }
  return q;
}

// The quantised GLU suites' reference (SwiGluQuant, DequantSwigluQuant): q rounded half to even
// and saturated to [lo, hi]; a value within f32 roundoff of a tie may go either way.
inline Expected RintQuant(const std::vector<double>& q, double lo, double hi) {
  Expected want;
  for (const double v : q) {
    want.values.emplace_back(std::clamp(std::nearbyint(v), lo, hi));
    const bool near_tie = std::abs(std::abs(v - std::trunc(v)) - 0.5) < 1e-4 * (1 + std::abs(v));
    want.tolerance.push_back(near_tie ? 1 : 0);
  }
  return want;
}

// swish(a) * b of each row's halves of `last` values, a the first half where activateLeft.
inline std::vector<double> SwiGluRows(const std::vector<double>& x, int64_t last, bool activateLeft) {
  const auto n = static_cast<size_t>(last / 2);
  std::vector<double> act;
  for (size_t r = 0; r + 2 * n <= x.size() && n > 0; r += 2 * n) {
    for (size_t j = 0; j < n; ++j) {
      const double first = x[r + j], second = x[r + n + j];
      const double a = activateLeft ? first : second, b = activateLeft ? second : first;
      act.push_back(a / (1 + std::exp(-a)) * b);
    }
  }
  return act;
}

}  // namespace canopy_test

#endif  // CANOPY_TESTS_OPS_LLM_TEST_SUPPORT_H_
