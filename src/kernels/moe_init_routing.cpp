// MoE init routing (see moe_init_routing.h).
#include "moe_init_routing.h"

#include <algorithm>
#include <cstring>
#include <numeric>
#include <string>
#include <vector>

#include "acl/error_codes/rt_error_codes.h"
#include "common/dtype.h"
#include "dtype_dispatch.h"
#include "parallel_for.h"

namespace canopy::kernels {
namespace {

constexpr int64_t kRowGrain = 16;
constexpr int64_t kLeftAlone = -2;  // an expandedX row no position reaches

class MoeInitRoutingStep final : public Step {
 public:
  explicit MoeInitRoutingStep(const MoeInitRoutingDesc& desc) : d_(desc) {}

  aclnnStatus Run(const RunContext& context) const override {
    const int64_t slots = d_.rows * d_.k;
    // The expert numbers widened once (int32, or MoeTokenPermute's int64).
    std::vector<int64_t> expert(static_cast<size_t>(slots));
    const char* expert_data = context.Resolve(d_.expert_index);
    for (int64_t t = 0; t < slots; ++t) {
      expert[static_cast<size_t>(t)] = d_.index_int64 ? reinterpret_cast<const int64_t*>(expert_data)[t]
                                                      : reinterpret_cast<const int32_t*>(expert_data)[t];
    }
    const auto* row_index =
        d_.has_row_index ? reinterpret_cast<const int32_t*>(context.Resolve(d_.row_index)) : nullptr;
    // Every index first: a bad one fails the run with the outputs untouched.
    for (int64_t t = 0; t < slots; ++t) {
      if (row_index != nullptr && (row_index[t] < 0 || row_index[t] >= slots)) {
        return OutOfRange("rowIdx", t, row_index[t], 0, slots);
      }
      const int64_t e = expert[static_cast<size_t>(t)];
      const int64_t limit = d_.experts_bounded ? d_.experts : d_.expert_limit;
      if (!d_.has_row_index && (e < 0 || e >= limit)) return OutOfRange(d_.expert_name, t, e, 0, limit);
    }
    // The slots in expert order; equal experts keep their flattened [rows, k] order.
    std::vector<int32_t> order(static_cast<size_t>(slots));
    std::iota(order.begin(), order.end(), 0);
    std::stable_sort(order.begin(), order.end(), [&](int32_t a, int32_t b) {
      return expert[static_cast<size_t>(a)] < expert[static_cast<size_t>(b)];
    });

    auto* expanded_row = reinterpret_cast<int32_t*>(context.Resolve(d_.expanded_row_index));
    // source[p]: the x row that expandedX row p copies (-1: a zero row); source_expert[p]: its expert.
    std::vector<int64_t> source;
    const int64_t expanded_rows = d_.drop_pad ? d_.experts * d_.capacity : d_.expanded_rows;
    std::vector<int64_t> source_expert(d_.smooth_per_expert ? static_cast<size_t>(expanded_rows) : 0);
    if (row_index != nullptr) {
      auto* sorted_expert = reinterpret_cast<int32_t*>(context.Resolve(d_.expanded_expert_index));
      std::fill(expanded_row, expanded_row + slots, -1);  // stays -1 where rowIdx repeats a value
      source.resize(static_cast<size_t>(d_.expanded_rows));
      for (int64_t p = 0; p < slots; ++p) {
        const int32_t s = order[static_cast<size_t>(p)];
        sorted_expert[p] = static_cast<int32_t>(expert[static_cast<size_t>(s)]);
        expanded_row[row_index[s]] = static_cast<int32_t>(p);
        if (p < d_.expanded_rows) source[static_cast<size_t>(p)] = row_index[s] % d_.rows;
      }
    } else if (!d_.drop_pad) {
      // Rows past the last position stay as they are (-2: not written).
      source.assign(static_cast<size_t>(d_.expanded_rows), kLeftAlone);
      for (int64_t p = 0; p < slots; ++p) {
        const int32_t s = order[static_cast<size_t>(p)];
        expanded_row[s] = static_cast<int32_t>(p);
        const int64_t row = p - d_.expanded_start;
        if (row >= 0 && row < d_.expanded_rows) {
          source[static_cast<size_t>(row)] = s / d_.k;
          if (d_.smooth_per_expert) source_expert[static_cast<size_t>(row)] = expert[static_cast<size_t>(s)];
        }
      }
    } else {
      source.assign(static_cast<size_t>(d_.experts * d_.capacity), -1);
      int64_t rank = 0;
      for (int64_t p = 0; p < slots; ++p) {
        const int32_t s = order[static_cast<size_t>(p)];
        const int64_t e = expert[static_cast<size_t>(s)];
        rank = p > 0 && expert[static_cast<size_t>(order[static_cast<size_t>(p - 1)])] == e ? rank + 1 : 0;
        if (rank < d_.capacity) {
          const int64_t row = e * d_.capacity + rank;
          expanded_row[s] = static_cast<int32_t>(row);
          source[static_cast<size_t>(row)] = s / d_.k;
          if (d_.smooth_per_expert) source_expert[static_cast<size_t>(row)] = e;
        } else {
          expanded_row[s] = -1;  // dropped: past the expert's capacity
        }
      }
    }
    if (d_.to_f32) {
      ScaleRows(context, source, source_expert);
    } else {
      MoveRows(context, source);
    }
    if (d_.counts != MoeInitRoutingDesc::Counts::kNone) {
      auto* tokens = reinterpret_cast<int32_t*>(context.Resolve(d_.expert_tokens));
      std::fill(tokens, tokens + d_.experts, 0);
      for (int64_t e : expert) ++tokens[e];
      if (d_.counts == MoeInitRoutingDesc::Counts::kCumsum) std::partial_sum(tokens, tokens + d_.experts, tokens);
    }
    return ACLNN_SUCCESS;
  }

