// NSA's attention kernels (see nsa_attention.h).
#include "nsa_attention.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>
#include <numeric>
#include <string>

#include "common/dtype.h"
#include "common/half.h"
#include "dtype_dispatch.h"
#include "parallel_for.h"

namespace canopy::kernels {
namespace {

constexpr int64_t kStatCopies = 8;  // softmax max / sum: 8 f32 copies per row
constexpr float kMaskedScore = std::numeric_limits<float>::lowest();
constexpr float kForcedScore = std::numeric_limits<float>::max();

float RoundToDtype(aclDataType dtype, float x) {
  if (dtype == ACL_BF16) return Bf16ToFloat(FloatToBf16(x));
  if (dtype == ACL_FLOAT16) return HalfToFloat(FloatToHalf(x));
  return x;
}

std::vector<float> LoadAll(const RunContext& context, BufferRef buffer, aclDataType dtype, int64_t count) {
  std::vector<float> values(static_cast<size_t>(count));
  Load(dtype, context.Resolve(buffer), 1, count, values.data());
  return values;
}

std::vector<int64_t> Starts(const std::vector<int64_t>& lens) {
  std::vector<int64_t> starts(lens.size(), 0);
  std::exclusive_scan(lens.begin(), lens.end(), starts.begin(), int64_t{0});
  return starts;
}

// Indices of the k largest scores, highest first, the lower index first on a tie.
void TopK(const std::vector<float>& score, int64_t k, std::vector<int32_t>& order, int32_t* dst) {
  order.resize(score.size());
  std::iota(order.begin(), order.end(), 0);
  std::partial_sort(order.begin(), order.begin() + k, order.end(), [&](int32_t a, int32_t b) {
    const float x = score[static_cast<size_t>(a)], y = score[static_cast<size_t>(b)];
    return x > y || (x == y && a < b);
  });
  std::copy(order.begin(), order.begin() + k, dst);
}

class NsaCompressAttentionStep final : public Step {
 public:
  explicit NsaCompressAttentionStep(NsaCompressAttentionDesc desc)
      : d_(std::move(desc)), q_starts_(Starts(d_.q_lens)), kv_starts_(Starts(d_.kv_lens)) {
    for (size_t b = 0; b < d_.q_lens.size(); ++b) {
      for (int64_t s = 0; s < d_.q_lens[b]; ++s) rows_.emplace_back(static_cast<int64_t>(b), s);
    }
  }

