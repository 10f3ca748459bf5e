// What the LSTM and GRU tests share: lists of device tensors, the value a
// dtype stores, and the tolerance of a recurrence over many steps.
#ifndef CANOPY_TESTS_OPS_RNN_TEST_SUPPORT_H_
#define CANOPY_TESTS_OPS_RNN_TEST_SUPPORT_H_

#include <algorithm>
#include <cmath>
#include <memory>
#include <ostream>
#include <string>
#include <vector>

#include "op_test_support.h"

namespace canopy_test {

// One network the LSTM and GRU tests run.
struct RnnCase {
  std::string name;
  aclDataType dtype = ACL_FLOAT;
  int64_t steps = 4, batch = 3, inputSize = 5, hidden = 4, layers = 1;
  bool bidirectional = false, bias = false, hx = false, batchFirst = false, train = false;
  std::vector<int64_t> batchSizes = {};  // LSTM's packed input; empty: fixed length
  View view = View::kContiguous;         // of input, the weights, hx and output
  int64_t Directions() const { return bidirectional ? 2 : 1; }
};

inline void PrintTo(const RnnCase& c, std::ostream* os) { *os << c.name << " " << Name(c.dtype); }

inline std::string RnnCaseName(const RnnCase& c) { return SanitizeName(c.name + "_" + Name(c.dtype)); }

// The fixed-length networks both ops run, in each A2 dtype: one and two layers and directions, biases, hx,
// batchFirst, the training outputs, strided and transposed views; and wide and long ones.
inline std::vector<RnnCase> FixedLengthCases() {
  std::vector<RnnCase> cases;
  for (aclDataType dtype : {ACL_FLOAT, ACL_FLOAT16}) {
    cases.push_back({.name = "plain", .dtype = dtype});
    cases.push_back({.name = "two_layers_bidirectional_bias_hx_train",
                     .dtype = dtype,
                     .layers = 2,
                     .bidirectional = true,
                     .bias = true,
                     .hx = true,
                     .train = true});
    cases.push_back({.name = "batch_first_two_layers_train",
                     .dtype = dtype,
                     .batch = 2,
                     .layers = 2,
                     .bias = true,
                     .batchFirst = true,
                     .train = true});
    cases.push_back({.name = "batch_first_bidirectional_hx",
                     .dtype = dtype,
                     .bidirectional = true,
                     .hx = true,
                     .batchFirst = true});
    cases.push_back({.name = "strided_views_bidirectional_train",
                     .dtype = dtype,
                     .bidirectional = true,
                     .bias = true,
                     .hx = true,
                     .train = true,
                     .view = View::kStepped});
    cases.push_back({.name = "transposed_views_two_layers",
                     .dtype = dtype,
                     .layers = 2,
                     .bias = true,
                     .hx = true,
                     .view = View::kTransposed});
  }
  // Rows enough for the recurrence to split them between threads.
  cases.push_back(
      {.name = "wide_rows", .steps = 3, .batch = 16, .inputSize = 8, .hidden = 32, .bias = true, .hx = true});
  cases.push_back({.name = "three_layers_long",
                   .steps = 9,
                   .batch = 5,
                   .inputSize = 3,
                   .hidden = 6,
                   .layers = 3,
                   .bidirectional = true,
                   .bias = true,
                   .hx = true});
  return cases;
}

inline double Sigmoid(double x) { return 1 / (1 + std::exp(-x)); }

// v as `dtype` stores it.
inline double RoundTo(aclDataType dtype, double v) { return ConvertValue(Value(v), dtype).real(); }

inline std::vector<std::unique_ptr<DeviceTensor>> MakeTensors(aclDataType dtype, const std::vector<Shape>& shapes,
                                                              View view) {
  std::vector<std::unique_ptr<DeviceTensor>> tensors;
  for (const Shape& s : shapes) tensors.push_back(std::make_unique<DeviceTensor>(dtype, s, view));
  return tensors;
}

inline aclTensorList* ListOf(OpArgs& a, const std::vector<std::unique_ptr<DeviceTensor>>& tensors) {
  std::vector<aclTensor*> descriptors;
  for (const auto& t : tensors) descriptors.push_back(a.Tensor(*t));
  return a.TensorList(descriptors);
}

// Roundoff of the FLOAT products and activations, and a few units of the dtype
// for each rounding of the state that `depth` steps (times layers) pass on.
inline Expected NearRecurrence(const std::vector<double>& values, aclDataType dtype, int64_t depth) {
  const double unit = dtype == ACL_FLOAT16 ? 4 * UnitRoundoff(ACL_FLOAT16) : 64 * UnitRoundoff(ACL_FLOAT);
  Expected e;
  for (double v : values) {
    e.values.emplace_back(v);
    e.tolerance.push_back(unit * static_cast<double>(depth) * std::max(1.0, std::abs(v)));
  }
  return e;
}

// The [T, B, F] rows of a (batch-first [B, T, F] when `batchFirst`) tensor's values, time-major.
inline std::vector<double> TimeMajor(const Values& values, int64_t steps, int64_t batch, int64_t features,
                                     bool batchFirst) {
  std::vector<double> rows(static_cast<size_t>(steps * batch * features));
  for (int64_t s = 0; s < steps; ++s) {
    for (int64_t r = 0; r < batch; ++r) {
      for (int64_t k = 0; k < features; ++k) {
        const int64_t from = batchFirst ? (r * steps + s) * features + k : (s * batch + r) * features + k;
        rows[static_cast<size_t>((s * batch + r) * features + k)] = values[static_cast<size_t>(from)].real();
      }
    }
  }
  return rows;
}

// TimeMajor's inverse: time-major [T, B, F] rows laid out batch-first when `batchFirst`.
inline std::vector<double> FromTimeMajor(const std::vector<double>& rows, int64_t steps, int64_t batch,
                                         int64_t features, bool batchFirst) {
  std::vector<double> out(rows.size());
  for (int64_t s = 0; s < steps; ++s) {
    for (int64_t r = 0; r < batch; ++r) {
      for (int64_t k = 0; k < features; ++k) {
        const int64_t to = batchFirst ? (r * steps + s) * features + k : (s * batch + r) * features + k;
        out[static_cast<size_t>(to)] = rows[static_cast<size_t>((s * batch + r) * features + k)];
      }
    }
  }
  return out;
}

// The params list's shapes in CANN's order: per layer and direction weight_ih
// [G*H, I] (first layer) or [G*H, D*H], weight_hh [G*H, H] and, with biases, two [G*H].
inline std::vector<Shape> ParamShapes(int64_t gates, int64_t layers, int64_t directions, int64_t inputSize,
                                      int64_t hidden, bool bias) {
  std::vector<Shape> shapes;
  for (int64_t layer = 0; layer < layers; ++layer) {
    for (int64_t dir = 0; dir < directions; ++dir) {
      shapes.push_back({gates * hidden, layer == 0 ? inputSize : directions * hidden});
      shapes.push_back({gates * hidden, hidden});
      if (bias) {
        shapes.push_back({gates * hidden});
        shapes.push_back({gates * hidden});
      }
    }
  }
  return shapes;
}

// Tensors of `shapes` filled at random (small weights keep the gates away from saturation); their values go to
// `values`.
inline std::vector<std::unique_ptr<DeviceTensor>> RandomParams(Rng& rng, aclDataType dtype,
                                                               const std::vector<Shape>& shapes, View view,
                                                               std::vector<Values>& values) {
  auto params = MakeTensors(dtype, shapes, view);
  for (auto& p : params) values.push_back(p->FillRandom(rng, Range{-0.6, 0.6}));
  return params;
}

// Per training output, its L*D poisoned [T, B, H] tensors.
using GateTensors = std::vector<std::vector<std::unique_ptr<DeviceTensor>>>;
inline GateTensors PoisonedGateTensors(aclDataType dtype, size_t outputs, int64_t groups, const Shape& shape) {
  GateTensors tensors(outputs);
  for (auto& list : tensors) {
    list = MakeTensors(dtype, std::vector<Shape>(static_cast<size_t>(groups), shape), View::kContiguous);
    for (auto& g : list) g->Poison();
  }
  return tensors;
}

// The training output lists of one call: one per output, or all null without train.
inline std::vector<aclTensorList*> GateListsOf(OpArgs& a, const GateTensors& tensors, bool train) {
  std::vector<aclTensorList*> lists;
  for (const auto& list : tensors) lists.push_back(train ? ListOf(a, list) : nullptr);
  return lists;
}

// want[group][output]: the reference of each training output of each layer and direction.
using GateValues = std::vector<std::vector<std::vector<double>>>;
inline void ExpectGateOutputs(const GateTensors& got, const GateValues& want, aclDataType dtype, int64_t depth) {
  for (size_t group = 0; group < want.size(); ++group) {
    for (size_t k = 0; k < got.size(); ++k) {
      ExpectNear(got[k][group]->ReadView(), NearRecurrence(want[group][k], dtype, depth),
                 "training output " + std::to_string(k) + " of layer and direction " + std::to_string(group));
    }
  }
}

// Row `row` of x ([rows, width]) times row `n` of weight ([., width]).
inline double RowDot(const std::vector<double>& x, int64_t row, const Values& weight, int64_t n, int64_t width) {
  double sum = 0;
  for (int64_t k = 0; k < width; ++k) {
    sum += x[static_cast<size_t>(row * width + k)] * weight[static_cast<size_t>(n * width + k)].real();
  }
  return sum;
}

}  // namespace canopy_test

#endif  // CANOPY_TESTS_OPS_RNN_TEST_SUPPORT_H_
