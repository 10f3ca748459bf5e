// AddLora against a float64 reference that rounds to f16 where the kernel
// keeps f16 (z1 = x . A^T, z2 = z1 . B^T, z2 * scale, y + that), tolerating
// the f32 sums' order: with and without weightA, several adapters and layers,
// rows with no adapter (a negative index, or W), a y offset and a narrower
// weightB, strided views, out aliasing y, an empty batch, an index past the
// adapters failing the run, the doc's example and the rejections with codes.
#include <gtest/gtest.h>

#include <cmath>
#include <string>
#include <vector>

#include "acl/error_codes/rt_error_codes.h"
#include "aclnnop/aclnn_add_lora.h"
#include "op_test_support.h"

namespace canopy_test {
namespace {

struct Case {
  std::string name;
  int64_t batch = 4, h1 = 32, h2 = 16, h3 = 32, adapters = 2, layers = 1, rank = 16;
  bool withA = true;
  int64_t layerIdx = 0, yOffset = 0, ySliceSize = -1;
  double scale = 0.5;
  std::vector<int32_t> indices;  // empty: row b uses adapter b % adapters
  View yView = View::kContiguous, xView = View::kContiguous, bView = View::kContiguous, outView = View::kContiguous;
  bool inPlace = false;  // out is y
};

void PrintTo(const Case& c, std::ostream* os) { *os << c.name; }

Case Named(std::string name) {
  Case c;
  c.name = std::move(name);
  return c;
}

double Half(double v) { return HalfToDouble(DoubleToHalf(v)); }

OpRun RunAddLora(const Case& c, const DeviceTensor& y, const DeviceTensor& x, const DeviceTensor& b,
                 const DeviceTensor& indices, const DeviceTensor* a, const DeviceTensor& out) {
  return RunOp(
      [&](OpArgs& args, uint64_t* ws, aclOpExecutor** ex) {
        aclTensor* yTensor = args.Tensor(y);
        return aclnnAddLoraGetWorkspaceSize(yTensor, args.Tensor(x), args.Tensor(b), args.Tensor(indices),
                                            a != nullptr ? args.Tensor(*a) : nullptr, c.layerIdx, c.scale, c.yOffset,
                                            c.ySliceSize, c.inPlace ? yTensor : args.Tensor(out), ws, ex);
      },
      aclnnAddLora);
}

void RunCase(const Case& c) {
  Rng rng = Rng::ForCurrentTest();
  DeviceTensor y(ACL_FLOAT16, {c.batch, c.h3}, c.yView), x(ACL_FLOAT16, {c.batch, c.h1}, c.xView);
  DeviceTensor b(ACL_FLOAT16, {c.adapters, c.layers, c.h2, c.rank}, c.bView);
  DeviceTensor a(ACL_FLOAT16, {c.adapters, c.layers, c.rank, c.h1});
  DeviceTensor indices(ACL_INT32, {c.batch}), out(ACL_FLOAT16, {c.batch, c.h3}, c.outView);
  const Values yv = y.FillRandom(rng, Range{-4, 4});
  const Values xv = x.FillRandom(rng, Range{-1, 1});
  const Values bv = b.FillRandom(rng, Range{-0.5, 0.5});
  const Values av = a.FillRandom(rng, Range{-0.5, 0.5});
  Values iv;
  for (int64_t r = 0; r < c.batch; ++r) {
    iv.push_back(c.indices.empty() ? static_cast<double>(r % c.adapters) : c.indices[static_cast<size_t>(r)]);
  }
  indices.WriteView(iv);
  out.Poison();
  const std::vector<uint8_t> outBefore = out.DownloadBytes();
  const OpRun run = RunAddLora(c, y, x, b, indices, c.withA ? &a : nullptr, out);
  ASSERT_TRUE(run.ok()) << Describe(run);

  Expected want{yv, std::vector<double>(yv.size(), 0.0)};
  const double scale = Half(c.scale);
  for (int64_t r = 0; r < c.batch; ++r) {
    const auto adapter = static_cast<int64_t>(iv[static_cast<size_t>(r)].real());
    if (adapter < 0 || adapter == c.adapters) continue;
    std::vector<double> z1(static_cast<size_t>(c.rank)), z1Magnitude(static_cast<size_t>(c.rank));
    for (int64_t k = 0; k < c.rank; ++k) {
      double sum = 0, magnitude = 0;
      for (int64_t h = 0; h < (c.withA ? c.h1 : 1); ++h) {
        const double xh = xv[static_cast<size_t>(r * c.h1 + (c.withA ? h : k))].real();
        const double w =
            c.withA ? av[static_cast<size_t>(((adapter * c.layers + c.layerIdx) * c.rank + k) * c.h1 + h)].real() : 1;
        sum += xh * w;
        magnitude += std::abs(xh * w);
      }
      z1[static_cast<size_t>(k)] = c.withA ? Half(sum) : sum;
      z1Magnitude[static_cast<size_t>(k)] = magnitude;
    }
    for (int64_t n = 0; n < c.h2; ++n) {
      double sum = 0, magnitude = 0;
      for (int64_t k = 0; k < c.rank; ++k) {
        const double w = bv[static_cast<size_t>(((adapter * c.layers + c.layerIdx) * c.h2 + n) * c.rank + k)].real();
        sum += z1[static_cast<size_t>(k)] * w;
        magnitude +=
            (std::abs(z1[static_cast<size_t>(k)]) + z1Magnitude[static_cast<size_t>(k)] * 0x1p-10) * std::abs(w);
      }
      const double delta = Half(Half(sum) * scale);
      const auto at = static_cast<size_t>(r * c.h3 + c.yOffset + n);
      const double y0 = yv[at].real();
      want.values[at] = Half(y0 + delta);
      // Each f16 rounding the kernel does (z1, z2, the scaling, the sum) may land one step away.
      want.tolerance[at] = (std::abs(y0) + std::abs(delta)) * 0x1p-10 + magnitude * std::abs(scale) * 0x1p-9;
    }
  }
  ExpectNear(c.inPlace ? y.ReadView() : out.ReadView(), want, c.name);
  if (!c.inPlace) ExpectOutsideViewUnchanged(out, outBefore, c.name);
}

std::vector<Case> Cases() {
  std::vector<Case> cases;
  cases.push_back(Named("basic"));
  Case noA = Named("without_weight_a");
  noA.withA = false;
  noA.h1 = 16;
  cases.push_back(noA);
  Case layers = Named("adapters_and_layers");
  layers.batch = 7;
  layers.adapters = 3;
  layers.layers = 2;
  layers.layerIdx = 1;
  layers.indices = {2, -1, 0, 3, 1, 1, -5};
  layers.scale = 1.0 / 3;
  cases.push_back(layers);
  Case offset = Named("y_offset_narrow_b");
  offset.h3 = 64;
  offset.h2 = 32;
  offset.yOffset = 16;
  offset.ySliceSize = 16;
  offset.rank = 32;
  cases.push_back(offset);
  Case views = Named("views");
  views.yView = View::kStepped;
  views.xView = View::kTransposed;
  views.bView = View::kStepped;
  views.outView = View::kOffset;
  cases.push_back(views);
  Case reversed = Named("views_reversed_out");
  reversed.outView = View::kStepped;
  reversed.xView = View::kReversed;
  reversed.withA = false;
  reversed.h1 = 16;
  cases.push_back(reversed);
  Case inPlace = Named("out_is_y");
  inPlace.inPlace = true;
  inPlace.h3 = 48;
  inPlace.yOffset = 32;
  cases.push_back(inPlace);
  Case empty = Named("empty_batch");
  empty.batch = 0;
  cases.push_back(empty);
  return cases;
}

class AddLoraTest : public ::testing::TestWithParam<Case> {};
TEST_P(AddLoraTest, MatchesFloat64Reference) { RunCase(GetParam()); }
INSTANTIATE_TEST_SUITE_P(Cases, AddLoraTest, ::testing::ValuesIn(Cases()),
                         [](const ::testing::TestParamInfo<Case>& info) { return SanitizeName(info.param.name); });

// The doc's example: every tensor of ones, H1 = H2 = R = 16, one adapter and layer, scale 1:
// z1 = 16, z2 = 256, out = 1 + 256 = 257.
TEST(AddLoraExample, DocValues) {
  auto y = Upload(ACL_FLOAT16, {1, 16}, Values(16, 1));
  auto x = Upload(ACL_FLOAT16, {1, 16}, Values(16, 1));
  auto b = Upload(ACL_FLOAT16, {1, 1, 16, 16}, Values(256, 1));
  auto a = Upload(ACL_FLOAT16, {1, 1, 16, 16}, Values(256, 1));
  auto indices = Upload(ACL_INT32, {1}, {0});
  auto out = Poisoned(ACL_FLOAT16, {1, 16});
  Case c = Named("doc");
  c.scale = 1.0;
  const OpRun run = RunAddLora(c, *y, *x, *b, *indices, a.get(), *out);
  ASSERT_TRUE(run.ok()) << Describe(run);
  ExpectExact(out->ReadView(), Values(16, 257), "out");
}

// An index past W would read past the weights on the NPU: the run fails, out keeps its poison.
TEST(AddLoraStreamError, IndexPastTheAdapters) {
  Case c = Named("bad_index");
  DeviceTensor y(ACL_FLOAT16, {2, 32}), x(ACL_FLOAT16, {2, 32}), b(ACL_FLOAT16, {2, 1, 16, 16});
  DeviceTensor a(ACL_FLOAT16, {2, 1, 16, 32}), indices(ACL_INT32, {2}), out(ACL_FLOAT16, {2, 32});
  Rng rng = Rng::ForCurrentTest();
  for (DeviceTensor* t : {&y, &x, &b, &a}) t->FillRandom(rng, Range{-1, 1});
  indices.WriteView({0, 3});
  out.Poison();
  const std::vector<uint8_t> before = out.DownloadBytes();
  const OpRun run = RunAddLora(c, y, x, b, indices, &a, out);
  EXPECT_EQ(run.phase1, ACLNN_SUCCESS) << Describe(run);
  EXPECT_EQ(run.sync, ACL_ERROR_RT_AICORE_EXCEPTION) << Describe(run);
  EXPECT_NE(run.message.find("indices"), std::string::npos) << run.message;
  EXPECT_EQ(out.DownloadBytes(), before);
}

// ---- Rejections ---------------------------------------------------------------------------------

struct Call {
  Shape y = {2, 32}, x = {2, 32}, b = {2, 1, 16, 16}, indices = {2}, a = {2, 1, 16, 32}, out = {2, 32};
  aclDataType yDtype = ACL_FLOAT16, xDtype = ACL_FLOAT16, bDtype = ACL_FLOAT16, indexDtype = ACL_INT32,
              aDtype = ACL_FLOAT16, outDtype = ACL_FLOAT16;
  bool withA = true;
  int64_t layerIdx = 0, yOffset = 0, ySliceSize = -1;
};

RejectionCase Reject(std::string name, void (*change)(Call&), std::string keyword, aclnnStatus expected) {
  Call c;
  change(c);
  return {std::move(name),
          [c](OpArgs& args, uint64_t* ws, aclOpExecutor** ex) {
            return aclnnAddLoraGetWorkspaceSize(args.NewTensor(c.yDtype, c.y), args.NewTensor(c.xDtype, c.x),
                                                args.NewTensor(c.bDtype, c.b),
                                                args.NewTensorIn(Range{0, 1}, c.indexDtype, c.indices),
                                                c.withA ? args.NewTensor(c.aDtype, c.a) : nullptr, c.layerIdx, 1.0,
                                                c.yOffset, c.ySliceSize, args.NewTensor(c.outDtype, c.out), ws, ex);
          },
          aclnnAddLora, std::move(keyword), expected};
}

std::vector<RejectionCase> Rejections() {
  constexpr aclnnStatus kInvalid = ACLNN_ERR_PARAM_INVALID, kTiling = ACLNN_ERR_INNER_TILING_ERROR;
  return {
      Reject(
          "y_float", [](Call& c) { c.yDtype = ACL_FLOAT; }, "y", kInvalid),
      Reject(
          "x_bf16", [](Call& c) { c.xDtype = ACL_BF16; }, "x", kInvalid),
      Reject(
          "weight_b_float", [](Call& c) { c.bDtype = ACL_FLOAT; }, "weightB", kInvalid),
      Reject(
          "indices_int64", [](Call& c) { c.indexDtype = ACL_INT64; }, "indices", kInvalid),
      Reject(
          "weight_a_bf16", [](Call& c) { c.aDtype = ACL_BF16; }, "weightAOptional", kInvalid),
      Reject(
          "out_float", [](Call& c) { c.outDtype = ACL_FLOAT; }, "out", kInvalid),
      Reject(
          "y_rank3",
          [](Call& c) {
            c.y = c.out = {2, 1, 32};
          },
          "y", kTiling),
      Reject(
          "batch_differs",
          [](Call& c) {
            c.x = {3, 32};
          },
          "batch", kTiling),
      Reject(
          "weight_b_rank3",
          [](Call& c) {
            c.b = {2, 16, 16};
          },
          "weightB", kTiling),
      Reject(
          "h2_over_h3",
          [](Call& c) {
            c.b = {2, 1, 48, 16};
          },
          "weightB", kTiling),
      Reject(
          "indices_count", [](Call& c) { c.indices = {3}; }, "indices", kTiling),
      Reject(
          "weight_a_adapters",
          [](Call& c) {
            c.a = {3, 1, 16, 32};
          },
          "weightAOptional", kTiling),
      Reject(
          "weight_a_rank",
          [](Call& c) {
            c.a = {2, 1, 32, 32};
          },
          "weightAOptional", kTiling),
      Reject(
          "weight_a_h1",
          [](Call& c) {
            c.a = {2, 1, 16, 16};
          },
          "weightAOptional", kTiling),
      Reject(
          "layer_idx_1", [](Call& c) { c.layerIdx = 1; }, "layerIdx", kTiling),
      Reject(
          "layer_idx_negative", [](Call& c) { c.layerIdx = -1; }, "layerIdx", kTiling),
      Reject(
          "y_offset_negative", [](Call& c) { c.yOffset = -1; }, "yOffset", kTiling),
      Reject(
          "y_offset_past", [](Call& c) { c.yOffset = 32; }, "yOffset", kTiling),
      Reject(
          "y_offset_plus_h2", [](Call& c) { c.yOffset = 24; }, "yOffset", kTiling),
      Reject(
          "slice_over_h2", [](Call& c) { c.ySliceSize = 17; }, "ySliceSize", kTiling),
      Reject(
          "slice_negative", [](Call& c) { c.ySliceSize = -2; }, "ySliceSize", kTiling),
      Reject(
          "rank_over_128",
          [](Call& c) {
            c.b = {2, 1, 16, 144}, c.a = {2, 1, 144, 32};
          },
          "R", kTiling),
      Reject(
          "rank_unaligned",
          [](Call& c) {
            c.b = {2, 1, 16, 8}, c.a = {2, 1, 8, 32};
          },
          "R", kTiling),
      Reject(
          "adapters_over_32",
          [](Call& c) {
            c.b = {33, 1, 16, 16}, c.a = {33, 1, 16, 32};
          },
          "adapters", kTiling),
      Reject(
          "h1_unaligned",
          [](Call& c) {
            c.x = {2, 24}, c.a = {2, 1, 16, 24};
          },
          "H1", kTiling),
      Reject(
          "h3_unaligned",
          [](Call& c) {
            c.y = c.out = {2, 40};
          },
          "H3", kTiling),
      Reject(
          "no_a_width", [](Call& c) { c.withA = false; }, "R", kTiling),
      Reject(
          "out_shape",
          [](Call& c) {
            c.out = {2, 16};
          },
          "out", kInvalid),
  };
}

class AddLoraRejectionTest : public ::testing::TestWithParam<RejectionCase> {};
TEST_P(AddLoraRejectionTest, IsRejectedWithItsStatus) { ExpectRejection(GetParam()); }
INSTANTIATE_TEST_SUITE_P(Cases, AddLoraRejectionTest, ::testing::ValuesIn(Rejections()),
                         [](const ::testing::TestParamInfo<RejectionCase>& info) {
                           return SanitizeName(info.param.name);
                         });

}  // namespace
}  // namespace canopy_test
