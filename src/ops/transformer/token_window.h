// The token window of sparse mode 0 with an attention mask (preTokens keys
// before each query row's diagonal, nextTokens after it), as CANN's
// PromptFlashAttention and FlashAttentionScore tilings check it (561002): a
// window that leaves no key to any query row is refused rather than computed
// as all-masked rows.
#pragma once

#include <cstdint>

#include "ops/framework/plan.h"

namespace canopy::ops {

inline aclnnStatus CheckTokenWindow(Plan& plan, int64_t pre_tokens, int64_t next_tokens, int64_t query_length,
                                    int64_t kv_length) {
  // No negation and no sum of two values of one sign: any int64 (INT64_MIN included) is compared safely.
  const char* why = nullptr;
  if (pre_tokens < 0 && next_tokens < 0) {
    why = "they cannot both be negative";
  } else if (pre_tokens < 0 && pre_tokens <= -kv_length) {
    why = "a negative preTokens must be shorter than the keys";
  } else if (next_tokens < 0 && next_tokens <= -query_length) {
    why = "a negative nextTokens must be shorter than the query rows";
  } else if ((pre_tokens < 0 || next_tokens < 0) && pre_tokens + next_tokens < 0) {  // one of them negative
    why = "the nextTokens line must lie above the preTokens line (preTokens + nextTokens >= 0)";
  }
  if (why == nullptr) return ACLNN_SUCCESS;
  return plan.Reject(ACLNN_ERR_INNER_TILING_ERROR,
                     "preTokens %lld and nextTokens %lld leave no key for %lld query rows and %lld keys: %s",
                     static_cast<long long>(pre_tokens), static_cast<long long>(next_tokens),
                     static_cast<long long>(query_length), static_cast<long long>(kv_length), why);
}

}  // namespace canopy::ops
