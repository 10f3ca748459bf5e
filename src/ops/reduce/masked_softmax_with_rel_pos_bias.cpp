// aclnnMaskedSoftmaxWithRelPosBias (Swin Transformer's window attention):
// out = softmax along the last dim of scaleValue * x + attenMaskOptional +
// relativePosBias, computed in FLOAT. x is [B*W, N, S1, S2] or [B, W, N, S1,
// S2]; the mask [W, S1, S2], [W, 1, S1, S2] or [1, W, 1, S1, S2] repeats over
// B and N; the bias [N, S1, S2], [1, N, S1, S2] or [1, 1, N, S1, S2] over B
// and W. CANN generates this entry from the op's definition: dtypes outside
// its table are 161002, and the shapes its tiling refuses 561002.
#include <optional>
#include <utility>

#include "aclnnop/aclnn_masked_softmax_with_rel_pos_bias.h"
#include "reduction.h"

using namespace canopy;
using namespace canopy::ops;

namespace {

constexpr DtypeSet kSoftmaxDtypes = {ACL_FLOAT, ACL_FLOAT16, ACL_BF16};
constexpr int64_t kWindowRank = 5;  // [B, W, N, S1, S2], the shape every operand is viewed as
// The tiling keeps a row of S2 (32-byte aligned) in a 192 KiB unified buffer,
// 8 (with a mask) or 6 (without) row copies of FLOAT, or 16 / 12 of a 16-bit
// dtype, plus 288 bytes of softmax scratch.
constexpr int64_t kUnifiedBufferBytes = 192 * 1024;
constexpr int64_t kSoftmaxScratchBytes = 288;
constexpr int64_t kAlignBytes = 32;

aclnnStatus RejectShape(Plan& plan, const char* name, const aclTensor* t, const char* rule) {
  return plan.Reject(ACLNN_ERR_INNER_TILING_ERROR, "'%s' has shape %s; %s", name, ShapeToString(t->view_shape).c_str(),
                     rule);
}

// t viewed as [B, W, N, S1, S2]: `pattern` names the window dim of each of t's
// dims ('b', 'w', 'n', 's' for S1 then S2, 'x' for B * W split in two, '1' for
// an extent-1 dim dropped); dims t lacks have extent 1.
TensorRef WindowView(const TensorRef& t, const char* pattern, int64_t windows) {
  TensorRef view = t;
  view.shape.assign(kWindowRank, 1);
  view.strides.assign(kWindowRank, 0);
  size_t seq = 3;
  auto place = [&view](size_t target, int64_t extent, int64_t stride) {
    view.shape[target] = extent;
    view.strides[target] = stride;
  };
  for (size_t d = 0; d < t.shape.size(); ++d) {
    const int64_t extent = t.shape[d], stride = t.strides[d];
    switch (pattern[d]) {
      case 'x':
        place(0, extent / windows, stride * windows);
        place(1, windows, stride);
        break;
      case 'b':
        place(0, extent, stride);
        break;
      case 'w':
        place(1, extent, stride);
        break;
      case 'n':
        place(2, extent, stride);
        break;
      case 's':
        place(seq++, extent, stride);
        break;
      default:
        break;
    }
  }
  return view;
}

const char* MaskPattern(int64_t rank) { return rank == 3 ? "wss" : rank == 4 ? "w1ss" : "1w1ss"; }
const char* BiasPattern(int64_t rank) { return rank == 3 ? "nss" : rank == 4 ? "1nss" : "11nss"; }

aclnnStatus PlanMaskedSoftmaxWithRelPosBias(Plan& plan, const aclTensor* x, const aclTensor* attenMaskOptional,
                                            const aclTensor* relativePosBias, double scaleValue,
                                            int64_t innerPrecisionMode, const aclTensor* out) {
  static_cast<void>(innerPrecisionMode);  // CANN's tiling reads it for nothing on A2
  CANOPY_CHECK(plan.CheckDtype("x", x->dtype, kSoftmaxDtypes));
  for (const auto& [name, t] : {std::pair{"attenMaskOptional", attenMaskOptional},
                                std::pair{"relativePosBias", relativePosBias}, std::pair{"out", out}}) {
    if (t != nullptr && t->dtype != x->dtype) {
      return plan.Reject(ACLNN_ERR_PARAM_INVALID, "'%s' has dtype %s; it must be x's (%s)", name, DtypeName(t->dtype),
                         DtypeName(x->dtype));
    }
  }
  const Shape& xs = x->view_shape;
  const auto x_rank = static_cast<int64_t>(xs.size());
  if (x_rank != 4 && x_rank != kWindowRank) return RejectShape(plan, "x", x, "it must have 4 or 5 dims");
  for (int64_t extent : xs) {
    if (extent == 0) return RejectShape(plan, "x", x, "no dim may be 0");
  }
  const int64_t s1 = xs[static_cast<size_t>(x_rank - 2)], s2 = xs[static_cast<size_t>(x_rank - 1)];
  const int64_t heads = xs[static_cast<size_t>(x_rank - 3)];
  int64_t windows = x_rank == kWindowRank ? xs[1] : 1;
  if (attenMaskOptional != nullptr) {
    const Shape& ms = attenMaskOptional->view_shape;
    const auto rank = static_cast<int64_t>(ms.size());
    if (rank < 3 || rank > kWindowRank) {
      return RejectShape(plan, "attenMaskOptional", attenMaskOptional, "it must have 3, 4 or 5 dims");
    }
    const int64_t mask_windows = ms[static_cast<size_t>(rank - 3 - (rank == 3 ? 0 : 1))];
    const bool ones = (rank < 4 || ms[static_cast<size_t>(rank - 3)] == 1) && (rank < kWindowRank || ms[0] == 1);
    if (!ones || mask_windows == 0) {
      return RejectShape(plan, "attenMaskOptional", attenMaskOptional,
                         "it must be [W, S1, S2], [W, 1, S1, S2] or [1, W, 1, S1, S2]");
    }
    if (x_rank == 4) {
      if (xs[0] % mask_windows != 0) {
        return RejectShape(plan, "attenMaskOptional", attenMaskOptional,
                           "its window count W must divide x's first dim (B * W)");
      }
      windows = mask_windows;
    }
    if (mask_windows != windows || ms[static_cast<size_t>(rank - 2)] != s1 || ms[static_cast<size_t>(rank - 1)] != s2) {
      return RejectShape(plan, "attenMaskOptional", attenMaskOptional, "its W, S1 and S2 must be x's");
    }
  }
  const Shape& bs = relativePosBias->view_shape;
  const auto bias_rank = static_cast<int64_t>(bs.size());
  if (bias_rank < 3 || bias_rank > kWindowRank) {
    return RejectShape(plan, "relativePosBias", relativePosBias, "it must have 3, 4 or 5 dims");
  }
  for (int64_t d = 0; d + 3 < bias_rank; ++d) {
    if (bs[static_cast<size_t>(d)] != 1) {
      return RejectShape(plan, "relativePosBias", relativePosBias,
                         "it must be [N, S1, S2], [1, N, S1, S2] or [1, 1, N, S1, S2]");
    }
  }
  if (bs[static_cast<size_t>(bias_rank - 3)] != heads || bs[static_cast<size_t>(bias_rank - 2)] != s1 ||
      bs[static_cast<size_t>(bias_rank - 1)] != s2) {
    return RejectShape(plan, "relativePosBias", relativePosBias, "its N, S1 and S2 must be x's");
  }
  if (out->view_shape != xs) return RejectShape(plan, "out", out, "it must be x's");
  const int64_t element_bytes = x->dtype == ACL_FLOAT ? 4 : 2;
  const int64_t aligned_row = (s2 * element_bytes + kAlignBytes - 1) / kAlignBytes * kAlignBytes;
  const int64_t copies = (attenMaskOptional != nullptr ? 8 : 6) * (x->dtype == ACL_FLOAT ? 1 : 2);
  if (aligned_row * copies + kSoftmaxScratchBytes > kUnifiedBufferBytes) {
    return RejectShape(plan, "x", x, "its last dim S2 is too long for one row in the unified buffer");
  }

  const char* x_pattern = x_rank == kWindowRank ? "bwnss" : "xnss";
  const TensorRef in = WindowView(plan.Input(x, "x"), x_pattern, windows);
  std::optional<TensorRef> mask;
  if (attenMaskOptional != nullptr) {
    mask = WindowView(plan.Input(attenMaskOptional, "attenMaskOptional"),
                      MaskPattern(static_cast<int64_t>(attenMaskOptional->view_shape.size())), windows);
  } else {
    plan.SkipInput();
  }
  const TensorRef bias = WindowView(plan.Input(relativePosBias, "relativePosBias"), BiasPattern(bias_rank), windows);
  const TensorRef dst = WindowView(plan.Output(out, "out"), x_pattern, windows);
  const TensorRef logits = plan.Temporary(ACL_FLOAT, in.shape);
  plan.Elementwise(ElementwiseOp::kMul, ComputeType::kF32, {in}, logits, ScalarValue::Integer(1),
                   ScalarValue::Real(scaleValue));
  if (mask) {
    plan.Elementwise(ElementwiseOp::kAdd, ComputeType::kF32, {logits, BroadcastTo(*mask, in.shape)}, logits,
                     ScalarValue::Integer(1));
  }
  plan.Elementwise(ElementwiseOp::kAdd, ComputeType::kF32, {logits, BroadcastTo(bias, in.shape)}, logits,
                   ScalarValue::Integer(1));
  PlanSoftmaxInto(plan, logits, dst, kWindowRank - 1, false);
  return ACLNN_SUCCESS;
}

}  // namespace

CANOPY_ACLNN_OP(MaskedSoftmaxWithRelPosBias, PlanMaskedSoftmaxWithRelPosBias,
                (OpTraits{.header = "aclnnop/aclnn_masked_softmax_with_rel_pos_bias.h",
                          .dtypes = kSoftmaxDtypes,
                          .example = "f32[1,1,1,2,16] f32[1,2,16] f32[1,2,16] 1 0 f32[1,1,1,2,16]"}),
                (const aclTensor*, x), (const aclTensor*, attenMaskOptional, optional),
                (const aclTensor*, relativePosBias), (double, scaleValue), (int64_t, innerPrecisionMode),
                (const aclTensor*, out))
