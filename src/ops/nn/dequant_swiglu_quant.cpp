// aclnnDequantSwigluQuant and aclnnDequantSwigluQuantV2 (CANN's quant/dequant_swiglu_quant, A2
// kernels). x's rows [rows, 2H], in f32: an INT32 x dequantised first (an INT32 bias added in wrapping
// integers, times weightScale per column and activationScale per row, a float bias added last:
// kernels/dequant_bias.h); f16 / bf16 x taken as it is. The activated half a (the first where
// activateLeft, else the second) and the other half b give s = a / (1 + exp(-a)) * b; V2's
// swigluMode 1 (a the even columns, b the odd) and 2 (the halves): a' = min(a, L),
// s = a' / (1 + exp(-alpha a')) * (clamp(b, -L, L) + gluBias); 3: s = min(a / (1 + exp(-a)), L) *
// clamp(b, -L, L). Then y = saturate(rint(q)) to INT8:
//   static:  q = s / quantScale[c] + quantOffset[c], or s * (1 / quantScale) + quantOffset with one
//            value (with groups: a zero scale taken as 1), or s without quantScale; scaleOut unwritten.
//   dynamic: s times quantScale (when given); scaleOut = max|s| / 127 and q = s * (1 / scaleOut)
//            (with groups: max|s| * (1 / 127) and q = s / scaleOut).
// Without groupIndexOptional CANN's SwiGlu tiling runs (every row, weight / bias / quant values of
// one row); with it the grouped tiling: groupIndex[g] counts the rows of group g (negative as 0) in
// order, and group g's rows of weightScale, biasOptional and the quant tensors apply; rows past the
// sum are not written (CANN's doc: garbage). A count that runs past x's rows fails the run.
// CANN's host code for this op is not public: its checks follow the doc (161001 / 161002) and the
// tilings (161002 for shapes, as the doc says; 561002 for the unified-buffer bound on H).
#include <algorithm>
#include <cctype>
#include <cmath>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "aclnnop/aclnn_dequant_swiglu_quant.h"
#include "aclnnop/aclnn_dequant_swiglu_quant_v2.h"
#include "kernels/abs_max.h"
#include "kernels/dequant_bias.h"
#include "kernels/parallel_for.h"
#include "ops/framework/aclnn_op.h"
#include "ops/framework/tensor_view.h"

using namespace canopy;
using namespace canopy::ops;

namespace {

constexpr DtypeSet kXDtypes = {ACL_FLOAT16, ACL_BF16, ACL_INT32};
constexpr DtypeSet kBiasDtypes = {ACL_FLOAT, ACL_FLOAT16, ACL_BF16, ACL_INT32};
constexpr aclnnStatus kInvalid = ACLNN_ERR_PARAM_INVALID;
constexpr aclnnStatus kRunFault = ACL_ERROR_RT_AICORE_EXCEPTION;  // a kernel reading past x traps
constexpr int64_t kDstInt8 = ACL_INT8;
constexpr int64_t kGroupedAlign = 64;  // the grouped tiling: x's last dim a multiple of 64
constexpr int64_t kMaxSwigluMode = 3;
constexpr int64_t kRowGrain = 4;
constexpr float kQMax = 127.0F;
constexpr float kInverseQMax = static_cast<float>(1.0 / 127.0);  // the grouped kernel's factor

// The grouped tiling's bound on x's last dim: what one row needs of A2's 192 KB unified buffer
// (f32 x double-buffered, its copies and the outputs; more with a bias, swigluMode 1, static offsets).
int64_t MaxGroupedWidth(bool bias, bool interleaved, bool dynamic) {
  constexpr int64_t kUnifiedBuffer = 196608, kReserved = 1024 + 32 + 2 * 32 + 4, kBlock = 32;
  const int64_t per_column =
      37 + (bias ? 8 : 0) + (interleaved ? 5 : 0) + (dynamic ? 0 : 4);  // bytes per output column
  return (kUnifiedBuffer - kReserved) / per_column / kBlock * kBlock * 2;
}

enum class Param { kNone, kOne, kChannel };  // a quant tensor: absent, one value (a group), a value per column

struct Desc {
  bool int_x = false, grouped = false, dynamic = false, activate_left = false;
  int64_t rows = 0, n = 0, groups = 1;
  int64_t swiglu_mode = 0;
  float clamp = 0, alpha = 0, glu_bias = 0;
  bool has_activation = false, has_bias = false, int_bias = false;
  Param scale = Param::kNone, offset = Param::kNone;
};

struct Buffers {
  BufferRef x, weight, activation, bias, scale, offset, group, y, scale_out;
};

class DequantSwigluQuantStep final : public Step {
 public:
  DequantSwigluQuantStep(const Desc& desc, const Buffers& buffers) : d_(desc), b_(buffers) {}

