// GRU through the public API against a float64 reference written out here:
// one and more layers, one and two directions, with and without biases and
// hx, batchFirst, the training outputs (r, z, n, the hidden part of n, h),
// both A2 dtypes, strided views, CANN's doc example shape, empty inputs and
// the rejections (packed input among them, as CANN) with their codes.
#include <gtest/gtest.h>

#include <array>
#include <cmath>
#include <memory>
#include <ostream>
#include <string>
#include <vector>

#include "aclnnop/aclnn_gru.h"
#include "op_test_support.h"
#include "rnn_test_support.h"

namespace canopy_test {
namespace {

constexpr size_t kGateOutputs = 5;  // r, z, n, hn, h

using GruCase = RnnCase;

struct GruResult {
  std::vector<double> output, hy;
  GateValues gates;
};

// CANN's semantics in float64: r and z from the summed projections, n = tanh(gx_n + r * (W_hn h + b_hn)),
// h' = z * h + (1 - z) * n, stored in the dtype between steps as its kernels keep it.
GruResult Reference(const GruCase& c, const Values& input, const std::vector<Values>& params, const Values& h0) {
  const int64_t t = c.steps, b = c.batch, h = c.hidden, d = c.Directions();
  const int64_t groupLen = c.bias ? 4 : 2;
  auto at = [](int64_t i) { return static_cast<size_t>(i); };
  std::vector<double> x = TimeMajor(input, t, b, c.inputSize, c.batchFirst);
  GruResult result;
  result.hy.resize(at(c.layers * d * b * h));
  int64_t width = c.inputSize;
  for (int64_t layer = 0; layer < c.layers; ++layer) {
    std::vector<double> y(at(t * b * d * h));
    for (int64_t dir = 0; dir < d; ++dir) {
      const int64_t group = layer * d + dir;
      const Values& wih = params[at(group * groupLen)];
      const Values& whh = params[at(group * groupLen + 1)];
      auto bias = [&](int64_t which, int64_t n) {
        return c.bias ? params[at(group * groupLen + 2 + which)][at(n)].real() : 0.0;
      };
      std::vector<double> hs(at(b * h), 0.0);
      if (c.hx) {
        for (int64_t i = 0; i < b * h; ++i) hs[at(i)] = h0[at(group * b * h + i)].real();
      }
      std::vector<std::vector<double>> gates(kGateOutputs, std::vector<double>(at(t * b * h)));
      for (int64_t s = 0; s < t; ++s) {
        const int64_t step = dir == 1 ? t - 1 - s : s;
        for (int64_t r = 0; r < b; ++r) {
          std::vector<double> gx(at(3 * h)), gh(at(3 * h));
          for (int64_t n = 0; n < 3 * h; ++n) {
            gx[at(n)] = bias(0, n) + RowDot(x, step * b + r, wih, n, width);
            gh[at(n)] = bias(1, n) + RowDot(hs, r, whh, n, h);
          }
          for (int64_t j = 0; j < h; ++j) {
            const double reset = Sigmoid(gx[at(j)] + gh[at(j)]), z = Sigmoid(gx[at(h + j)] + gh[at(h + j)]);
            const double hn = gh[at(2 * h + j)];
            const double n = std::tanh(gx[at(2 * h + j)] + reset * hn);
            double& hid = hs[at(r * h + j)];
            hid = RoundTo(c.dtype, z * hid + (1 - z) * n);
            y[at((step * b + r) * d * h + dir * h + j)] = hid;
            const std::array<double, kGateOutputs> values = {reset, z, n, hn, hid};
            for (size_t k = 0; k < kGateOutputs; ++k) gates[k][at((step * b + r) * h + j)] = values[k];
          }
        }
      }
      for (int64_t i = 0; i < b * h; ++i) result.hy[at(group * b * h + i)] = hs[at(i)];
      result.gates.push_back(std::move(gates));
    }
    x = y;
    width = d * h;
  }
  result.output = FromTimeMajor(x, t, b, d * h, c.batchFirst);
  return result;
}

void RunCase(const GruCase& c) {
  SCOPED_TRACE(c.name + " " + Name(c.dtype));
  Rng rng = Rng::ForCurrentTest();
  const int64_t t = c.steps, b = c.batch, h = c.hidden, d = c.Directions();
  DeviceTensor input(c.dtype, c.batchFirst ? Shape{b, t, c.inputSize} : Shape{t, b, c.inputSize}, c.view);
  const Values inputValues = input.FillRandom(rng, Range{-1, 1});
  std::vector<Values> paramValues;
  auto params = RandomParams(rng, c.dtype, ParamShapes(3, c.layers, d, c.inputSize, h, c.bias), c.view, paramValues);
  const Shape state = {c.layers * d, b, h};
  const View stepped = c.view == View::kContiguous ? View::kContiguous : View::kStepped;
  DeviceTensor hx(c.dtype, state, stepped);
  const Values h0 = hx.FillRandom(rng, Range{-1, 1});
  DeviceTensor output(c.dtype, c.batchFirst ? Shape{b, t, d * h} : Shape{t, b, d * h}, stepped);
  DeviceTensor hy(c.dtype, state, View::kTransposed);
  output.Poison();
  hy.Poison();
  const GateTensors gates = PoisonedGateTensors(c.dtype, kGateOutputs, c.layers * d, {t, b, h});
  ExpectRuns(
      [&](OpArgs& a, uint64_t* w, aclOpExecutor** e) {
        const std::vector<aclTensorList*> lists = GateListsOf(a, gates, c.train);
        return aclnnGRUGetWorkspaceSize(a.Tensor(input), ListOf(a, params), c.hx ? a.Tensor(hx) : nullptr, nullptr,
                                        c.bias, c.layers, 0.0, c.train, c.bidirectional, c.batchFirst, a.Tensor(output),
                                        a.Tensor(hy), lists[0], lists[1], lists[2], lists[3], lists[4], w, e);
      },
      aclnnGRU);
  const GruResult want = Reference(c, inputValues, paramValues, h0);
  const int64_t depth = c.steps * c.layers;
  ExpectNear(output.ReadView(), NearRecurrence(want.output, c.dtype, depth), "output");
  ExpectNear(hy.ReadView(), NearRecurrence(want.hy, c.dtype, depth), "hy");
  if (c.train) ExpectGateOutputs(gates, want.gates, c.dtype, depth);
}

std::vector<GruCase> Cases() {
  std::vector<GruCase> cases = FixedLengthCases();
  // CANN's doc example's shape: T 2, B 2, I 4, H 3, one layer, bias, train.
  cases.push_back(
      {.name = "doc_example", .steps = 2, .batch = 2, .inputSize = 4, .hidden = 3, .bias = true, .train = true});
  return cases;
}

class GruMatches : public ::testing::TestWithParam<GruCase> {};
TEST_P(GruMatches, TheFloat64Reference) { RunCase(GetParam()); }
INSTANTIATE_TEST_SUITE_P(Cases, GruMatches, ::testing::ValuesIn(Cases()),
                         [](const auto& info) { return RnnCaseName(info.param); });

// An empty input computes nothing, as CANN's: the outputs keep what they held.
TEST(GRU, EmptyInputWritesNothing) {
  auto input = Poisoned(ACL_FLOAT, {3, 0, 4});
  auto wih = Poisoned(ACL_FLOAT, {6, 4}), whh = Poisoned(ACL_FLOAT, {6, 2});
  auto output = Poisoned(ACL_FLOAT, {3, 0, 2}), hy = Poisoned(ACL_FLOAT, {1, 0, 2});
  ExpectRuns(
      [&](OpArgs& a, uint64_t* w, aclOpExecutor** e) {
        return aclnnGRUGetWorkspaceSize(a.Tensor(*input), a.TensorList({a.Tensor(*wih), a.Tensor(*whh)}), nullptr,
                                        nullptr, false, 1, 0.0, false, false, false, a.Tensor(*output), a.Tensor(*hy),
                                        nullptr, nullptr, nullptr, nullptr, nullptr, w, e);
      },
      aclnnGRU);
}

// ---- Rejections ----------------------------------------------------------------------------------

using A = OpArgs;
using W = uint64_t*;
using E = aclOpExecutor**;

struct CallArgs {
  aclDataType dtype = ACL_FLOAT, paramDtype = ACL_FLOAT, hxDtype = ACL_FLOAT;
  Shape input = {3, 2, 4};
  std::vector<Shape> params = {{9, 4}, {9, 3}};
  bool hx = false;
  Shape hxShape = {1, 2, 3};
  bool packed = false;
  bool bias = false, train = false;
  int64_t layers = 1;
  Shape output = {3, 2, 3}, hy = {1, 2, 3};
  bool nullGates = false;
  int64_t gateCount = 1;
  Shape gate = {3, 2, 3};
};

std::function<aclnnStatus(A&, W, E)> Call(CallArgs c) {
  return [=](A& a, W w, E e) {
    std::vector<aclTensor*> params;
    for (size_t i = 0; i < c.params.size(); ++i) {
      params.push_back(a.NewTensor(i == 1 ? c.paramDtype : c.dtype, c.params[i]));
    }
    std::array<aclTensorList*, kGateOutputs> lists{};
    for (auto& list : lists) {
      if (!c.train || c.nullGates) continue;
      std::vector<aclTensor*> gs;
      for (int64_t i = 0; i < c.gateCount; ++i) gs.push_back(a.NewTensor(c.dtype, c.gate));
      list = a.TensorList(gs);
    }
    return aclnnGRUGetWorkspaceSize(a.NewTensor(c.dtype, c.input), a.TensorList(params),
                                    c.hx ? a.NewTensor(c.hxDtype, c.hxShape) : nullptr,
                                    c.packed ? a.NewTensorIn(Range{1, 2}, ACL_INT64, {3}) : nullptr, c.bias, c.layers,
                                    0.0, c.train, false, false, a.NewTensor(c.dtype, c.output),
                                    a.NewTensor(c.dtype, c.hy), lists[0], lists[1], lists[2], lists[3], lists[4], w, e);
  };
}

std::vector<RejectionCase> Rejections() {
  std::vector<RejectionCase> cases;
  auto add = [&](const char* name, const char* keyword, aclnnStatus status, auto change) {
    CallArgs c;
    change(c);
    cases.push_back({name, Call(c), aclnnGRU, keyword, status});
  };
  const aclnnStatus invalid = ACLNN_ERR_PARAM_INVALID;
  add("packed", "batchSizes", invalid, [](CallArgs& c) { c.packed = true; });
  add("train_without_rOut", "'rOut'", ACLNN_ERR_PARAM_NULLPTR, [](CallArgs& c) {
    c.train = true;
    c.nullGates = true;
  });
  add("bf16_input", "'input'", invalid, [](CallArgs& c) { c.dtype = c.paramDtype = c.hxDtype = ACL_BF16; });
  add("param_dtype", "'params[1]'", invalid, [](CallArgs& c) { c.paramDtype = ACL_FLOAT16; });
  add("hx_dtype", "'hx'", invalid, [](CallArgs& c) {
    c.hx = true;
    c.hxDtype = ACL_FLOAT16;
  });
  add("layers_zero", "numLayers", invalid, [](CallArgs& c) { c.layers = 0; });
  add("param_count", "'params'", invalid, [](CallArgs& c) { c.bias = true; });
  add("gate_list_length", "'rOut'", invalid, [](CallArgs& c) {
    c.train = true;
    c.gateCount = 2;
  });
  add("input_rank", "'input'", invalid, [](CallArgs& c) { c.input = {6, 4}; });
  add("weight_rank", "'params[1]'", invalid, [](CallArgs& c) { c.params[1] = {9, 3, 1}; });
  add("hx_rank", "'hx'", invalid, [](CallArgs& c) {
    c.hx = true;
    c.hxShape = {2, 3};
  });
  add("weight_ih_shape", "'params[0]'", invalid, [](CallArgs& c) { c.params[0] = {9, 5}; });
  add("weight_hh_shape", "'params[1]'", invalid, [](CallArgs& c) { c.params[1] = {9, 4}; });
  add("hx_shape", "'hx'", invalid, [](CallArgs& c) {
    c.hx = true;
    c.hxShape = {1, 3, 3};
  });
  add("output_shape", "'output'", invalid, [](CallArgs& c) { c.output = {3, 2, 6}; });
  add("hy_shape", "'hy'", invalid, [](CallArgs& c) { c.hy = {2, 2, 3}; });
  add("gate_shape", "'rOut[0]'", invalid, [](CallArgs& c) {
    c.train = true;
    c.gate = {3, 2, 4};
  });
  return cases;
}

class GruRejects : public ::testing::TestWithParam<RejectionCase> {};
TEST_P(GruRejects, WithItsCodeAndAMessageNamingTheArgument) { ExpectRejection(GetParam()); }
INSTANTIATE_TEST_SUITE_P(Cases, GruRejects, ::testing::ValuesIn(Rejections()),
                         [](const auto& info) { return SanitizeName(info.param.name); });

}  // namespace
}  // namespace canopy_test
