// InplaceQuantScatter against a plain reference: updates quantised along their
// last axis as the kernel does in f32 (rint(u / scale + zeroPoint), saturated
// to INT8), then written as slabs into selfRef at the offsets indices gives
// (1-D: row i into batch i; [n, 2]: (batch, offset) pairs), everything else of
// selfRef kept. Both dtype combinations with and without zero points, both
// index dtypes, ranks 3 and 4, strided views, empty tensors, out-of-range
// offsets failing the run without a write, the doc's example and the
// rejections with their codes.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <numeric>
#include <string>
#include <vector>

#include "acl/error_codes/rt_error_codes.h"
#include "aclnnop/aclnn_quant_scatter.h"
#include "op_test_support.h"

namespace canopy_test {
namespace {

struct Case {
  std::string name;
  Shape self, updates, indices;  // indices [n] offsets or [n, 2] (batch, offset) pairs
  aclDataType updatesDtype = ACL_FLOAT16, indexDtype = ACL_INT32;
  bool zeroPoints = true;
  int64_t axis = -2;
  View selfView = View::kContiguous, updatesView = View::kContiguous, indicesView = View::kContiguous;
};

void PrintTo(const Case& c, std::ostream* os) { *os << c.name; }

aclDataType ScaleDtype(aclDataType updates) { return updates == ACL_FLOAT16 ? ACL_FLOAT : ACL_BF16; }
aclDataType ZeroDtype(aclDataType updates) { return updates == ACL_FLOAT16 ? ACL_INT32 : ACL_BF16; }

// The kernel's arithmetic: f32 quotient plus zero point, rounded half to even, saturated.
double Quantise(double update, double scale, double zero) {
  const float q = static_cast<float>(update) / static_cast<float>(scale) + static_cast<float>(zero);
  return std::clamp(static_cast<double>(std::nearbyint(q)), -128.0, 127.0);
}

OpRun RunQuantScatter(const Case& c, const DeviceTensor& self, const DeviceTensor& indices, const DeviceTensor& updates,
                      const DeviceTensor& scales, const DeviceTensor* zeros) {
  return RunOp(
      [&](OpArgs& a, uint64_t* ws, aclOpExecutor** ex) {
        return aclnnInplaceQuantScatterGetWorkspaceSize(a.Tensor(self), a.Tensor(indices), a.Tensor(updates),
                                                        a.Tensor(scales), zeros != nullptr ? a.Tensor(*zeros) : nullptr,
                                                        c.axis, -1, 1, ws, ex);
      },
      aclnnInplaceQuantScatter);
}

void RunCase(const Case& c) {
  Rng rng = Rng::ForCurrentTest();
  const auto rank = static_cast<int64_t>(c.self.size());
  const int64_t axis = c.axis < 0 ? c.axis + rank : c.axis;
  const int64_t rows = c.updates[0], columns = c.updates.back();
  const int64_t length = c.updates[static_cast<size_t>(axis)];
  DeviceTensor self(ACL_INT8, c.self, c.selfView), updates(c.updatesDtype, c.updates, c.updatesView);
  DeviceTensor indices(c.indexDtype, c.indices, c.indicesView), scales(ScaleDtype(c.updatesDtype), {columns});
  DeviceTensor zeros(ZeroDtype(c.updatesDtype), {1, 1, columns});
  const Values before = self.FillRandom(rng, Range{-100, 100});
  const Values u = updates.FillRandom(rng, Range{-20, 20});
  const Values s = scales.FillRandom(rng, Range{0.05, 2});
  const Values z = c.zeroPoints ? zeros.FillRandom(rng, Range{-6, 6}) : Values(static_cast<size_t>(columns), 0);
  // Distinct batches for pairs, so no two slabs overlap (CANN leaves overlaps undefined).
  std::vector<int64_t> batch(static_cast<size_t>(rows)), offset(static_cast<size_t>(rows));
  std::vector<int64_t> order(static_cast<size_t>(c.self[0]));
  std::iota(order.begin(), order.end(), 0);
  std::reverse(order.begin(), order.end());
  Values encoded;
  for (int64_t i = 0; i < rows; ++i) {
    const bool pairs = c.indices.size() == 2;
    batch[static_cast<size_t>(i)] = pairs ? order[static_cast<size_t>(i)] : i;
    offset[static_cast<size_t>(i)] =
        static_cast<int64_t>(rng.Uniform(0, static_cast<double>(c.self[static_cast<size_t>(axis)] - length + 1)));
    if (pairs) encoded.push_back(static_cast<double>(batch[static_cast<size_t>(i)]));
    encoded.push_back(static_cast<double>(offset[static_cast<size_t>(i)]));
  }
  indices.WriteView(encoded);
  const OpRun run = RunQuantScatter(c, self, indices, updates, scales, c.zeroPoints ? &zeros : nullptr);
  ASSERT_TRUE(run.ok()) << Describe(run);
  Values want = before;
  for (int64_t k = 0; k < NumElements(c.updates); ++k) {
    Shape target = Unravel(k, c.updates);
    const int64_t column = target.back();
    const auto row = static_cast<size_t>(target[0]);
    target[0] = batch[row];
    target[static_cast<size_t>(axis)] += offset[row];
    want[static_cast<size_t>(Ravel(target, c.self))] = Quantise(
        u[static_cast<size_t>(k)].real(), s[static_cast<size_t>(column)].real(), z[static_cast<size_t>(column)].real());
  }
  ExpectExact(self.ReadView(), want, c.name);
}

std::vector<Case> Cases() {
  std::vector<Case> cases;
  for (const aclDataType dtype : {ACL_FLOAT16, ACL_BF16}) {
    for (const aclDataType index : {ACL_INT32, ACL_INT64}) {
      for (const bool zero : {true, false}) {
        Case c{std::string(Name(dtype)) + "_" + Name(index) + (zero ? "_zero_points" : "_no_zero_points"),
               {3, 8, 32},
               {3, 3, 32},
               {3}};
        c.updatesDtype = dtype;
        c.indexDtype = index;
        c.zeroPoints = zero;
        cases.push_back(c);
      }
    }
  }
  cases.push_back({"pairs", {5, 6, 64}, {3, 2, 64}, {3, 2}, ACL_BF16, ACL_INT64});
  cases.push_back({"rank4_axis1", {2, 7, 2, 32}, {2, 3, 2, 32}, {2}, ACL_FLOAT16, ACL_INT32, true, 1});
  cases.push_back({"rank4_axis_minus2", {2, 2, 9, 32}, {2, 2, 4, 32}, {2}, ACL_FLOAT16, ACL_INT32, true, -2});
  cases.push_back({"fewer_rows", {4, 5, 32}, {2, 5, 32}, {2}, ACL_BF16, ACL_INT32});
  Case views{"views", {3, 8, 32}, {3, 2, 32}, {3}, ACL_FLOAT16, ACL_INT64};
  views.selfView = View::kStepped;
  views.updatesView = View::kTransposed;
  views.indicesView = View::kStepped;
  cases.push_back(views);
  views.name = "views_offset";
  views.updatesDtype = ACL_BF16;
  views.selfView = View::kOffset;
  views.updatesView = View::kStepped;
  cases.push_back(views);
  return cases;
}

class InplaceQuantScatterTest : public ::testing::TestWithParam<Case> {};
TEST_P(InplaceQuantScatterTest, MatchesReference) { RunCase(GetParam()); }
INSTANTIATE_TEST_SUITE_P(Cases, InplaceQuantScatterTest, ::testing::ValuesIn(Cases()),
                         [](const ::testing::TestParamInfo<Case>& info) { return SanitizeName(info.param.name); });

// The doc's example as its comments mean it (its host vectors hold two values for 32-element
// tensors): updates 1.0, scales 0.5, INT32 zero points 0 into a zero [1, 1, 32] selfRef at 0: all 2.
TEST(InplaceQuantScatterExample, DocValues) {
  auto self = Upload(ACL_INT8, {1, 1, 32}, Values(32, 0));
  auto indices = Upload(ACL_INT32, {1}, {0});
  auto updates = Upload(ACL_FLOAT16, {1, 1, 32}, Values(32, 1.0));
  auto scales = Upload(ACL_FLOAT, {1, 1, 32}, Values(32, 0.5));
  auto zeros = Upload(ACL_INT32, {1, 1, 32}, Values(32, 0));
  const Case c{"doc", {1, 1, 32}, {1, 1, 32}, {1}};
  const OpRun run = RunQuantScatter(c, *self, *indices, *updates, *scales, zeros.get());
  ASSERT_TRUE(run.ok()) << Describe(run);
  ExpectExact(self->ReadView(), Values(32, 2), "selfRef");
}

// Offsets past the end (or negative) fail the run at synchronisation, naming the op; selfRef keeps its values.
TEST(InplaceQuantScatterStreamError, OutOfRangeOffsetsLeaveSelf) {
  for (const double bad : {-1.0, 6.0}) {
    Rng rng = Rng::ForCurrentTest();
    DeviceTensor self(ACL_INT8, {2, 8, 32}), indices(ACL_INT64, {2}), updates(ACL_FLOAT16, {2, 3, 32});
    DeviceTensor scales(ACL_FLOAT, {32});
    const Values before = self.FillRandom(rng, Range{-100, 100});
    updates.FillRandom(rng, Range{-4, 4});
    scales.FillRandom(rng, Range{0.5, 2});
    indices.WriteView({1, bad});  // 6 + 3 > 8
    const OpRun run =
        RunQuantScatter(Case{"bad", {2, 8, 32}, {2, 3, 32}, {2}}, self, indices, updates, scales, nullptr);
    EXPECT_EQ(run.phase1, ACLNN_SUCCESS) << Describe(run);
    EXPECT_EQ(run.sync, ACL_ERROR_RT_AICORE_EXCEPTION) << Describe(run);
    EXPECT_NE(run.message.find("aclnnInplaceQuantScatter"), std::string::npos) << run.message;
    ExpectExact(self.ReadView(), before, "nothing written");
  }
}

// CANN returns a call with an empty selfRef, indices, updates or quantScales at once, whatever its shapes.
TEST(InplaceQuantScatterEmpty, NothingWritten) {
  const std::vector<std::vector<Shape>> shapes = {
      {{0, 8, 32}, {0}, {0, 3, 32}, {32}}, {{2, 8, 32}, {0}, {0, 3, 32}, {32}}, {{2, 8, 32}, {2}, {2, 3, 32}, {0}}};
  for (const auto& s : shapes) {
    Rng rng = Rng::ForCurrentTest();
    DeviceTensor self(ACL_INT8, s[0]), indices(ACL_INT32, s[1]), updates(ACL_FLOAT16, s[2]);
    DeviceTensor scales(ACL_FLOAT, s[3]);
    const Values before = self.FillRandom(rng, Range{-100, 100});
    const OpRun run = RunQuantScatter(Case{"empty", s[0], s[2], s[1]}, self, indices, updates, scales, nullptr);
    ASSERT_TRUE(run.ok()) << Describe(run);
    EXPECT_EQ(run.workspaceSize, 0u);
    ExpectExact(self.ReadView(), before, "selfRef");
  }
}

// ---- Rejections ---------------------------------------------------------------------------------

struct Call {
  aclDataType self = ACL_INT8, indices = ACL_INT32, updates = ACL_FLOAT16, scales = ACL_FLOAT, zeros = ACL_INT32;
  Shape selfShape = {2, 8, 32}, indicesShape = {2}, updatesShape = {2, 3, 32}, scalesShape = {32}, zerosShape = {32};
  int64_t axis = -2, quantAxis = -1;
  bool withZeros = true;
};

RejectionCase Reject(std::string name, void (*change)(Call&), std::string keyword, aclnnStatus expected) {
  Call c;
  change(c);
  return {std::move(name),
          [c](OpArgs& a, uint64_t* ws, aclOpExecutor** ex) {
            return aclnnInplaceQuantScatterGetWorkspaceSize(
                a.NewTensor(c.self, c.selfShape), a.NewTensorIn(Range{0, 0, 0, 0, true}, c.indices, c.indicesShape),
                a.NewTensor(c.updates, c.updatesShape), a.NewTensorIn(Range{0.5, 1}, c.scales, c.scalesShape),
                c.withZeros ? a.NewTensor(c.zeros, c.zerosShape) : nullptr, c.axis, c.quantAxis, 1, ws, ex);
          },
          aclnnInplaceQuantScatter, std::move(keyword), expected};
}

std::vector<RejectionCase> Rejections() {
  constexpr aclnnStatus kInvalid = ACLNN_ERR_PARAM_INVALID, kTiling = ACLNN_ERR_INNER_NULLPTR;
  return {
      Reject(
          "self_int32", [](Call& c) { c.self = ACL_INT32; }, "selfRef", kInvalid),
      Reject(
          "indices_float", [](Call& c) { c.indices = ACL_FLOAT; }, "indices", kInvalid),
      Reject(
          "updates_float", [](Call& c) { c.updates = ACL_FLOAT; }, "updates", kInvalid),
      Reject(
          "scales_f16", [](Call& c) { c.scales = ACL_FLOAT16; }, "quantScales", kInvalid),
      Reject(
          "zeros_float", [](Call& c) { c.zeros = ACL_FLOAT; }, "quantZeroPoints", kInvalid),
      Reject(
          "f16_with_bf16_scales", [](Call& c) { c.scales = ACL_BF16; }, "quantScales", kInvalid),
      Reject(
          "bf16_with_f32_scales", [](Call& c) { c.updates = c.zeros = ACL_BF16; }, "quantScales", kInvalid),
      Reject(
          "bf16_with_int32_zeros", [](Call& c) { c.updates = c.scales = ACL_BF16; }, "quantZeroPoints", kInvalid),
      Reject(
          "no_zeros_mixed", [](Call& c) { c.withZeros = false, c.scales = ACL_BF16; }, "quantScales", kInvalid),
      Reject(
          "ranks_differ",
          [](Call& c) {
            c.updatesShape = {2, 96};
          },
          "rank", kInvalid),
      Reject(
          "rank2",
          [](Call& c) {
            c.selfShape = {8, 32}, c.updatesShape = {2, 32}, c.axis = 0;
          },
          "rank", kTiling),
      Reject(
          "axis_last", [](Call& c) { c.axis = -1; }, "axis", kTiling),
      Reject(
          "axis_0", [](Call& c) { c.axis = 0; }, "axis", kTiling),
      Reject(
          "quant_axis_1", [](Call& c) { c.quantAxis = 1; }, "quantAxis", kTiling),
      Reject(
          "scales_count", [](Call& c) { c.scalesShape = {16}; }, "quantScales", kTiling),
      Reject(
          "zeros_count",
          [](Call& c) {
            c.zerosShape = {2, 32};
          },
          "quantZeroPoints", kTiling),
      Reject(
          "last_axis_unaligned",
          [](Call& c) {
            c.selfShape = {2, 8, 16}, c.updatesShape = {2, 3, 16}, c.scalesShape = c.zerosShape = {16};
          },
          "32-byte", kTiling),
      Reject(
          "indices_rank3",
          [](Call& c) {
            c.indicesShape = {2, 2, 1};
          },
          "indices", kTiling),
      Reject(
          "pairs_of_3",
          [](Call& c) {
            c.indicesShape = {2, 3};
          },
          "selfRef", kTiling),
      Reject(
          "slab_too_long",
          [](Call& c) {
            c.updatesShape = {2, 9, 32};
          },
          "selfRef", kTiling),
      Reject(
          "rows_differ", [](Call& c) { c.indicesShape = {1}; }, "selfRef", kTiling),
      Reject(
          "other_extent",
          [](Call& c) {
            c.selfShape = {2, 8, 64}, c.scalesShape = c.zerosShape = {32};
          },
          "selfRef", kTiling),
  };
}

class InplaceQuantScatterRejectionTest : public ::testing::TestWithParam<RejectionCase> {};
TEST_P(InplaceQuantScatterRejectionTest, IsRejectedWithItsStatus) { ExpectRejection(GetParam()); }
INSTANTIATE_TEST_SUITE_P(Cases, InplaceQuantScatterRejectionTest, ::testing::ValuesIn(Rejections()),
                         [](const ::testing::TestParamInfo<RejectionCase>& info) {
                           return SanitizeName(info.param.name);
                         });

}  // namespace
}  // namespace canopy_test
