#include "ops/rnn/rnn_layers.h"

#include <algorithm>
#include <cstring>

#include "kernels/parallel_for.h"
#include "ops/framework/tensor_view.h"
#include "ops/nn/matmul_planner.h"

namespace canopy::ops::rnn {

std::string ListElement(const char* list, size_t index) {
  return std::string(list) + "[" + std::to_string(index) + "]";
}

aclnnStatus CheckListDtypes(Plan& plan, const std::vector<NamedList>& lists, aclDataType dtype) {
  for (const NamedList& named : lists) {
    if (named.list == nullptr) continue;
    for (size_t i = 0; i < named.list->tensors.size(); ++i) {
      const aclDataType got = named.list->tensors[i]->dtype;
      if (got != dtype) {
        return plan.Reject(ACLNN_ERR_PARAM_INVALID, "'%s' has dtype %s; it must be input's (%s)",
                           ListElement(named.name, i).c_str(), DtypeName(got), DtypeName(dtype));
      }
    }
  }
  return ACLNN_SUCCESS;
}

aclnnStatus CheckGateListsPresent(Plan& plan, const std::vector<NamedList>& lists) {
  for (const NamedList& named : lists) {
    if (named.list == nullptr) {
      return plan.Reject(ACLNN_ERR_PARAM_NULLPTR, "argument '%s' is null; train needs it", named.name);
    }
  }
  return ACLNN_SUCCESS;
}

std::vector<std::vector<TensorRef>> GateOutputLists(Plan& plan, const std::vector<NamedList>& lists, bool train) {
  std::vector<std::vector<TensorRef>> refs;
  for (const NamedList& named : lists) {
    if (train) {
      refs.push_back(plan.OutputList(named.list, named.name));
    } else {
      plan.SkipOutput();
    }
  }
  return refs;
}

aclnnStatus CheckInputDtype(Plan& plan, const char* name, const aclTensor* t, aclDataType dtype) {
  if (t->dtype == dtype) return ACLNN_SUCCESS;
  return plan.Reject(ACLNN_ERR_PARAM_INVALID, "'%s' has dtype %s; it must be input's (%s)", name, DtypeName(t->dtype),
                     DtypeName(dtype));
}

aclnnStatus CheckListLengths(Plan& plan, const std::vector<NamedList>& lists, int64_t length) {
  for (const NamedList& named : lists) {
    if (static_cast<int64_t>(named.list->tensors.size()) != length) {
      return plan.Reject(ACLNN_ERR_PARAM_INVALID, "argument '%s' holds %zu tensors; it must hold %lld", named.name,
                         named.list->tensors.size(), static_cast<long long>(length));
    }
  }
  return ACLNN_SUCCESS;
}

aclnnStatus CheckListRanks(Plan& plan, const std::vector<NamedList>& lists, int64_t rank) {
  for (const NamedList& named : lists) {
    for (size_t i = 0; i < named.list->tensors.size(); ++i) {
      CANOPY_CHECK(plan.CheckRank(ListElement(named.name, i).c_str(), named.list->tensors[i], rank, rank));
    }
  }
  return ACLNN_SUCCESS;
}

aclnnStatus CheckListShapes(Plan& plan, const std::vector<NamedList>& lists, const Shape& shape) {
  for (const NamedList& named : lists) {
    for (size_t i = 0; i < named.list->tensors.size(); ++i) {
      CANOPY_CHECK(plan.CheckShape(ListElement(named.name, i).c_str(), named.list->tensors[i], shape));
    }
  }
  return ACLNN_SUCCESS;
}

aclnnStatus CheckLayerCount(Plan& plan, int64_t num_layers) {
  if (num_layers >= 1) return ACLNN_SUCCESS;
  return plan.Reject(ACLNN_ERR_PARAM_INVALID, "numLayers is %lld; it must be positive",
                     static_cast<long long>(num_layers));
}

aclnnStatus CheckParamRanks(Plan& plan, const aclTensorList* params, const RnnProblem& p) {
  for (int64_t group = 0; group < p.Groups(); ++group) {
    const auto at = static_cast<size_t>(group * p.group_len);
    for (size_t k = 0; k < static_cast<size_t>(p.group_len); ++k) {
      const int64_t rank = k < 2 ? 2 : 1;  // the two weights, then the two biases
      CANOPY_CHECK(plan.CheckRank(ListElement("params", at + k).c_str(), params->tensors[at + k], rank, rank));
    }
  }
  return ACLNN_SUCCESS;
}

aclnnStatus CheckParamShapes(Plan& plan, const aclTensorList* params, const RnnProblem& p) {
  const int64_t rows = p.gates * p.hidden;
  for (int64_t group = 0; group < p.Groups(); ++group) {
    const auto at = static_cast<size_t>(group * p.group_len);
    const int64_t layer_input = group < p.directions ? p.input_size : p.directions * p.hidden;
    const std::vector<Shape> expected = {{rows, layer_input}, {rows, p.hidden}, {rows}, {rows}};
    for (size_t k = 0; k < static_cast<size_t>(p.group_len); ++k) {
      CANOPY_CHECK(plan.CheckShape(ListElement("params", at + k).c_str(), params->tensors[at + k], expected[k]));
    }
  }
  return ACLNN_SUCCESS;
}

namespace {

// Multiply-adds of the hidden product that make a row range worth a thread of its own.
constexpr int64_t kMinProductPerThread = int64_t{1} << 15;

// out[n] = base[n] + h . weight[n] for the width rows of weight ([width, hidden]); base may be null.
void HiddenProduct(const float* h, const float* weight, int64_t hidden, int64_t width, const float* base, float* out) {
  for (int64_t n = 0; n < width; ++n) {
    const float* w = weight + n * hidden;
    float dot = 0.0F;
    for (int64_t k = 0; k < hidden; ++k) dot += h[k] * w[k];
    out[n] = (base != nullptr ? base[n] : 0.0F) + dot;
  }
}

// The first layer's input as [T * B, I] FLOAT rows, time-major (a batch-first [B, T, I] view transposed).
TensorRef TimeMajorRows(Plan& plan, const TensorRef& input, bool batch_first, const RnnProblem& p) {
  TensorRef rows = plan.Contiguous(batch_first ? Permute(input, {1, 0, 2}) : input, ACL_FLOAT);
  rows.shape = {p.steps * p.batch, p.input_size};
  rows.strides = {p.input_size, 1};
  return rows;
}

// input @ weight_ih^T (+ the input-side bias) for every step of one layer and direction.
aclnnStatus PlanInputProjection(Plan& plan, const TensorRef& layer_input, const std::vector<TensorRef>& params,
                                size_t at, bool biased, HiddenBias bias_mode, aclDataType dtype,
                                const TensorRef& gates_in) {
  const TensorRef weight_t = Transpose(plan.Contiguous(params[at], ACL_FLOAT), 0, 1);
  if (!biased) return PlanProduct(plan, layer_input, weight_t, gates_in, 0);
  TensorRef bias = params[at + 2];
  if (bias_mode == HiddenBias::kSummedIntoInput) {
    bias = plan.Temporary(dtype, params[at + 2].shape);
    plan.Elementwise(ElementwiseOp::kAdd, ComputeType::kF32, {params[at + 2], params[at + 3]}, bias,
                     ScalarValue::Integer(1));
  }
  const TensorRef bias_f32 = plan.Contiguous(bias, ACL_FLOAT);
  return PlanProduct(plan, layer_input, weight_t, gates_in, 0, ProductTerms{.beta = 1.0F, .bias = &bias_f32});
}

// A [rows, width] view of a contiguous tensor.
TensorRef Rows(TensorRef t, int64_t rows, int64_t width) {
  t.shape = {rows, width};
  t.strides = {width, 1};
  return t;
}

}  // namespace

aclnnStatus RecurrenceStep::Run(const RunContext& context) const {
  auto in = [&](const TensorRef& t) { return reinterpret_cast<const float*>(context.Resolve(t.buffer)); };
  auto out = [&](const TensorRef& t) { return reinterpret_cast<float*>(context.Resolve(t.buffer)); };
  const int64_t steps = o_.gates_in.shape[0], batch = o_.gates_in.shape[1], hidden = o_.weight_hh.shape[1];
  const int64_t width = o_.gates_in.shape[2], y_width = o_.y.shape[2];
  const auto states = static_cast<int64_t>(o_.initial.size());
  const int64_t row_width = (states + width / hidden) * hidden;
  const float* gates_in = in(o_.gates_in);
  const float* weight = in(o_.weight_hh);
  const float* bias = o_.bias_hh ? in(*o_.bias_hh) : nullptr;
  const auto* batch_sizes =
      o_.batch_sizes ? reinterpret_cast<const int64_t*>(context.Resolve(o_.batch_sizes->buffer)) : nullptr;
  float* y = out(o_.y);
  float* scratch = out(o_.scratch);
  for (int64_t b = 0; b < batch; ++b) {
    for (int64_t s = 0; s < states; ++s) {
      const auto& initial = o_.initial[static_cast<size_t>(s)];
      float* state = scratch + b * row_width + s * hidden;
      for (int64_t j = 0; j < hidden; ++j) state[j] = initial ? in(*initial)[b * hidden + j] : 0.0F;
    }
  }
  const int64_t product_per_row = width * hidden;
  const int64_t row_grain = std::max<int64_t>(1, kMinProductPerThread / product_per_row);
  for (int64_t step = 0; step < steps; ++step) {
    const int64_t t = o_.reverse ? steps - 1 - step : step;
    kernels::ParallelFor(batch, row_grain, [&](int64_t begin, int64_t end) {
      for (int64_t b = begin; b < end; ++b) {
        float* state = scratch + b * row_width;
        float* hidden_gates = state + states * hidden;
        HiddenProduct(state, weight, hidden, width, bias, hidden_gates);
        Row row{.gates_in = gates_in + (t * batch + b) * width,
                .hidden_gates = hidden_gates,
                .state = state,
                .y = y + (t * batch + b) * y_width + o_.y_column,
                .active = batch_sizes == nullptr || batch_sizes[t] > b};
        for (size_t k = 0; k < o_.gate_outputs.size(); ++k) {
          row.outputs[k] = out(o_.gate_outputs[k]) + (t * batch + b) * hidden;
        }
        Cell(row, hidden);
      }
    });
  }
  for (int64_t s = 0; s < states; ++s) {
    float* final_state = out(o_.final_states[static_cast<size_t>(s)]);
    for (int64_t b = 0; b < batch; ++b) {
      std::memcpy(final_state + b * hidden, scratch + b * row_width + s * hidden,
                  sizeof(float) * static_cast<size_t>(hidden));
    }
  }
  return ACLNN_SUCCESS;
}

aclnnStatus PlanNetwork(Plan& plan, const RnnProblem& p, const NetworkOperands& n, HiddenBias bias_mode,
                        aclDataType dtype, const MakeRecurrence& make) {
  const int64_t t = p.steps, b = p.batch, h = p.hidden, d = p.directions, width = p.gates * h;
  if (n.input.NumElements() == 0 || h == 0) return ACLNN_SUCCESS;
  const bool biased = p.group_len == 4;
  std::vector<std::optional<TensorRef>> initial;
  std::vector<TensorRef> finals;
  for (const auto& state : n.initial) {
    initial.push_back(state ? std::optional(plan.Contiguous(*state, ACL_FLOAT)) : std::nullopt);
    finals.push_back(plan.Temporary(ACL_FLOAT, {p.Groups(), b, h}));
  }
  std::optional<TensorRef> batch_sizes;
  if (n.batch_sizes) batch_sizes = plan.Contiguous(*n.batch_sizes, ACL_INT64);
  const auto states = static_cast<int64_t>(initial.size());
  const TensorRef scratch = plan.Temporary(ACL_FLOAT, {b, (states + p.gates) * h});
  TensorRef layer_input = TimeMajorRows(plan, n.input, n.batch_first, p);
  TensorRef y;
  for (int64_t layer = 0; layer < p.layers; ++layer) {
    y = plan.Temporary(ACL_FLOAT, {t, b, d * h});
    for (int64_t direction = 0; direction < d; ++direction) {
      const int64_t group = layer * d + direction;
      const auto at = static_cast<size_t>(group * p.group_len);
      RecurrenceOperands o;
      o.gates_in = plan.Temporary(ACL_FLOAT, {t, b, width});
      CANOPY_CHECK(PlanInputProjection(plan, layer_input, n.params, at, biased, bias_mode, dtype,
                                       Rows(o.gates_in, t * b, width)));
      o.weight_hh = plan.Contiguous(n.params[at + 1], ACL_FLOAT);
      if (biased && bias_mode == HiddenBias::kSeparate) o.bias_hh = plan.Contiguous(n.params[at + 3], ACL_FLOAT);
      std::vector<TensorRef> reads = {o.gates_in, o.weight_hh};
      for (size_t s = 0; s < initial.size(); ++s) {
        o.initial.push_back(initial[s] ? std::optional(Select(*initial[s], 0, group)) : std::nullopt);
        o.final_states.push_back(Select(finals[s], 0, group));
      }
      for (const auto& extra : o.initial) {
        if (extra) reads.push_back(*extra);
      }
      if (o.bias_hh) reads.push_back(*o.bias_hh);
      o.batch_sizes = batch_sizes;
      if (batch_sizes) reads.push_back(*batch_sizes);
      o.y = y;
      o.y_column = direction * h;
      o.scratch = scratch;
      for (size_t k = 0; k < n.gate_lists.size(); ++k) o.gate_outputs.push_back(plan.Temporary(ACL_FLOAT, {t, b, h}));
      o.reverse = direction == 1;
      o.round_half = dtype == ACL_FLOAT16;
      const std::vector<TensorRef> gate_temps = o.gate_outputs;
      plan.AddStep(make(std::move(o)), reads, y);
      for (size_t k = 0; k < gate_temps.size(); ++k) {
        plan.Copy(gate_temps[k], n.gate_lists[k][static_cast<size_t>(group)]);
      }
    }
    layer_input = Rows(y, t * b, d * h);
  }
  plan.Copy(n.batch_first ? Permute(y, {1, 0, 2}) : y, n.output);
  for (size_t s = 0; s < finals.size(); ++s) plan.Copy(finals[s], n.final_states[s]);
  return ACLNN_SUCCESS;
}

}  // namespace canopy::ops::rnn
