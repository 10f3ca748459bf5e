// MoE init routing (see moe_init_routing.h).
#include "moe_init_routing.h"

#include <algorithm>
#include <cstring>
#include <numeric>
#include <string>
#include <vector>

#include "acl/error_codes/rt_error_codes.h"
#include "common/dtype.h"
#include "parallel_for.h"

namespace canopy::kernels {
namespace {

constexpr int64_t kRowGrain = 16;

class MoeInitRoutingStep final : public Step {
 public:
  explicit MoeInitRoutingStep(const MoeInitRoutingDesc& desc) : d_(desc) {}

  aclnnStatus Run(const RunContext& context) const override {
    const int64_t slots = d_.rows * d_.k;
    const auto* expert = reinterpret_cast<const int32_t*>(context.Resolve(d_.expert_index));
    const auto* row_index =
        d_.has_row_index ? reinterpret_cast<const int32_t*>(context.Resolve(d_.row_index)) : nullptr;
    // Every index first: a bad one fails the run with the outputs untouched.
    for (int64_t t = 0; t < slots; ++t) {
      if (row_index != nullptr && (row_index[t] < 0 || row_index[t] >= slots)) {
        return OutOfRange("rowIdx", t, row_index[t], 0, slots);
      }
      if (!d_.has_row_index && (expert[t] < 0 || (d_.experts_bounded && expert[t] >= d_.experts))) {
        return OutOfRange("expertIdx", t, expert[t], 0, d_.experts_bounded ? d_.experts : INT32_MAX);
      }
    }
    // The slots in expert order; equal experts keep their flattened [rows, k] order.
    std::vector<int32_t> order(static_cast<size_t>(slots));
    std::iota(order.begin(), order.end(), 0);
    std::stable_sort(order.begin(), order.end(), [&](int32_t a, int32_t b) { return expert[a] < expert[b]; });

    auto* expanded_row = reinterpret_cast<int32_t*>(context.Resolve(d_.expanded_row_index));
    char* expanded_x = context.Resolve(d_.expanded_x);
    const char* x = context.Resolve(d_.x);
    const auto row_bytes = static_cast<size_t>(d_.h) * DtypeSize(d_.dtype);
    // source[p]: the x row that expandedX row p copies (-1: a zero row).
    std::vector<int64_t> source;
    if (row_index != nullptr) {
      auto* sorted_expert = reinterpret_cast<int32_t*>(context.Resolve(d_.expanded_expert_index));
      std::fill(expanded_row, expanded_row + slots, -1);  // stays -1 where rowIdx repeats a value
      source.resize(static_cast<size_t>(d_.expanded_rows));
      for (int64_t p = 0; p < slots; ++p) {
        const int32_t s = order[static_cast<size_t>(p)];
        sorted_expert[p] = expert[s];
        expanded_row[row_index[s]] = static_cast<int32_t>(p);
        if (p < d_.expanded_rows) source[static_cast<size_t>(p)] = row_index[s] % d_.rows;
      }
    } else if (!d_.drop_pad) {
      source.resize(static_cast<size_t>(d_.expanded_rows));
      for (int64_t p = 0; p < slots; ++p) {
        const int32_t s = order[static_cast<size_t>(p)];
        expanded_row[s] = static_cast<int32_t>(p);
        if (p < d_.expanded_rows) source[static_cast<size_t>(p)] = s / d_.k;
      }
    } else {
      source.assign(static_cast<size_t>(d_.experts * d_.capacity), -1);
      int64_t rank = 0;
      for (int64_t p = 0; p < slots; ++p) {
        const int32_t s = order[static_cast<size_t>(p)];
        rank = p > 0 && expert[order[static_cast<size_t>(p - 1)]] == expert[s] ? rank + 1 : 0;
        if (rank < d_.capacity) {
          const int64_t row = expert[s] * d_.capacity + rank;
          expanded_row[s] = static_cast<int32_t>(row);
          source[static_cast<size_t>(row)] = s / d_.k;
        } else {
          expanded_row[s] = -1;  // dropped: past the expert's capacity
        }
      }
    }
    ParallelFor(static_cast<int64_t>(source.size()), kRowGrain, [&](int64_t begin, int64_t end) {
      for (int64_t p = begin; p < end; ++p) {
        char* dst = expanded_x + static_cast<size_t>(p) * row_bytes;
        const int64_t src = source[static_cast<size_t>(p)];
        if (src < 0) {
          std::memset(dst, 0, row_bytes);
        } else {
          std::memcpy(dst, x + static_cast<size_t>(src) * row_bytes, row_bytes);
        }
      }
    });
    if (d_.counts != MoeInitRoutingDesc::Counts::kNone) {
      auto* tokens = reinterpret_cast<int32_t*>(context.Resolve(d_.expert_tokens));
      std::fill(tokens, tokens + d_.experts, 0);
      for (int64_t t = 0; t < slots; ++t) ++tokens[expert[t]];
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
  aclnnStatus OutOfRange(const char* name, int64_t position, int64_t value, int64_t low, int64_t high) const {
    SetErrorMessage("%s: element %lld of '%s' is %lld, outside [%lld, %lld)", d_.op, static_cast<long long>(position),
                    name, static_cast<long long>(value), static_cast<long long>(low), static_cast<long long>(high));
    return ACL_ERROR_RT_AICORE_EXCEPTION;
  }

  MoeInitRoutingDesc d_;
};

}  // namespace

std::unique_ptr<Step> MakeMoeInitRoutingStep(const MoeInitRoutingDesc& desc) {
  return std::make_unique<MoeInitRoutingStep>(desc);
}

}  // namespace canopy::kernels