  aclnnStatus Run(const RunContext& context) const override {
    std::vector<int64_t> row_group(static_cast<size_t>(d_.rows), d_.grouped ? -1 : 0);
    if (d_.grouped) CANOPY_CHECK(GroupOfRows(context, row_group));
    kernels::ParallelFor(d_.rows, kRowGrain, [&](int64_t begin, int64_t end) {
      std::vector<float> row(static_cast<size_t>(2 * d_.n)), s(static_cast<size_t>(d_.n));
      for (int64_t r = begin; r < end; ++r) {
        const int64_t g = row_group[static_cast<size_t>(r)];
        if (g < 0) continue;
        Dequantise(context, r, g, row.data());
        SwiGlu(row.data(), s.data());
        Quantise(context, r, g, s.data());
      }
    });
    return ACLNN_SUCCESS;
  }

  std::string Describe() const override {
    return std::string("dequant swiglu quant ") + (d_.int_x ? "int32" : "float") +
           (d_.dynamic ? " dynamic" : " static") + " mode " + std::to_string(d_.swiglu_mode) +
           " rows=" + std::to_string(d_.rows) + " H=" + std::to_string(d_.n) +
           (d_.grouped ? " groups=" + std::to_string(d_.groups) : std::string());
  }

 private:
  // Each row's group: group g takes the next groupIndex[g] rows (negative counts as 0); rows past
  // the sum keep -1. A count that runs past the last row fails the run (CANN's kernel would read
  // and write past x and y).
  aclnnStatus GroupOfRows(const RunContext& context, std::vector<int64_t>& row_group) const {
    const auto* counts = reinterpret_cast<const int64_t*>(context.Resolve(b_.group));
    int64_t offset = 0;
    for (int64_t g = 0; g < d_.groups; ++g) {
      const int64_t count = std::max<int64_t>(counts[g], 0);
      if (count == 0 || offset >= d_.rows) continue;
      if (count > d_.rows - offset) {
        SetErrorMessage(
            "aclnnDequantSwigluQuant: groupIndexOptional[%lld] (%lld rows from row %lld) runs past x's %lld rows",
            static_cast<long long>(g), static_cast<long long>(count), static_cast<long long>(offset),
            static_cast<long long>(d_.rows));
        return kRunFault;
      }
      std::fill(row_group.begin() + offset, row_group.begin() + offset + count, g);
      offset += count;
    }
    return ACLNN_SUCCESS;
  }

  void Dequantise(const RunContext& context, int64_t r, int64_t g, float* row) const {
    const int64_t width = 2 * d_.n;
    if (!d_.int_x) {
      const auto* x = reinterpret_cast<const float*>(context.Resolve(b_.x)) + r * width;
      std::copy(x, x + width, row);
      return;
    }
    const auto* x = reinterpret_cast<const int32_t*>(context.Resolve(b_.x)) + r * width;
    const auto* weight = reinterpret_cast<const float*>(context.Resolve(b_.weight)) + g * width;
    const float activation =
        d_.has_activation ? reinterpret_cast<const float*>(context.Resolve(b_.activation))[r] : 1.0F;
    const char* bias = d_.has_bias ? context.Resolve(b_.bias) : nullptr;
    const int32_t* int_bias = d_.int_bias ? reinterpret_cast<const int32_t*>(bias) + g * width : nullptr;
    const float* float_bias = d_.has_bias && !d_.int_bias ? reinterpret_cast<const float*>(bias) + g * width : nullptr;
    kernels::DequantiseRow(x, width, weight, activation, int_bias, float_bias, row);
  }

