// Affine (de)quantisation along one axis (see quant_affine.h).
#include "quant_affine.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <string>
#include <utility>
#include <vector>

#include "acl/error_codes/rt_error_codes.h"
#include "common/dtype.h"
#include "common/half.h"
#include "dtype_dispatch.h"
#include "parallel_for.h"

namespace canopy::kernels {
namespace {

constexpr int64_t kChunk = 4096;  // elements converted at once (even: INT4 pairs stay in one chunk)

float Rounded(float v, QuantRound round) {
  switch (round) {
    case QuantRound::kRint:
      return std::nearbyint(v);
    case QuantRound::kCeil:
      return std::ceil(v);
    case QuantRound::kFloor:
      return std::floor(v);
    case QuantRound::kTrunc:
      return std::trunc(v);
  }
  return v;
}

float InHalf(float v) { return HalfToFloat(FloatToHalf(v)); }

class QuantAffineStep final : public Step {
 public:
  explicit QuantAffineStep(const QuantAffineDesc& desc) : d_(desc) {}

  aclnnStatus Run(const RunContext& context) const override {
    std::vector<int64_t> row_group;
    if (d_.groups > 0) {
      const aclnnStatus status = GroupOfRows(context, row_group);
      if (status != ACLNN_SUCCESS) return status;
    }
    const int64_t offset_count = d_.groups > 0 ? 1 : d_.param_count;
    std::vector<float> scale(static_cast<size_t>(d_.param_count)), offset(static_cast<size_t>(offset_count), 0.0f);
    Load(d_.param_dtype, context.Resolve(d_.scale), 1, d_.param_count, scale.data());
    if (d_.sqrt_mode) {
      for (float& s : scale) s *= s;
    }
    if (d_.reciprocal_scale) {
      for (float& s : scale) s = 1.0f / (s == 0.0f && d_.zero_scale_as_one ? 1.0f : s);
    }
    if (d_.has_offset) {
      const aclDataType offset_dtype = d_.offset_dtype == ACL_DT_UNDEFINED ? d_.param_dtype : d_.offset_dtype;
      Load(offset_dtype, context.Resolve(d_.offset), 1, offset_count, offset.data());
    }
    const char* in = context.Resolve(d_.in);
    char* out = context.Resolve(d_.out);
    const bool int4 = (d_.quantise ? d_.out_dtype : d_.in_dtype) == ACL_INT4;
    ParallelFor(d_.elements, kChunk, kChunk, [&](int64_t begin, int64_t end) {
      std::vector<float> values(static_cast<size_t>(kChunk));
      for (int64_t c0 = begin; c0 < end; c0 += kChunk) {
        const int64_t count = std::min(kChunk, end - c0);
        const auto param = [&](int64_t e) {
          if (!row_group.empty()) {
            return static_cast<size_t>(row_group[static_cast<size_t>(e / d_.axis_extent)] * d_.axis_extent +
                                       e % d_.axis_extent);
          }
          return static_cast<size_t>(d_.param_count == 1 ? 0 : e / d_.inner % d_.axis_extent);
        };
        const auto offset_at = [&](size_t p) { return offset[offset_count == 1 ? 0 : p]; };
        if (d_.quantise) {
          Load(d_.in_dtype, in + c0 * static_cast<int64_t>(DtypeSize(d_.in_dtype)), 1, count, values.data());
          const auto [lo, hi] = QuantisedRange(d_.out_dtype);
          for (int64_t t = 0; t < count; ++t) {
            const size_t p = param(c0 + t);
            const float v = values[static_cast<size_t>(t)];
            float affine = d_.half_arithmetic ? InHalf(InHalf(InHalf(v) * InHalf(scale[p])) + InHalf(offset_at(p)))
                                              : (d_.divide ? v / scale[p] : v * scale[p]) + offset_at(p);
            if (d_.through_half) affine = InHalf(affine);
            const float q = Rounded(affine, d_.round);
            values[static_cast<size_t>(t)] = std::isnan(q) ? 0.0f : std::clamp(q, lo, hi);
          }
          StoreQuantised(values.data(), out, c0, count, d_.out_dtype);
        } else {
          LoadQuantised(in, c0, count, int4, values.data());
          for (int64_t t = 0; t < count; ++t) {
            const size_t p = param(c0 + t);
            values[static_cast<size_t>(t)] = (values[static_cast<size_t>(t)] + offset_at(p)) * scale[p];
          }
          Store(values.data(), d_.out_dtype, out + c0 * static_cast<int64_t>(DtypeSize(d_.out_dtype)), 1, count);
        }
      }
    });
    return ACLNN_SUCCESS;
  }