  std::string Describe() const override {
    return std::string(d_.op) + " " + DtypeName(d_.dtype) + " rows=" + std::to_string(d_.rows) +
           " k=" + std::to_string(d_.k) + " h=" + std::to_string(d_.h) +
           (d_.drop_pad ? " capacity=" + std::to_string(d_.capacity) : "");
  }

 private:
  // expandedX row p: x's row source[p] (a zero row for -1), moved as bytes.
  void MoveRows(const RunContext& context, const std::vector<int64_t>& source) const {
    char* expanded_x = context.Resolve(d_.expanded_x);
    const char* x = context.Resolve(d_.x);
    const auto row_bytes = static_cast<size_t>(d_.h) * DtypeSize(d_.dtype);
    // Rows of no columns move nothing (and x may then have no buffer at all).
    const int64_t rows_to_move = row_bytes > 0 ? static_cast<int64_t>(source.size()) : 0;
    ParallelFor(rows_to_move, kRowGrain, [&](int64_t begin, int64_t end) {
      for (int64_t p = begin; p < end; ++p) {
        char* dst = expanded_x + static_cast<size_t>(p) * row_bytes;
        const int64_t src = source[static_cast<size_t>(p)];
        if (src == kLeftAlone) continue;
        if (src < 0) {
          std::memset(dst, 0, row_bytes);
        } else {
          std::memcpy(dst, x + static_cast<size_t>(src) * row_bytes, row_bytes);
        }
      }
    });
  }

  // The f32 form: x's row source[p] widened, times the smooth row (its expert's), or zeros.
  void ScaleRows(const RunContext& context, const std::vector<int64_t>& source,
                 const std::vector<int64_t>& source_expert) const {
    auto* expanded_x = reinterpret_cast<float*>(context.Resolve(d_.expanded_x));
    const char* x = context.Resolve(d_.x);
    const auto* smooth = d_.has_smooth ? reinterpret_cast<const float*>(context.Resolve(d_.smooth)) : nullptr;
    const auto element = static_cast<int64_t>(DtypeSize(d_.dtype));
    const int64_t rows_to_write = d_.h > 0 ? static_cast<int64_t>(source.size()) : 0;
    ParallelFor(rows_to_write, kRowGrain, [&](int64_t begin, int64_t end) {
      for (int64_t p = begin; p < end; ++p) {
        float* dst = expanded_x + p * d_.h;
        const int64_t src = source[static_cast<size_t>(p)];
        if (src == kLeftAlone) continue;
        if (src < 0) {
          std::fill(dst, dst + d_.h, 0.0F);
          continue;
        }
        Load(d_.dtype, x + src * d_.h * element, 1, d_.h, dst);
        if (smooth == nullptr) continue;
        const float* factor = smooth + (d_.smooth_per_expert ? source_expert[static_cast<size_t>(p)] * d_.h : 0);
        for (int64_t c = 0; c < d_.h; ++c) dst[c] *= factor[c];
      }
    });
  }

  aclnnStatus OutOfRange(const char* name, int64_t position, int64_t value, int64_t low, int64_t high) const {
    SetErrorMessage("%s: element %lld of '%s' is %lld, outside [%lld, %lld)", d_.op, static_cast<long long>(position),
                    name, static_cast<long long>(value), static_cast<long long>(low), static_cast<long long>(high));
    return ACL_ERROR_RT_AICORE_EXCEPTION;
  }

  MoeInitRoutingDesc d_;
};

class MoeInitRoutingV3Step final : public Step {
 public:
  explicit MoeInitRoutingV3Step(const MoeInitRoutingV3Desc& desc) : d_(desc) {}

