// aclnnSwiGluQuant and aclnnSwiGluQuantV2 (CANN's quant/swi_glu_quant, A2 kernel): x's rows split
// at the middle of the last dim into the activated half a (the first where activateLeft, else the
// second) and the other half b; act = a / (1 + exp(-a)) * b in f32. Row r takes the first smooth
// row g whose cumulative end groupIndex[g] (or running sum of counts, groupListType 1) is above r,
// row 0 without groupIndexOptional; rows past the last end are not smoothed.
//   dynamic:           t = act * smooth[g]; scaleOut = q_max / max|t| (127, or 7 for INT4);
//                      y = rint(t * scaleOut).
//   static per tensor: (smooth and offsets [G]) y = sat(rint(act * smooth[g] + offsets[g])).
//   static per channel (smooth and offsets [G, N]): the same per column; scaleOut 0.
// rint is half to even; INT4 two a byte, the even element in the low nibble. CANN generates the
// entry points from the op definition (dtypes: 161002) and checks shapes in the tiling, whose
// failures are 561002; the attribute values are 161002 as the doc says. The tiling does not check
// what would make the kernel read or write past a tensor (smooth rows shorter than N, a missing
// smooth or offset tensor, y INT4 without dstType 29): Canopy rejects those too (561002 / 161001).
#include <algorithm>
#include <cmath>
#include <cstring>
#include <memory>
#include <string>
#include <vector>

#include "aclnnop/aclnn_swi_glu_quant.h"
#include "aclnnop/aclnn_swi_glu_quant_v2.h"
#include "kernels/abs_max.h"
#include "kernels/parallel_for.h"
#include "ops/framework/aclnn_op.h"
#include "ops/framework/tensor_view.h"
#include "ops/shape/view_or_copy.h"

using namespace canopy;
using namespace canopy::ops;

namespace {

constexpr DtypeSet kXDtypes = {ACL_FLOAT, ACL_FLOAT16, ACL_BF16};
constexpr DtypeSet kYDtypes = {ACL_INT8, ACL_INT4};  // the op definition lists INT4 for both versions
constexpr int64_t kMaxGroups = 1024;                 // the tiling's bound on groupIndexOptional's length
constexpr int64_t kDstInt8 = ACL_INT8;               // dstType values (ge's DT_INT8 and DT_INT4)
constexpr int64_t kDstInt4 = ACL_INT4;
constexpr int64_t kRowGrain = 8;
constexpr float kInt8Max = 127.0F, kInt4Max = 7.0F;

enum class Mode { kDynamic, kPerTensor, kPerChannel };

struct SwiGluQuantDesc {
  Mode mode = Mode::kDynamic;
  bool activate_left = false;
  bool int4 = false;
  bool counts = false;  // groupIndex holds counts (V2's groupListType 1)
  int64_t rows = 0, columns = 0;
  int64_t groups = 0;  // 0: no groupIndex, every row takes smooth row 0
};

class SwiGluQuantStep final : public Step {
 public:
  SwiGluQuantStep(const SwiGluQuantDesc& desc, BufferRef x, BufferRef smooth, BufferRef offsets, BufferRef group,
                  BufferRef y, BufferRef scale)
      : d_(desc), x_(x), smooth_(smooth), offsets_(offsets), group_(group), y_(y), scale_(scale) {}

