// aclnnGRU: PyTorch's multi-layer GRU as CANN runs it, one Gru kernel per
// layer and direction. Gates r, z, n in PyTorch's order; the reset gate scales
// the hidden part of n after its bias (n = tanh(W_in x + b_in + r * (W_hn h +
// b_hn))), and h' = z * h + (1 - z) * n. weight_ih, weight_hh (and bias_ih,
// bias_hh) per layer and direction; the reverse direction walks time
// backwards and fills the upper half of each step's features. The training
// outputs are r, z, n, the hidden part of n (hnOut) and h. Packed input
// (batchSizes) is rejected, as CANN's host code does. The recurrence runs in
// FLOAT, with h rounded to FLOAT16 after every step as CANN's half kernel
// stores it.
#include <array>
#include <cmath>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "aclnnop/aclnn_gru.h"
#include "ops/framework/aclnn_op.h"
#include "ops/reduce/row_norm.h"
#include "ops/rnn/rnn_layers.h"

using namespace canopy;
using namespace canopy::ops;
using namespace canopy::ops::rnn;

namespace {

constexpr int64_t kGates = 3;
// The training outputs: r, z, n, hn, h.
constexpr size_t kGateOutputs = 5;

// GRU's cell on one row: r, z from the summed products, n from the input
// part plus r times the hidden part (with its bias), h' = z * h + (1 - z) * n.
class GruStep final : public RecurrenceStep {
 public:
  using RecurrenceStep::RecurrenceStep;
  std::string Describe() const override { return "gru recurrence"; }

