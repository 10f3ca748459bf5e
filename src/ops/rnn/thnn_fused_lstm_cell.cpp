// aclnnThnnFusedLstmCell (torch's _thnn_fused_lstm_cell): gates = inputGates
// + hiddenGates (+ inputBias + hiddenBias), [B, 4H] in torch's order input,
// forget, cell candidate, output, as CANN's forward and backward kernels
// read them (the document's formula text lists [i, g, f, o]); i, f, o through
// sigmoid and g through tanh; cy = f * cx + i * g, hy = o * tanh(cy);
// storageOut keeps [i, f, g, o] activated. The two biases come together or not at all (161001 otherwise,
// as CANN). Computed in FLOAT, each output rounded once.
#include <cmath>
#include <memory>
#include <optional>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

#include "aclnnop/aclnn_thnn_fused_lstm_cell.h"
#include "ops/framework/aclnn_op.h"

using namespace canopy;
using namespace canopy::ops;

namespace {

constexpr DtypeSet kLstmDtypes = {ACL_FLOAT, ACL_FLOAT16};

float Sigmoid(float x) { return 1.0F / (1.0F + std::exp(-x)); }

// All dense FLOAT: input/hidden gates [B, 4H], cx [B, H], bias [4H] (the two summed, optional);
// writes hy, cy [B, H] and storage [B, 4H].
class LstmCellStep final : public Step {
 public:
  struct Operands {
    TensorRef input_gates, hidden_gates, cx;
    std::optional<TensorRef> input_bias, hidden_bias;
    TensorRef hy, cy, storage;
  };
  explicit LstmCellStep(Operands o) : o_(std::move(o)) {}

  aclnnStatus Run(const RunContext& context) const override {
    auto in = [&](const TensorRef& t) { return reinterpret_cast<const float*>(context.Resolve(t.buffer)); };
    auto out = [&](const TensorRef& t) { return reinterpret_cast<float*>(context.Resolve(t.buffer)); };
    const float* ig = in(o_.input_gates);
    const float* hg = in(o_.hidden_gates);
    const float* cx = in(o_.cx);
    const float* ib = o_.input_bias ? in(*o_.input_bias) : nullptr;
    const float* hb = o_.hidden_bias ? in(*o_.hidden_bias) : nullptr;
    float* hy = out(o_.hy);
    float* cy = out(o_.cy);
    float* storage = out(o_.storage);
    const int64_t b = o_.cx.shape[0], h = o_.cx.shape[1];
    for (int64_t r = 0; r < b; ++r) {
      auto gate = [&](int64_t k, int64_t j) {
        const int64_t at = r * 4 * h + k * h + j;
        const float bias = ib != nullptr ? ib[k * h + j] + hb[k * h + j] : 0.0F;
        return ig[at] + hg[at] + bias;
      };
      for (int64_t j = 0; j < h; ++j) {
        const float i = Sigmoid(gate(0, j)), f = Sigmoid(gate(1, j)), g = std::tanh(gate(2, j)),
                    o = Sigmoid(gate(3, j));
        const float c = f * cx[r * h + j] + i * g;
        cy[r * h + j] = c;
        hy[r * h + j] = o * std::tanh(c);
        float* s = storage + r * 4 * h;
        s[j] = i;
        s[h + j] = f;
        s[2 * h + j] = g;
        s[3 * h + j] = o;
      }
    }
    return ACLNN_SUCCESS;
  }

  std::string Describe() const override { return "fused lstm cell " + ShapeToString(o_.cx.shape); }