  void SwiGlu(const float* row, float* s) const {
    const int64_t n = d_.n;
    const bool interleaved = d_.swiglu_mode == 1;
    const float* first = row;
    const float* second = row + n;
    const float* a = d_.activate_left ? first : second;
    const float* b = d_.activate_left ? second : first;
    const float limit = d_.clamp;
    for (int64_t j = 0; j < n; ++j) {
      float act = interleaved ? row[2 * j] : a[j];
      float gate = interleaved ? row[2 * j + 1] : b[j];
      if (d_.swiglu_mode == 0) {
        s[j] = act / (1.0F + std::exp(-act)) * gate;
      } else if (d_.swiglu_mode == 3) {
        gate = std::max(std::min(gate, limit), -limit);
        s[j] = std::min(act / (1.0F + std::exp(-act)), limit) * gate;
      } else {
        gate = std::max(std::min(gate, limit), -limit) + d_.glu_bias;
        act = std::min(act, limit);
        s[j] = act / (1.0F + std::exp(act * -d_.alpha)) * gate;
      }
    }
  }

  void Quantise(const RunContext& context, int64_t r, int64_t g, float* s) const {
    const int64_t n = d_.n;
    const auto* scale = d_.scale == Param::kNone ? nullptr : reinterpret_cast<const float*>(context.Resolve(b_.scale));
    const auto* offset =
        d_.offset == Param::kNone ? nullptr : reinterpret_cast<const float*>(context.Resolve(b_.offset));
    float multiplier = 1.0F;
    if (d_.dynamic) {
      float max = 0.0F;
      for (int64_t j = 0; j < n; ++j) {
        if (d_.scale == Param::kChannel) s[j] *= scale[g * n + j];
        if (d_.scale == Param::kOne) s[j] *= scale[0];
        max = kernels::AbsMaxKeepingNan(max, s[j]);
      }
      const float row_scale = d_.grouped ? max * kInverseQMax : max / kQMax;
      reinterpret_cast<float*>(context.Resolve(b_.scale_out))[r] = row_scale;
      if (d_.grouped) {
        for (int64_t j = 0; j < n; ++j) s[j] /= row_scale;
      } else {
        multiplier = 1.0F / row_scale;
      }
    } else if (d_.scale == Param::kOne) {
      const float raw = scale[g];
      const float inverse = d_.grouped && raw == 0.0F ? 1.0F : 1.0F / raw;
      for (int64_t j = 0; j < n; ++j) s[j] = s[j] * inverse + offset[g];
    } else if (d_.scale == Param::kChannel) {
      for (int64_t j = 0; j < n; ++j) s[j] = s[j] / scale[g * n + j] + offset[g * n + j];
    }
    auto* y = reinterpret_cast<int8_t*>(context.Resolve(b_.y)) + r * n;
    for (int64_t j = 0; j < n; ++j) {
      const float v = std::nearbyint(s[j] * multiplier);  // half to even
      y[j] = std::isnan(v) ? int8_t{0} : static_cast<int8_t>(std::clamp(v, -kQMax - 1.0F, kQMax));
    }
  }