 protected:
  void Cell(const Row& row, int64_t hidden) const override {
    float* h = row.state;
    const float* gx = row.gates_in;
    const float* gh = row.hidden_gates;
    for (int64_t j = 0; j < hidden; ++j) {
      const float r = Sigmoid(gx[j] + gh[j]), z = Sigmoid(gx[hidden + j] + gh[hidden + j]);
      const float hn = gh[2 * hidden + j];
      const float n = std::tanh(gx[2 * hidden + j] + r * hn);
      h[j] = Store(z * h[j] + (1.0F - z) * n);
      row.y[j] = h[j];
      if (train()) {
        const std::array<float, kGateOutputs> values = {r, z, n, hn, h[j]};
        for (size_t k = 0; k < kGateOutputs; ++k) row.outputs[k][j] = values[k];
      }
    }
  }
};

// CANN's checks in its order: the training lists present, dtypes, list
// lengths, ranks, shapes (hidden size from params[0]).
aclnnStatus CheckGru(Plan& plan, const aclTensor* input, const aclTensorList* params, const aclTensor* hx,
                     int64_t numLayers, bool train, bool batchFirst, const aclTensor* output, const aclTensor* hy,
                     const std::vector<NamedList>& gates, RnnProblem& p) {
  CANOPY_CHECK(plan.CheckDtype("input", input->dtype, kRnnDtypes));
  const aclDataType dtype = input->dtype;
  CANOPY_CHECK(CheckListDtypes(plan, {{"params", params}}, dtype));
  if (hx != nullptr) CANOPY_CHECK(CheckInputDtype(plan, "hx", hx, dtype));
  CANOPY_CHECK(CheckInputDtype(plan, "output", output, dtype));
  CANOPY_CHECK(CheckInputDtype(plan, "hy", hy, dtype));
  if (train) CANOPY_CHECK(CheckListDtypes(plan, gates, dtype));
  CANOPY_CHECK(CheckLayerCount(plan, numLayers));
  CANOPY_CHECK(CheckListLengths(plan, {{"params", params}}, p.group_len * p.Groups()));
  if (train) CANOPY_CHECK(CheckListLengths(plan, gates, p.Groups()));
  CANOPY_CHECK(plan.CheckRank("input", input, 3, 3));
  CANOPY_CHECK(CheckParamRanks(plan, params, p));
  if (hx != nullptr) CANOPY_CHECK(plan.CheckRank("hx", hx, 3, 3));
  CANOPY_CHECK(plan.CheckRank("output", output, 3, 3));
  CANOPY_CHECK(plan.CheckRank("hy", hy, 3, 3));
  if (train) CANOPY_CHECK(CheckListRanks(plan, gates, 3));
  const Shape& in = input->view_shape;
  p.steps = batchFirst ? in[1] : in[0];
  p.batch = batchFirst ? in[0] : in[1];
  p.input_size = in[2];
  p.hidden = params->tensors[0]->view_shape[0] / p.gates;
  CANOPY_CHECK(CheckParamShapes(plan, params, p));
  const Shape state = {p.Groups(), p.batch, p.hidden};
  if (hx != nullptr) CANOPY_CHECK(plan.CheckShape("hx", hx, state));
  const int64_t features = p.directions * p.hidden;
  CANOPY_CHECK(plan.CheckShape("output", output,
                               batchFirst ? Shape{p.batch, p.steps, features} : Shape{p.steps, p.batch, features}));
  CANOPY_CHECK(plan.CheckShape("hy", hy, state));
  if (train) CANOPY_CHECK(CheckListShapes(plan, gates, {p.steps, p.batch, p.hidden}));
  return ACLNN_SUCCESS;
}

aclnnStatus PlanGRU(Plan& plan, const aclTensor* input, const aclTensorList* params, const aclTensor* hx,
                    const aclTensor* batchSizes, bool hasBias, int64_t numLayers, double /*dropout: unsupported*/,
                    bool train, bool bidirection, bool batchFirst, const aclTensor* output, const aclTensor* hy,
                    const aclTensorList* rOut, const aclTensorList* zOut, const aclTensorList* nOut,
                    const aclTensorList* hnOut, const aclTensorList* hOut) {
  if (batchSizes != nullptr) {
    return plan.Reject(ACLNN_ERR_PARAM_INVALID,
                       "batchSizes is given; packed (variable-length) input is not supported, as in CANN: pass a "
                       "fixed-length 3-D input and a null batchSizes");
  }
  const std::vector<NamedList> gates = {
      {"rOut", rOut}, {"zOut", zOut}, {"nOut", nOut}, {"hnOut", hnOut}, {"hOut", hOut}};
  if (train) CANOPY_CHECK(CheckGateListsPresent(plan, gates));
  RnnProblem p;
  p.gates = kGates;
  p.layers = numLayers;
  p.directions = bidirection ? 2 : 1;
  p.group_len = hasBias ? 4 : 2;
  CANOPY_CHECK(CheckGru(plan, input, params, hx, numLayers, train, batchFirst, output, hy, gates, p));
  NetworkOperands n;
  n.input = plan.Input(input, "input");
  n.batch_first = batchFirst;
  n.params = plan.InputList(params, "params");
  n.initial = {OptionalInput(plan, hx, "hx")};
  plan.SkipInput();  // batchSizes, null
  n.output = plan.Output(output, "output");
  n.final_states = {plan.Output(hy, "hy")};
  n.gate_lists = GateOutputLists(plan, gates, train);
  return PlanNetwork(plan, p, n, HiddenBias::kSeparate, input->dtype,
                     [](RecurrenceOperands o) { return std::make_unique<GruStep>(std::move(o)); });
}

}  // namespace

CANOPY_ACLNN_OP(GRU, PlanGRU,
                (OpTraits{.header = "aclnnop/aclnn_gru.h",
                          .dtypes = kRnnDtypes,
                          .example = "f32[3,2,4] (f32[9,4],f32[9,3]) - - false 1 0 false false false f32[3,2,3] "
                                     "f32[1,2,3] - - - - -"}),
                (const aclTensor*, input), (const aclTensorList*, params), (const aclTensor*, hx, optional),
                (const aclTensor*, batchSizes, optional), (bool, hasBias), (int64_t, numLayers), (double, dropout),
                (bool, train), (bool, bidirection), (bool, batchFirst), (aclTensor*, output), (aclTensor*, hy),
                (aclTensorList*, rOut, optional), (aclTensorList*, zOut, optional), (aclTensorList*, nOut, optional),
                (aclTensorList*, hnOut, optional), (aclTensorList*, hOut, optional))
