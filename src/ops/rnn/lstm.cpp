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
#include <array>
#include <cmath>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "aclnnop/aclnn_lstm.h"
#include "ops/framework/aclnn_op.h"
#include "ops/reduce/row_norm.h"
#include "ops/rnn/rnn_layers.h"

using namespace canopy;
using namespace canopy::ops;
using namespace canopy::ops::rnn;

namespace {

constexpr int64_t kGates = 4;
constexpr int64_t kHxCount = 2;
// The training outputs: i, j, f, o, h, c, tanh(c).
constexpr size_t kGateOutputs = 7;

// LSTM's cell on one row: gates i, f, j, o from the input and hidden
// products; a row batchSizes leaves out keeps h and c and outputs 0.
class LstmStep final : public RecurrenceStep {
 public:
  using RecurrenceStep::RecurrenceStep;
  std::string Describe() const override { return "lstm recurrence"; }

 protected:
  void Cell(const Row& row, int64_t hidden) const override {
    float* h = row.state;
    float* c = row.state + hidden;
    auto gate = [&](int64_t k, int64_t j) { return row.gates_in[k * hidden + j] + row.hidden_gates[k * hidden + j]; };
    for (int64_t j = 0; j < hidden; ++j) {
      const float i = Sigmoid(gate(0, j)), f = Sigmoid(gate(1, j)), g = std::tanh(gate(2, j)), o = Sigmoid(gate(3, j));
      // tanh reads the cell state before it is stored (and rounded) for the next step.
      const float c_next = row.active ? f * c[j] + i * g : c[j];
      const float tanh_c = std::tanh(c_next);
      const float h_new = Store(o * tanh_c);
      h[j] = row.active ? h_new : h[j];
      c[j] = Store(c_next);
      row.y[j] = row.active ? h_new : 0.0F;
      if (train()) {
        const std::array<float, kGateOutputs> values = {i, g, f, o, h[j], c[j], tanh_c};
        for (size_t k = 0; k < kGateOutputs; ++k) row.outputs[k][j] = values[k];
      }
    }
  }
};

// CANN's checks without batchSizes, in its order: the training lists present,
// dtypes, list lengths, ranks, shapes (hidden size from params[0]).
aclnnStatus CheckFixedLength(Plan& plan, const aclTensor* input, const aclTensorList* params, const aclTensorList* hx,
                             int64_t numLayers, bool train, bool batchFirst, const aclTensor* output,
                             const aclTensor* hy, const aclTensor* cy, const std::vector<NamedList>& gates,
                             RnnProblem& p) {
  CANOPY_CHECK(plan.CheckDtype("input", input->dtype, kRnnDtypes));
  const aclDataType dtype = input->dtype;
  CANOPY_CHECK(CheckListDtypes(plan, {{"params", params}, {"hx", hx}}, dtype));
  CANOPY_CHECK(CheckInputDtype(plan, "output", output, dtype));
  CANOPY_CHECK(CheckInputDtype(plan, "hy", hy, dtype));
  CANOPY_CHECK(CheckInputDtype(plan, "cy", cy, dtype));
  if (train) CANOPY_CHECK(CheckListDtypes(plan, gates, dtype));
  CANOPY_CHECK(CheckLayerCount(plan, numLayers));
  CANOPY_CHECK(CheckListLengths(plan, {{"params", params}}, p.group_len * p.Groups()));
  if (hx != nullptr && hx->tensors.size() != kHxCount && !hx->tensors.empty()) {
    return plan.Reject(ACLNN_ERR_PARAM_INVALID, "argument 'hx' holds %zu tensors; it must hold 2 or none",
                       hx->tensors.size());
  }
  if (train) CANOPY_CHECK(CheckListLengths(plan, gates, p.Groups()));
  CANOPY_CHECK(plan.CheckRank("input", input, 3, 3));
  CANOPY_CHECK(CheckParamRanks(plan, params, p));
  if (hx != nullptr) CANOPY_CHECK(CheckListRanks(plan, {{"hx", hx}}, 3));
  CANOPY_CHECK(plan.CheckRank("output", output, 3, 3));
  CANOPY_CHECK(plan.CheckRank("hy", hy, 3, 3));
  CANOPY_CHECK(plan.CheckRank("cy", cy, 3, 3));
  if (train) CANOPY_CHECK(CheckListRanks(plan, gates, 3));
  const Shape& in = input->view_shape;
  p.steps = batchFirst ? in[1] : in[0];
  p.batch = batchFirst ? in[0] : in[1];
  p.input_size = in[2];
  p.hidden = params->tensors[0]->view_shape[0] / p.gates;
  CANOPY_CHECK(CheckParamShapes(plan, params, p));
  const Shape state = {p.Groups(), p.batch, p.hidden};
  if (hx != nullptr) CANOPY_CHECK(CheckListShapes(plan, {{"hx", hx}}, state));
  const int64_t features = p.directions * p.hidden;
  CANOPY_CHECK(plan.CheckShape("output", output,
                               batchFirst ? Shape{p.batch, p.steps, features} : Shape{p.steps, p.batch, features}));
  CANOPY_CHECK(plan.CheckShape("hy", hy, state));
  CANOPY_CHECK(plan.CheckShape("cy", cy, state));
  if (train) CANOPY_CHECK(CheckListShapes(plan, gates, {p.steps, p.batch, p.hidden}));
  return ACLNN_SUCCESS;
}

// CANN's checks with batchSizes, in its order: list lengths and ranks, shapes
// (time steps from batchSizes, hidden size from output), then dtypes. An empty
// input is accepted before any of them.
aclnnStatus CheckPacked(Plan& plan, const aclTensor* input, const aclTensorList* params, const aclTensorList* hx,
                        const aclTensor* batchSizes, bool train, const aclTensor* output, const aclTensor* hy,
                        const aclTensor* cy, const std::vector<NamedList>& gates, RnnProblem& p) {
  CANOPY_CHECK(plan.CheckRank("input", input, 2, 2));
  CANOPY_CHECK(CheckListLengths(plan, {{"params", params}}, p.group_len * p.Groups()));
  CANOPY_CHECK(CheckParamRanks(plan, params, p));
  CANOPY_CHECK(plan.CheckRank("batchSizes", batchSizes, 1, 1));
  CANOPY_CHECK(plan.CheckRank("output", output, 3, 3));
  CANOPY_CHECK(plan.CheckRank("hy", hy, 3, 3));
  CANOPY_CHECK(plan.CheckRank("cy", cy, 3, 3));
  if (train) CANOPY_CHECK(CheckListLengths(plan, gates, p.Groups()));
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
  if (hx != nullptr) CANOPY_CHECK(CheckListShapes(plan, {{"hx", hx}}, state));
  CANOPY_CHECK(plan.CheckShape("output", output, {p.steps, p.batch, p.directions * p.hidden}));
  CANOPY_CHECK(plan.CheckShape("hy", hy, state));
  CANOPY_CHECK(plan.CheckShape("cy", cy, state));
  if (train) CANOPY_CHECK(CheckListShapes(plan, gates, {p.steps, p.batch, p.hidden}));
  CANOPY_CHECK(plan.CheckDtype("input", input->dtype, kRnnDtypes));
  const aclDataType dtype = input->dtype;
  CANOPY_CHECK(CheckListDtypes(plan, {{"params", params}, {"hx", hx}}, dtype));
  CANOPY_CHECK(plan.CheckDtype("batchSizes", batchSizes->dtype, DtypeSet{ACL_INT64}));
  CANOPY_CHECK(CheckInputDtype(plan, "output", output, dtype));
  CANOPY_CHECK(CheckInputDtype(plan, "hy", hy, dtype));
  CANOPY_CHECK(CheckInputDtype(plan, "cy", cy, dtype));
  if (train) CANOPY_CHECK(CheckListDtypes(plan, gates, dtype));
  return ACLNN_SUCCESS;
}

aclnnStatus PlanLSTM(Plan& plan, const aclTensor* input, const aclTensorList* params, const aclTensorList* hx,
                     const aclTensor* batchSizes, bool hasBias, int64_t numLayers, double /*dropout: unsupported*/,
                     bool train, bool bidirectional, bool batchFirst, const aclTensor* output, const aclTensor* hy,
                     const aclTensor* cy, const aclTensorList* iOut, const aclTensorList* jOut,
                     const aclTensorList* fOut, const aclTensorList* oOut, const aclTensorList* hOut,
                     const aclTensorList* cOut, const aclTensorList* tanhCOut) {
  const std::vector<NamedList> gates = {{"iOut", iOut}, {"jOut", jOut}, {"fOut", fOut},        {"oOut", oOut},
                                        {"hOut", hOut}, {"cOut", cOut}, {"tanhCOut", tanhCOut}};
  if (train) CANOPY_CHECK(CheckGateListsPresent(plan, gates));
  const bool packed = batchSizes != nullptr;
  RnnProblem p;
  p.gates = kGates;
  p.layers = numLayers;
  p.directions = bidirectional ? 2 : 1;
  p.group_len = hasBias ? 4 : 2;
  if (packed) {
    if (hx != nullptr && hx->tensors.size() != kHxCount) {
      return plan.Reject(ACLNN_ERR_PARAM_INVALID, "argument 'hx' holds %zu tensors; with batchSizes it must hold 2",
                         hx->tensors.size());
    }
    CANOPY_CHECK(CheckLayerCount(plan, numLayers));
    if (input->NumElements() != 0) {
      CANOPY_CHECK(CheckPacked(plan, input, params, hx, batchSizes, train, output, hy, cy, gates, p));
    }
  } else {
    CANOPY_CHECK(CheckFixedLength(plan, input, params, hx, numLayers, train, batchFirst, output, hy, cy, gates, p));
  }
  NetworkOperands n;
  n.input = plan.Input(input, "input");
  n.batch_first = !packed && batchFirst;
  n.params = plan.InputList(params, "params");
  std::vector<TensorRef> states;
  if (hx != nullptr) {
    states = plan.InputList(hx, "hx");
  } else {
    plan.SkipInput();
  }
  n.initial.resize(kHxCount);
  if (!states.empty()) n.initial = {states[0], states[1]};
  n.batch_sizes = OptionalInput(plan, batchSizes, "batchSizes");
  n.output = plan.Output(output, "output");
  n.final_states = {plan.Output(hy, "hy"), plan.Output(cy, "cy")};
  n.gate_lists = GateOutputLists(plan, gates, train);
  return PlanNetwork(plan, p, n, HiddenBias::kSummedIntoInput, input->dtype,
                     [](RecurrenceOperands o) { return std::make_unique<LstmStep>(std::move(o)); });
}

}  // namespace

CANOPY_ACLNN_OP(LSTM, PlanLSTM,
                (OpTraits{.header = "aclnnop/aclnn_lstm.h",
                          .dtypes = kRnnDtypes,
                          .example = "f32[3,2,4] (f32[12,4],f32[12,3]) - - false 1 0 false false false f32[3,2,3] "
                                     "f32[1,2,3] f32[1,2,3] - - - - - - -"}),
                (const aclTensor*, input), (const aclTensorList*, params), (const aclTensorList*, hx, optional),
                (const aclTensor*, batchSizes, optional), (bool, hasBias), (int64_t, numLayers), (double, dropout),
                (bool, train), (bool, bidirectional), (bool, batchFirst), (aclTensor*, output), (aclTensor*, hy),
                (aclTensor*, cy), (aclTensorList*, iOut, optional), (aclTensorList*, jOut, optional),
                (aclTensorList*, fOut, optional), (aclTensorList*, oOut, optional), (aclTensorList*, hOut, optional),
                (aclTensorList*, cOut, optional), (aclTensorList*, tanhCOut, optional))
