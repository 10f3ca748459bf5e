// LogSpace through the public C API against a float64 reference: each result
// dtype, start / end scalars of several dtypes (the FLOAT16 / BFLOAT16 mix
// that CANN computes in FLOAT), bases below and above 1, steps 1 and 0,
// stepped, offset and 2-D results, the plan cache's scalar keys; then CANN's
// test shapes and the rejections with their codes.
#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <string>
#include <vector>

#include "aclnnop/aclnn_logspace.h"
#include "op_test_support.h"
#include "reference.h"

namespace canopy_test {
namespace {

struct LogSpaceCase {
  std::string name;
  aclDataType result;
  aclDataType startDtype, endDtype;
  double start, end;
  int64_t steps;
  double base;
  View view = View::kContiguous;
  Shape shape = {};  // empty: {steps}
};
void PrintTo(const LogSpaceCase& c, std::ostream* os) { *os << c.name; }

class LogSpaceTest : public ::testing::TestWithParam<LogSpaceCase> {};

TEST_P(LogSpaceTest, MatchesFloat64) {
  const LogSpaceCase& c = GetParam();
  const Shape shape = c.shape.empty() ? Shape{c.steps} : c.shape;
  DeviceTensor result(c.result, shape, c.view);
  result.Poison();
  const std::vector<uint8_t> poisoned = result.DownloadBytes();
  const OpRun run = RunOp(
      [&](OpArgs& args, uint64_t* ws, aclOpExecutor** ex) {
        return aclnnLogSpaceGetWorkspaceSize(args.Scalar(c.startDtype, c.start), args.Scalar(c.endDtype, c.end),
                                             c.steps, c.base, args.Tensor(result), ws, ex);
      },
      aclnnLogSpace);
  ASSERT_TRUE(run.ok()) << Describe(run);
  // CANN's stages: start, end and base (as a float) in the compute dtype, the exponents rounded to it, the powers too.
  const bool mixed = (c.startDtype == ACL_FLOAT16 && c.endDtype == ACL_BF16) ||
                     (c.startDtype == ACL_BF16 && c.endDtype == ACL_FLOAT16);
  const aclDataType compute = mixed ? ACL_FLOAT : c.result;
  auto in = [compute](double x) { return ConvertValue(x, compute).real(); };
  const double a = in(ConvertValue(c.start, c.startDtype).real());
  const double b = in(ConvertValue(c.end, c.endDtype).real());
  const double base = in(static_cast<float>(c.base));
  const double u = UnitRoundoff(compute);
  Expected want;
  for (int64_t i = 0; i < c.steps; ++i) {
    const double x = c.steps > 1 ? a + (b - a) * static_cast<double>(i) / static_cast<double>(c.steps - 1) : a;
    const double value = std::pow(base, x);
    want.values.push_back(ConvertValue(value, c.result));
    // The exponent's rounding, scaled by ln(base) |x|, and the power's and the cast's.
    const double exponentError = 2 * u * std::abs(x) * std::abs(std::log(base));
    want.tolerance.push_back(std::abs(value) * (exponentError + 2 * u + 2 * UnitRoundoff(c.result)));
  }
  ExpectNear(result.ReadView(), want, c.name);
  ExpectOutsideViewUnchanged(result, poisoned, "result");
}

std::vector<LogSpaceCase> LogSpaceCases() {
  std::vector<LogSpaceCase> cases;
  for (aclDataType dt : {ACL_FLOAT, ACL_FLOAT16, ACL_BF16}) {
    const std::string n = Name(dt);
    cases.push_back({n + "_base10", dt, ACL_FLOAT, ACL_FLOAT, -2, 3, 11, 10});
    cases.push_back({n + "_base2_descending", dt, ACL_INT32, ACL_INT64, 8, -4, 7, 2});
    cases.push_back({n + "_base_half", dt, ACL_DOUBLE, ACL_FLOAT, -1.5, 2.25, 9, 0.5});
    cases.push_back({n + "_base_e", dt, ACL_FLOAT16, ACL_FLOAT16, 0.25, 1.75, 6, 2.718281828459045});
    cases.push_back({n + "_one_step", dt, ACL_FLOAT, ACL_FLOAT, 1.5, 9, 1, 3});
    cases.push_back({n + "_stepped", dt, ACL_FLOAT, ACL_FLOAT, 0, 1, 33, 10, View::kStepped});
    cases.push_back({n + "_offset", dt, ACL_BF16, ACL_BF16, -1, 1, 5, 10, View::kOffset});
  }
  cases.push_back({"f16_bf16_mix_in_f32", ACL_FLOAT16, ACL_FLOAT16, ACL_BF16, 0.1, 1.3, 9, 10});
  cases.push_back({"bf16_f16_mix_in_f32", ACL_BF16, ACL_BF16, ACL_FLOAT16, 0.1, 1.3, 9, 10});
  cases.push_back({"bool_and_u8", ACL_FLOAT, ACL_BOOL, ACL_UINT8, 1, 5, 5, 2});
  cases.push_back({"large", ACL_FLOAT, ACL_FLOAT, ACL_FLOAT, -3, 3, 4099, 10});
  cases.push_back({"result_2d", ACL_FLOAT, ACL_FLOAT, ACL_FLOAT, 0, 2, 6, 10, View::kTransposed, {2, 3}});
  return cases;
}
INSTANTIATE_TEST_SUITE_P(LogSpace, LogSpaceTest, ::testing::ValuesIn(LogSpaceCases()),
                         [](const auto& info) { return SanitizeName(info.param.name); });

OpRun RunLogSpace(aclDataType result, const Shape& shape, int64_t steps, double start = 0, double base = 10.0) {
  return RunOp(
      [&](OpArgs& args, uint64_t* ws, aclOpExecutor** ex) {
        return aclnnLogSpaceGetWorkspaceSize(args.Scalar(ACL_FLOAT, start), args.Scalar(ACL_FLOAT, 2.0), steps, base,
                                             args.NewTensor(result, shape), ws, ex);
      },
      aclnnLogSpace);
}

TEST(LogSpaceEdges, CannShapesAndZeroSteps) {
  // CANN's tests: start 3.5, end 15.5, steps 5, base 10 into FLOAT16, FLOAT and BFLOAT16 [5]; steps 0 into [0].
  for (aclDataType dt : {ACL_FLOAT16, ACL_FLOAT, ACL_BF16}) EXPECT_TRUE(RunLogSpace(dt, {5}, 5, 3.5).ok());
  EXPECT_TRUE(RunLogSpace(ACL_FLOAT, {0}, 0).ok());
}

TEST(LogSpaceEdges, ScalarsKeyThePlan) {
  // The same shapes with another start must not reuse the first call's values.
  auto values = [](double start) {
    DeviceTensor result(ACL_FLOAT, {2});
    const OpRun run = RunOp(
        [&](OpArgs& args, uint64_t* ws, aclOpExecutor** ex) {
          return aclnnLogSpaceGetWorkspaceSize(args.Scalar(ACL_FLOAT, start), args.Scalar(ACL_FLOAT, 2.0), 2, 10.0,
                                               args.Tensor(result), ws, ex);
        },
        aclnnLogSpace);
    EXPECT_TRUE(run.ok()) << Describe(run);
    return result.ReadView();
  };
  ExpectExact(values(0), {1, 100}, "start 0");
  ExpectExact(values(1), {10, 100}, "start 1");
}

TEST(LogSpaceRejects, WithCannCodes) {
  EXPECT_EQ(RunLogSpace(ACL_DOUBLE, {5}, 5).phase1, ACLNN_ERR_PARAM_INVALID);
  EXPECT_EQ(RunLogSpace(ACL_INT32, {5}, 5).phase1, ACLNN_ERR_PARAM_INVALID);
  EXPECT_EQ(RunLogSpace(ACL_FLOAT, {5}, -1).phase1, ACLNN_ERR_PARAM_INVALID);
  EXPECT_EQ(RunLogSpace(ACL_FLOAT, {4}, 5).phase1, ACLNN_ERR_PARAM_INVALID);  // result does not hold steps values
  // CANN's host code: the base must be above 0 (even with no steps to compute).
  for (const double base : {0.0, -0.0, -2.0, -std::numeric_limits<double>::infinity()}) {
    EXPECT_EQ(RunLogSpace(ACL_FLOAT, {5}, 5, 0, base).phase1, ACLNN_ERR_PARAM_INVALID) << base;
    EXPECT_EQ(RunLogSpace(ACL_FLOAT, {0}, 0, 0, base).phase1, ACLNN_ERR_PARAM_INVALID) << base;
  }
  EXPECT_TRUE(RunLogSpace(ACL_FLOAT, {5}, 5, 0, 1e-30).ok());
  const OpRun null_start = RunOp(
      [&](OpArgs& args, uint64_t* ws, aclOpExecutor** ex) {
        return aclnnLogSpaceGetWorkspaceSize(nullptr, args.Scalar(ACL_FLOAT, 2.0), 5, 10.0,
                                             args.NewTensor(ACL_FLOAT, {5}), ws, ex);
      },
      aclnnLogSpace);
  EXPECT_NE(null_start.phase1, ACLNN_SUCCESS);
  EXPECT_NE(null_start.message.find("start"), std::string::npos) << null_start.message;
}

}  // namespace
}  // namespace canopy_test
