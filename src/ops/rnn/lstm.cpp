// aclnnLSTM: PyTorch's multi-layer LSTM as CANN runs it, one DynamicRNN per
// layer and direction. Gates come in PyTorch's order (input, forget, cell
// candidate j, output; forget bias 0); weight_ih, weight_hh (and bias_ih,
// bias_hh) per layer and direction; the reverse direction walks time backwards
// and fills the upper half of each step's features. With batchSizes the input
// is packed ((T * B, I), time-major) and step t updates only the first
// batchSizes[t] rows: CANN's mask is batchSizes[t] > b, so rows it leaves out
// carry their h and c and output 0 (any value is well defined: nothing is
// indexed by it). The input projection of all steps is one matrix product; the
// recurrence runs in FLOAT, with h and c rounded to FLOAT16 after every step
// as CANN's half kernel stores them.
#include <algorithm>
#include <array>
#include <cmath>
#include <cstring>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "aclnnop/aclnn_lstm.h"
#include "common/half.h"
#include "kernels/parallel_for.h"
#include "ops/framework/aclnn_op.h"
#include "ops/framework/tensor_view.h"
#include "ops/nn/matmul_planner.h"
#include "ops/reduce/row_norm.h"

using namespace canopy;
using namespace canopy::ops;

namespace {

constexpr DtypeSet kLstmDtypes = {ACL_FLOAT, ACL_FLOAT16};
constexpr int64_t kGates = 4;
constexpr int64_t kHxCount = 2;
// The training outputs in prototype order: iOut, jOut, fOut, oOut, hOut, cOut, tanhCOut.
constexpr size_t kGateOutputs = 7;
constexpr std::array<const char*, kGateOutputs> kGateOutputNames = {"iOut", "jOut", "fOut",    "oOut",
                                                                    "hOut", "cOut", "tanhCOut"};
// Rows of the recurrence that one thread takes at least.
constexpr int64_t kRowGrain = 1;

float Sigmoid(float x) { return 1.0F / (1.0F + std::exp(-x)); }

// One layer and direction of the recurrence. gates_in holds x @ weight_ih^T +
// bias for every step; each step adds h @ weight_hh^T and applies the cell.
class LstmDirectionStep final : public Step {
 public:
  struct Operands {
    TensorRef gates_in;                    // [T, B, 4H] FLOAT, contiguous
    TensorRef weight_hh;                   // [4H, H] FLOAT, contiguous
    std::optional<TensorRef> h0, c0;       // [B, H] FLOAT, contiguous
    std::optional<TensorRef> batch_sizes;  // [T] INT64, contiguous
    TensorRef y;                           // [T, B, D * H] FLOAT, contiguous
    int64_t y_column = 0;                  // this direction's first feature in y
    TensorRef scratch;                     // [B, 6H] FLOAT: h, c, then the gates
    TensorRef last_h, last_c;              // [B, H] FLOAT, contiguous
    std::vector<TensorRef> gate_outputs;   // kGateOutputs of [T, B, H] FLOAT, or none
    bool reverse = false;
    bool round_half = false;
  };
  explicit LstmDirectionStep(Operands o) : o_(std::move(o)) {}