  aclnnStatus Run(const RunContext& context) const override {
    const auto* x = reinterpret_cast<const float*>(context.Resolve(x_));
    const auto* smooth = reinterpret_cast<const float*>(context.Resolve(smooth_));
    const auto* offsets =
        d_.mode == Mode::kDynamic ? nullptr : reinterpret_cast<const float*>(context.Resolve(offsets_));
    auto* y = reinterpret_cast<uint8_t*>(context.Resolve(y_));
    auto* scale = reinterpret_cast<float*>(context.Resolve(scale_));
    const std::vector<int64_t> row_group = GroupOfRows(context);
    const float q_max = d_.int4 ? kInt4Max : kInt8Max;
    const float q_min = -q_max - 1.0F;
    const int64_t n = d_.columns;
    kernels::ParallelFor(d_.rows, kRowGrain, [&](int64_t begin, int64_t end) {
      std::vector<float> t(static_cast<size_t>(n));
      std::vector<int> q(static_cast<size_t>(n));
      for (int64_t r = begin; r < end; ++r) {
        const float* row = x + r * 2 * n;
        const float* a = d_.activate_left ? row : row + n;
        const float* b = d_.activate_left ? row + n : row;
        for (int64_t j = 0; j < n; ++j) t[static_cast<size_t>(j)] = a[j] / (1.0F + std::exp(-a[j])) * b[j];
        const int64_t g = row_group[static_cast<size_t>(r)];
        float multiplier = 1.0F;
        if (d_.mode == Mode::kDynamic) {
          float max = 0.0F;
          for (int64_t j = 0; j < n; ++j) {
            float& v = t[static_cast<size_t>(j)];
            if (g >= 0) v *= smooth[g * n + j];
            max = kernels::AbsMaxKeepingNan(max, v);
          }
          multiplier = q_max / max;
          scale[r] = multiplier;
        } else {
          scale[r] = 0.0F;
          for (int64_t j = 0; j < n && g >= 0; ++j) {
            const int64_t p = d_.mode == Mode::kPerTensor ? g : g * n + j;
            t[static_cast<size_t>(j)] = t[static_cast<size_t>(j)] * smooth[p] + offsets[p];
          }
        }
        for (int64_t j = 0; j < n; ++j) {
          const float v = std::nearbyint(t[static_cast<size_t>(j)] * multiplier);  // half to even
          q[static_cast<size_t>(j)] = std::isnan(v) ? 0 : static_cast<int>(std::clamp(v, q_min, q_max));
        }
        if (d_.int4) {
          uint8_t* out = y + r * n / 2;
          for (int64_t j = 0; j < n; j += 2) {
            const int lo = q[static_cast<size_t>(j)], hi = q[static_cast<size_t>(j + 1)];
            out[j / 2] =
                static_cast<uint8_t>((static_cast<unsigned>(lo) & 0xFU) | ((static_cast<unsigned>(hi) & 0xFU) << 4U));
          }
        } else {
          auto* out = reinterpret_cast<int8_t*>(y + r * n);
          for (int64_t j = 0; j < n; ++j) out[j] = static_cast<int8_t>(q[static_cast<size_t>(j)]);
        }
      }
    });
    return ACLNN_SUCCESS;
  }

  std::string Describe() const override {
    static const char* const kModes[] = {"dynamic", "static per tensor", "static per channel"};
    return std::string("swiglu quant ") + kModes[static_cast<int>(d_.mode)] + (d_.int4 ? " int4" : " int8") +
           " rows=" + std::to_string(d_.rows) + " columns=" + std::to_string(d_.columns) +
           " groups=" + std::to_string(d_.groups);
  }

 private:
  // Each row's smooth row: the first g whose cumulative end is above the row, scanning on from the
  // previous row's (as the kernel does); -1 past the last end.
  std::vector<int64_t> GroupOfRows(const RunContext& context) const {
    std::vector<int64_t> row_group(static_cast<size_t>(d_.rows), 0);
    if (d_.groups == 0) return row_group;
    const auto* values = reinterpret_cast<const int32_t*>(context.Resolve(group_));
    std::vector<int64_t> ends(static_cast<size_t>(d_.groups));
    int64_t sum = 0;
    for (int64_t g = 0; g < d_.groups; ++g) {
      sum = d_.counts ? sum + values[g] : values[g];
      ends[static_cast<size_t>(g)] = sum;
    }
    int64_t g = 0;
    for (int64_t r = 0; r < d_.rows; ++r) {
      while (g < d_.groups && ends[static_cast<size_t>(g)] <= r) ++g;
      row_group[static_cast<size_t>(r)] = g < d_.groups ? g : -1;
    }
    return row_group;
  }

