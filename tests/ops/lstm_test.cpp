// LSTM through the public API against a float64 reference written out here:
// one and two layers, one and two directions, with and without biases and hx,
// batchFirst, the training outputs, packed input with batchSizes (CANN's mask
// batchSizes[t] > b, rows left out carry their state and output 0), both A2
// dtypes, strided views, CANN's doc example, empty inputs and the rejections
// of both of CANN's check paths with their codes.
#include <gtest/gtest.h>

#include <array>
#include <cmath>
#include <memory>
#include <ostream>
#include <string>
#include <vector>

#include "aclnnop/aclnn_lstm.h"
#include "op_test_support.h"
#include "rnn_test_support.h"

namespace canopy_test {
namespace {

constexpr size_t kGateOutputs = 7;  // i, j, f, o, h, c, tanh(c)

using LstmCase = RnnCase;

// What the reference computes; all row-major in the API's shapes.
struct LstmResult {
  std::vector<double> output, hy, cy;
  GateValues gates;
};

// CANN's semantics in float64; h and c are stored in the dtype between steps, as its kernels keep them.
LstmResult Reference(const LstmCase& c, const Values& input, const std::vector<Values>& params, const Values& h0,
                     const Values& c0) {
  const int64_t t = c.steps, b = c.batch, h = c.hidden, d = c.Directions();
  const int64_t groupLen = c.bias ? 4 : 2;
  const bool packed = !c.batchSizes.empty();
  auto at = [](int64_t i) { return static_cast<size_t>(i); };
  // Time-major input rows.
  std::vector<double> x = TimeMajor(input, t, b, c.inputSize, !packed && c.batchFirst);
  LstmResult result;
  result.hy.resize(at(c.layers * d * b * h));
  result.cy.resize(result.hy.size());
  int64_t width = c.inputSize;
  for (int64_t layer = 0; layer < c.layers; ++layer) {
    std::vector<double> y(at(t * b * d * h));
    for (int64_t dir = 0; dir < d; ++dir) {
      const int64_t group = layer * d + dir;
      const Values& wih = params[at(group * groupLen)];
      const Values& whh = params[at(group * groupLen + 1)];
      std::vector<double> bias(at(4 * h), 0.0);
      if (c.bias) {
        for (int64_t n = 0; n < 4 * h; ++n) {
          bias[at(n)] = RoundTo(
              c.dtype, params[at(group * groupLen + 2)][at(n)].real() + params[at(group * groupLen + 3)][at(n)].real());
        }
      }
      std::vector<double> hs(at(b * h), 0.0), cs(at(b * h), 0.0);
      if (c.hx) {
        for (int64_t i = 0; i < b * h; ++i) {
          hs[at(i)] = h0[at(group * b * h + i)].real();
          cs[at(i)] = c0[at(group * b * h + i)].real();
        }
      }
      std::vector<std::vector<double>> gates(kGateOutputs, std::vector<double>(at(t * b * h)));
      for (int64_t s = 0; s < t; ++s) {
        const int64_t step = dir == 1 ? t - 1 - s : s;
        for (int64_t r = 0; r < b; ++r) {
          std::vector<double> pre(at(4 * h));
          for (int64_t n = 0; n < 4 * h; ++n) {
            pre[at(n)] = bias[at(n)] + RowDot(x, step * b + r, wih, n, width) + RowDot(hs, r, whh, n, h);
          }
          const bool active = !packed || c.batchSizes[at(step)] > r;
          for (int64_t j = 0; j < h; ++j) {
            const double i = Sigmoid(pre[at(j)]), f = Sigmoid(pre[at(h + j)]), g = std::tanh(pre[at(2 * h + j)]),
                         o = Sigmoid(pre[at(3 * h + j)]);
            double& cell = cs[at(r * h + j)];
            double& hid = hs[at(r * h + j)];
            const double cNext = active ? f * cell + i * g : cell;
            const double tanhC = std::tanh(cNext);
            const double hNew = RoundTo(c.dtype, o * tanhC);
            cell = RoundTo(c.dtype, cNext);
            if (active) hid = hNew;
            y[at((step * b + r) * d * h + dir * h + j)] = active ? hNew : 0.0;
            const std::array<double, kGateOutputs> values = {i, g, f, o, hid, cell, tanhC};
            for (size_t k = 0; k < kGateOutputs; ++k) gates[k][at((step * b + r) * h + j)] = values[k];
          }
        }
      }
      for (int64_t i = 0; i < b * h; ++i) {
        result.hy[at(group * b * h + i)] = hs[at(i)];
        result.cy[at(group * b * h + i)] = cs[at(i)];
      }
      result.gates.push_back(std::move(gates));
    }
    x = y;
    width = d * h;
  }
  result.output = FromTimeMajor(x, t, b, d * h, !packed && c.batchFirst);
  return result;
}

Expected Near(const std::vector<double>& values, const LstmCase& c) {
  return NearRecurrence(values, c.dtype, c.steps * c.layers);
}

void RunCase(const LstmCase& c) {
  SCOPED_TRACE(c.name + " " + Name(c.dtype));
  Rng rng = Rng::ForCurrentTest();
  const int64_t t = c.steps, b = c.batch, h = c.hidden, d = c.Directions();
  const bool packed = !c.batchSizes.empty();
  const Shape inputShape =
      packed ? Shape{t * b, c.inputSize} : (c.batchFirst ? Shape{b, t, c.inputSize} : Shape{t, b, c.inputSize});
  DeviceTensor input(c.dtype, inputShape, c.view);
  const Values inputValues = input.FillRandom(rng, Range{-1, 1});
  std::vector<Values> paramValues;
  auto params = RandomParams(rng, c.dtype, ParamShapes(4, c.layers, d, c.inputSize, h, c.bias), c.view, paramValues);
  const Shape state = {c.layers * d, b, h};
  auto hx = MakeTensors(c.dtype, {state, state}, c.view == View::kContiguous ? View::kContiguous : View::kStepped);
  const Values h0 = hx[0]->FillRandom(rng, Range{-1, 1}), c0 = hx[1]->FillRandom(rng, Range{-1.5, 1.5});
  std::unique_ptr<DeviceTensor> sizes;
  if (packed) {
    Values v;
    for (int64_t n : c.batchSizes) v.emplace_back(static_cast<double>(n));
    sizes = Upload(ACL_INT64, {t}, v);
  }
  const Shape outShape = (!packed && c.batchFirst) ? Shape{b, t, d * h} : Shape{t, b, d * h};
  DeviceTensor output(c.dtype, outShape, c.view == View::kContiguous ? View::kContiguous : View::kStepped);
  DeviceTensor hy(c.dtype, state), cy(c.dtype, state, View::kTransposed);
  output.Poison();
  hy.Poison();
  cy.Poison();
  const GateTensors gates = PoisonedGateTensors(c.dtype, kGateOutputs, c.layers * d, {t, b, h});
  ExpectRuns(
      [&](OpArgs& a, uint64_t* w, aclOpExecutor** e) {
        const std::vector<aclTensorList*> lists = GateListsOf(a, gates, c.train);
        return aclnnLSTMGetWorkspaceSize(a.Tensor(input), ListOf(a, params), c.hx ? ListOf(a, hx) : nullptr,
                                         packed ? a.Tensor(*sizes) : nullptr, c.bias, c.layers, 0.0, c.train,
                                         c.bidirectional, c.batchFirst, a.Tensor(output), a.Tensor(hy), a.Tensor(cy),
                                         lists[0], lists[1], lists[2], lists[3], lists[4], lists[5], lists[6], w, e);
      },
      aclnnLSTM);
  const LstmResult want = Reference(c, inputValues, paramValues, h0, c0);
  ExpectNear(output.ReadView(), Near(want.output, c), "output");
  ExpectNear(hy.ReadView(), Near(want.hy, c), "hy");
  ExpectNear(cy.ReadView(), Near(want.cy, c), "cy");
  if (c.train) ExpectGateOutputs(gates, want.gates, c.dtype, c.steps * c.layers);
}

std::vector<LstmCase> Cases() {
  std::vector<LstmCase> cases = FixedLengthCases();
  for (aclDataType dtype : {ACL_FLOAT, ACL_FLOAT16}) {
    cases.push_back({.name = "packed_two_layers_bidirectional_train",
                     .dtype = dtype,
                     .layers = 2,
                     .bidirectional = true,
                     .bias = true,
                     .hx = true,
                     .train = true,
                     .batchSizes = {3, 3, 2, 1}});
    cases.push_back({.name = "packed_no_hx", .dtype = dtype, .bias = true, .batchSizes = {3, 2, 2, 1}});
  }
  // batchFirst means nothing to packed input; values outside the doc's rule (not descending, above the batch,
  // zero, negative) still mean the mask batchSizes[t] > b to CANN.
  cases.push_back({.name = "packed_ignores_batch_first",
                   .bidirectional = true,
                   .hx = true,
                   .batchFirst = true,
                   .train = true,
                   .batchSizes = {3, 2, 1, 1}});
  cases.push_back(
      {.name = "packed_any_counts", .bidirectional = true, .hx = true, .train = true, .batchSizes = {1, 7, 0, -2}});
  return cases;
}

class LstmMatches : public ::testing::TestWithParam<LstmCase> {};
TEST_P(LstmMatches, TheFloat64Reference) { RunCase(GetParam()); }
INSTANTIATE_TEST_SUITE_P(Cases, LstmMatches, ::testing::ValuesIn(Cases()),
                         [](const auto& info) { return RnnCaseName(info.param); });

// CANN's doc example: one step, one row, one feature, weights and input all 1, no bias, train.
TEST(LSTM, DocExample) {
  auto ones = [](const Shape& s) { return Upload(ACL_FLOAT, s, Values(static_cast<size_t>(NumElements(s)), 1.0)); };
  auto input = ones({1, 1, 1}), wih = ones({4, 1}), whh = ones({4, 1});
  auto output = Poisoned(ACL_FLOAT, {1, 1, 1}), hy = Poisoned(ACL_FLOAT, {1, 1, 1}),
       cy = Poisoned(ACL_FLOAT, {1, 1, 1});
  std::vector<std::unique_ptr<DeviceTensor>> gates;
  for (size_t k = 0; k < kGateOutputs; ++k) gates.push_back(Poisoned(ACL_FLOAT, {1, 1, 1}));
  ExpectRuns(
      [&](OpArgs& a, uint64_t* w, aclOpExecutor** e) {
        std::array<aclTensorList*, kGateOutputs> lists{};
        for (size_t k = 0; k < kGateOutputs; ++k) lists[k] = a.TensorList({a.Tensor(*gates[k])});
        return aclnnLSTMGetWorkspaceSize(a.Tensor(*input), a.TensorList({a.Tensor(*wih), a.Tensor(*whh)}), nullptr,
                                         nullptr, false, 1, 0.0, true, false, false, a.Tensor(*output), a.Tensor(*hy),
                                         a.Tensor(*cy), lists[0], lists[1], lists[2], lists[3], lists[4], lists[5],
                                         lists[6], w, e);
      },
      aclnnLSTM);
  const double s = Sigmoid(1), c = s * std::tanh(1.0), hv = s * std::tanh(c);
  const double tol = 4 * UnitRoundoff(ACL_FLOAT);
  auto near = [&](double v) { return Expected{{Value(v)}, {tol}}; };
  ExpectNear(output->ReadView(), near(hv), "output");
  ExpectNear(hy->ReadView(), near(hv), "hy");
  ExpectNear(cy->ReadView(), near(c), "cy");
  const std::array<double, kGateOutputs> gateValues = {s, std::tanh(1.0), s, s, hv, c, std::tanh(c)};
  for (size_t k = 0; k < kGateOutputs; ++k) ExpectNear(gates[k]->ReadView(), near(gateValues[k]), "gate output");
}

// An empty input computes nothing, as CANN's: the outputs keep what they held.
TEST(LSTM, EmptyInputWritesNothing) {
  for (const bool packed : {false, true}) {
    SCOPED_TRACE(packed ? "packed" : "fixed length");
    auto input = Poisoned(ACL_FLOAT, packed ? Shape{0, 3} : Shape{0, 2, 3});
    auto wih = Poisoned(ACL_FLOAT, {8, 3}), whh = Poisoned(ACL_FLOAT, {8, 2});
    auto sizes = Upload(ACL_INT64, {1}, {Value(0)});
    auto output = Poisoned(ACL_FLOAT, {0, 2, 2}), hy = Poisoned(ACL_FLOAT, {1, 2, 2}),
         cy = Poisoned(ACL_FLOAT, {1, 2, 2});
    const std::vector<uint8_t> before = hy->DownloadBytes();
    ExpectRuns(
        [&](OpArgs& a, uint64_t* w, aclOpExecutor** e) {
          return aclnnLSTMGetWorkspaceSize(a.Tensor(*input), a.TensorList({a.Tensor(*wih), a.Tensor(*whh)}), nullptr,
                                           packed ? a.Tensor(*sizes) : nullptr, false, 1, 0.0, false, false, false,
                                           a.Tensor(*output), a.Tensor(*hy), a.Tensor(*cy), nullptr, nullptr, nullptr,
                                           nullptr, nullptr, nullptr, nullptr, w, e);
        },
        aclnnLSTM);
    EXPECT_EQ(hy->DownloadBytes(), before);
  }
}

// ---- Rejections ----------------------------------------------------------------------------------

using A = OpArgs;
using W = uint64_t*;
using E = aclOpExecutor**;

struct CallArgs {
  aclDataType dtype = ACL_FLOAT, paramDtype = ACL_FLOAT, sizesDtype = ACL_INT64;
  Shape input = {3, 2, 4};
  std::vector<Shape> params = {{12, 4}, {12, 3}};
  int hxCount = -1;  // -1: null
  Shape hx = {1, 2, 3};
  bool packed = false;
  Shape sizes = {3};
  bool bias = false, train = false, bidirectional = false;
  int64_t layers = 1;
  Shape output = {3, 2, 3}, hy = {1, 2, 3};
  bool nullGates = false;
  int64_t gateCount = 1;
  Shape gate = {3, 2, 3};
};

std::function<aclnnStatus(A&, W, E)> Call(CallArgs c) {
  return [=](A& a, W w, E e) {
    std::vector<aclTensor*> params;
    for (size_t i = 0; i < c.params.size(); ++i)
      params.push_back(a.NewTensor(i == 1 ? c.paramDtype : c.dtype, c.params[i]));
    aclTensorList* hx = nullptr;
    if (c.hxCount >= 0) {
      std::vector<aclTensor*> hs;
      for (int i = 0; i < c.hxCount; ++i) hs.push_back(a.NewTensor(c.dtype, c.hx));
      hx = a.TensorList(hs);
    }
    std::array<aclTensorList*, kGateOutputs> lists{};
    for (auto& list : lists) {
      if (!c.train || c.nullGates) continue;
      std::vector<aclTensor*> gs;
      for (int64_t i = 0; i < c.gateCount; ++i) gs.push_back(a.NewTensor(c.dtype, c.gate));
      list = a.TensorList(gs);
    }
    return aclnnLSTMGetWorkspaceSize(a.NewTensor(c.dtype, c.input), a.TensorList(params), hx,
                                     c.packed ? a.NewTensorIn(Range{1, 2}, c.sizesDtype, c.sizes) : nullptr, c.bias,
                                     c.layers, 0.0, c.train, c.bidirectional, false, a.NewTensor(c.dtype, c.output),
                                     a.NewTensor(c.dtype, c.hy), a.NewTensor(c.dtype, c.hy), lists[0], lists[1],
                                     lists[2], lists[3], lists[4], lists[5], lists[6], w, e);
  };
}

std::vector<RejectionCase> Rejections() {
  std::vector<RejectionCase> cases;
  auto add = [&](const char* name, const char* keyword, aclnnStatus status, auto change) {
    CallArgs c;
    change(c);
    cases.push_back({name, Call(c), aclnnLSTM, keyword, status});
  };
  const aclnnStatus invalid = ACLNN_ERR_PARAM_INVALID;
  auto packed = [](CallArgs& c) {
    c.packed = true;
    c.input = {6, 4};
  };
  // Without batchSizes: CANN's CheckParams order.
  add("train_without_iOut", "'iOut'", ACLNN_ERR_PARAM_NULLPTR, [](CallArgs& c) {
    c.train = true;
    c.nullGates = true;
  });
  add("bf16_input", "'input'", invalid, [](CallArgs& c) { c.dtype = c.paramDtype = ACL_BF16; });
  add("param_dtype", "'params[1]'", invalid, [](CallArgs& c) { c.paramDtype = ACL_FLOAT16; });
  add("layers_zero", "numLayers", invalid, [](CallArgs& c) { c.layers = 0; });
  add("param_count", "'params'", invalid, [](CallArgs& c) { c.bias = true; });
  add("hx_count", "'hx'", invalid, [](CallArgs& c) { c.hxCount = 1; });
  add("gate_list_length", "'iOut'", invalid, [](CallArgs& c) {
    c.train = true;
    c.gateCount = 2;
  });
  add("input_rank", "'input'", invalid, [](CallArgs& c) { c.input = {6, 4}; });
  add("weight_rank", "'params[0]'", invalid, [](CallArgs& c) { c.params[0] = {12, 4, 1}; });
  add("hx_rank", "'hx[0]'", invalid, [](CallArgs& c) {
    c.hxCount = 2;
    c.hx = {2, 3};
  });
  add("weight_ih_shape", "'params[0]'", invalid, [](CallArgs& c) { c.params[0] = {12, 5}; });
  add("weight_hh_shape", "'params[1]'", invalid, [](CallArgs& c) { c.params[1] = {12, 4}; });
  add("hx_shape", "'hx[0]'", invalid, [](CallArgs& c) {
    c.hxCount = 2;
    c.hx = {1, 3, 3};
  });
  add("output_shape", "'output'", invalid, [](CallArgs& c) { c.output = {3, 2, 6}; });
  add("hy_shape", "'hy'", invalid, [](CallArgs& c) { c.hy = {2, 2, 3}; });
  add("gate_shape", "'iOut[0]'", invalid, [](CallArgs& c) {
    c.train = true;
    c.gate = {3, 2, 4};
  });
  // With batchSizes: CANN's CheckParamsValid order (list lengths and ranks, shapes, then dtypes).
  add("packed_hx_empty", "'hx'", invalid, [&](CallArgs& c) {
    packed(c);
    c.hxCount = 0;
  });
  add("packed_layers_zero", "numLayers", invalid, [&](CallArgs& c) {
    packed(c);
    c.layers = 0;
  });
  add("packed_input_rank", "'input'", invalid, [](CallArgs& c) { c.packed = true; });
  add("packed_sizes_rank", "'batchSizes'", invalid, [&](CallArgs& c) {
    packed(c);
    c.sizes = {3, 1};
  });
  add("packed_sizes_empty", "batchSizes", invalid, [&](CallArgs& c) {
    packed(c);
    c.sizes = {0};
  });
  add("packed_rows", "input", invalid, [&](CallArgs& c) {
    packed(c);
    c.sizes = {4};
  });
  add("packed_odd_features", "output", invalid, [&](CallArgs& c) {
    packed(c);
    c.bidirectional = true;
    c.params = {{12, 4}, {12, 3}, {12, 4}, {12, 3}};
  });
  add("packed_output_shape", "'output'", invalid, [&](CallArgs& c) {
    packed(c);
    c.output = {3, 1, 3};
  });
  add("packed_sizes_dtype", "'batchSizes'", invalid, [&](CallArgs& c) {
    packed(c);
    c.sizesDtype = ACL_INT32;
  });
  add("packed_param_dtype", "'params[1]'", invalid, [&](CallArgs& c) {
    packed(c);
    c.paramDtype = ACL_FLOAT16;
  });
  return cases;
}

class LstmRejects : public ::testing::TestWithParam<RejectionCase> {};
TEST_P(LstmRejects, WithItsCodeAndAMessageNamingTheArgument) { ExpectRejection(GetParam()); }
INSTANTIATE_TEST_SUITE_P(Cases, LstmRejects, ::testing::ValuesIn(Rejections()),
                         [](const auto& info) { return SanitizeName(info.param.name); });

}  // namespace
}  // namespace canopy_test