  aclnnStatus Run(const RunContext& context) const override {
    auto in = [&](const TensorRef& t) { return reinterpret_cast<const float*>(context.Resolve(t.buffer)); };
    auto out = [&](const TensorRef& t) { return reinterpret_cast<float*>(context.Resolve(t.buffer)); };
    const int64_t steps = o_.gates_in.shape[0], batch = o_.gates_in.shape[1], hidden = o_.weight_hh.shape[1];
    const int64_t y_width = o_.y.shape[2];
    const float* gates_in = in(o_.gates_in);
    const float* weight = in(o_.weight_hh);
    const auto* batch_sizes =
        o_.batch_sizes ? reinterpret_cast<const int64_t*>(context.Resolve(o_.batch_sizes->buffer)) : nullptr;
    float* y = out(o_.y);
    float* scratch = out(o_.scratch);
    std::array<float*, kGateOutputs> gate_out{};
    for (size_t k = 0; k < o_.gate_outputs.size(); ++k) gate_out[k] = out(o_.gate_outputs[k]);
    const bool train = !o_.gate_outputs.empty();
    const int64_t row_width = 6 * hidden;
    for (int64_t b = 0; b < batch; ++b) {
      float* h = scratch + b * row_width;
      float* c = h + hidden;
      const int64_t state_at = b * hidden;
      for (int64_t j = 0; j < hidden; ++j) {
        h[j] = o_.h0 ? in(*o_.h0)[state_at + j] : 0.0F;
        c[j] = o_.c0 ? in(*o_.c0)[state_at + j] : 0.0F;
      }
    }
    auto round = [&](float v) { return o_.round_half ? HalfToFloat(FloatToHalf(v)) : v; };
    for (int64_t s = 0; s < steps; ++s) {
      const int64_t t = o_.reverse ? steps - 1 - s : s;
      kernels::ParallelFor(batch, kRowGrain, [&](int64_t begin, int64_t end) {
        for (int64_t b = begin; b < end; ++b) {
          float* h = scratch + b * row_width;
          float* c = h + hidden;
          float* gates = c + hidden;
          const float* x = gates_in + (t * batch + b) * kGates * hidden;
          for (int64_t n = 0; n < kGates * hidden; ++n) {
            const float* w = weight + n * hidden;
            float dot = 0.0F;
            for (int64_t k = 0; k < hidden; ++k) dot += h[k] * w[k];
            gates[n] = x[n] + dot;
          }
          const bool active = batch_sizes == nullptr || batch_sizes[t] > b;
          const int64_t at = (t * batch + b) * hidden;
          float* y_row = y + (t * batch + b) * y_width + o_.y_column;
          for (int64_t j = 0; j < hidden; ++j) {
            const float i = Sigmoid(gates[j]), f = Sigmoid(gates[hidden + j]), g = std::tanh(gates[2 * hidden + j]),
                        o = Sigmoid(gates[3 * hidden + j]);
            // tanh reads the cell state before it is stored (and rounded) for the next step.
            const float c_next = active ? f * c[j] + i * g : c[j];
            const float tanh_c = std::tanh(c_next);
            const float h_new = o * tanh_c;
            const float c_kept = round(c_next);
            const float h_kept = active ? round(h_new) : h[j];
            y_row[j] = active ? round(h_new) : 0.0F;
            if (train) {
              const std::array<float, kGateOutputs> values = {i, g, f, o, h_kept, c_kept, tanh_c};
              for (size_t k = 0; k < kGateOutputs; ++k) gate_out[k][at + j] = values[k];
            }
            h[j] = h_kept;
            c[j] = c_kept;
          }
        }
      });
    }
    float* last_h = out(o_.last_h);
    float* last_c = out(o_.last_c);
    for (int64_t b = 0; b < batch; ++b) {
      const float* h = scratch + b * row_width;
      std::memcpy(last_h + b * hidden, h, sizeof(float) * static_cast<size_t>(hidden));
      std::memcpy(last_c + b * hidden, h + hidden, sizeof(float) * static_cast<size_t>(hidden));
    }
    return ACLNN_SUCCESS;
  }

  std::string Describe() const override {
    return std::string("lstm ") + (o_.reverse ? "reverse " : "") + ShapeToString(o_.gates_in.shape);
  }