  std::string Describe() const override {
    return std::string(d_.quantise ? "quantise " : "dequantise ") + DtypeName(d_.in_dtype) + " -> " +
           DtypeName(d_.out_dtype) + " elements=" + std::to_string(d_.elements) +
           " params=" + std::to_string(d_.param_count) + (d_.has_offset ? " offset" : "") +
           (d_.sqrt_mode ? " sqrt" : "");
  }

 private:
  // Each row's group (the first whose end is past the row), once the ends are checked as CANN's kernel does.
  aclnnStatus GroupOfRows(const RunContext& context, std::vector<int64_t>& row_group) const {
    std::vector<int64_t> ends(static_cast<size_t>(d_.groups));
    Load(d_.group_dtype, context.Resolve(d_.group_index), 1, d_.groups, ends.data());
    const int64_t rows = d_.elements / d_.axis_extent;
    int64_t previous = 0;
    for (int64_t g = 0; g < d_.groups; ++g) {
      const int64_t end = ends[static_cast<size_t>(g)];
      const bool last_wrong = g == d_.groups - 1 && end != rows;
      if (end < previous || end > rows || last_wrong) {
        SetErrorMessage(
            "GroupQuant: groupIndex[%lld] is %lld; the ends must rise from 0 to x's %lld rows, the last %lld",
            static_cast<long long>(g), static_cast<long long>(end), static_cast<long long>(rows),
            static_cast<long long>(rows));
        return ACL_ERROR_RT_AICORE_EXCEPTION;  // CANN's kernel traps
      }
      previous = end;
    }
    row_group.resize(static_cast<size_t>(rows));
    int64_t g = 0;
    for (int64_t r = 0; r < rows; ++r) {
      while (ends[static_cast<size_t>(g)] <= r) ++g;
      row_group[static_cast<size_t>(r)] = g;
    }
    return ACLNN_SUCCESS;
  }

  // The quantised type's range (INT32's ends as the nearest floats: StoreQuantised saturates them).
  static std::pair<float, float> QuantisedRange(aclDataType dtype) {
    switch (dtype) {
      case ACL_INT4:
        return {-8.0f, 7.0f};
      case ACL_UINT8:
        return {0.0f, 255.0f};
      case ACL_INT32:
        return {static_cast<float>(std::numeric_limits<int32_t>::min()),
                static_cast<float>(std::numeric_limits<int32_t>::max())};
      default:
        return {-128.0f, 127.0f};
    }
  }

  // Elements [first, first + count) (first and count even for INT4), already rounded and clamped.
  static void StoreQuantised(const float* values, char* out, int64_t first, int64_t count, aclDataType dtype) {
    if (dtype == ACL_INT8) {
      auto* dst = reinterpret_cast<int8_t*>(out) + first;
      for (int64_t t = 0; t < count; ++t) dst[t] = static_cast<int8_t>(values[t]);
      return;
    }
    if (dtype == ACL_UINT8) {
      auto* dst = reinterpret_cast<uint8_t*>(out) + first;
      for (int64_t t = 0; t < count; ++t) dst[t] = static_cast<uint8_t>(values[t]);
      return;
    }
    if (dtype == ACL_INT32) {
      constexpr float kTop = 2147483648.0f;  // 2^31: the float INT32's maximum rounds to
      auto* dst = reinterpret_cast<int32_t*>(out) + first;
      for (int64_t t = 0; t < count; ++t) {
        dst[t] = values[t] >= kTop ? std::numeric_limits<int32_t>::max() : static_cast<int32_t>(values[t]);
      }
      return;
    }
    auto* dst = reinterpret_cast<uint8_t*>(out) + first / 2;
    for (int64_t t = 0; t + 1 < count; t += 2) {
      const int lo = static_cast<int>(values[t]), hi = static_cast<int>(values[t + 1]);
      dst[t / 2] = static_cast<uint8_t>((lo & 0xF) | ((hi & 0xF) << 4));
    }
  }

  static void LoadQuantised(const char* in, int64_t first, int64_t count, bool int4, float* values) {
    if (!int4) {
      const auto* src = reinterpret_cast<const int8_t*>(in) + first;
      for (int64_t t = 0; t < count; ++t) values[t] = static_cast<float>(src[t]);
      return;
    }
    const auto* src = reinterpret_cast<const uint8_t*>(in);
    for (int64_t t = 0; t < count; ++t) {
      const int64_t e = first + t;
      const int nibble = (src[e / 2] >> (e % 2 == 0 ? 0 : 4)) & 0xF;
      values[t] = static_cast<float>(nibble >= 8 ? nibble - 16 : nibble);
    }
  }

  QuantAffineDesc d_;
};

}  // namespace

std::unique_ptr<Step> MakeQuantAffineStep(const QuantAffineDesc& desc) {
  return std::make_unique<QuantAffineStep>(desc);
}

}  // namespace canopy::kernels