  Desc d_;
  Buffers b_;
};

// The V2 attributes; V1 runs with their defaults.
struct Variant {
  bool v2 = false;
  int64_t dst_type = kDstInt8;
  const char* round_mode = nullptr;
  int64_t activate_dim = -1;
  int64_t swiglu_mode = 0;
  double clamp_limit = 7.0, glu_alpha = 1.702, glu_bias = 1.0;  // the op definition's defaults
};

aclnnStatus RejectShape(Plan& plan, const char* name, const aclTensor* t, const char* want) {
  return plan.Reject(kInvalid, "argument '%s' has shape %s; %s", name, ShapeToString(t->view_shape).c_str(), want);
}

// The grouped tiling's check of a per-group row tensor: last dim `width`; [groups, width] with
// several groups, else [width] or [1, width].
aclnnStatus CheckGroupRows(Plan& plan, const char* name, const aclTensor* t, int64_t width, int64_t groups) {
  const int64_t rank = t->rank();
  const bool fits =
      rank >= 1 && t->view_shape.back() == width &&
      (groups > 1 ? rank == 2 && t->view_shape[0] == groups : rank <= 2 && (rank == 1 || t->view_shape[0] == 1));
  if (fits) return ACLNN_SUCCESS;
  const std::string want = "it must be [" + std::to_string(groups) + ", " + std::to_string(width) + "]" +
                           (groups > 1 ? "" : " or [" + std::to_string(width) + "]") +
                           " (groupIndexOptional's length by its row width)";
  return RejectShape(plan, name, t, want.c_str());
}

// The grouped tiling's static quant tensors: [groups] (one value a group) or [groups, ..., H].
aclnnStatus CheckGroupQuant(Plan& plan, const char* name, const aclTensor* t, int64_t n, int64_t groups, Param& p) {
  const int64_t rank = t->rank();
  if (rank == 1 && t->view_shape[0] == groups) {
    p = Param::kOne;
    return ACLNN_SUCCESS;
  }
  if (rank >= 2 && t->view_shape.back() == n && t->view_shape[0] == groups) {
    p = Param::kChannel;
    return ACLNN_SUCCESS;
  }
  const std::string want = "the static mode needs [" + std::to_string(groups) + "] or [" + std::to_string(groups) +
                           ", " + std::to_string(n) + "] (groupIndexOptional's length, H)";
  return RejectShape(plan, name, t, want.c_str());
}

// The V2 attributes as CANN's doc allows them on Atlas A2.
aclnnStatus CheckVariant(Plan& plan, const Variant& v, const aclTensor* x, bool activate_left) {
  if (v.dst_type != kDstInt8) {
    return plan.Reject(kInvalid, "argument 'dstType' (%lld) must be 2 (INT8) on Atlas A2",
                       static_cast<long long>(v.dst_type));
  }
  if (v.round_mode != nullptr && std::string(v.round_mode) != "rint") {
    return plan.Reject(kInvalid, "argument 'roundModeOptional' (\"%s\") must be \"rint\" (or null) on Atlas A2",
                       v.round_mode);
  }
  if (v.activate_dim != -1 && v.activate_dim != x->rank() - 1) {
    return plan.Reject(kInvalid, "argument 'activateDim' (%lld) must be x's last dim (-1) on Atlas A2",
                       static_cast<long long>(v.activate_dim));
  }
  if (v.swiglu_mode < 0 || v.swiglu_mode > kMaxSwigluMode) {
    return plan.Reject(kInvalid, "argument 'swigluMode' (%lld) must be 0, 1, 2 or 3",
                       static_cast<long long>(v.swiglu_mode));
  }
  if (v.swiglu_mode == 1 && !activate_left) {
    return plan.Reject(kInvalid, "argument 'activateLeft' must be true for swigluMode 1 (CANN's doc)");
  }
  if (v.swiglu_mode != 0 && !(v.clamp_limit > 0 && std::isfinite(v.clamp_limit))) {
    return plan.Reject(kInvalid, "argument 'clampLimit' (%g) must be positive and finite", v.clamp_limit);
  }
  return ACLNN_SUCCESS;
}

aclnnStatus PlanDequantSwigluQuantCommon(Plan& plan, const aclTensor* x, const aclTensor* weight,
                                         const aclTensor* activation, const aclTensor* bias,
                                         const aclTensor* quant_scale, const aclTensor* quant_offset,
                                         const aclTensor* group, bool activateLeft, const char* quantMode,
                                         const Variant& v, const aclTensor* y, const aclTensor* scale) {
  // The op definition's dtypes (an f16 / bf16 x pairs with an f32 bias only).
  CANOPY_CHECK(plan.CheckDtype("x", x->dtype, kXDtypes));
  const bool int_x = x->dtype == ACL_INT32;
  if (weight != nullptr) CANOPY_CHECK(plan.CheckDtype("weightScaleOptional", weight->dtype, {ACL_FLOAT}));
  if (activation != nullptr) CANOPY_CHECK(plan.CheckDtype("activationScaleOptional", activation->dtype, {ACL_FLOAT}));
  if (bias != nullptr) {
    CANOPY_CHECK(plan.CheckDtype("biasOptional", bias->dtype, int_x ? kBiasDtypes : DtypeSet{ACL_FLOAT}));
  }
  if (quant_scale != nullptr) CANOPY_CHECK(plan.CheckDtype("quantScaleOptional", quant_scale->dtype, {ACL_FLOAT}));
  if (quant_offset != nullptr) CANOPY_CHECK(plan.CheckDtype("quantOffsetOptional", quant_offset->dtype, {ACL_FLOAT}));
  // The op definition lists INT64 only (CANN's V1 doc also names INT32).
  if (group != nullptr) CANOPY_CHECK(plan.CheckDtype("groupIndexOptional", group->dtype, {ACL_INT64}));
  CANOPY_CHECK(plan.CheckDtype("yOut", y->dtype, {ACL_INT8}));
  CANOPY_CHECK(plan.CheckDtype("scaleOut", scale->dtype, {ACL_FLOAT}));
  if (v.v2) CANOPY_CHECK(CheckVariant(plan, v, x, activateLeft));

  // A null quantModeOptional is the definition's default, "static". The ungrouped tiling compares
  // the mode ignoring case, the grouped one exactly.
  const bool grouped = group != nullptr;
  const std::string mode = quantMode == nullptr ? "static" : quantMode;
  std::string lower = mode;
  std::transform(lower.begin(), lower.end(), lower.begin(), [](unsigned char c) { return std::tolower(c); });
  const std::string& compared = grouped ? mode : lower;
  if (compared != "static" && compared != "dynamic") {
    return plan.Reject(kInvalid, "argument 'quantModeOptional' (\"%s\") must be \"static\" or \"dynamic\"%s",
                       mode.c_str(), grouped ? " (lower case with groupIndexOptional)" : "");
  }
  const bool dynamic = compared == "dynamic";

  if (v.v2) {
    // CANN's V2 doc on Atlas A2: x 2-D INT32 or BFLOAT16; the dequant tensors only for an INT32 x.
    if (x->rank() != 2) return RejectShape(plan, "x", x, "aclnnDequantSwigluQuantV2 takes a 2-D x on Atlas A2");
    if (!int_x && x->dtype != ACL_BF16) {
      return plan.Reject(kInvalid, "argument 'x' is %s; aclnnDequantSwigluQuantV2 takes INT32 or BFLOAT16 on Atlas A2",
                         DtypeName(x->dtype));
    }
    for (const auto& [name, t] : {std::pair{"weightScaleOptional", weight},
                                  std::pair{"activationScaleOptional", activation}, std::pair{"biasOptional", bias}}) {
      if (!int_x && t != nullptr) {
        return plan.Reject(kInvalid, "argument '%s' must be null when x is not INT32", name);
      }
    }
    if (!dynamic && quant_scale == nullptr) {
      return plan.Reject(ACLNN_ERR_PARAM_NULLPTR, "argument 'quantScaleOptional' is null; the static mode needs it");
    }
  }
  if (int_x && weight == nullptr) {
    return plan.Reject(ACLNN_ERR_PARAM_NULLPTR, "argument 'weightScaleOptional' is null; an INT32 x needs it");
  }

  const Shape& xs = x->view_shape;
  if (x->rank() < 2) return RejectShape(plan, "x", x, "it must have at least 2 dims");
  const int64_t width = xs.back(), n = width / 2;
  if (width % 2 != 0) return RejectShape(plan, "x", x, "its last dim must be even");
  const Shape before(xs.begin(), xs.end() - 1);
  int64_t rows = 1;
  for (const int64_t extent : before) rows *= extent;
  Shape y_want = before;
  y_want.push_back(n);
  if (y->view_shape != y_want) {
    return plan.Reject(kInvalid, "argument 'yOut' has shape %s; it must be %s (x's with the last dim halved)",
                       ShapeToString(y->view_shape).c_str(), ShapeToString(y_want).c_str());
  }
  if (scale->view_shape != before) {
    return plan.Reject(kInvalid, "argument 'scaleOut' has shape %s; it must be %s (x's without the last dim)",
                       ShapeToString(scale->view_shape).c_str(), ShapeToString(before).c_str());
  }

  const bool has_bias = int_x && bias != nullptr;
  // The tiling holds the SwiGlu attributes as f32.
  Desc d{.int_x = int_x,
         .grouped = grouped,
         .dynamic = dynamic,
         .activate_left = activateLeft,
         .rows = rows,
         .n = n,
         .swiglu_mode = v.swiglu_mode,
         .clamp = static_cast<float>(v.clamp_limit),
         .alpha = static_cast<float>(v.glu_alpha),
         .glu_bias = static_cast<float>(v.glu_bias),
         .has_activation = int_x && activation != nullptr && activation->NumElements() > 0,
         .has_bias = has_bias,
         .int_bias = has_bias && bias->dtype == ACL_INT32};
  // The grouped tiling takes an empty activationScaleOptional as absent; the other compares every one.
  if (int_x && activation != nullptr && (d.has_activation || !grouped) && activation->NumElements() != rows) {
    return RejectShape(plan, "activationScaleOptional", activation, "it must hold one value per row of x");
  }

  if (grouped) {
    // The grouped tiling's checks.
    if (!int_x && x->dtype != ACL_BF16) {
      return plan.Reject(kInvalid, "argument 'x' is %s; with groupIndexOptional it must be INT32 or BFLOAT16",
                         DtypeName(x->dtype));
    }
    if (group->rank() != 1 || group->view_shape[0] < 1) {
      return RejectShape(plan, "groupIndexOptional", group, "it must be 1-D [groupNum], groupNum >= 1 (CANN's doc)");
    }
    d.groups = group->view_shape[0];
    if (width == 0 || width % kGroupedAlign != 0) {
      return RejectShape(plan, "x", x, "with groupIndexOptional its last dim must be a positive multiple of 64");
    }
    if (int_x) {
      CANOPY_CHECK(CheckGroupRows(plan, "weightScaleOptional", weight, width, d.groups));
      if (bias != nullptr) CANOPY_CHECK(CheckGroupRows(plan, "biasOptional", bias, width, d.groups));
    }
    if (dynamic) {
      if (quant_offset != nullptr) {
        return plan.Reject(kInvalid, "argument 'quantOffsetOptional' must be null in the dynamic mode");
      }
      if (quant_scale != nullptr) {
        CANOPY_CHECK(CheckGroupRows(plan, "quantScaleOptional", quant_scale, n, d.groups));
        d.scale = Param::kChannel;
      }
    } else {
      for (const auto& [name, t] :
           {std::pair{"quantScaleOptional", quant_scale}, std::pair{"quantOffsetOptional", quant_offset}}) {
        if (t == nullptr) {
          return plan.Reject(ACLNN_ERR_PARAM_NULLPTR, "argument '%s' is null; the static mode needs it", name);
        }
      }
      CANOPY_CHECK(CheckGroupQuant(plan, "quantScaleOptional", quant_scale, n, d.groups, d.scale));
      CANOPY_CHECK(CheckGroupQuant(plan, "quantOffsetOptional", quant_offset, n, d.groups, d.offset));
      if (d.scale != d.offset) {
        return plan.Reject(kInvalid, "arguments 'quantScaleOptional' %s and 'quantOffsetOptional' %s must match",
                           ShapeToString(quant_scale->view_shape).c_str(),
                           ShapeToString(quant_offset->view_shape).c_str());
      }
    }
    const int64_t max_width = MaxGroupedWidth(d.has_bias, v.swiglu_mode == 1, dynamic);
    if (width > max_width) {
      return plan.Reject(ACLNN_ERR_INNER_TILING_ERROR,
                         "argument 'x' has last dim %lld; with groupIndexOptional at most %lld fits the unified buffer",
                         static_cast<long long>(width), static_cast<long long>(max_width));
    }
  } else {
    // The SwiGlu tiling's checks: the dequant and quant tensors by their element counts.
    if (int_x && weight->NumElements() != width) {
      return RejectShape(plan, "weightScaleOptional", weight, "it must hold x's last dim of values");
    }
    if (d.has_bias && bias->NumElements() != width) {
      return RejectShape(plan, "biasOptional", bias, "it must hold x's last dim of values");
    }
    if (quant_scale != nullptr) {
      const int64_t count = quant_scale->NumElements();
      if (count != n && count != 1) {
        return RejectShape(plan, "quantScaleOptional", quant_scale, "it must hold 1 or H (x's last dim / 2) values");
      }
      d.scale = count == 1 ? Param::kOne : Param::kChannel;
      if (!dynamic) {
        if (quant_offset == nullptr) {
          return plan.Reject(
              ACLNN_ERR_PARAM_NULLPTR,
              "argument 'quantOffsetOptional' is null; the static mode with a quantScaleOptional needs it");
        }
        const int64_t offsets = quant_offset->NumElements();
        if (offsets != n && offsets != 1) {
          return RejectShape(plan, "quantOffsetOptional", quant_offset,
                             "it must hold 1 or H (x's last dim / 2) values");
        }
        // The kernel reads H offsets beside H scales: fewer would take it past the tensor.
        if (d.scale == Param::kChannel && offsets != n) {
          return plan.Reject(
              ACLNN_ERR_INNER_TILING_ERROR,
              "argument 'quantOffsetOptional' holds %lld value; with H quant scales it must hold H (%lld)",
              static_cast<long long>(offsets), static_cast<long long>(n));
        }
        d.offset = d.scale;
      }
    }
  }

  // Operands in prototype order.
  const TensorRef src = plan.Input(x, "x");
  const auto optional_input = [&plan](const aclTensor* t, const char* name) -> std::optional<TensorRef> {
    if (t == nullptr) {
      plan.SkipInput();
      return std::nullopt;
    }
    return plan.Input(t, name);
  };
  const std::optional<TensorRef> weight_in = optional_input(weight, "weightScaleOptional");
  const std::optional<TensorRef> activation_in = optional_input(activation, "activationScaleOptional");
  const std::optional<TensorRef> bias_in = optional_input(bias, "biasOptional");
  const std::optional<TensorRef> scale_in = optional_input(quant_scale, "quantScaleOptional");
  const std::optional<TensorRef> offset_in = optional_input(quant_offset, "quantOffsetOptional");
  const std::optional<TensorRef> group_in = optional_input(group, "groupIndexOptional");
  const TensorRef dst = plan.Output(y, "yOut");
  const TensorRef scale_out = plan.Output(scale, "scaleOut");
  if (rows == 0 || n == 0) return ACLNN_SUCCESS;

  Buffers b;
  b.x = Reshape(plan.Contiguous(src, int_x ? ACL_INT32 : ACL_FLOAT), {rows, width})->buffer;
  const auto contiguous = [&plan](const std::optional<TensorRef>& t, aclDataType dtype) {
    return plan.Contiguous(*t, dtype).buffer;
  };
  if (int_x) b.weight = contiguous(weight_in, ACL_FLOAT);
  if (d.has_activation) b.activation = contiguous(activation_in, ACL_FLOAT);
  if (d.has_bias) b.bias = contiguous(bias_in, d.int_bias ? ACL_INT32 : ACL_FLOAT);
  if (d.scale != Param::kNone) b.scale = contiguous(scale_in, ACL_FLOAT);
  if (d.offset != Param::kNone) b.offset = contiguous(offset_in, ACL_FLOAT);
  if (grouped) b.group = contiguous(group_in, ACL_INT64);
  const TensorRef y_dst = dst.IsContiguous() ? dst : plan.Temporary(dst.dtype, dst.shape);
  const TensorRef scale_dst = scale_out.IsContiguous() ? scale_out : plan.Temporary(ACL_FLOAT, scale_out.shape);
  b.y = y_dst.buffer;
  b.scale_out = scale_dst.buffer;
  plan.AddStep(std::make_unique<DequantSwigluQuantStep>(d, b));
  if (!dst.IsContiguous()) plan.Copy(y_dst, dst);
  if (dynamic && !scale_out.IsContiguous()) plan.Copy(scale_dst, scale_out);
  return ACLNN_SUCCESS;
}

aclnnStatus PlanDequantSwigluQuant(Plan& plan, const aclTensor* x, const aclTensor* weightScaleOptional,
                                   const aclTensor* activationScaleOptional, const aclTensor* biasOptional,
                                   const aclTensor* quantScaleOptional, const aclTensor* quantOffsetOptional,
                                   const aclTensor* groupIndexOptional, bool activateLeft,
                                   const char* quantModeOptional, const aclTensor* yOut, const aclTensor* scaleOut) {
  return PlanDequantSwigluQuantCommon(plan, x, weightScaleOptional, activationScaleOptional, biasOptional,
                                      quantScaleOptional, quantOffsetOptional, groupIndexOptional, activateLeft,
                                      quantModeOptional, Variant{}, yOut, scaleOut);
}

aclnnStatus PlanDequantSwigluQuantV2(Plan& plan, const aclTensor* x, const aclTensor* weightScaleOptional,
                                     const aclTensor* activationScaleOptional, const aclTensor* biasOptional,
                                     const aclTensor* quantScaleOptional, const aclTensor* quantOffsetOptional,
                                     const aclTensor* groupIndexOptional, bool activateLeft,
                                     const char* quantModeOptional, int64_t dstType, const char* roundModeOptional,
                                     int64_t activateDim, int64_t swigluMode, double clampLimit, double gluAlpha,
                                     double gluBias, const aclTensor* yOut, const aclTensor* scaleOut) {
  const Variant v{.v2 = true,
                  .dst_type = dstType,
                  .round_mode = roundModeOptional,
                  .activate_dim = activateDim,
                  .swiglu_mode = swigluMode,
                  .clamp_limit = clampLimit,
                  .glu_alpha = gluAlpha,
                  .glu_bias = gluBias};
  return PlanDequantSwigluQuantCommon(plan, x, weightScaleOptional, activationScaleOptional, biasOptional,
                                      quantScaleOptional, quantOffsetOptional, groupIndexOptional, activateLeft,
                                      quantModeOptional, v, yOut, scaleOut);
}

constexpr DtypeSet kDequantSwigluQuantDtypes = kXDtypes | kBiasDtypes | DtypeSet{ACL_INT64, ACL_INT8};

}  // namespace