 private:
  Operands o_;
};

// What CANN's checks read off the arguments.
struct LstmProblem {
  int64_t steps = 0, batch = 0, input_size = 0, hidden = 0, layers = 0, directions = 1;
  int64_t group_len = 2;  // params per layer and direction: weight_ih, weight_hh (, bias_ih, bias_hh)
  int64_t Groups() const { return layers * directions; }
};

std::string Element(const char* list, size_t index) { return std::string(list) + "[" + std::to_string(index) + "]"; }

aclnnStatus CheckListDtype(Plan& plan, const char* name, const aclTensorList* list, aclDataType dtype) {
  if (list == nullptr) return ACLNN_SUCCESS;
  for (size_t i = 0; i < list->tensors.size(); ++i) {
    if (list->tensors[i]->dtype != dtype) {
      return plan.Reject(ACLNN_ERR_PARAM_INVALID, "'%s' has dtype %s; it must be input's (%s)",
                         Element(name, i).c_str(), DtypeName(list->tensors[i]->dtype), DtypeName(dtype));
    }
  }
  return ACLNN_SUCCESS;
}

aclnnStatus CheckSameDtype(Plan& plan, const char* name, const aclTensor* t, aclDataType dtype) {
  if (t->dtype == dtype) return ACLNN_SUCCESS;
  return plan.Reject(ACLNN_ERR_PARAM_INVALID, "'%s' has dtype %s; it must be input's (%s)", name, DtypeName(t->dtype),
                     DtypeName(dtype));
}

aclnnStatus CheckListLength(Plan& plan, const char* name, const aclTensorList* list, int64_t length) {
  if (static_cast<int64_t>(list->tensors.size()) == length) return ACLNN_SUCCESS;
  return plan.Reject(ACLNN_ERR_PARAM_INVALID, "argument '%s' holds %zu tensors; it must hold %lld", name,
                     list->tensors.size(), static_cast<long long>(length));
}

aclnnStatus CheckListRanks(Plan& plan, const char* name, const aclTensorList* list, int64_t rank) {
  for (size_t i = 0; i < list->tensors.size(); ++i) {
    CANOPY_CHECK(plan.CheckRank(Element(name, i).c_str(), list->tensors[i], rank, rank));
  }
  return ACLNN_SUCCESS;
}

aclnnStatus CheckListShapes(Plan& plan, const char* name, const aclTensorList* list, const Shape& shape) {
  for (size_t i = 0; i < list->tensors.size(); ++i) {
    CANOPY_CHECK(plan.CheckShape(Element(name, i).c_str(), list->tensors[i], shape));
  }
  return ACLNN_SUCCESS;
}

using GateLists = std::array<const aclTensorList*, kGateOutputs>;

// The weights' and biases' ranks, then their shapes for each layer and direction.
aclnnStatus CheckParamRanks(Plan& plan, const aclTensorList* params, const LstmProblem& p) {
  for (int64_t group = 0; group < p.Groups(); ++group) {
    const auto at = static_cast<size_t>(group * p.group_len);
    CANOPY_CHECK(plan.CheckRank(Element("params", at).c_str(), params->tensors[at], 2, 2));
    CANOPY_CHECK(plan.CheckRank(Element("params", at + 1).c_str(), params->tensors[at + 1], 2, 2));
    if (p.group_len == 4) {
      CANOPY_CHECK(plan.CheckRank(Element("params", at + 2).c_str(), params->tensors[at + 2], 1, 1));
      CANOPY_CHECK(plan.CheckRank(Element("params", at + 3).c_str(), params->tensors[at + 3], 1, 1));
    }
  }
  return ACLNN_SUCCESS;
}

aclnnStatus CheckParamShapes(Plan& plan, const aclTensorList* params, const LstmProblem& p) {
  const int64_t h = p.hidden;
  for (int64_t group = 0; group < p.Groups(); ++group) {
    const auto at = static_cast<size_t>(group * p.group_len);
    const int64_t layer_input = group < p.directions ? p.input_size : p.directions * h;
    CANOPY_CHECK(plan.CheckShape(Element("params", at).c_str(), params->tensors[at], {kGates * h, layer_input}));
    CANOPY_CHECK(plan.CheckShape(Element("params", at + 1).c_str(), params->tensors[at + 1], {kGates * h, h}));
    if (p.group_len == 4) {
      CANOPY_CHECK(plan.CheckShape(Element("params", at + 2).c_str(), params->tensors[at + 2], {kGates * h}));
      CANOPY_CHECK(plan.CheckShape(Element("params", at + 3).c_str(), params->tensors[at + 3], {kGates * h}));
    }
  }
  return ACLNN_SUCCESS;
}

// CANN's checks without batchSizes, in its order: the training lists present,
// dtypes, list lengths, ranks, shapes (hidden size from params[0]).
aclnnStatus CheckFixedLength(Plan& plan, const aclTensor* input, const aclTensorList* params, const aclTensorList* hx,
                             int64_t numLayers, bool train, bool batchFirst, const aclTensor* output,
                             const aclTensor* hy, const aclTensor* cy, const GateLists& gates, LstmProblem& p) {
  CANOPY_CHECK(plan.CheckDtype("input", input->dtype, kLstmDtypes));
  const aclDataType dtype = input->dtype;
  CANOPY_CHECK(CheckListDtype(plan, "params", params, dtype));
  CANOPY_CHECK(CheckListDtype(plan, "hx", hx, dtype));
  CANOPY_CHECK(CheckSameDtype(plan, "output", output, dtype));
  CANOPY_CHECK(CheckSameDtype(plan, "hy", hy, dtype));
  CANOPY_CHECK(CheckSameDtype(plan, "cy", cy, dtype));
  if (train) {
    for (size_t k = 0; k < kGateOutputs; ++k) CANOPY_CHECK(CheckListDtype(plan, kGateOutputNames[k], gates[k], dtype));
  }
  // CANN reads params[0] and sizes its loops by numLayers without checking it here.
  if (numLayers < 1) {
    return plan.Reject(ACLNN_ERR_PARAM_INVALID, "numLayers is %lld; it must be positive",
                       static_cast<long long>(numLayers));
  }
  CANOPY_CHECK(CheckListLength(plan, "params", params, p.group_len * p.Groups()));
  if (hx != nullptr && hx->tensors.size() != kHxCount && !hx->tensors.empty()) {
    return plan.Reject(ACLNN_ERR_PARAM_INVALID, "argument 'hx' holds %zu tensors; it must hold 2 or none",
                       hx->tensors.size());
  }
  if (train) {
    for (size_t k = 0; k < kGateOutputs; ++k) {
      CANOPY_CHECK(CheckListLength(plan, kGateOutputNames[k], gates[k], p.Groups()));
    }
  }
  CANOPY_CHECK(plan.CheckRank("input", input, 3, 3));
  CANOPY_CHECK(CheckParamRanks(plan, params, p));
  if (hx != nullptr) CANOPY_CHECK(CheckListRanks(plan, "hx", hx, 3));
  CANOPY_CHECK(plan.CheckRank("output", output, 3, 3));
  CANOPY_CHECK(plan.CheckRank("hy", hy, 3, 3));
  CANOPY_CHECK(plan.CheckRank("cy", cy, 3, 3));
  if (train) {
    for (size_t k = 0; k < kGateOutputs; ++k) CANOPY_CHECK(CheckListRanks(plan, kGateOutputNames[k], gates[k], 3));
  }
  const Shape& in = input->view_shape;
  p.steps = batchFirst ? in[1] : in[0];
  p.batch = batchFirst ? in[0] : in[1];
  p.input_size = in[2];
  p.hidden = params->tensors[0]->view_shape[0] / kGates;
  CANOPY_CHECK(CheckParamShapes(plan, params, p));
  const Shape state = {p.Groups(), p.batch, p.hidden};
  if (hx != nullptr) CANOPY_CHECK(CheckListShapes(plan, "hx", hx, state));
  const int64_t features = p.directions * p.hidden;
  CANOPY_CHECK(plan.CheckShape("output", output,
                               batchFirst ? Shape{p.batch, p.steps, features} : Shape{p.steps, p.batch, features}));
  CANOPY_CHECK(plan.CheckShape("hy", hy, state));
  CANOPY_CHECK(plan.CheckShape("cy", cy, state));
  if (train) {
    for (size_t k = 0; k < kGateOutputs; ++k) {
      CANOPY_CHECK(CheckListShapes(plan, kGateOutputNames[k], gates[k], {p.steps, p.batch, p.hidden}));
    }
  }
  return ACLNN_SUCCESS;
}

// CANN's checks with batchSizes, in its order: list lengths and ranks, shapes
// (time steps from batchSizes, hidden size from output), then dtypes. An empty
// input is accepted before any of them.
aclnnStatus CheckPacked(Plan& plan, const aclTensor* input, const aclTensorList* params, const aclTensorList* hx,
                        const aclTensor* batchSizes, bool train, const aclTensor* output, const aclTensor* hy,
                        const aclTensor* cy, const GateLists& gates, LstmProblem& p) {
  CANOPY_CHECK(plan.CheckRank("input", input, 2, 2));
  CANOPY_CHECK(CheckListLength(plan, "params", params, p.group_len * p.Groups()));
  CANOPY_CHECK(CheckParamRanks(plan, params, p));
  CANOPY_CHECK(plan.CheckRank("batchSizes", batchSizes, 1, 1));
  CANOPY_CHECK(plan.CheckRank("output", output, 3, 3));
  CANOPY_CHECK(plan.CheckRank("hy", hy, 3, 3));
  CANOPY_CHECK(plan.CheckRank("cy", cy, 3, 3));
  if (train) {
    for (size_t k = 0; k < kGateOutputs; ++k) {
      CANOPY_CHECK(CheckListLength(plan, kGateOutputNames[k], gates[k], p.Groups()));
    }
  }
  p.steps = batchSizes->view_shape[0];
  if (p.steps == 0) return plan.Reject(ACLNN_ERR_PARAM_INVALID, "batchSizes is empty; it must hold one count per step");
  const int64_t rows = input->view_shape[0];
  p.batch = rows / p.steps;
  if (p.batch * p.steps != rows) {
    return plan.Reject(ACLNN_ERR_PARAM_INVALID,
                       "input has %lld rows, not a multiple of the %lld time steps batchSizes gives",
                       static_cast<long long>(rows), static_cast<long long>(p.steps));
  }
  p.input_size = input->view_shape[1];
  p.hidden = output->view_shape[2];
  if (p.directions == 2) {
    if (p.hidden % 2 != 0) {
      return plan.Reject(ACLNN_ERR_PARAM_INVALID,
                         "output's last dim is %lld; bidirectional needs it even (2 * hidden size)",
                         static_cast<long long>(p.hidden));
    }
    p.hidden /= 2;
  }
  CANOPY_CHECK(CheckParamShapes(plan, params, p));
  const Shape state = {p.Groups(), p.batch, p.hidden};
  if (hx != nullptr) CANOPY_CHECK(CheckListShapes(plan, "hx", hx, state));
  CANOPY_CHECK(plan.CheckShape("output", output, {p.steps, p.batch, p.directions * p.hidden}));
  CANOPY_CHECK(plan.CheckShape("hy", hy, state));
  CANOPY_CHECK(plan.CheckShape("cy", cy, state));
  if (train) {
    for (size_t k = 0; k < kGateOutputs; ++k) {
      CANOPY_CHECK(CheckListShapes(plan, kGateOutputNames[k], gates[k], {p.steps, p.batch, p.hidden}));
    }
  }
  CANOPY_CHECK(plan.CheckDtype("input", input->dtype, kLstmDtypes));
  const aclDataType dtype = input->dtype;
  CANOPY_CHECK(CheckListDtype(plan, "params", params, dtype));
  CANOPY_CHECK(CheckListDtype(plan, "hx", hx, dtype));
  CANOPY_CHECK(plan.CheckDtype("batchSizes", batchSizes->dtype, DtypeSet{ACL_INT64}));
  CANOPY_CHECK(CheckSameDtype(plan, "output", output, dtype));
  CANOPY_CHECK(CheckSameDtype(plan, "hy", hy, dtype));
  CANOPY_CHECK(CheckSameDtype(plan, "cy", cy, dtype));
  if (train) {
    for (size_t k = 0; k < kGateOutputs; ++k) CANOPY_CHECK(CheckListDtype(plan, kGateOutputNames[k], gates[k], dtype));
  }
  return ACLNN_SUCCESS;
}

// x @ weight_ih^T + bias_ih + bias_hh for every step of one layer and direction,
// the bias sum rounded to the dtype first as CANN's Add leaves it.
aclnnStatus PlanInputProjection(Plan& plan, const TensorRef& layer_input, const std::vector<TensorRef>& params,
                                size_t at, bool biased, aclDataType dtype, const TensorRef& gates_in) {
  const TensorRef weight = plan.Contiguous(params[at], ACL_FLOAT);
  const TensorRef weight_t = Transpose(weight, 0, 1);
  if (!biased) return PlanProduct(plan, layer_input, weight_t, gates_in, 0);
  const TensorRef bias_sum = plan.Temporary(dtype, params[at + 2].shape);
  plan.Elementwise(ElementwiseOp::kAdd, ComputeType::kF32, {params[at + 2], params[at + 3]}, bias_sum,
                   ScalarValue::Integer(1));
  const TensorRef bias = plan.Contiguous(bias_sum, ACL_FLOAT);
  return PlanProduct(plan, layer_input, weight_t, gates_in, 0, ProductTerms{.beta = 1.0F, .bias = &bias});
}

aclnnStatus PlanLSTM(Plan& plan, const aclTensor* input, const aclTensorList* params, const aclTensorList* hx,
                     const aclTensor* batchSizes, bool hasBias, int64_t numLayers, double /*dropout: unsupported*/,
                     bool train, bool bidirectional, bool batchFirst, const aclTensor* output, const aclTensor* hy,
                     const aclTensor* cy, const aclTensorList* iOut, const aclTensorList* jOut,
                     const aclTensorList* fOut, const aclTensorList* oOut, const aclTensorList* hOut,
                     const aclTensorList* cOut, const aclTensorList* tanhCOut) {
  const GateLists gates = {iOut, jOut, fOut, oOut, hOut, cOut, tanhCOut};
  if (train) {
    for (size_t k = 0; k < kGateOutputs; ++k) {
      if (gates[k] == nullptr) {
        return plan.Reject(ACLNN_ERR_PARAM_NULLPTR, "argument '%s' is null; train needs it", kGateOutputNames[k]);
      }
    }
  }
  const bool packed = batchSizes != nullptr;
  LstmProblem p;
  p.layers = numLayers;
  p.directions = bidirectional ? 2 : 1;
  p.group_len = hasBias ? 4 : 2;
  if (packed) {
    if (hx != nullptr && hx->tensors.size() != kHxCount) {
      return plan.Reject(ACLNN_ERR_PARAM_INVALID, "argument 'hx' holds %zu tensors; with batchSizes it must hold 2",
                         hx->tensors.size());
    }
    if (numLayers < 1) {
      return plan.Reject(ACLNN_ERR_PARAM_INVALID, "numLayers is %lld; it must be positive",
                         static_cast<long long>(numLayers));
    }
    if (input->NumElements() != 0) {
      CANOPY_CHECK(CheckPacked(plan, input, params, hx, batchSizes, train, output, hy, cy, gates, p));
    }
  } else {
    CANOPY_CHECK(CheckFixedLength(plan, input, params, hx, numLayers, train, batchFirst, output, hy, cy, gates, p));
  }
  const aclDataType dtype = input->dtype;
  const TensorRef x = plan.Input(input, "input");
  const std::vector<TensorRef> weights = plan.InputList(params, "params");
  std::vector<TensorRef> states;
  if (hx != nullptr) {
    states = plan.InputList(hx, "hx");
  } else {
    plan.SkipInput();
  }
  const std::optional<TensorRef> sizes = OptionalInput(plan, batchSizes, "batchSizes");
  const TensorRef out = plan.Output(output, "output");
  const TensorRef hy_out = plan.Output(hy, "hy");
  const TensorRef cy_out = plan.Output(cy, "cy");
  std::array<std::vector<TensorRef>, kGateOutputs> gate_outs;
  for (size_t k = 0; k < kGateOutputs; ++k) {
    if (train) {
      gate_outs[k] = plan.OutputList(gates[k], kGateOutputNames[k]);
    } else {
      plan.SkipOutput();
    }
  }
  // CANN computes nothing for an empty input (the outputs keep what they held), nor does a zero hidden size
  // leave anything to compute.
  if (input->NumElements() == 0 || p.hidden == 0) return ACLNN_SUCCESS;

  const int64_t t = p.steps, b = p.batch, h = p.hidden, d = p.directions;
  // The first layer's input as [T * B, I] rows, time-major.
  TensorRef layer_input = plan.Contiguous(packed || !batchFirst ? x : Permute(x, {1, 0, 2}), ACL_FLOAT);
  layer_input.shape = {t * b, p.input_size};
  layer_input.strides = {p.input_size, 1};
  const bool has_hx = !states.empty();
  std::optional<TensorRef> h0_all, c0_all;
  if (has_hx) {
    h0_all = plan.Contiguous(states[0], ACL_FLOAT);
    c0_all = plan.Contiguous(states[1], ACL_FLOAT);
  }
  std::optional<TensorRef> sizes_ref;
  if (sizes) sizes_ref = plan.Contiguous(*sizes, ACL_INT64);
  const TensorRef last_h = plan.Temporary(ACL_FLOAT, {p.Groups(), b, h});
  const TensorRef last_c = plan.Temporary(ACL_FLOAT, {p.Groups(), b, h});
  const TensorRef scratch = plan.Temporary(ACL_FLOAT, {b, 6 * h});
  TensorRef y;
  for (int64_t layer = 0; layer < p.layers; ++layer) {
    y = plan.Temporary(ACL_FLOAT, {t, b, d * h});
    for (int64_t direction = 0; direction < d; ++direction) {
      const int64_t group = layer * d + direction;
      const auto at = static_cast<size_t>(group * p.group_len);
      LstmDirectionStep::Operands o;
      o.gates_in = plan.Temporary(ACL_FLOAT, {t, b, kGates * h});
      TensorRef gates_2d = o.gates_in;
      gates_2d.shape = {t * b, kGates * h};
      gates_2d.strides = {kGates * h, 1};
      CANOPY_CHECK(PlanInputProjection(plan, layer_input, weights, at, hasBias, dtype, gates_2d));
      o.weight_hh = plan.Contiguous(weights[at + 1], ACL_FLOAT);
      if (has_hx) {
        o.h0 = Select(*h0_all, 0, group);
        o.c0 = Select(*c0_all, 0, group);
      }
      o.batch_sizes = sizes_ref;
      o.y = y;
      o.y_column = direction * h;
      o.scratch = scratch;
      o.last_h = Select(last_h, 0, group);
      o.last_c = Select(last_c, 0, group);
      if (train) {
        for (size_t k = 0; k < kGateOutputs; ++k) o.gate_outputs.push_back(plan.Temporary(ACL_FLOAT, {t, b, h}));
      }
      o.reverse = direction == 1;
      o.round_half = dtype == ACL_FLOAT16;
      std::vector<TensorRef> reads = {o.gates_in, o.weight_hh};
      if (has_hx) {
        reads.push_back(*o.h0);
        reads.push_back(*o.c0);
      }
      if (sizes_ref) reads.push_back(*sizes_ref);
      const std::vector<TensorRef> gate_temps = o.gate_outputs;
      plan.AddStep(std::make_unique<LstmDirectionStep>(std::move(o)), reads, y);
      for (size_t k = 0; k < gate_temps.size(); ++k) plan.Copy(gate_temps[k], gate_outs[k][static_cast<size_t>(group)]);
    }
    layer_input = y;
    layer_input.shape = {t * b, d * h};
    layer_input.strides = {d * h, 1};
  }
  plan.Copy(!packed && batchFirst ? Permute(y, {1, 0, 2}) : y, out);
  plan.Copy(last_h, hy_out);
  plan.Copy(last_c, cy_out);
  return ACLNN_SUCCESS;
}

}  // namespace

CANOPY_ACLNN_OP(LSTM, PlanLSTM,
                (OpTraits{.header = "aclnnop/aclnn_lstm.h",
                          .dtypes = kLstmDtypes,
                          .example = "f32[3,2,4] (f32[12,4],f32[12,3]) - - false 1 0 false false false f32[3,2,3] "
                                     "f32[1,2,3] f32[1,2,3] - - - - - - -"}),
                (const aclTensor*, input), (const aclTensorList*, params), (const aclTensorList*, hx, optional),
                (const aclTensor*, batchSizes, optional), (bool, hasBias), (int64_t, numLayers), (double, dropout),
                (bool, train), (bool, bidirectional), (bool, batchFirst), (aclTensor*, output), (aclTensor*, hy),
                (aclTensor*, cy), (aclTensorList*, iOut, optional), (aclTensorList*, jOut, optional),
                (aclTensorList*, fOut, optional), (aclTensorList*, oOut, optional), (aclTensorList*, hOut, optional),
                (aclTensorList*, cOut, optional), (aclTensorList*, tanhCOut, optional))