 private:
  Operands o_;
};

aclnnStatus PlanThnnFusedLstmCell(Plan& plan, const aclTensor* inputGates, const aclTensor* hiddenGates,
                                  const aclTensor* cx, const aclTensor* inputBiasOptional,
                                  const aclTensor* hiddenBiasOptional, const aclTensor* hyOut, const aclTensor* cyOut,
                                  const aclTensor* storageOut) {
  if ((inputBiasOptional == nullptr) != (hiddenBiasOptional == nullptr)) {
    return plan.Reject(ACLNN_ERR_PARAM_NULLPTR,
                       "inputBiasOptional and hiddenBiasOptional must both be given or "
                       "both be null");
  }
  const bool biased = inputBiasOptional != nullptr;
  for (const auto& [name, t, rank] :
       {std::tuple{"inputGates", inputGates, 2}, std::tuple{"hiddenGates", hiddenGates, 2}, std::tuple{"cx", cx, 2},
        std::tuple{"hyOut", hyOut, 2}, std::tuple{"cyOut", cyOut, 2}, std::tuple{"storageOut", storageOut, 2}}) {
    CANOPY_CHECK(plan.CheckRank(name, t, rank, rank));
  }
  if (biased) {
    CANOPY_CHECK(plan.CheckRank("inputBiasOptional", inputBiasOptional, 1, 1));
    CANOPY_CHECK(plan.CheckRank("hiddenBiasOptional", hiddenBiasOptional, 1, 1));
  }
  const int64_t b = cx->view_shape[0], h = cx->view_shape[1];
  const Shape gates = {b, 4 * h}, state = {b, h}, bias = {4 * h};
  CANOPY_CHECK(plan.CheckShape("inputGates", inputGates, gates));
  CANOPY_CHECK(plan.CheckShape("hiddenGates", hiddenGates, gates));
  if (biased) {
    CANOPY_CHECK(plan.CheckShape("inputBiasOptional", inputBiasOptional, bias));
    CANOPY_CHECK(plan.CheckShape("hiddenBiasOptional", hiddenBiasOptional, bias));
  }
  CANOPY_CHECK(plan.CheckShape("hyOut", hyOut, state));
  CANOPY_CHECK(plan.CheckShape("cyOut", cyOut, state));
  CANOPY_CHECK(plan.CheckShape("storageOut", storageOut, gates));
  CANOPY_CHECK(plan.CheckDtype("inputGates", inputGates->dtype, kLstmDtypes));
  const aclDataType dtype = inputGates->dtype;
  for (const auto& [name, t] :
       {std::pair{"hiddenGates", hiddenGates}, std::pair{"cx", cx}, std::pair{"inputBiasOptional", inputBiasOptional},
        std::pair{"hiddenBiasOptional", hiddenBiasOptional}, std::pair{"hyOut", hyOut}, std::pair{"cyOut", cyOut},
        std::pair{"storageOut", storageOut}}) {
    if (t != nullptr && t->dtype != dtype) {
      return plan.Reject(ACLNN_ERR_PARAM_INVALID, "'%s' has dtype %s; it must be inputGates' (%s)", name,
                         DtypeName(t->dtype), DtypeName(dtype));
    }
  }
  LstmCellStep::Operands o;
  const TensorRef ig = plan.Input(inputGates, "inputGates");
  const TensorRef hg = plan.Input(hiddenGates, "hiddenGates");
  const TensorRef c = plan.Input(cx, "cx");
  std::optional<TensorRef> ib, hb;
  if (biased) {
    ib = plan.Input(inputBiasOptional, "inputBiasOptional");
    hb = plan.Input(hiddenBiasOptional, "hiddenBiasOptional");
  } else {
    plan.SkipInput();
    plan.SkipInput();
  }
  const TensorRef hy = plan.Output(hyOut, "hyOut");
  const TensorRef cy = plan.Output(cyOut, "cyOut");
  const TensorRef storage = plan.Output(storageOut, "storageOut");
  if (c.NumElements() == 0) return ACLNN_SUCCESS;
  o.input_gates = plan.Contiguous(ig, ACL_FLOAT);
  o.hidden_gates = plan.Contiguous(hg, ACL_FLOAT);
  o.cx = plan.Contiguous(c, ACL_FLOAT);
  std::vector<TensorRef> reads = {o.input_gates, o.hidden_gates, o.cx};
  if (biased) {
    reads.push_back(*(o.input_bias = plan.Contiguous(*ib, ACL_FLOAT)));
    reads.push_back(*(o.hidden_bias = plan.Contiguous(*hb, ACL_FLOAT)));
  }
  o.hy = plan.Temporary(ACL_FLOAT, state);
  o.cy = plan.Temporary(ACL_FLOAT, state);
  o.storage = plan.Temporary(ACL_FLOAT, gates);
  const LstmCellStep::Operands written = o;
  plan.AddStep(std::make_unique<LstmCellStep>(std::move(o)), reads, written.storage);
  plan.Copy(written.hy, hy);
  plan.Copy(written.cy, cy);
  plan.Copy(written.storage, storage);
  return ACLNN_SUCCESS;
}

}  // namespace

CANOPY_ACLNN_OP(ThnnFusedLstmCell, PlanThnnFusedLstmCell,
                (OpTraits{.header = "aclnnop/aclnn_thnn_fused_lstm_cell.h",
                          .dtypes = kLstmDtypes,
                          // !CODE (registry_example.h): the two biases come as a pair
                          .example = "f32[2,12] f32[2,12] f32[2,3] f32[12]!161001 f32[12]!161001 f32[2,3] f32[2,3] "
                                     "f32[2,12]"}),
                (const aclTensor*, inputGates), (const aclTensor*, hiddenGates), (const aclTensor*, cx),
                (const aclTensor*, inputBiasOptional, optional), (const aclTensor*, hiddenBiasOptional, optional),
                (aclTensor*, hyOut), (aclTensor*, cyOut), (aclTensor*, storageOut))