  aclnnStatus Run(const RunContext& context) const override {
    const int64_t groups = d_.heads / d_.kv_heads;
    const std::vector<float> query = LoadAll(context, d_.query, d_.dtype, d_.q_tokens * d_.heads * d_.dim);
    const std::vector<float> key = LoadAll(context, d_.key, d_.dtype, d_.kv_tokens * d_.kv_heads * d_.dim);
    const std::vector<float> value = LoadAll(context, d_.value, d_.dtype, d_.kv_tokens * d_.kv_heads * d_.value_dim);
    const auto* mask = reinterpret_cast<const uint8_t*>(d_.has_mask ? context.Resolve(d_.mask) : nullptr);
    const auto* topk_mask =
        reinterpret_cast<const uint8_t*>(d_.has_topk_mask ? context.Resolve(d_.topk_mask) : nullptr);
    auto* softmax_max = reinterpret_cast<float*>(context.Resolve(d_.softmax_max));
    auto* softmax_sum = reinterpret_cast<float*>(context.Resolve(d_.softmax_sum));
    char* out = context.Resolve(d_.out);
    auto* indices = reinterpret_cast<int32_t*>(context.Resolve(d_.topk_indices));
    const auto element = static_cast<int64_t>(DtypeSize(d_.dtype));
    const int64_t stat_count = d_.q_tokens * d_.heads * kStatCopies;
    const int64_t out_count = d_.q_tokens * d_.heads * d_.value_dim;
    std::fill(softmax_max, softmax_max + stat_count, 0.0F);
    std::fill(softmax_sum, softmax_sum + stat_count, 0.0F);
    std::memset(out, 0, static_cast<size_t>(out_count * element));
    std::fill(indices, indices + d_.q_tokens * d_.kv_heads * d_.top_k, 0);

    const int64_t m = d_.blocks_per_select, window = m + d_.blocks_per_compress - 1;
    std::vector<float> times(static_cast<size_t>(window));
    for (int64_t i = 0; i < window; ++i) {
      times[static_cast<size_t>(i)] = static_cast<float>(std::min({i + 1, window - i, d_.blocks_per_compress}));
    }
    const auto tasks = static_cast<int64_t>(rows_.size()) * d_.kv_heads;
    ParallelFor(tasks, 1, [&](int64_t begin, int64_t end) {
      std::vector<float> p, importance, score, acc(static_cast<size_t>(d_.value_dim));
      std::vector<int32_t> order;
      for (int64_t task = begin; task < end; ++task) {
        const auto [b, s] = rows_[static_cast<size_t>(task / d_.kv_heads)];
        const int64_t group = task % d_.kv_heads;
        const int64_t q_len = d_.q_lens[static_cast<size_t>(b)], kv_len = d_.kv_lens[static_cast<size_t>(b)];
        const int64_t t = q_starts_[static_cast<size_t>(b)] + s, kv0 = kv_starts_[static_cast<size_t>(b)];
        p.assign(static_cast<size_t>(kv_len), 0.0F);
        importance.assign(static_cast<size_t>(kv_len), 0.0F);
        for (int64_t g = 0; g < groups; ++g) {
          const int64_t n = group * groups + g;
          const float* q = query.data() + (t * d_.heads + n) * d_.dim;
          float max = kMaskedScore;
          for (int64_t j = 0; j < kv_len; ++j) {
            float x = kMaskedScore;
            if (mask == nullptr || mask[s * d_.mask_cols + j] == 0) {
              const float* k = key.data() + ((kv0 + j) * d_.kv_heads + group) * d_.dim;
              float dot = 0.0F;
              for (int64_t i = 0; i < d_.dim; ++i) dot += q[i] * k[i];
              x = dot * d_.scale;
            }
            p[static_cast<size_t>(j)] = x;
            max = std::max(max, x);
          }
          float sum = 0.0F;
          for (float& x : p) sum += (x = std::exp(x - max));
          const int64_t stat_row = q_starts_[static_cast<size_t>(b)] * d_.heads + n * q_len + s;
          std::fill_n(softmax_max + stat_row * kStatCopies, kStatCopies, max);
          std::fill_n(softmax_sum + stat_row * kStatCopies, kStatCopies, sum);
          std::fill(acc.begin(), acc.end(), 0.0F);
          for (int64_t j = 0; j < kv_len; ++j) {
            const float prob = p[static_cast<size_t>(j)] / sum;
            importance[static_cast<size_t>(j)] += prob;
            const float rounded = RoundToDtype(d_.dtype, prob);
            const float* v = value.data() + ((kv0 + j) * d_.kv_heads + group) * d_.value_dim;
            for (int64_t i = 0; i < d_.value_dim; ++i) acc[static_cast<size_t>(i)] += rounded * v[i];
          }
          Store(acc.data(), d_.dtype, out + (t * d_.heads + n) * d_.value_dim * element, 1, d_.value_dim);
        }
        const int64_t blocks = (kv_len + m - 1) / m;
        score.assign(static_cast<size_t>(blocks), 0.0F);
        for (int64_t j = 0; j < blocks; ++j) {
          float total = 0.0F;
          for (int64_t i = 0; i < window; ++i) {
            const int64_t at = (j + 1) * m - i;
            if (at >= 0 && at < kv_len) total += times[static_cast<size_t>(i)] * importance[static_cast<size_t>(at)];
          }
          if (topk_mask != nullptr && topk_mask[s * d_.topk_mask_cols + j] != 0) total = kForcedScore;
          score[static_cast<size_t>(j)] = total;
        }
        TopK(score, d_.top_k, order, indices + (t * d_.kv_heads + group) * d_.top_k);
      }
    });
    return ACLNN_SUCCESS;
  }

  std::string Describe() const override {
    return std::string("nsa compress attention ") + DtypeName(d_.dtype) + " batch=" + std::to_string(d_.q_lens.size()) +
           " heads=" + std::to_string(d_.heads) + "/" + std::to_string(d_.kv_heads) + " dim=" + std::to_string(d_.dim) +
           "/" + std::to_string(d_.value_dim) + " topk=" + std::to_string(d_.top_k);
  }

 private:
  NsaCompressAttentionDesc d_;
  std::vector<int64_t> q_starts_, kv_starts_;
  std::vector<std::pair<int64_t, int64_t>> rows_;  // (sequence, position) of every query token
};

}  // namespace

std::unique_ptr<Step> MakeNsaCompressAttentionStep(const NsaCompressAttentionDesc& desc) {
  return std::make_unique<NsaCompressAttentionStep>(desc);
}

}  // namespace canopy::kernels
