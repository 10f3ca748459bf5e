// ConvTbc through the public API against a float64 reference of
// torch.conv_tbc: every A2 dtype, pads from 0 to more than the kernel, a
// kernel as long as the padded input, strided and transposed views of each
// operand, empty inputs (out is the bias), NCL formats, CANN's example and
// the rejections.
#include <gtest/gtest.h>

#include <cmath>
#include <string>
#include <vector>

#include "aclnnop/aclnn_convolution.h"
#include "op_test_support.h"

namespace canopy_test {
namespace {

struct TbcCase {
  int64_t t, b, cin, cout, k, pad;
};

Expected Reference(const Values& x, const Values& w, const Values& bias, const TbcCase& c, aclDataType dtype) {
  const int64_t tout = c.t + 2 * c.pad - c.k + 1;
  Expected e;
  for (int64_t t = 0; t < tout; ++t) {
    for (int64_t b = 0; b < c.b; ++b) {
      for (int64_t co = 0; co < c.cout; ++co) {
        double sum = bias[static_cast<size_t>(co)].real(), magnitude = std::abs(sum);
        for (int64_t k = 0; k < c.k; ++k) {
          const int64_t at = t + k - c.pad;
          if (at < 0 || at >= c.t) continue;
          for (int64_t ci = 0; ci < c.cin; ++ci) {
            const double term = x[static_cast<size_t>((at * c.b + b) * c.cin + ci)].real() *
                                w[static_cast<size_t>((k * c.cin + ci) * c.cout + co)].real();
            sum += term;
            magnitude += std::abs(term);
          }
        }
        e.values.emplace_back(sum);
        e.tolerance.push_back(8 * UnitRoundoff(ACL_FLOAT) * magnitude + UnitRoundoff(dtype) * std::abs(sum));
      }
    }
  }
  return e;
}

TEST(ConvTbc, MatchesReference) {
  const std::vector<TbcCase> cases = {
      {5, 2, 3, 4, 3, 1}, {7, 3, 4, 2, 1, 0}, {4, 1, 2, 3, 4, 0}, {3, 2, 5, 6, 5, 2}, {6, 2, 3, 3, 2, 4}};
  for (aclDataType dtype : {ACL_FLOAT, ACL_FLOAT16, ACL_BF16}) {
    for (const TbcCase& c : cases) {
      for (View view : {View::kContiguous, View::kTransposed, View::kStepped}) {
        SCOPED_TRACE(std::string(Name(dtype)) + " T" + std::to_string(c.t) + " K" + std::to_string(c.k) + " pad " +
                     std::to_string(c.pad) + " " + ViewName(view));
        Rng rng = Rng::ForCurrentTest();
        DeviceTensor self(dtype, {c.t, c.b, c.cin}, view), weight(dtype, {c.k, c.cin, c.cout}, view);
        DeviceTensor bias(dtype, {c.cout});
        const Values x = self.FillRandom(rng, Range{-2, 2}), w = weight.FillRandom(rng, Range{-2, 2});
        const Values b = bias.FillRandom(rng, Range{-2, 2});
        DeviceTensor out(dtype, {c.t + 2 * c.pad - c.k + 1, c.b, c.cout}, view);
        out.Poison();
        ExpectRuns(
            [&](OpArgs& a, uint64_t* ws, aclOpExecutor** e) {
              return aclnnConvTbcGetWorkspaceSize(a.Tensor(self), a.Tensor(weight), a.Tensor(bias), c.pad,
                                                  a.Tensor(out), 1, ws, e);
            },
            aclnnConvTbc);
        ExpectNear(out.ReadView(), Reference(x, w, b, c, dtype), "ConvTbc");
      }
    }
  }
}

// CANN's example: all ones, T 2, K 3, pad 1, NCL formats: every element 1 + 2 * 3 = 7.
TEST(ConvTbc, CannExample) {
  const auto self = Upload(ACL_FLOAT, {2, 2, 3}, Values(12, Value(1)));
  const auto weight = Upload(ACL_FLOAT, {3, 3, 4}, Values(36, Value(1)));
  const auto bias = Upload(ACL_FLOAT, {4}, Values(4, Value(1)));
  DeviceTensor out(ACL_FLOAT, {2, 2, 4});
  ExpectRuns(
      [&](OpArgs& a, uint64_t* w, aclOpExecutor** e) {
        return aclnnConvTbcGetWorkspaceSize(a.Tensor(*self, ACL_FORMAT_NCL), a.Tensor(*weight, ACL_FORMAT_NCL),
                                            a.Tensor(*bias), 1, a.Tensor(out, ACL_FORMAT_NCL), 1, w, e);
      },
      aclnnConvTbc);
  ExpectExact(out.ReadView(), Values(16, Value(7)), "ConvTbc example");
}

// An empty self leaves nothing to sum: out is the bias.
TEST(ConvTbc, EmptyInputGivesTheBias) {
  const auto bias = Upload(ACL_FLOAT, {3}, {1.5, -2, 4});
  DeviceTensor out(ACL_FLOAT, {2, 0 + 2, 3});
  const OpRun run = RunOp(
      [&](OpArgs& a, uint64_t* w, aclOpExecutor** e) {
        return aclnnConvTbcGetWorkspaceSize(a.NewTensor(ACL_FLOAT, {3, 2, 0}), a.NewTensor(ACL_FLOAT, {2, 0, 3}),
                                            a.Tensor(*bias), 0, a.Tensor(out), 1, w, e);
      },
      aclnnConvTbc);
  ASSERT_TRUE(run.ok()) << Describe(run);
  ExpectExact(out.ReadView(), {1.5, -2, 4, 1.5, -2, 4, 1.5, -2, 4, 1.5, -2, 4}, "bias");
}

using A = OpArgs;
using W = uint64_t*;
using E = aclOpExecutor**;

std::vector<RejectionCase> Rejections() {
  auto call = [](aclDataType dtype, Shape self, aclDataType weightDtype, Shape weight, Shape bias, int64_t pad,
                 Shape out, int8_t cube = 1) {
    return [=](A& a, W w, E e) {
      return aclnnConvTbcGetWorkspaceSize(a.NewTensor(dtype, self), a.NewTensor(weightDtype, weight),
                                          a.NewTensor(dtype, bias), pad, a.NewTensor(dtype, out), cube, w, e);
    };
  };
  const aclDataType f = ACL_FLOAT;
  return {
      {"double", call(ACL_DOUBLE, {4, 1, 2}, ACL_DOUBLE, {3, 2, 2}, {2}, 0, {2, 1, 2}), aclnnConvTbc, "'bias'"},
      {"weight_dtype", call(f, {4, 1, 2}, ACL_FLOAT16, {3, 2, 2}, {2}, 0, {2, 1, 2}), aclnnConvTbc, "weight"},
      {"self_rank", call(f, {4, 2}, f, {3, 2, 2}, {2}, 0, {2, 1, 2}), aclnnConvTbc, "'self'"},
      {"bias_rank", call(f, {4, 1, 2}, f, {3, 2, 2}, {1, 2}, 0, {2, 1, 2}), aclnnConvTbc, "'bias'"},
      {"cin", call(f, {4, 1, 3}, f, {3, 2, 2}, {2}, 0, {2, 1, 2}), aclnnConvTbc, "Cin"},
      {"bias_cout", call(f, {4, 1, 2}, f, {3, 2, 2}, {3}, 0, {2, 1, 2}), aclnnConvTbc, "Cout"},
      {"kernel_too_long", call(f, {2, 1, 2}, f, {4, 2, 2}, {2}, 1, {1, 1, 2}), aclnnConvTbc, "T + pad"},
      {"pad_negative", call(f, {4, 1, 2}, f, {3, 2, 2}, {2}, -1, {0, 1, 2}), aclnnConvTbc, "'pad'"},
      {"out_shape", call(f, {4, 1, 2}, f, {3, 2, 2}, {2}, 0, {3, 1, 2}), aclnnConvTbc, "'out'"},
      {"cube_math_type", call(f, {4, 1, 2}, f, {3, 2, 2}, {2}, 0, {2, 1, 2}, 7), aclnnConvTbc, "cubeMathType"},
      {"format_nchw",
       [](A& a, W w, E e) {
         return aclnnConvTbcGetWorkspaceSize(a.NewTensor(ACL_FLOAT, {4, 1, 2}, View::kContiguous, ACL_FORMAT_NCHW),
                                             a.NewTensor(ACL_FLOAT, {3, 2, 2}), a.NewTensor(ACL_FLOAT, {2}), 0,
                                             a.NewTensor(ACL_FLOAT, {2, 1, 2}), 1, w, e);
       },
       aclnnConvTbc, "format"},
  };
}

class ConvTbcRejects : public ::testing::TestWithParam<RejectionCase> {};
TEST_P(ConvTbcRejects, WithItsCodeAndAMessageNamingTheArgument) { ExpectRejection(GetParam()); }
INSTANTIATE_TEST_SUITE_P(Cases, ConvTbcRejects, ::testing::ValuesIn(Rejections()),
                         [](const auto& info) { return SanitizeName(info.param.name); });

}  // namespace
}  // namespace canopy_test
