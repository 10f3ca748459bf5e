// QuantConvolution through the public C API against a float64 reference:
// INT8 input and weight of the whole INT8 range, the exact integer sum scaled
// per output channel and biased, into BFLOAT16 and FLOAT16 outputs with each
// bias dtype A2 takes; strides, paddings and dilations, strided and offset
// views of every operand (a broadcast scale too), the doc's example call
// (non-null outputPadding with transposed false), and every rejection of
// CANN's A2 path with its code.
#include <gtest/gtest.h>

#include <memory>
#include <vector>

#include "op_test_support.h"
#include "quant_convolution_cases.h"

namespace canopy_test {
namespace {

using quant_conv::Form;

// The plain form's weight is an NCDHW tensor, seen through `weightView`.
struct QuantConvCase : quant_conv::CaseBase {
  View weightView = View::kContiguous;
};

void PrintTo(const QuantConvCase& c, std::ostream* os) { *os << c.name; }

void RunAndCheck(const QuantConvCase& c) {
  quant_conv::RunAndCheck(c, Form::kPlain, [&c](Rng& rng) {
    quant_conv::Weight weight{std::make_unique<DeviceTensor>(ACL_INT8, c.weight, c.weightView), {}};
    weight.values = weight.tensor->FillRandom(rng, Range{-128, 127});
    return weight;
  });
}

std::vector<QuantConvCase> Cases() {
  quant_conv::CaseList<QuantConvCase> cases;
  for (const auto& d : quant_conv::kOutputDtypes) {
    cases.Add(d.name, [&d](QuantConvCase& c) { c.outDtype = d.out, c.biasDtype = d.bias; });
  }
  cases.AddShared();
  cases.Add("dilation_2_3_1", [](QuantConvCase& c) {
    c.input = {2, 2, 6, 9, 5}, c.weight = {5, 2, 2, 3, 2}, c.dilation = {2, 3, 1}, c.padding = {0, 2, 1};
  });
  cases.Add("wide_channels", [](QuantConvCase& c) { c.input = {1, 40, 3, 4, 4}, c.weight = {33, 40, 2, 2, 2}; });
  // Views of the weight, and a stepped scale.
  cases.Add("weight_reversed", [](QuantConvCase& c) { c.weightView = View::kReversed; });
  cases.Add("weight_offset", [](QuantConvCase& c) { c.weightView = View::kOffset; });
  cases.Add("scale_stepped", [](QuantConvCase& c) { c.scaleView = View::kStepped; });
  return cases.cases();
}

class QuantConvolutionTest : public ::testing::TestWithParam<QuantConvCase> {};

TEST_P(QuantConvolutionTest, MatchesFloat64Reference) { RunAndCheck(GetParam()); }

INSTANTIATE_TEST_SUITE_P(Cases, QuantConvolutionTest, ::testing::ValuesIn(Cases()),
                         [](const ::testing::TestParamInfo<QuantConvCase>& info) {
                           return SanitizeName(info.param.name);
                         });

// A second call with new values in new buffers (a plan-cache hit) computes them.
TEST(QuantConvolutionCache, RepeatedCallUsesNewBuffers) {
  QuantConvCase c;
  c.name = "repeat";
  RunAndCheck(c);
  RunAndCheck(c);
}

TEST(QuantConvolutionReserved, IgnoredAsOnAtlasA2) { quant_conv::ExpectReservedIgnored(Form::kPlain); }

// ---- Rejections -------------------------------------------------------------------------------

// The shared rejections, then the plain form's own: more dtypes, a rank-4
// weight, an ND input, an empty depth, groups 0 and a weight of too few channels.
std::vector<RejectionCase> Rejections() {
  quant_conv::Rejections r(Form::kPlain);
  r.AddShared();
  using quant_conv::Call;
  r.Add("scale_uint64", "scale", [](Call& c) { c.scaleDtype = ACL_UINT64; });
  r.Add("input_int16", "input", [](Call& c) { c.inputDtype = c.weightDtype = ACL_INT16; });
  r.Add("output_int8", "output", [](Call& c) { c.outDtype = ACL_INT8; });
  r.Add("bias_bf16_out_f16", "bias", [](Call& c) { c.biasDtype = ACL_BF16, c.outDtype = ACL_FLOAT16; });
  r.Add("conv2d_input", "input", [](Call& c) {
    c.input = {1, 2, 4, 4}, c.weight = {3, 2, 3, 3}, c.out = {1, 3, 2, 2};
    c.inputFormat = c.weightFormat = c.outFormat = ACL_FORMAT_NCHW;
  });
  r.Add("weight_rank4", "weight", [](Call& c) { c.weight = {3, 2, 3, 3}, c.weightFormat = ACL_FORMAT_NCHW; });
  r.Add("bias_ncdhw", "bias", [](Call& c) { c.biasFormat = ACL_FORMAT_NCHW; });
  r.Add("input_nd", "input", [](Call& c) { c.inputFormat = ACL_FORMAT_ND; });
  r.Add("empty_depth", "input", [](Call& c) { c.input = {1, 2, 0, 4, 4}, c.out = {1, 3, 0, 2, 2}; });
  r.Add("groups_0", "groups", [](Call& c) { c.groups = 0; });
  r.Add("channels_mismatch", "channels", [](Call& c) { c.weight = {3, 1, 1, 3, 3}; });
  return r.cases();
}

class QuantConvolutionRejectionTest : public ::testing::TestWithParam<RejectionCase> {};

TEST_P(QuantConvolutionRejectionTest, IsRejectedWithItsStatus) { ExpectRejection(GetParam()); }

INSTANTIATE_TEST_SUITE_P(Cases, QuantConvolutionRejectionTest, ::testing::ValuesIn(Rejections()),
                         [](const ::testing::TestParamInfo<RejectionCase>& info) {
                           return SanitizeName(info.param.name);
                         });

}  // namespace
}  // namespace canopy_test
