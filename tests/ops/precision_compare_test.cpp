// PrecisionCompare through the public API: equal data (contiguous, transposed,
// reversed and offset views, rank 0 and 8) gives 0; one differing element,
// -0 against +0 or a NaN against a number gives 503 (a bit-for-bit compare),
// the same NaN matches; empty tensors leave out as it was; CANN's example; the
// rejections with their codes.
#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <string>
#include <vector>

#include "aclnnop/aclnn_precision_compare.h"
#include "op_test_support.h"

namespace canopy_test {
namespace {

constexpr uint32_t kMatch = 0, kMismatch = 503, kUntouched = 0xA5A5A5A5u;
const std::vector<aclDataType> kDtypes = {ACL_FLOAT, ACL_FLOAT16, ACL_BF16};

// out after comparing `golden` with `realdata` (realdata in `view`).
uint32_t Compare(aclDataType dtype, const Shape& shape, const Values& golden, const Values& realdata,
                 View view = View::kContiguous) {
  auto goldenTensor = Upload(dtype, shape, golden);
  DeviceTensor realTensor(dtype, shape, view);
  realTensor.WriteView(realdata);
  auto out = Upload(ACL_UINT32, {}, {Value(kUntouched)});
  const OpRun run = RunOp(
      [&](OpArgs& args, uint64_t* ws, aclOpExecutor** ex) {
        return aclnnPrecisionCompareGetWorkspaceSize(args.Tensor(*goldenTensor), args.Tensor(realTensor),
                                                     args.Tensor(*out), ws, ex);
      },
      aclnnPrecisionCompare);
  EXPECT_TRUE(run.ok()) << Describe(run);
  return static_cast<uint32_t>(out->ReadView()[0].real());
}

TEST(PrecisionCompare, EqualDataInEveryViewIsZero) {
  Rng rng = Rng::ForCurrentTest();
  for (aclDataType dtype : kDtypes) {
    for (const Shape& shape : {Shape{4, 2}, Shape{3, 5, 7}, Shape{}, Shape{2, 1, 2, 1, 2, 1, 2, 3}}) {
      for (View view : {View::kContiguous, View::kTransposed, View::kReversed, View::kOffset, View::kStepped}) {
        const Values values = RandomValues(rng, dtype, NumElements(shape), Range{-8, 8});
        EXPECT_EQ(Compare(dtype, shape, values, values, view), kMatch)
            << Name(dtype) << ShapeString(shape) << " " << ViewName(view);
      }
    }
  }
}

TEST(PrecisionCompare, AnyDifferingElementIs503) {
  Rng rng = Rng::ForCurrentTest();
  for (aclDataType dtype : kDtypes) {
    const Shape shape = {6, 9};
    const Values golden = RandomValues(rng, dtype, NumElements(shape), Range{1, 8});
    for (size_t at : {size_t{0}, size_t{31}, golden.size() - 1}) {
      Values real = golden;
      real[at] = ConvertValue(golden[at].real() * 2, dtype);
      EXPECT_EQ(Compare(dtype, shape, golden, real, View::kTransposed), kMismatch) << Name(dtype) << " at " << at;
    }
  }
}

TEST(PrecisionCompare, ComparesBitForBit) {
  const double nan = std::numeric_limits<double>::quiet_NaN();
  for (aclDataType dtype : kDtypes) {
    EXPECT_EQ(Compare(dtype, {2}, {0.0, 1.0}, {-0.0, 1.0}), kMismatch) << Name(dtype) << " -0";
    EXPECT_EQ(Compare(dtype, {2}, {nan, 1.0}, {nan, 1.0}), kMatch) << Name(dtype) << " NaN";
    EXPECT_EQ(Compare(dtype, {2}, {nan, 1.0}, {2.0, 1.0}), kMismatch) << Name(dtype) << " NaN and 2";
  }
}

TEST(PrecisionCompare, EmptyTensorsLeaveOutAlone) { EXPECT_EQ(Compare(ACL_FLOAT, {0, 3}, {}, {}), kUntouched); }

TEST(PrecisionCompare, CannExample) {
  const Values data = {0, 1, 2, 3, 4, 5, 6, 7};
  EXPECT_EQ(Compare(ACL_FLOAT, {4, 2}, data, data), kMatch);
}

std::vector<RejectionCase> Rejections() {
  struct Spec {
    std::string name;
    aclDataType golden, real, out;
    Shape goldenShape, realShape, outShape;
    std::string keyword;
  };
  const std::vector<Spec> specs = {
      {"dtypes_differ", ACL_FLOAT, ACL_FLOAT16, ACL_UINT32, {2, 3}, {2, 3}, {}, "realdata"},
      {"int32_inputs", ACL_INT32, ACL_INT32, ACL_UINT32, {2, 3}, {2, 3}, {}, "golden"},
      {"double_inputs", ACL_DOUBLE, ACL_DOUBLE, ACL_UINT32, {2, 3}, {2, 3}, {}, "golden"},
      {"int32_out", ACL_FLOAT, ACL_FLOAT, ACL_INT32, {2, 3}, {2, 3}, {}, "out"},
      {"shapes_differ", ACL_FLOAT, ACL_FLOAT, ACL_UINT32, {2, 3}, {3, 2}, {}, "realdata"},
      {"out_rank_1", ACL_FLOAT, ACL_FLOAT, ACL_UINT32, {2, 3}, {2, 3}, {1}, "out"},
  };
  std::vector<RejectionCase> cases;
  for (const Spec& s : specs) {
    cases.push_back({s.name,
                     [s](OpArgs& args, uint64_t* ws, aclOpExecutor** ex) {
                       return aclnnPrecisionCompareGetWorkspaceSize(args.NewTensor(s.golden, s.goldenShape),
                                                                    args.NewTensor(s.real, s.realShape),
                                                                    args.NewTensor(s.out, s.outShape), ws, ex);
                     },
                     aclnnPrecisionCompare, s.keyword});
  }
  return cases;
}

class PrecisionCompareRejects : public ::testing::TestWithParam<RejectionCase> {};
TEST_P(PrecisionCompareRejects, WithItsCodeAndAMessageNamingTheArgument) { ExpectRejection(GetParam()); }
INSTANTIATE_TEST_SUITE_P(Cases, PrecisionCompareRejects, ::testing::ValuesIn(Rejections()),
                         [](const ::testing::TestParamInfo<RejectionCase>& info) { return info.param.name; });

}  // namespace
}  // namespace canopy_test