  SwiGluQuantDesc d_;
  BufferRef x_, smooth_, offsets_, group_, y_, scale_;
};

aclnnStatus RejectShape(Plan& plan, const char* name, const aclTensor* t, const char* want) {
  return plan.Reject(ACLNN_ERR_INNER_TILING_ERROR, "'%s' has shape %s; %s", name, ShapeToString(t->view_shape).c_str(),
                     want);
}

aclnnStatus PlanSwiGluQuantCommon(Plan& plan, const aclTensor* x, const aclTensor* smooth, const aclTensor* offsets,
                                  const aclTensor* group, bool activateLeft, const char* quantMode,
                                  int64_t groupListType, int64_t dstType, const aclTensor* y, const aclTensor* scale,
                                  bool v2) {
  CANOPY_CHECK(plan.CheckDtype("x", x->dtype, kXDtypes));
  CANOPY_CHECK(plan.CheckDtype("smoothScalesOptional", smooth->dtype, {ACL_FLOAT}));
  if (offsets != nullptr) CANOPY_CHECK(plan.CheckDtype("offsetsOptional", offsets->dtype, {ACL_FLOAT}));
  if (group != nullptr) CANOPY_CHECK(plan.CheckDtype("groupIndexOptional", group->dtype, {ACL_INT32}));
  CANOPY_CHECK(plan.CheckDtype("yOut", y->dtype, kYDtypes));
  CANOPY_CHECK(plan.CheckDtype("scaleOut", scale->dtype, {ACL_FLOAT}));
  // A null quantModeOptional is the definition's default, "dynamic"; "dynamic_msd" passes the
  // tiling and runs the static kernel, as CANN's does.
  const std::string mode_name = quantMode == nullptr ? "dynamic" : quantMode;
  if (mode_name != "static" && mode_name != "dynamic" && mode_name != "dynamic_msd") {
    return plan.Reject(ACLNN_ERR_PARAM_INVALID,
                       "argument 'quantModeOptional' (\"%s\") must be \"static\", \"dynamic\" or \"dynamic_msd\"",
                       mode_name.c_str());
  }
  if (groupListType != 0 && groupListType != 1) {
    return plan.Reject(ACLNN_ERR_PARAM_INVALID, "argument 'groupListType' (%lld) must be 0 (cumsum) or 1 (count)",
                       static_cast<long long>(groupListType));
  }
  if (dstType != kDstInt8 && dstType != kDstInt4) {
    return plan.Reject(ACLNN_ERR_PARAM_INVALID, "argument 'dstType' (%lld) must be 2 (INT8) or 29 (INT4)",
                       static_cast<long long>(dstType));
  }
  const bool dynamic = mode_name == "dynamic";
  if (!dynamic && offsets == nullptr) {
    return plan.Reject(ACLNN_ERR_PARAM_NULLPTR, "'offsetsOptional' is null; the static modes read it");
  }
  // The tiling's checks, in its order, then what keeps the kernel inside the tensors.
  const int64_t rank = x->rank();
  if (rank < 2) return RejectShape(plan, "x", x, "it must have at least 2 dims");
  const Shape& xs = x->view_shape;
  const int64_t last = xs.back();
  if (y->dtype == ACL_INT4 && last % 4 != 0)
    return RejectShape(plan, "x", x, "its last dim must be a multiple of 4 for an INT4 'yOut'");
  int64_t groups = 0;
  if (group != nullptr) {
    groups = group->rank() == 1 ? group->view_shape[0] : -1;
    if (groups < 1 || groups > kMaxGroups) {
      return RejectShape(plan, "groupIndexOptional", group, "it must be 1-D with 1 to 1024 elements");
    }
  }
  const int64_t n = last / 2;
  const bool per_tensor = smooth->rank() == 1;
  const Mode mode = dynamic ? Mode::kDynamic : per_tensor ? Mode::kPerTensor : Mode::kPerChannel;
  const Shape smooth_want = per_tensor ? Shape{std::max<int64_t>(groups, 1)} : Shape{std::max<int64_t>(groups, 1), n};
  // With one group or none the kernel reads the first row only, so more rows are allowed.
  const auto fits = [&](const aclTensor* t) {
    if (t->rank() != static_cast<int64_t>(smooth_want.size()) || t->view_shape[0] < 1) return false;
    if (groups > 1 && t->view_shape[0] != groups) return false;
    return per_tensor || t->view_shape[1] == n;
  };
  if ((dynamic && per_tensor) || smooth->rank() > 2 || !fits(smooth)) {
    return RejectShape(plan, "smoothScalesOptional", smooth,
                       dynamic
                           ? "the dynamic mode needs [G, N] (G groupIndexOptional's length or 1, N x's last dim / 2)"
                           : "it must be [G] (per tensor) or [G, N] (per channel), G groupIndexOptional's length "
                             "or 1, N x's last dim / 2");
  }
  if (offsets != nullptr && groups > 1 && (offsets->rank() == 0 || offsets->view_shape[0] != groups)) {
    return RejectShape(plan, "offsetsOptional", offsets, "its first dim must be groupIndexOptional's length");
  }
  if (!dynamic && (offsets->view_shape != smooth->view_shape)) {
    return RejectShape(plan, "offsetsOptional", offsets, "the static modes need smoothScalesOptional's shape");
  }
  Shape before(xs.begin(), xs.end() - 1);
  Shape y_want = before;
  y_want.push_back(n);
  if (last % 2 != 0 || last == 0) return RejectShape(plan, "x", x, "its last dim must be even and non-zero");
  if (y->view_shape != y_want) {
    return plan.Reject(ACLNN_ERR_INNER_TILING_ERROR,
                       "'yOut' has shape %s; it must be %s (x's with the last dim halved)",
                       ShapeToString(y->view_shape).c_str(), ShapeToString(y_want).c_str());
  }
  if (scale->view_shape != before) {
    return plan.Reject(ACLNN_ERR_INNER_TILING_ERROR,
                       "'scaleOut' has shape %s; it must be %s (x's without the last dim)",
                       ShapeToString(scale->view_shape).c_str(), ShapeToString(before).c_str());
  }
  if ((y->dtype == ACL_INT4) != (dstType == kDstInt4)) {
    return plan.Reject(ACLNN_ERR_INNER_TILING_ERROR, "'yOut' is %s but the kernel writes %s (%s)", DtypeName(y->dtype),
                       dstType == kDstInt4 ? "INT4" : "INT8",
                       v2 ? "dstType must match yOut" : "an INT4 yOut needs aclnnSwiGluQuantV2's dstType 29");
  }

  const TensorRef src = plan.Input(x, "x");
  const TensorRef smooth_in = plan.Input(smooth, "smoothScalesOptional");
  std::optional<TensorRef> offsets_in;
  if (offsets != nullptr) {
    offsets_in = plan.Input(offsets, "offsetsOptional");
  } else {
    plan.SkipInput();
  }
  std::optional<TensorRef> group_in;
  if (group != nullptr) {
    group_in = plan.Input(group, "groupIndexOptional");
  } else {
    plan.SkipInput();
  }
  const TensorRef dst = plan.Output(y, "yOut");
  const TensorRef scale_out = plan.Output(scale, "scaleOut");
  // Two INT4 values share a byte: a strided INT4 view cannot be written through a staging copy.
  if (y->dtype == ACL_INT4 && !dst.IsContiguous()) {
    return plan.Reject(ACLNN_ERR_PARAM_INVALID, "an INT4 yOut must be contiguous");
  }
  int64_t rows = 1;
  for (const int64_t extent : before) rows *= extent;
  if (rows == 0) return ACLNN_SUCCESS;

  SwiGluQuantDesc desc;
  desc.mode = mode;
  desc.activate_left = activateLeft;
  desc.int4 = y->dtype == ACL_INT4;
  desc.counts = groupListType == 1;
  desc.rows = rows;
  desc.columns = n;
  desc.groups = groups;
  const TensorRef in = *Reshape(plan.Contiguous(src, ACL_FLOAT), {rows, last});
  const BufferRef smooth_buffer = plan.Contiguous(smooth_in, ACL_FLOAT).buffer;
  const BufferRef offsets_buffer = dynamic ? BufferRef{} : plan.Contiguous(*offsets_in, ACL_FLOAT).buffer;
  const BufferRef group_buffer = group_in ? plan.Contiguous(*group_in, ACL_INT32).buffer : BufferRef{};
  const TensorRef y_dst = dst.IsContiguous() ? dst : plan.Temporary(dst.dtype, dst.shape);
  const TensorRef scale_dst = scale_out.IsContiguous() ? scale_out : plan.Temporary(ACL_FLOAT, scale_out.shape);
  plan.AddStep(std::make_unique<SwiGluQuantStep>(desc, in.buffer, smooth_buffer, offsets_buffer, group_buffer,
                                                 y_dst.buffer, scale_dst.buffer));
  if (!dst.IsContiguous()) plan.Copy(y_dst, dst);
  if (!scale_out.IsContiguous()) plan.Copy(scale_dst, scale_out);
  return ACLNN_SUCCESS;
}

aclnnStatus PlanSwiGluQuant(Plan& plan, const aclTensor* x, const aclTensor* smoothScalesOptional,
                            const aclTensor* offsetsOptional, const aclTensor* groupIndexOptional, bool activateLeft,
                            const char* quantModeOptional, const aclTensor* yOut, const aclTensor* scaleOut) {
  return PlanSwiGluQuantCommon(plan, x, smoothScalesOptional, offsetsOptional, groupIndexOptional, activateLeft,
                               quantModeOptional, 0, kDstInt8, yOut, scaleOut, false);
}

aclnnStatus PlanSwiGluQuantV2(Plan& plan, const aclTensor* x, const aclTensor* smoothScalesOptional,
                              const aclTensor* offsetsOptional, const aclTensor* groupIndexOptional, bool activateLeft,
                              const char* quantModeOptional, int64_t groupListType, int64_t dstType,
                              const aclTensor* yOut, const aclTensor* scaleOut) {
  return PlanSwiGluQuantCommon(plan, x, smoothScalesOptional, offsetsOptional, groupIndexOptional, activateLeft,
                               quantModeOptional, groupListType, dstType, yOut, scaleOut, true);
}

constexpr DtypeSet kSwiGluQuantDtypes = kXDtypes | kYDtypes | DtypeSet{ACL_INT32};

}  // namespace

