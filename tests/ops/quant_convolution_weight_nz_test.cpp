// QuantConvolutionWeightNz through the public C API against a float64
// reference: INT8 input and weight of the whole INT8 range, the weight handed
// over in FRACTAL_Z_3D storage prepared two ways: through
// aclnnNpuFormatCastCalculateSizeAndFormat and aclnnNpuFormatCast exactly as
// CANN's example does, and packed by this file's own reading of the layout
// (padding filled with random values, which must not matter). Each output and
// bias dtype of A2, strides, paddings, dilations, more than 16 output and 32
// input channels (N1, C1 > 1), strided views of the other operands, the doc's
// example call, the same result as QuantConvolution with the NCDHW weight, and
// every rejection of CANN's path with its code (the weight's format and
// storage shape among them).
#include <gtest/gtest.h>

#include <memory>
#include <string>
#include <vector>

#include "aclnnop/aclnn_npu_format_cast.h"
#include "aclnnop/aclnn_quant_convolution.h"
#include "op_test_support.h"
#include "quant_convolution_cases.h"

namespace canopy_test {
namespace {

using quant_conv::Form;
using quant_conv::kC0;
using quant_conv::kN0;
using quant_conv::NzLayout;
using quant_conv::NzStorage;

// How the test builds the weight's FRACTAL_Z_3D storage.
enum class Prep { kFormatCast, kPacked };

struct Case : quant_conv::CaseBase {
  Prep prep = Prep::kFormatCast;
};

void PrintTo(const Case& c, std::ostream* os) { *os << c.name; }

// The storage of `values` (NCDHW, row-major) walked in storage order: each
// element traced back to (n, c, d, h, w); padding gets random INT8 values.
Values PackFractalZ3d(const Values& values, const Shape& w, Rng& rng) {
  const Shape storage = NzStorage(w);
  const int64_t c1Count = quant_conv::CeilDiv(w[1], kC0);
  Values packed;
  for (int64_t flat = 0; flat < NumElements(storage); ++flat) {
    const Shape at = Unravel(flat, storage);  // [(d, c1, h, w), n1, n0, c0]
    int64_t row = at[0];
    const int64_t x = row % w[4];
    row /= w[4];
    const int64_t y = row % w[3];
    row /= w[3];
    const int64_t c1 = row % c1Count, d = row / c1Count;
    const int64_t n = at[1] * kN0 + at[2], ch = c1 * kC0 + at[3];
    if (n < w[0] && ch < w[1]) {
      packed.push_back(values[static_cast<size_t>(Ravel({n, ch, d, y, x}, w))]);
    } else {
      packed.push_back(rng.Draw(ACL_INT8, Range{-128, 127}));
    }
  }
  return packed;
}

// The doc example's preparation: the NCDHW weight's storage shape and format
// from CalculateSizeAndFormat (dstFormat 33, additionalDtype -1), a tensor of
// the NCDHW view over that storage, then NpuFormatCast into it.
std::unique_ptr<DeviceTensor> CastToNz(const DeviceTensor& ncdhw, aclFormat* format) {
  aclTensor* descriptor = ncdhw.CreateDescriptor(ACL_FORMAT_NCDHW);
  int64_t* dims = nullptr;
  uint64_t count = 0;
  int actual = -1;
  const aclnnStatus status =
      aclnnNpuFormatCastCalculateSizeAndFormat(descriptor, ACL_FRACTAL_Z_3D, -1, &dims, &count, &actual);
  aclDestroyTensor(descriptor);
  EXPECT_EQ(status, ACLNN_SUCCESS) << aclGetRecentErrMsg();
  if (status != ACLNN_SUCCESS) return nullptr;
  const Shape storage(dims, dims + count);
  delete[] dims;
  EXPECT_EQ(storage, NzStorage(ncdhw.shape()));
  EXPECT_EQ(actual, ACL_FRACTAL_Z_3D);
  *format = static_cast<aclFormat>(actual);
  auto nz = std::make_unique<DeviceTensor>(ACL_INT8, NzLayout(ncdhw.shape(), storage));
  nz->Poison();
  const OpRun cast = RunOp(
      [&](OpArgs& a, uint64_t* ws, aclOpExecutor** ex) {
        return aclnnNpuFormatCastGetWorkspaceSize(a.Tensor(ncdhw, ACL_FORMAT_NCDHW), a.Tensor(*nz, *format), ws, ex);
      },
      aclnnNpuFormatCast);
  EXPECT_TRUE(cast.ok()) << Describe(cast);
  return cast.ok() ? std::move(nz) : nullptr;
}

// The weight of `values` in FRACTAL_Z_3D storage, as `prep` says.
std::unique_ptr<DeviceTensor> NzWeight(const Shape& shape, const Values& values, Prep prep, Rng& rng) {
  if (prep == Prep::kFormatCast) {
    auto ncdhw = Upload(ACL_INT8, shape, values);
    aclFormat format = ACL_FORMAT_UNDEFINED;
    return CastToNz(*ncdhw, &format);
  }
  auto nz = std::make_unique<DeviceTensor>(ACL_INT8, NzLayout(shape, NzStorage(shape)));
  nz->UploadStorage(PackFractalZ3d(values, shape, rng));
  return nz;
}

void RunAndCheck(const Case& c) {
  quant_conv::RunAndCheck(c, Form::kWeightNz, [&c](Rng& rng) {
    quant_conv::Weight weight;
    weight.values = RandomValues(rng, ACL_INT8, NumElements(c.weight), Range{-128, 127});
    weight.tensor = NzWeight(c.weight, weight.values, c.prep, rng);
    return weight;
  });
}

std::vector<Case> Cases() {
  quant_conv::CaseList<Case> cases;
  for (const auto& d : quant_conv::kOutputDtypes) {
    cases.Add(std::string(d.name) + "_format_cast", [&d](Case& c) { c.outDtype = d.out, c.biasDtype = d.bias; });
    cases.Add(std::string(d.name) + "_packed",
              [&d](Case& c) { c.outDtype = d.out, c.biasDtype = d.bias, c.prep = Prep::kPacked; });
  }
  cases.AddShared();
  cases.Add("dilation_2_3_1_packed", [](Case& c) {
    c.input = {2, 2, 6, 9, 5}, c.weight = {5, 2, 2, 3, 2}, c.dilation = {2, 3, 1}, c.padding = {0, 2, 1};
    c.prep = Prep::kPacked;
  });
  // N1 = 3 and C1 = 2: the blocks past the first, and their padding.
  cases.Add("n1_3_c1_2_format_cast", [](Case& c) { c.input = {1, 40, 3, 4, 4}, c.weight = {33, 40, 2, 2, 2}; });
  cases.Add("n1_3_c1_2_packed", [](Case& c) {
    c.input = {1, 40, 3, 4, 4}, c.weight = {33, 40, 2, 2, 2}, c.prep = Prep::kPacked;
  });
  cases.Add("exact_blocks_packed", [](Case& c) {
    c.input = {1, 64, 2, 3, 3}, c.weight = {32, 64, 1, 2, 2}, c.prep = Prep::kPacked;
  });
  cases.Add("scale_offset_bias_reversed", [](Case& c) { c.scaleView = View::kOffset, c.biasView = View::kReversed; });
  return cases.cases();
}

class QuantConvolutionWeightNzTest : public ::testing::TestWithParam<Case> {};

TEST_P(QuantConvolutionWeightNzTest, MatchesFloat64Reference) { RunAndCheck(GetParam()); }

INSTANTIATE_TEST_SUITE_P(Cases, QuantConvolutionWeightNzTest, ::testing::ValuesIn(Cases()),
                         [](const ::testing::TestParamInfo<Case>& info) { return SanitizeName(info.param.name); });

// A second call with new values in new buffers (a plan-cache hit) computes them.
TEST(QuantConvolutionWeightNzCache, RepeatedCallUsesNewBuffers) {
  Case c;
  c.name = "repeat";
  RunAndCheck(c);
  c.prep = Prep::kPacked;
  RunAndCheck(c);
}

// The same operands through QuantConvolution (NCDHW weight) and WeightNz
// (that weight cast to FRACTAL_Z_3D) give the same bytes.
TEST(QuantConvolutionWeightNzMatchesPlainForm, SameBytes) {
  TestStream();  // acl initialised before the first allocation
  Rng rng = Rng::ForCurrentTest();
  const Shape inShape = {2, 35, 3, 5, 4}, wShape = {18, 35, 2, 3, 2}, outShape = {2, 18, 4, 3, 4};
  const Values x = RandomValues(rng, ACL_INT8, NumElements(inShape), Range{-128, 127});
  const Values w = RandomValues(rng, ACL_INT8, NumElements(wShape), Range{-128, 127});
  const Values s = RandomValues(rng, ACL_FLOAT, wShape[0], Range{-0.01, 0.01, 0.001});
  const Values b = RandomValues(rng, ACL_FLOAT16, wShape[0], Range{-8, 8});
  auto input = Upload(ACL_INT8, inShape, x), weight = Upload(ACL_INT8, wShape, w);
  auto scale = Upload(ACL_FLOAT, {wShape[0]}, s), bias = Upload(ACL_FLOAT16, {wShape[0]}, b);
  aclFormat format = ACL_FORMAT_UNDEFINED;
  const std::unique_ptr<DeviceTensor> nz = CastToNz(*weight, &format);
  ASSERT_NE(nz, nullptr);
  auto plainOut = Poisoned(ACL_FLOAT16, outShape), nzOut = Poisoned(ACL_FLOAT16, outShape);
  const std::vector<int64_t> stride = {1, 2, 1}, padding = {1, 1, 1}, dilation = {1, 1, 2};
  ExpectRuns(
      [&](OpArgs& a, uint64_t* ws, aclOpExecutor** ex) {
        return aclnnQuantConvolutionGetWorkspaceSize(
            a.Tensor(*input, ACL_FORMAT_NCDHW), a.Tensor(*weight, ACL_FORMAT_NCDHW), a.Tensor(*bias), a.Tensor(*scale),
            nullptr, a.IntArray(stride), a.IntArray(padding), a.IntArray(dilation), false, nullptr, 1, 0, nullptr,
            a.Tensor(*plainOut, ACL_FORMAT_NCDHW), ws, ex);
      },
      aclnnQuantConvolution);
  ExpectRuns(
      [&](OpArgs& a, uint64_t* ws, aclOpExecutor** ex) {
        return aclnnQuantConvolutionWeightNzGetWorkspaceSize(
            a.Tensor(*input, ACL_FORMAT_NCDHW), a.Tensor(*nz, format), a.Tensor(*bias), a.Tensor(*scale), nullptr,
            a.IntArray(stride), a.IntArray(padding), a.IntArray(dilation), false, nullptr, 1, 0, nullptr,
            a.Tensor(*nzOut, ACL_FORMAT_NCDHW), ws, ex);
      },
      aclnnQuantConvolutionWeightNz);
  EXPECT_EQ(nzOut->DownloadBytes(), plainOut->DownloadBytes());
}

TEST(QuantConvolutionWeightNzReserved, IgnoredAsOnAtlasA2) { quant_conv::ExpectReservedIgnored(Form::kWeightNz); }

// ---- Rejections -------------------------------------------------------------------------------

// The shared rejections, then WeightNz's own: the weight's format and storage
// shape, a rank-4 input with the rank-5 weight, more input channels than the weight's.
std::vector<RejectionCase> Rejections() {
  quant_conv::Rejections r(Form::kWeightNz);
  r.AddShared();
  using quant_conv::Call;
  r.Add("conv2d_input", "input", [](Call& c) {
    c.input = {1, 2, 4, 4}, c.out = {1, 3, 2, 2}, c.inputFormat = c.outFormat = ACL_FORMAT_NCHW;
  });
  // The weight's rank is its view's (the NCDHW weight's), its format FRACTAL_Z_3D.
  r.Add("weight_view_is_storage", "weight", [](Call& c) { c.weightStorage = c.weight = NzStorage(c.weight); });
  r.Add("bias_nchw", "bias", [](Call& c) { c.biasFormat = ACL_FORMAT_NCHW; });
  r.Add("input_fractal_z_3d", "input", [](Call& c) { c.inputFormat = ACL_FRACTAL_Z_3D; });
  r.Add("weight_ncdhw", "weight", [](Call& c) { c.weightFormat = ACL_FORMAT_NCDHW, c.weightStorage = c.weight; });
  r.Add("weight_fractal_z", "weight", [](Call& c) { c.weightFormat = ACL_FORMAT_FRACTAL_Z; });
  r.Add("weight_fractal_nz", "weight", [](Call& c) { c.weightFormat = ACL_FORMAT_FRACTAL_NZ; });
  // The weight's storage shape.
  r.Add("storage_c0_16", "storage", [](Call& c) { c.weightStorage = {9, 1, 16, 16}; });
  r.Add("storage_n1_2", "storage", [](Call& c) { c.weightStorage = {9, 2, 16, 32}; });
  r.Add("storage_rows_without_d", "storage", [](Call& c) {
    c.weightStorage = NzStorage(c.weight), c.weight = {3, 2, 2, 3, 3}, c.out = {1, 3, 2, 2, 2};
  });
  r.Add("storage_rank5", "storage", [](Call& c) { c.weightStorage = {1, 9, 1, 16, 32}; });
  r.Add("storage_zero_dim", "storage", [](Call& c) { c.weightStorage = {9, 0, 16, 32}; });
  r.Add("channels_mismatch", "channels", [](Call& c) { c.input = {1, 3, 3, 4, 4}; });
  return r.cases();
}

class QuantConvolutionWeightNzRejectionTest : public ::testing::TestWithParam<RejectionCase> {};

TEST_P(QuantConvolutionWeightNzRejectionTest, IsRejectedWithItsStatus) { ExpectRejection(GetParam()); }

INSTANTIATE_TEST_SUITE_P(Cases, QuantConvolutionWeightNzRejectionTest, ::testing::ValuesIn(Rejections()),
                         [](const ::testing::TestParamInfo<RejectionCase>& info) {
                           return SanitizeName(info.param.name);
                         });

}  // namespace
}  // namespace canopy_test