  aclnnStatus Run(const RunContext& context) const override {
    const int64_t slots = d_.rows * d_.k;
    const auto* expert = reinterpret_cast<const int32_t*>(context.Resolve(d_.expert_index));
    const auto in_range = [&](int64_t s) { return expert[s] >= d_.expert_start && expert[s] < d_.expert_end; };
    // The kept slots in expert order; equal experts keep their flattened [rows, k] order.
    std::vector<int32_t> order;
    for (int32_t s = 0; s < slots; ++s) {
      if (in_range(s)) order.push_back(s);
    }
    std::stable_sort(order.begin(), order.end(), [&](int32_t a, int32_t b) { return expert[a] < expert[b]; });
    const auto kept = static_cast<int64_t>(order.size());

    auto* expanded_row = reinterpret_cast<int32_t*>(context.Resolve(d_.expanded_row_index));
    if (!d_.scatter_row_index) std::fill(expanded_row, expanded_row + slots, -1);
    for (int64_t p = 0; p < kept; ++p) {
      const int32_t s = order[static_cast<size_t>(p)];
      if (d_.scatter_row_index) {
        expanded_row[p] = s;
      } else {
        expanded_row[s] = static_cast<int32_t>(p);
      }
    }
    if (d_.has_row_scale) {
      const auto* row_scale = reinterpret_cast<const float*>(context.Resolve(d_.row_scale));
      auto* expanded_scale = reinterpret_cast<float*>(context.Resolve(d_.expanded_scale));
      for (int64_t p = 0; p < kept; ++p) expanded_scale[p] = row_scale[order[static_cast<size_t>(p)] / d_.k];
    }
    if (d_.h > 0) CopyRows(context, order);
    WriteCounts(context, order);
    return ACLNN_SUCCESS;
  }

  std::string Describe() const override {
    return "aclnnMoeInitRoutingV3 " + std::string(DtypeName(d_.dtype)) + " rows=" + std::to_string(d_.rows) +
           " k=" + std::to_string(d_.k) + " h=" + std::to_string(d_.h) + " experts=[" +
           std::to_string(d_.expert_start) + ", " + std::to_string(d_.expert_end) + ")" +
           (d_.quantise ? " quantised" : "");
  }

 private:
  void CopyRows(const RunContext& context, const std::vector<int32_t>& order) const {
    const char* x = context.Resolve(d_.x);
    char* expanded_x = context.Resolve(d_.expanded_x);
    const auto* expert = reinterpret_cast<const int32_t*>(context.Resolve(d_.expert_index));
    const auto* smooth = d_.has_smooth ? reinterpret_cast<const float*>(context.Resolve(d_.smooth)) : nullptr;
    const auto element = static_cast<int64_t>(DtypeSize(d_.dtype));
    const auto kept = static_cast<int64_t>(order.size());
    const int64_t written = d_.quantise ? d_.rows * d_.k : kept;  // the quantised form zeroes the rows past kept
    ParallelFor(written, kRowGrain, [&](int64_t begin, int64_t end) {
      for (int64_t p = begin; p < end; ++p) {
        if (!d_.quantise) {
          const int64_t src = order[static_cast<size_t>(p)] / d_.k;
          std::memcpy(expanded_x + p * d_.h * element, x + src * d_.h * element, static_cast<size_t>(d_.h * element));
          continue;
        }
        float* dst = reinterpret_cast<float*>(expanded_x) + p * d_.h;
        if (p >= kept) {
          std::fill(dst, dst + d_.h, 0.0F);
          continue;
        }
        const int32_t s = order[static_cast<size_t>(p)];
        Load(d_.dtype, x + s / d_.k * d_.h * element, 1, d_.h, dst);
        if (smooth != nullptr) {
          const float* factor = smooth + (expert[s] - d_.expert_start) * d_.h;
          for (int64_t c = 0; c < d_.h; ++c) dst[c] *= factor[c];
        }
      }
    });
  }

  void WriteCounts(const RunContext& context, const std::vector<int32_t>& order) const {
    const auto* expert = reinterpret_cast<const int32_t*>(context.Resolve(d_.expert_index));
    const int64_t range = d_.expert_end - d_.expert_start;
    std::vector<int64_t> counts(static_cast<size_t>(range), 0);
    for (int32_t s : order) ++counts[static_cast<size_t>(expert[s] - d_.expert_start)];
    auto* tokens = reinterpret_cast<int64_t*>(context.Resolve(d_.expert_tokens));
    if (!d_.key_value) {
      std::copy(counts.begin(), counts.end(), tokens);
      return;
    }
    const int64_t pairs = std::min(range + 1, d_.experts);
    std::fill(tokens, tokens + 2 * pairs, 0);
    int64_t next = 0;
    for (int64_t e = 0; e < range; ++e) {
      if (counts[static_cast<size_t>(e)] == 0) continue;
      tokens[2 * next] = d_.expert_start + e;
      tokens[2 * next + 1] = counts[static_cast<size_t>(e)];
      ++next;
    }
  }

  MoeInitRoutingV3Desc d_;
};

}  // namespace

std::unique_ptr<Step> MakeMoeInitRoutingStep(const MoeInitRoutingDesc& desc) {
  return std::make_unique<MoeInitRoutingStep>(desc);
}

std::unique_ptr<Step> MakeMoeInitRoutingV3Step(const MoeInitRoutingV3Desc& desc) {
  return std::make_unique<MoeInitRoutingV3Step>(desc);
}

}  // namespace canopy::kernels
