// MoE finalize routing (see moe_finalize.h).
#include "moe_finalize.h"

#include <string>
#include <vector>

#include "acl/error_codes/rt_error_codes.h"
#include "common/dtype.h"
#include "dtype_dispatch.h"
#include "parallel_for.h"

namespace canopy::kernels {
namespace {

constexpr int64_t kRowGrain = 4;

class MoeFinalizeStep final : public Step {
 public:
  explicit MoeFinalizeStep(const MoeFinalizeDesc& desc) : d_(desc) {}

  aclnnStatus Run(const RunContext& context) const override {
    const auto* row_index = reinterpret_cast<const int32_t*>(context.Resolve(d_.row_index));
    const auto* expert_index =
        d_.has_bias ? reinterpret_cast<const int32_t*>(context.Resolve(d_.expert_index)) : nullptr;
    // Every index first: a bad one fails the run with out untouched.
    for (int64_t t = 0; t < d_.rows * d_.k; ++t) {
      if (d_.index_extent > 0 && (row_index[t] < 0 || row_index[t] >= d_.index_extent)) {
        return OutOfRange(d_.row_index_name, t, row_index[t], d_.index_extent);
      }
      if (d_.windowed) {
        if (InWindow(row_index[t]) && row_index[t] - d_.window_start >= d_.expanded_rows) {
          return OutOfRange(d_.row_index_name, t, row_index[t], d_.window_start + d_.expanded_rows, d_.window_start);
        }
      } else if (row_index[t] < (d_.drop_pad ? -1 : 0) || row_index[t] >= d_.expanded_rows) {
        return OutOfRange(d_.row_index_name, t, row_index[t], d_.expanded_rows, d_.drop_pad ? -1 : 0);
      }
      if (expert_index != nullptr && (expert_index[t] < 0 || expert_index[t] >= d_.experts)) {
        return OutOfRange("expertIdx", t, expert_index[t], d_.experts);
      }
    }
    const char* expanded = context.Resolve(d_.expanded_x);
    const char* x1 = d_.has_x1 ? context.Resolve(d_.x1) : nullptr;
    const char* x2 = d_.has_x2 ? context.Resolve(d_.x2) : nullptr;
    const char* scales = d_.has_scales ? context.Resolve(d_.scales) : nullptr;
    const char* bias = d_.has_bias ? context.Resolve(d_.bias) : nullptr;
    char* out = context.Resolve(d_.out);
    const int64_t element = static_cast<int64_t>(DtypeSize(d_.dtype));
    const aclDataType scales_dtype = d_.scales_dtype == ACL_DT_UNDEFINED ? d_.dtype : d_.scales_dtype;
    ParallelFor(d_.rows, kRowGrain, [&](int64_t begin, int64_t end) {
      std::vector<float> acc(static_cast<size_t>(d_.h)), term(static_cast<size_t>(d_.h)),
          row_bias(static_cast<size_t>(d_.h)), scale(static_cast<size_t>(d_.k), 1.0f);
      for (int64_t i = begin; i < end; ++i) {
        std::fill(acc.begin(), acc.end(), 0.0f);
        for (const char* skip : {x1, x2}) {
          if (skip == nullptr) continue;
          Load(d_.dtype, skip + i * d_.h * element, 1, d_.h, term.data());
          for (int64_t j = 0; j < d_.h; ++j) acc[static_cast<size_t>(j)] += term[static_cast<size_t>(j)];
        }
        if (scales != nullptr) {
          Load(scales_dtype, scales + i * d_.k * static_cast<int64_t>(DtypeSize(scales_dtype)), 1, d_.k, scale.data());
        }
        for (int64_t kk = 0; kk < d_.k; ++kk) {
          int64_t source = row_index[d_.token_major_index ? i * d_.k + kk : i + kk * d_.rows];
          if (d_.windowed) {
            if (!InWindow(source) || (scales != nullptr && scale[static_cast<size_t>(kk)] == 0.0f)) continue;
            source -= d_.window_start;
          }
          if (source < 0) {  // a dropped slot (drop_pad): no row of its own
            std::fill(term.begin(), term.end(), 0.0f);
          } else {
            Load(d_.dtype, expanded + source * d_.h * element, 1, d_.h, term.data());
          }
          if (bias != nullptr) {
            Load(d_.dtype, bias + expert_index[i * d_.k + kk] * d_.h * element, 1, d_.h, row_bias.data());
            for (int64_t j = 0; j < d_.h; ++j) term[static_cast<size_t>(j)] += row_bias[static_cast<size_t>(j)];
          }
          const float s = scale[static_cast<size_t>(kk)];
          for (int64_t j = 0; j < d_.h; ++j) acc[static_cast<size_t>(j)] += s * term[static_cast<size_t>(j)];
        }
        Store(acc.data(), d_.dtype, out + i * d_.h * element, 1, d_.h);
      }
    });
    return ACLNN_SUCCESS;
  }

  std::string Describe() const override {
    return std::string("moe finalize routing ") + DtypeName(d_.dtype) + " rows=" + std::to_string(d_.rows) +
           " k=" + std::to_string(d_.k) + " h=" + std::to_string(d_.h) + (d_.has_bias ? " bias" : "") +
           (d_.has_scales ? " scales" : "");
  }

 private:
  bool InWindow(int64_t v) const { return v >= d_.window_start && v < d_.window_end; }

  aclnnStatus OutOfRange(const char* name, int64_t position, int64_t value, int64_t extent, int64_t low = 0) const {
    SetErrorMessage("%s: element %lld of '%s' is %lld, outside [%lld, %lld)", d_.op, static_cast<long long>(position),
                    name, static_cast<long long>(value), static_cast<long long>(low), static_cast<long long>(extent));
    return ACL_ERROR_RT_AICORE_EXCEPTION;
  }

  MoeFinalizeDesc d_;
};

}  // namespace

std::unique_ptr<Step> MakeMoeFinalizeStep(const MoeFinalizeDesc& desc) {
  return std::make_unique<MoeFinalizeStep>(desc);
}

}  // namespace canopy::kernels
