// Shared by the GLU, RoPE and attention suites: a rejection's status and
// message, and the float64-reference comparison those ops need (a relative
// tolerance in units of the dtype's roundoff, since the kernels compute in f32).
#ifndef CANOPY_TESTS_OPS_LLM_TEST_SUPPORT_H_
#define CANOPY_TESTS_OPS_LLM_TEST_SUPPORT_H_

#include <gtest/gtest.h>

#include <algorithm>
#include <cctype>
#include <cmath>
#include <string>
#include <vector>

#include "op_test_support.h"

namespace canopy_test {

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

inline const std::vector<aclDataType>& HalfAndSingle() {
  static const std::vector<aclDataType> dtypes = {ACL_FLOAT, ACL_FLOAT16, ACL_BF16};
  return dtypes;
}

}  // namespace canopy_test

#endif  // CANOPY_TESTS_OPS_LLM_TEST_SUPPORT_H_
