// aclnnFusedLinearOnlineMaxSum through the public C API: logits = input @
// weight^T and their per-row max, sum of exponentials, the target's logit, the
// local target index and the bit-packed target mask, against a float64
// reference; FLOAT16 and BFLOAT16, INT32 and INT64 targets, with and without
// the logits output, targets on both sides of the vocabulary range, rows not a
// multiple of 8, views, an empty input; then CANN's rejections.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include "aclnnop/aclnn_fused_linear_online_max_sum.h"
#include "op_test_support.h"

namespace canopy_test {
namespace {

struct FlomsCase {
  std::string name;
  int64_t m = 13, k = 32, v = 40;
  int64_t start = 100, end = 140;  // target values drawn from [start - 30, end + 30)
  aclDataType dtype = ACL_BF16;
  aclDataType targetDtype = ACL_INT64;
  bool logitsOut = true;
  View inputView = View::kContiguous, weightView = View::kContiguous, outView = View::kContiguous;
};

void PrintTo(const FlomsCase& c, std::ostream* os) { *os << c.name; }

class FusedLinearOnlineMaxSumTest : public ::testing::TestWithParam<FlomsCase> {};

TEST_P(FusedLinearOnlineMaxSumTest, MatchesReference) {
  const FlomsCase& c = GetParam();
  Rng rng = Rng::ForCurrentTest();
  SCOPED_TRACE("seed " + std::to_string(rng.seed()));
  DeviceTensor input(c.dtype, {c.m, c.k}, c.inputView), weight(c.dtype, {c.v, c.k}, c.weightView);
  const Values vi = input.FillRandom(rng, Range{-1, 1}), vw = weight.FillRandom(rng, Range{-1, 1});
  DeviceTensor target(c.targetDtype, {c.m});
  Values vt;
  for (int64_t i = 0; i < c.m; ++i) {
    vt.emplace_back(std::floor(rng.Uniform(static_cast<double>(c.start - 30), static_cast<double>(c.end + 30))));
  }
  if (c.m > 0) target.WriteView(vt);
  const int64_t bytes = (c.m + 7) / 8;
  DeviceTensor maxOut(ACL_FLOAT, {c.m}, c.outView), sumOut(ACL_FLOAT, {c.m}, c.outView),
      predicted(ACL_FLOAT, {c.m}, c.outView), mask(ACL_UINT8, {bytes}), masked(c.targetDtype, {c.m}, c.outView),
      logits(c.dtype, {c.m, c.v}, c.outView);
  for (DeviceTensor* t : {&maxOut, &sumOut, &predicted, &mask, &masked, &logits}) t->Poison();
  const OpRun run = RunOp(
      [&](OpArgs& args, uint64_t* workspaceSize, aclOpExecutor** executor) {
        return aclnnFusedLinearOnlineMaxSumGetWorkspaceSize(
            args.Tensor(input), args.Tensor(weight), args.Tensor(target), c.start, c.end, args.Tensor(maxOut),
            args.Tensor(sumOut), args.Tensor(predicted), args.Tensor(mask), args.Tensor(masked),
            c.logitsOut ? args.Tensor(logits) : nullptr, workspaceSize, executor);
      },
      aclnnFusedLinearOnlineMaxSum);
  ASSERT_TRUE(run.ok()) << Describe(run);
  if (c.m == 0) {
    EXPECT_EQ(run.workspaceSize, 0u);
    return;
  }
  Expected wantMax, wantSum, wantPredicted, wantLogits;
  Values wantMasked, wantMask;
  std::vector<bool> outside;
  for (int64_t i = 0; i < c.m; ++i) {
    std::vector<double> row(static_cast<size_t>(c.v));
    double rowMax = -INFINITY;
    for (int64_t j = 0; j < c.v; ++j) {
      double s = 0;
      for (int64_t kk = 0; kk < c.k; ++kk) {
        s += std::real(vi[static_cast<size_t>(i * c.k + kk)]) * std::real(vw[static_cast<size_t>(j * c.k + kk)]);
      }
      row[static_cast<size_t>(j)] = s;
      rowMax = std::max(rowMax, s);
      wantLogits.values.emplace_back(s);
      wantLogits.tolerance.push_back(std::fabs(s) * 2 * UnitRoundoff(c.dtype) + 1e-4);
    }
    double total = 0;
    for (double s : row) total += std::exp(s - rowMax);
    const auto t = static_cast<int64_t>(std::real(vt[static_cast<size_t>(i)]));
    const bool out = t < c.start || t >= c.end;
    outside.push_back(out);
    const int64_t local = out ? 0 : t - c.start;
    wantMax.values.emplace_back(rowMax);
    wantMax.tolerance.push_back(1e-4);
    wantSum.values.emplace_back(total);
    wantSum.tolerance.push_back(total * 1e-4);
    wantPredicted.values.emplace_back(out || local >= c.v ? 0.0 : row[static_cast<size_t>(local)] - rowMax);
    wantPredicted.tolerance.push_back(2e-4);
    wantMasked.emplace_back(static_cast<double>(local));
  }
  for (int64_t byte = 0; byte < bytes; ++byte) {
    int packed = 0;
    for (int bit = 0; bit < 8; ++bit) {
      const int64_t row = byte * 8 + bit;
      const bool out = row < c.m ? outside[static_cast<size_t>(row)] : (0 < c.start || 0 >= c.end);
      if (out) packed |= 1 << bit;
    }
    wantMask.emplace_back(packed);
  }
  ExpectNear(maxOut.ReadView(), wantMax, "logitsMaxLocalOut");
  ExpectNear(sumOut.ReadView(), wantSum, "sumExpLogitsLocalOut");
  ExpectNear(predicted.ReadView(), wantPredicted, "predictedLogitsLocalOut");
  ExpectExact(masked.ReadView(), wantMasked, "maskedTargetOut");
  ExpectExact(mask.ReadView(), wantMask, "targetMaskOut");
  if (c.logitsOut) ExpectNear(logits.ReadView(), wantLogits, "vocabParallelLogitsOutOptional");
}

std::vector<FlomsCase> Cases() {
  return {
      {.name = "bf16_i64"},
      {.name = "f16_i32", .dtype = ACL_FLOAT16, .targetDtype = ACL_INT32},
      {.name = "no_logits", .logitsOut = false},
      {.name = "rows_multiple_of_8", .m = 16, .k = 64, .v = 96, .start = 0, .end = 96},
      {.name = "start_zero_pad_bits", .m = 5, .start = 0, .end = 30},
      {.name = "large", .m = 128, .k = 512, .v = 1000, .start = 2000, .end = 3000, .targetDtype = ACL_INT32},
      {.name = "views", .inputView = View::kTransposed, .weightView = View::kStepped, .outView = View::kStepped},
      {.name = "empty_rows", .m = 0},
  };
}

INSTANTIATE_TEST_SUITE_P(Cases, FusedLinearOnlineMaxSumTest, ::testing::ValuesIn(Cases()),
                         [](const ::testing::TestParamInfo<FlomsCase>& info) { return info.param.name; });

// ---- rejections --------------------------------------------------------------------------------

struct BadFloms {
  std::string name;
  std::string keyword;
  Shape input = {4, 16}, weight = {8, 16}, target = {4}, stat = {4}, mask = {1}, logits = {4, 8};
  aclDataType inputDtype = ACL_BF16, weightDtype = ACL_BF16, targetDtype = ACL_INT64, statDtype = ACL_FLOAT,
              maskDtype = ACL_UINT8, maskedDtype = ACL_INT64, logitsDtype = ACL_BF16;
  int64_t start = 0, end = 8;
};

RejectionCase ToRejection(const BadFloms& b) {
  return {b.name,
          [b](OpArgs& args, uint64_t* workspaceSize, aclOpExecutor** executor) {
            return aclnnFusedLinearOnlineMaxSumGetWorkspaceSize(
                args.NewTensor(b.inputDtype, b.input), args.NewTensor(b.weightDtype, b.weight),
                args.NewTensor(b.targetDtype, b.target), b.start, b.end, args.NewTensor(b.statDtype, b.stat),
                args.NewTensor(ACL_FLOAT, b.stat), args.NewTensor(ACL_FLOAT, b.stat),
                args.NewTensor(b.maskDtype, b.mask), args.NewTensor(b.maskedDtype, b.stat),
                args.NewTensor(b.logitsDtype, b.logits), workspaceSize, executor);
          },
          aclnnFusedLinearOnlineMaxSum, b.keyword};
}

std::vector<RejectionCase> RejectionCases() {
  const std::vector<BadFloms> bad = {
      {.name = "input_f32", .keyword = "input", .inputDtype = ACL_FLOAT, .weightDtype = ACL_FLOAT},
      {.name = "weight_dtype", .keyword = "weight", .weightDtype = ACL_FLOAT16},
      {.name = "target_f32", .keyword = "target", .targetDtype = ACL_FLOAT},
      {.name = "stat_f16", .keyword = "logitsMaxLocalOut", .statDtype = ACL_FLOAT16},
      {.name = "mask_int8", .keyword = "targetMaskOut", .maskDtype = ACL_INT8},
      {.name = "masked_dtype", .keyword = "maskedTargetOut", .maskedDtype = ACL_INT32},
      {.name = "logits_dtype", .keyword = "vocabParallelLogitsOutOptional", .logitsDtype = ACL_FLOAT16},
      {.name = "input_rank3", .keyword = "input", .input = {1, 4, 16}},
      {.name = "weight_empty", .keyword = "weight.size(0)", .weight = {0, 16}, .logits = {4, 0}},
      {.name = "k_large",
       .keyword = "65534",
       .input = {1, 65535},
       .weight = {8, 65535},
       .target = {1},
       .stat = {1},
       .logits = {1, 8}},
      {.name = "k_mismatch", .keyword = "k", .weight = {8, 8}},
      {.name = "target_shape", .keyword = "target", .target = {5}},
      {.name = "mask_shape", .keyword = "targetMaskOut", .mask = {4}},
      {.name = "logits_shape", .keyword = "vocabParallelLogitsOutOptional", .logits = {4, 16}},
      {.name = "start_negative", .keyword = "vocabStartIndex", .start = -1},
      {.name = "end_before_start", .keyword = "vocabEndIndex", .start = 5, .end = 4},
  };
  std::vector<RejectionCase> cases;
  for (const BadFloms& b : bad) cases.push_back(ToRejection(b));
  return cases;
}

class FusedLinearOnlineMaxSumRejectionTest : public ::testing::TestWithParam<RejectionCase> {};
TEST_P(FusedLinearOnlineMaxSumRejectionTest, Rejects) { ExpectRejection(GetParam()); }
INSTANTIATE_TEST_SUITE_P(Cases, FusedLinearOnlineMaxSumRejectionTest, ::testing::ValuesIn(RejectionCases()),
                         [](const ::testing::TestParamInfo<RejectionCase>& info) { return info.param.name; });

}  // namespace
}  // namespace canopy_test
