// What CANN's stacked recurrent ops (LSTM, GRU) share: the checks of the
// params list (weight_ih, weight_hh and the two biases per layer and
// direction, PyTorch's layout) and of the per-step output lists, and the
// planning of the layers: each layer and direction gets its input projection
// for all steps as one matrix product, then a recurrence step of the op's own.
#pragma once

#include <array>
#include <cmath>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "common/half.h"
#include "ops/framework/plan.h"

namespace canopy::ops::rnn {

inline constexpr DtypeSet kRnnDtypes = {ACL_FLOAT, ACL_FLOAT16};

// The problem as CANN's checks read it off the arguments.
struct RnnProblem {
  int64_t gates = 4;  // 4H rows per weight (LSTM), 3H (GRU)
  int64_t steps = 0, batch = 0, input_size = 0, hidden = 0, layers = 0, directions = 1;
  int64_t group_len = 2;  // params per layer and direction: weight_ih, weight_hh (, bias_ih, bias_hh)
  int64_t Groups() const { return layers * directions; }
};

// A tensor-list argument and the name its messages give it.
struct NamedList {
  const char* name;
  const aclTensorList* list;
};

// `list[index]`, as messages name an element.
std::string ListElement(const char* list, size_t index);

// Every element of every list has `dtype` (a null list passes).
aclnnStatus CheckListDtypes(Plan& plan, const std::vector<NamedList>& lists, aclDataType dtype);
// 161001 naming the first null list: train needs them all.
aclnnStatus CheckGateListsPresent(Plan& plan, const std::vector<NamedList>& lists);
// `t` has the input's dtype.
aclnnStatus CheckInputDtype(Plan& plan, const char* name, const aclTensor* t, aclDataType dtype);
aclnnStatus CheckListLengths(Plan& plan, const std::vector<NamedList>& lists, int64_t length);
aclnnStatus CheckListRanks(Plan& plan, const std::vector<NamedList>& lists, int64_t rank);
aclnnStatus CheckListShapes(Plan& plan, const std::vector<NamedList>& lists, const Shape& shape);
// numLayers >= 1: CANN reads params[0] and sizes its loops by it unchecked.
aclnnStatus CheckLayerCount(Plan& plan, int64_t num_layers);
// The weights are 2-D and the biases 1-D, for each layer and direction.
aclnnStatus CheckParamRanks(Plan& plan, const aclTensorList* params, const RnnProblem& p);
// weight_ih [G*H, I] (the first layer) or [G*H, D*H], weight_hh [G*H, H], biases [G*H].
aclnnStatus CheckParamShapes(Plan& plan, const aclTensorList* params, const RnnProblem& p);

// A state value as the step stores it for the next one: FLOAT16 kernels keep h (and c) in half.
inline float RoundToStorage(bool round_half, float v) { return round_half ? HalfToFloat(FloatToHalf(v)) : v; }

inline float Sigmoid(float x) { return 1.0F / (1.0F + std::exp(-x)); }

// Where the hidden bias goes: added to the input bias before the input
// projection, rounded to the dtype (LSTM: CANN adds the two first), or kept
// for the hidden product (GRU: the reset gate scales its n part).
enum class HiddenBias { kSummedIntoInput, kSeparate };

// The most training outputs an op has (LSTM's i, j, f, o, h, c, tanh(c)).
inline constexpr size_t kMaxGateOutputs = 7;

// One layer and direction of a recurrence, all FLOAT and contiguous.
struct RecurrenceOperands {
  TensorRef gates_in;                             // [T, B, G*H]: input @ weight_ih^T (+ bias)
  TensorRef weight_hh;                            // [G*H, H]
  std::optional<TensorRef> bias_hh;               // [G*H] (HiddenBias::kSeparate with biases)
  std::vector<std::optional<TensorRef>> initial;  // per state (h first): [B, H], or zeros
  std::vector<TensorRef> final_states;            // per state: [B, H]
  std::optional<TensorRef> batch_sizes;           // [T] INT64: step t updates rows b < batchSizes[t]
  TensorRef y;                                    // [T, B, D*H]: the layer's output
  int64_t y_column = 0;                           // this direction's first feature in y
  TensorRef scratch;                              // [B, (states + G) * H]
  std::vector<TensorRef> gate_outputs;            // the training outputs, [T, B, H] each, or none
  bool reverse = false;
  bool round_half = false;  // FLOAT16: states are stored in half between steps
};

// The time loop every recurrence shares: per step (backwards for the reverse
// direction) and batch row, the hidden product h @ weight_hh^T (+ bias_hh),
// then the op's cell. Rows run in parallel; steps in order.
class RecurrenceStep : public Step {
 public:
  // One row at one step, as the cell sees it.
  struct Row {
    const float* gates_in;                          // G*H
    const float* hidden_gates;                      // G*H: h @ weight_hh^T (+ bias_hh)
    float* state;                                   // states * H, h first: read, then updated
    float* y;                                       // H
    std::array<float*, kMaxGateOutputs> outputs{};  // H each, when training
    bool active = true;                             // false: batchSizes leaves the row out of this step
  };
  explicit RecurrenceStep(RecurrenceOperands o) : o_(std::move(o)) {}
  aclnnStatus Run(const RunContext& context) const final;

 protected:
  virtual void Cell(const Row& row, int64_t hidden) const = 0;
  bool train() const { return !o_.gate_outputs.empty(); }
  float Store(float v) const { return RoundToStorage(o_.round_half, v); }

 private:
  RecurrenceOperands o_;
};

using MakeRecurrence = std::function<std::unique_ptr<Step>(RecurrenceOperands)>;

// A stacked network's operands as the op registered them.
struct NetworkOperands {
  TensorRef input;           // [T, B, I], [B, T, I] (batch_first) or [T * B, I]
  bool batch_first = false;  // input and output are [B, T, .]
  std::vector<TensorRef> params;
  std::vector<std::optional<TensorRef>> initial;   // per state (h first): [L*D, B, H], or zeros
  std::optional<TensorRef> batch_sizes;            // [T] INT64
  TensorRef output;                                // [T, B, D*H] or [B, T, D*H] (batch_first)
  std::vector<TensorRef> final_states;             // per state: [L*D, B, H] (hy, cy)
  std::vector<std::vector<TensorRef>> gate_lists;  // per training output its L*D tensors; none when not training
};

// The training output lists registered in prototype order (train), or their parameters skipped.
std::vector<std::vector<TensorRef>> GateOutputLists(Plan& plan, const std::vector<NamedList>& lists, bool train);

// Plans every layer and direction: the input projection of all steps as one
// matrix product, then the recurrence `make` builds; then the output, the
// final states and the training outputs written to the op's tensors. An
// empty input (or a zero hidden size) plans nothing, as CANN computes nothing:
// the outputs keep what they held.
aclnnStatus PlanNetwork(Plan& plan, const RnnProblem& p, const NetworkOperands& n, HiddenBias bias_mode,
                        aclDataType dtype, const MakeRecurrence& make);

}  // namespace canopy::ops::rnn