CANOPY_ACLNN_OP(DequantSwigluQuant, PlanDequantSwigluQuant,
                (OpTraits{.header = "aclnnop/aclnn_dequant_swiglu_quant.h",
                          .dtypes = kDequantSwigluQuantDtypes,
                          .example = "bf16[2,32] - - - - - - false 'dynamic' i8[2,16] f32[2]"}),
                (const aclTensor*, x), (const aclTensor*, weightScaleOptional, optional),
                (const aclTensor*, activationScaleOptional, optional), (const aclTensor*, biasOptional, optional),
                (const aclTensor*, quantScaleOptional, optional), (const aclTensor*, quantOffsetOptional, optional),
                (const aclTensor*, groupIndexOptional, optional), (bool, activateLeft),
                (char*, quantModeOptional, optional), (const aclTensor*, yOut), (const aclTensor*, scaleOut))

// groupIndexOptional is required on Atlas A2 (CANN's V2 doc): a null one is 161001.
CANOPY_ACLNN_OP(DequantSwigluQuantV2, PlanDequantSwigluQuantV2,
                (OpTraits{.header = "aclnnop/aclnn_dequant_swiglu_quant_v2.h",
                          .dtypes = kDequantSwigluQuantDtypes,
                          // !CODE (registry_example.h): a null quantMode is "static", which needs quantOffsetOptional
                          .example = "bf16[2,64] - - - f32[1,32] - i64[1]{2:2} true 'dynamic'!161001 2 'rint' -1 0 "
                                     "7.0 1.702 1.0 i8[2,32] f32[2]"}),
                (const aclTensor*, x), (const aclTensor*, weightScaleOptional, optional),
                (const aclTensor*, activationScaleOptional, optional), (const aclTensor*, biasOptional, optional),
                (const aclTensor*, quantScaleOptional, optional), (const aclTensor*, quantOffsetOptional, optional),
                (const aclTensor*, groupIndexOptional), (bool, activateLeft), (char*, quantModeOptional, optional),
                (int64_t, dstType), (char*, roundModeOptional, optional), (int64_t, activateDim), (int64_t, swigluMode),
                (double, clampLimit), (double, gluAlpha), (double, gluBias), (const aclTensor*, yOut),
                (const aclTensor*, scaleOut))