// smoothScalesOptional is required: the kernel reads it in every mode (CANN's V1 doc: no null).
CANOPY_ACLNN_OP(SwiGluQuant, PlanSwiGluQuant,
                (OpTraits{.header = "aclnnop/aclnn_swi_glu_quant.h",
                          .dtypes = kSwiGluQuantDtypes,
                          .example = "bf16[3,32] f32[2,16] - i32[2]{1:3} false 'dynamic' i8[3,16] f32[3]"}),
                (const aclTensor*, x), (const aclTensor*, smoothScalesOptional),
                (const aclTensor*, offsetsOptional, optional), (const aclTensor*, groupIndexOptional, optional),
                (bool, activateLeft), (char*, quantModeOptional, optional), (const aclTensor*, yOut),
                (const aclTensor*, scaleOut))

CANOPY_ACLNN_OP(SwiGluQuantV2, PlanSwiGluQuantV2,
                (OpTraits{.header = "aclnnop/aclnn_swi_glu_quant_v2.h",
                          .dtypes = kSwiGluQuantDtypes,
                          .example = "bf16[3,32] f32[2,16] - i32[2]{1:3} false 'dynamic' 0 2 i8[3,16] f32[3]"}),
                (const aclTensor*, x), (const aclTensor*, smoothScalesOptional),
                (const aclTensor*, offsetsOptional, optional), (const aclTensor*, groupIndexOptional, optional),
                (bool, activateLeft), (char*, quantModeOptional, optional), (int64_t, groupListType),
                (int64_t, dstType), (const aclTensor*, yOut), (const aclTensor*, scaleOut))
