// NSA's attention kernels (see nsa_attention.h).
#include "nsa_attention.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>
#include <numeric>
#include <string>

#include "acl/error_codes/rt_error_codes.h"
#include "common/dtype.h"
#include "common/half.h"
#include "dtype_dispatch.h"
#include "parallel_for.h"
#include "top_order.h"

namespace canopy::kernels {
namespace {

constexpr int64_t kStatCopies = 8;  // softmax max / sum: 8 f32 copies per row
constexpr int64_t kTokensPerTask = 16;
constexpr float kMaskedScore = std::numeric_limits<float>::lowest();
constexpr float kForcedScore = std::numeric_limits<float>::max();

float RoundToDtype(aclDataType dtype, float x) {
  if (dtype == ACL_BF16) return Bf16ToFloat(FloatToBf16(x));
  if (dtype == ACL_FLOAT16) return HalfToFloat(FloatToHalf(x));
  return x;
}

std::vector<int64_t> Starts(const std::vector<int64_t>& lens) {
  std::vector<int64_t> starts(lens.size(), 0);
  std::exclusive_scan(lens.begin(), lens.end(), starts.begin(), int64_t{0});
  return starts;
}

// One sequence and key head: its keys and values as f32 rows, and the select-block sizes.
struct GroupKv {
  aclDataType dtype = ACL_FLOAT16;
  int64_t groups = 1, dim = 0, value_dim = 0, kv_len = 0;
  float scale = 1.0F;
  int64_t per_select = 1, per_compress = 1, blocks = 0, top_k = 1;
  std::vector<float> keys, values;  // [kv_len, dim], [kv_len, value_dim]

  // Loads row j of the sequence's keys and values from `key_row(j)` / `value_row(j)` (stored rows of the group).
  template <typename KeyRow, typename ValueRow>
  void Load(const KeyRow& key_row, const ValueRow& value_row) {
    keys.resize(static_cast<size_t>(kv_len * dim));
    values.resize(static_cast<size_t>(kv_len * value_dim));
    for (int64_t j = 0; j < kv_len; ++j) {
      kernels::Load(dtype, key_row(j), 1, dim, keys.data() + j * dim);
      kernels::Load(dtype, value_row(j), 1, value_dim, values.data() + j * value_dim);
    }
  }
};

// One query token against a GroupKv: softmax attention for each of the G
// heads (q: G rows of dim), the output rows (out: G rows of value_dim, f32),
// each head's softmax max and sum, and the top-k select blocks.
struct TokenScratch {
  std::vector<float> p, importance, score, times;
  std::vector<int32_t> order;
};

// Softmax attention of the G query heads (q: G rows of dim) over kv's
// kv_len rows: a masked key scores `masked_score`; the output rows (out: G
// rows of value_dim, f32), each head's softmax max and sum, and each
// probability to on_prob(j, p).
template <typename Masked, typename OnProb>
void AttendHeads(const GroupKv& kv, const float* q, const Masked& masked, float masked_score, std::vector<float>& p,
                 float* out, float* maxes, float* sums, const OnProb& on_prob) {
  p.assign(static_cast<size_t>(kv.kv_len), 0.0F);
  std::fill(out, out + kv.groups * kv.value_dim, 0.0F);
  for (int64_t g = 0; g < kv.groups; ++g) {
    const float* qg = q + g * kv.dim;
    float max = kMaskedScore;
    for (int64_t j = 0; j < kv.kv_len; ++j) {
      float x = masked_score;
      if (!masked(j)) {
        const float* k = kv.keys.data() + j * kv.dim;
        float dot = 0.0F;
        for (int64_t i = 0; i < kv.dim; ++i) dot += qg[i] * k[i];
        x = dot * kv.scale;
      }
      p[static_cast<size_t>(j)] = x;
      max = std::max(max, x);
    }
    float sum = 0.0F;
    for (float& x : p) sum += (x = std::exp(x - max));
    maxes[g] = max;
    sums[g] = sum;
    float* og = out + g * kv.value_dim;
    for (int64_t j = 0; j < kv.kv_len; ++j) {
      const float prob = p[static_cast<size_t>(j)] / sum;
      on_prob(j, prob);
      // The NPU's second product takes the probabilities in the input dtype.
      const float rounded = RoundToDtype(kv.dtype, prob);
      const float* v = kv.values.data() + j * kv.value_dim;
      for (int64_t i = 0; i < kv.value_dim; ++i) og[i] += rounded * v[i];
    }
  }
}

template <typename Masked, typename Forced>
void AttendToken(const GroupKv& kv, const float* q, const Masked& masked, const Forced& forced, TokenScratch& s,
                 float* out, float* maxes, float* sums, int32_t* top) {
  s.importance.assign(static_cast<size_t>(kv.kv_len), 0.0F);
  AttendHeads(kv, q, masked, kMaskedScore, s.p, out, maxes, sums,
              [&](int64_t j, float prob) { s.importance[static_cast<size_t>(j)] += prob; });
  const int64_t window = kv.per_select + kv.per_compress - 1;
  s.times.resize(static_cast<size_t>(window));
  for (int64_t i = 0; i < window; ++i) {
    s.times[static_cast<size_t>(i)] = static_cast<float>(std::min({i + 1, window - i, kv.per_compress}));
  }
  s.score.assign(static_cast<size_t>(kv.blocks), 0.0F);
  for (int64_t j = 0; j < kv.blocks; ++j) {
    float total = 0.0F;
    for (int64_t i = 0; i < window; ++i) {
      const int64_t at = (j + 1) * kv.per_select - i;
      if (at >= 0 && at < kv.kv_len) total += s.times[static_cast<size_t>(i)] * s.importance[static_cast<size_t>(at)];
    }
    s.score[static_cast<size_t>(j)] = forced(j) ? kForcedScore : total;
  }
  // The k highest, highest first, the lower block first on a tie.
  s.order.resize(s.score.size());
  std::iota(s.order.begin(), s.order.end(), 0);
  std::partial_sort(s.order.begin(), s.order.begin() + kv.top_k, s.order.end(), [&](int32_t a, int32_t b) {
    return TopBefore(s.score[static_cast<size_t>(a)], a, s.score[static_cast<size_t>(b)], b);
  });
  std::copy(s.order.begin(), s.order.begin() + kv.top_k, top);
}

class NsaCompressAttentionStep final : public Step {
 public:
  explicit NsaCompressAttentionStep(NsaCompressAttentionDesc desc)
      : d_(std::move(desc)), q_starts_(Starts(d_.q_lens)), kv_starts_(Starts(d_.kv_lens)) {
    // Tasks: a key head of a run of at most kTokensPerTask tokens of one sequence.
    for (size_t b = 0; b < d_.q_lens.size(); ++b) {
      for (int64_t s = 0; s < d_.q_lens[b]; s += kTokensPerTask) chunks_.emplace_back(static_cast<int64_t>(b), s);
    }
  }

  aclnnStatus Run(const RunContext& context) const override {
    const int64_t groups = d_.heads / d_.kv_heads;
    const char* query = context.Resolve(d_.query);
    const char* key = context.Resolve(d_.key);
    const char* value = context.Resolve(d_.value);
    const auto* mask = reinterpret_cast<const uint8_t*>(d_.has_mask ? context.Resolve(d_.mask) : nullptr);
    const auto* topk_mask =
        reinterpret_cast<const uint8_t*>(d_.has_topk_mask ? context.Resolve(d_.topk_mask) : nullptr);
    auto* softmax_max = reinterpret_cast<float*>(context.Resolve(d_.softmax_max));
    auto* softmax_sum = reinterpret_cast<float*>(context.Resolve(d_.softmax_sum));
    char* out = context.Resolve(d_.out);
    auto* indices = reinterpret_cast<int32_t*>(context.Resolve(d_.topk_indices));
    const auto element = static_cast<int64_t>(DtypeSize(d_.dtype));
    const int64_t stat_count = d_.q_tokens * d_.heads * kStatCopies;
    std::fill(softmax_max, softmax_max + stat_count, 0.0F);
    std::fill(softmax_sum, softmax_sum + stat_count, 0.0F);
    std::memset(out, 0, static_cast<size_t>(d_.q_tokens * d_.heads * d_.value_dim * element));
    std::fill(indices, indices + d_.q_tokens * d_.kv_heads * d_.top_k, 0);

    const auto tasks = static_cast<int64_t>(chunks_.size()) * d_.kv_heads;
    ParallelFor(tasks, 1, [&](int64_t begin, int64_t end) {
      GroupKv kv;
      TokenScratch scratch;
      std::vector<float> q(static_cast<size_t>(groups * d_.dim)), o(static_cast<size_t>(groups * d_.value_dim));
      std::vector<float> maxes(static_cast<size_t>(groups)), sums(static_cast<size_t>(groups));
      for (int64_t task = begin; task < end; ++task) {
        const auto [b, first] = chunks_[static_cast<size_t>(task / d_.kv_heads)];
        const int64_t group = task % d_.kv_heads;
        const int64_t q_len = d_.q_lens[static_cast<size_t>(b)], kv0 = kv_starts_[static_cast<size_t>(b)];
        kv = GroupKv{.dtype = d_.dtype,
                     .groups = groups,
                     .dim = d_.dim,
                     .value_dim = d_.value_dim,
                     .kv_len = d_.kv_lens[static_cast<size_t>(b)],
                     .scale = d_.scale,
                     .per_select = d_.blocks_per_select,
                     .per_compress = d_.blocks_per_compress,
                     .blocks = (d_.kv_lens[static_cast<size_t>(b)] + d_.blocks_per_select - 1) / d_.blocks_per_select,
                     .top_k = d_.top_k,
                     .keys = std::move(kv.keys),
                     .values = std::move(kv.values)};
        kv.Load([&](int64_t j) { return key + ((kv0 + j) * d_.kv_heads + group) * d_.dim * element; },
                [&](int64_t j) { return value + ((kv0 + j) * d_.kv_heads + group) * d_.value_dim * element; });
        for (int64_t s = first; s < std::min(q_len, first + kTokensPerTask); ++s) {
          const int64_t t = q_starts_[static_cast<size_t>(b)] + s;
          Load(d_.dtype, query + (t * d_.heads + group * groups) * d_.dim * element, 1, groups * d_.dim, q.data());
          AttendToken(
              kv, q.data(), [&](int64_t j) { return mask != nullptr && mask[s * d_.mask_cols + j] != 0; },
              [&](int64_t j) { return topk_mask != nullptr && topk_mask[s * d_.topk_mask_cols + j] != 0; }, scratch,
              o.data(), maxes.data(), sums.data(), indices + (t * d_.kv_heads + group) * d_.top_k);
          Store(o.data(), d_.dtype, out + (t * d_.heads + group * groups) * d_.value_dim * element, 1,
                groups * d_.value_dim);
          for (int64_t g = 0; g < groups; ++g) {
            // CANN's kernel writes each sequence's statistics as [N1, S, 8].
            const int64_t row = q_starts_[static_cast<size_t>(b)] * d_.heads + (group * groups + g) * q_len + s;
            std::fill_n(softmax_max + row * kStatCopies, kStatCopies, maxes[static_cast<size_t>(g)]);
            std::fill_n(softmax_sum + row * kStatCopies, kStatCopies, sums[static_cast<size_t>(g)]);
          }
        }
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
  std::vector<std::pair<int64_t, int64_t>> chunks_;  // (sequence, first token) of every task
};

class NsaCompressAttentionInferStep final : public Step {
 public:
  explicit NsaCompressAttentionInferStep(NsaCompressAttentionInferDesc desc) : d_(std::move(desc)) {}

  aclnnStatus Run(const RunContext& context) const override {
    const auto* table = reinterpret_cast<const int32_t*>(context.Resolve(d_.block_table));
    const auto batches = static_cast<int64_t>(d_.kv_lens.size());
    // Every page first, so that a bad one fails the run before anything is written.
    for (int64_t b = 0; b < batches; ++b) {
      for (int64_t p = 0; p * d_.page_size < d_.kv_lens[static_cast<size_t>(b)]; ++p) {
        const int64_t page = table[b * d_.pages_per_batch + p];
        if (page < 0 || page >= d_.pages) {
          SetErrorMessage("aclnnNsaCompressAttentionInfer: blockTableOptional[%lld, %lld] is %lld, outside [0, %lld)",
                          static_cast<long long>(b), static_cast<long long>(p), static_cast<long long>(page),
                          static_cast<long long>(d_.pages));
          return ACL_ERROR_RT_AICORE_EXCEPTION;
        }
      }
    }
    const int64_t groups = d_.heads / d_.kv_heads;
    const char* query = context.Resolve(d_.query);
    const char* key = context.Resolve(d_.key);
    const char* value = context.Resolve(d_.value);
    char* out = context.Resolve(d_.out);
    auto* indices = reinterpret_cast<int32_t*>(context.Resolve(d_.topk_indices));
    const auto element = static_cast<int64_t>(DtypeSize(d_.dtype));
    std::memset(out, 0, static_cast<size_t>(d_.q_rows * d_.heads * d_.value_dim * element));
    std::fill(indices, indices + d_.q_rows * d_.kv_heads * d_.top_k, 0);
    const int64_t key_row = d_.kv_heads * d_.dim, value_row = d_.kv_heads * d_.value_dim;

    ParallelFor(batches * d_.kv_heads, 1, [&](int64_t begin, int64_t end) {
      GroupKv kv;
      TokenScratch scratch;
      std::vector<float> q(static_cast<size_t>(groups * d_.dim)), o(static_cast<size_t>(groups * d_.value_dim));
      std::vector<float> maxes(static_cast<size_t>(groups)), sums(static_cast<size_t>(groups));
      for (int64_t task = begin; task < end; ++task) {
        const int64_t b = task / d_.kv_heads, group = task % d_.kv_heads;
        const int64_t kv_len = d_.kv_lens[static_cast<size_t>(b)];
        // The compressed sequence stands for (kv_len - 1) * stride + compressBlockSize tokens.
        const int64_t tokens = (kv_len - 1) * d_.compress_stride + d_.compress_block;
        kv = GroupKv{.dtype = d_.dtype,
                     .groups = groups,
                     .dim = d_.dim,
                     .value_dim = d_.value_dim,
                     .kv_len = kv_len,
                     .scale = d_.scale,
                     .per_select = d_.select_block / d_.compress_stride,
                     .per_compress = d_.compress_block / d_.compress_stride,
                     .blocks = (tokens + d_.select_block - 1) / d_.select_block,
                     .top_k = d_.top_k,
                     .keys = std::move(kv.keys),
                     .values = std::move(kv.values)};
        const auto paged = [&](const char* cache, int64_t row, int64_t j) {
          const int64_t page = table[b * d_.pages_per_batch + j / d_.page_size];
          return cache + ((page * d_.page_size + j % d_.page_size) * row) * element;
        };
        kv.Load([&](int64_t j) { return paged(key, key_row, j) + group * d_.dim * element; },
                [&](int64_t j) { return paged(value, value_row, j) + group * d_.value_dim * element; });
        const int64_t q_len = d_.q_lens[static_cast<size_t>(b)];
        // A token with more later tokens than the last window left over does not see the last compressed key.
        const int64_t tail = d_.sel_lens.empty() ? 0 : d_.sel_lens[static_cast<size_t>(b)] - tokens;
        for (int64_t s = 0; s < q_len; ++s) {
          const int64_t t = d_.q_starts[static_cast<size_t>(b)] + s;
          const bool mask_last = d_.has_mask && q_len - s - 1 > tail;
          Load(d_.dtype, query + (t * d_.heads + group * groups) * d_.dim * element, 1, groups * d_.dim, q.data());
          AttendToken(
              kv, q.data(), [&](int64_t j) { return mask_last && j == kv_len - 1; }, [](int64_t) { return false; },
              scratch, o.data(), maxes.data(), sums.data(), indices + (t * d_.kv_heads + group) * d_.top_k);
          Store(o.data(), d_.dtype, out + (t * d_.heads + group * groups) * d_.value_dim * element, 1,
                groups * d_.value_dim);
        }
      }
    });
    return ACLNN_SUCCESS;
  }

  std::string Describe() const override {
    return std::string("nsa compress attention infer ") + DtypeName(d_.dtype) +
           " batch=" + std::to_string(d_.kv_lens.size()) + " heads=" + std::to_string(d_.heads) + "/" +
           std::to_string(d_.kv_heads) + " dim=" + std::to_string(d_.dim) + "/" + std::to_string(d_.value_dim) +
           " page=" + std::to_string(d_.page_size) + " topk=" + std::to_string(d_.top_k);
  }

 private:
  NsaCompressAttentionInferDesc d_;
};

class NsaSelectedAttentionStep final : public Step {
 public:
  explicit NsaSelectedAttentionStep(NsaSelectedAttentionDesc desc)
      : d_(std::move(desc)), q_starts_(Starts(d_.q_lens)), kv_starts_(Starts(d_.kv_lens)) {
    sequence_of_.assign(static_cast<size_t>(d_.q_tokens), -1);
    for (size_t b = 0; b < d_.q_lens.size(); ++b) {
      for (int64_t s = 0; s < d_.q_lens[b]; ++s)
        sequence_of_[static_cast<size_t>(q_starts_[b] + s)] = static_cast<int32_t>(b);
    }
  }

  aclnnStatus Run(const RunContext& context) const override {
    const auto* indices = reinterpret_cast<const int32_t*>(context.Resolve(d_.topk_indices));
    // Every index first, so that a bad one fails the run before anything is written.
    if (!IndicesInside(indices)) return ACL_ERROR_RT_AICORE_EXCEPTION;
    const int64_t groups = d_.heads / d_.kv_heads;
    const char* query = context.Resolve(d_.query);
    const char* key = context.Resolve(d_.key);
    const char* value = context.Resolve(d_.value);
    auto* softmax_max = reinterpret_cast<float*>(context.Resolve(d_.softmax_max));
    auto* softmax_sum = reinterpret_cast<float*>(context.Resolve(d_.softmax_sum));
    char* out = context.Resolve(d_.out);
    const auto element = static_cast<int64_t>(DtypeSize(d_.dtype));
    const int64_t stat_count = d_.q_tokens * d_.heads * kStatCopies;
    std::fill(softmax_max, softmax_max + stat_count, 0.0F);
    std::fill(softmax_sum, softmax_sum + stat_count, 0.0F);
    std::memset(out, 0, static_cast<size_t>(d_.q_tokens * d_.heads * d_.value_dim * element));
    const float masked_score = kMaskedScore * d_.scale;
    const int64_t selected = d_.block_count * d_.block_size;

    ParallelFor(d_.q_tokens * d_.kv_heads, 1, [&](int64_t begin, int64_t end) {
      GroupKv kv{.dtype = d_.dtype,
                 .groups = groups,
                 .dim = d_.dim,
                 .value_dim = d_.value_dim,
                 .kv_len = selected,
                 .scale = d_.scale,
                 .keys = {},
                 .values = {}};
      std::vector<float> p, q(static_cast<size_t>(groups * d_.dim)), o(static_cast<size_t>(groups * d_.value_dim));
      std::vector<float> maxes(static_cast<size_t>(groups)), sums(static_cast<size_t>(groups));
      for (int64_t task = begin; task < end; ++task) {
        const int64_t t = task / d_.kv_heads, group = task % d_.kv_heads;
        const int32_t b = sequence_of_[static_cast<size_t>(t)];
        if (b < 0) continue;
        const int32_t* blocks = indices + task * d_.block_count;
        // Selected row j is the sequence's key position blocks[j / size] * size + j % size.
        const auto position = [&](int64_t j) { return blocks[j / d_.block_size] * d_.block_size + j % d_.block_size; };
        const int64_t kv0 = kv_starts_[static_cast<size_t>(b)];
        kv.Load(
            [&](int64_t j) { return key + ((kv0 + position(j)) * d_.kv_heads + group) * d_.dim * element; },
            [&](int64_t j) { return value + ((kv0 + position(j)) * d_.kv_heads + group) * d_.value_dim * element; });
        const int64_t s = t - q_starts_[static_cast<size_t>(b)];
        Load(d_.dtype, query + (t * d_.heads + group * groups) * d_.dim * element, 1, groups * d_.dim, q.data());
        AttendHeads(
            kv, q.data(), [&](int64_t j) { return d_.causal && position(j) > s; }, masked_score, p, o.data(),
            maxes.data(), sums.data(), [](int64_t, float) {});
        Store(o.data(), d_.dtype, out + (t * d_.heads + group * groups) * d_.value_dim * element, 1,
              groups * d_.value_dim);
        for (int64_t g = 0; g < groups; ++g) {
          const int64_t row = t * d_.heads + group * groups + g;
          std::fill_n(softmax_max + row * kStatCopies, kStatCopies, maxes[static_cast<size_t>(g)]);
          std::fill_n(softmax_sum + row * kStatCopies, kStatCopies, sums[static_cast<size_t>(g)]);
        }
      }
    });
    return ACLNN_SUCCESS;
  }

  // Whether every block of the sequences' rows lies inside its sequence's keys (else the error message says which).
  bool IndicesInside(const int32_t* indices) const {
    for (int64_t t = 0; t < d_.q_tokens; ++t) {
      const int32_t b = sequence_of_[static_cast<size_t>(t)];
      if (b < 0) continue;
      const int64_t kv_len = d_.kv_lens[static_cast<size_t>(b)];
      for (int64_t i = 0; i < d_.kv_heads * d_.block_count; ++i) {
        const int64_t block = indices[t * d_.kv_heads * d_.block_count + i];
        const int64_t first = block * d_.block_size, end = first + d_.block_size;
        if (block >= 0 && end <= kv_len) continue;
        SetErrorMessage(
            "aclnnNsaSelectedAttention: topkIndices[%lld, %lld, %lld] is %lld: block rows [%lld, %lld) are outside "
            "the sequence's %lld keys",
            static_cast<long long>(t), static_cast<long long>(i / d_.block_count),
            static_cast<long long>(i % d_.block_count), static_cast<long long>(block), static_cast<long long>(first),
            static_cast<long long>(end), static_cast<long long>(kv_len));
        return false;
      }
    }
    return true;
  }

  std::string Describe() const override {
    return std::string("nsa selected attention ") + DtypeName(d_.dtype) + " batch=" + std::to_string(d_.q_lens.size()) +
           " heads=" + std::to_string(d_.heads) + "/" + std::to_string(d_.kv_heads) + " dim=" + std::to_string(d_.dim) +
           "/" + std::to_string(d_.value_dim) + " blocks=" + std::to_string(d_.block_count) + "x" +
           std::to_string(d_.block_size) + (d_.causal ? " causal" : "");
  }

 private:
  NsaSelectedAttentionDesc d_;
  std::vector<int64_t> q_starts_, kv_starts_;
  std::vector<int32_t> sequence_of_;  // each query row's sequence (-1: past the sequences)
};

class NsaSelectedAttentionInferStep final : public Step {
 public:
  explicit NsaSelectedAttentionInferStep(NsaSelectedAttentionInferDesc desc) : d_(std::move(desc)) {}

  aclnnStatus Run(const RunContext& context) const override {
    const auto* indices = reinterpret_cast<const int32_t*>(context.Resolve(d_.topk_indices));
    const auto* table = reinterpret_cast<const int32_t*>(context.Resolve(d_.block_table));
    // Every index and page first, so that a bad one fails the run before anything is written.
    if (!IndicesInside(indices) || !PagesInside(table)) return ACL_ERROR_RT_AICORE_EXCEPTION;
    const int64_t groups = d_.heads / d_.kv_heads;
    const char* query = context.Resolve(d_.query);
    const char* key = context.Resolve(d_.key);
    const char* value = context.Resolve(d_.value);
    char* out = context.Resolve(d_.out);
    const auto element = static_cast<int64_t>(DtypeSize(d_.dtype));
    std::memset(out, 0, static_cast<size_t>(d_.rows * d_.heads * d_.value_dim * element));
    const int64_t key_row = d_.kv_heads * d_.dim, value_row = d_.kv_heads * d_.value_dim;
    // Tasks: (sequence, token, key head), in order.
    std::vector<std::pair<int64_t, int64_t>> tokens;  // (sequence, token)
    for (size_t b = 0; b < d_.q_lens.size(); ++b) {
      for (int64_t s = 0; s < d_.q_lens[b]; ++s) tokens.emplace_back(static_cast<int64_t>(b), s);
    }

    ParallelFor(static_cast<int64_t>(tokens.size()) * d_.kv_heads, 1, [&](int64_t begin, int64_t end) {
      GroupKv kv{.dtype = d_.dtype,
                 .groups = groups,
                 .dim = d_.dim,
                 .value_dim = d_.value_dim,
                 .scale = d_.scale,
                 .keys = {},
                 .values = {}};
      std::vector<int64_t> positions;
      std::vector<float> p, q(static_cast<size_t>(groups * d_.dim)), o(static_cast<size_t>(groups * d_.value_dim));
      std::vector<float> maxes(static_cast<size_t>(groups)), sums(static_cast<size_t>(groups));
      for (int64_t task = begin; task < end; ++task) {
        const int64_t b = tokens[static_cast<size_t>(task / d_.kv_heads)].first;
        const int64_t s = tokens[static_cast<size_t>(task / d_.kv_heads)].second;
        const int64_t group = task % d_.kv_heads;
        const int64_t row = d_.q_starts[static_cast<size_t>(b)] + s;
        const int64_t visible = d_.kv_lens[static_cast<size_t>(b)] - (d_.q_lens[static_cast<size_t>(b)] - 1 - s);
        positions.clear();
        for (int64_t i = 0; i < d_.count; ++i) {
          const int64_t block = indices[(row * d_.kv_heads + group) * d_.count + i];
          if (block < 0) continue;  // -1: no block
          for (int64_t at = block * d_.select_block; at < std::min(visible, (block + 1) * d_.select_block); ++at) {
            positions.push_back(at);
          }
        }
        if (positions.empty()) continue;  // no key: the zero row
        const auto paged = [&](const char* cache, int64_t row_elements, int64_t j) {
          const int64_t at = positions[static_cast<size_t>(j)];
          const int64_t page = table[b * d_.pages_per_batch + at / d_.page_size];
          return cache + (page * d_.page_size + at % d_.page_size) * row_elements * element;
        };
        kv.kv_len = static_cast<int64_t>(positions.size());
        kv.Load([&](int64_t j) { return paged(key, key_row, j) + group * d_.dim * element; },
                [&](int64_t j) { return paged(value, value_row, j) + group * d_.value_dim * element; });
        Load(d_.dtype, query + (row * d_.heads + group * groups) * d_.dim * element, 1, groups * d_.dim, q.data());
        AttendHeads(
            kv, q.data(), [](int64_t) { return false; }, kMaskedScore, p, o.data(), maxes.data(), sums.data(),
            [](int64_t, float) {});
        Store(o.data(), d_.dtype, out + (row * d_.heads + group * groups) * d_.value_dim * element, 1,
              groups * d_.value_dim);
      }
    });
    return ACLNN_SUCCESS;
  }

  std::string Describe() const override {
    return std::string("nsa selected attention infer ") + DtypeName(d_.dtype) +
           " batch=" + std::to_string(d_.q_lens.size()) + " heads=" + std::to_string(d_.heads) + "/" +
           std::to_string(d_.kv_heads) + " dim=" + std::to_string(d_.dim) + "/" + std::to_string(d_.value_dim) +
           " page=" + std::to_string(d_.page_size) + " blocks=" + std::to_string(d_.count) + "x" +
           std::to_string(d_.select_block);
  }

 private:
  // Whether every index of the tokens' rows is -1 or a block of its sequence (else the error message says which).
  bool IndicesInside(const int32_t* indices) const {
    for (size_t b = 0; b < d_.q_lens.size(); ++b) {
      const int64_t blocks = (d_.kv_lens[b] + d_.select_block - 1) / d_.select_block;
      for (int64_t s = 0; s < d_.q_lens[b]; ++s) {
        const int64_t row = d_.q_starts[b] + s;
        for (int64_t i = 0; i < d_.kv_heads * d_.count; ++i) {
          const int64_t block = indices[row * d_.kv_heads * d_.count + i];
          if (block >= -1 && block < blocks) continue;
          SetErrorMessage(
              "aclnnNsaSelectedAttentionInfer: topkIndices of sequence %zu, token %lld, key head %lld, "
              "entry %lld is %lld; it must be -1 or a block in [0, %lld)",
              b, static_cast<long long>(s), static_cast<long long>(i / d_.count), static_cast<long long>(i % d_.count),
              static_cast<long long>(block), static_cast<long long>(blocks));
          return false;
        }
      }
    }
    return true;
  }

  // Whether every page a sequence's keys lie in is inside the cache (else the error message says which).
  bool PagesInside(const int32_t* table) const {
    for (size_t b = 0; b < d_.kv_lens.size(); ++b) {
      for (int64_t p = 0; p * d_.page_size < d_.kv_lens[b]; ++p) {
        const int64_t page = table[static_cast<int64_t>(b) * d_.pages_per_batch + p];
        if (page >= 0 && page < d_.pages) continue;
        SetErrorMessage("aclnnNsaSelectedAttentionInfer: blockTableOptional[%zu, %lld] is %lld, outside [0, %lld)", b,
                        static_cast<long long>(p), static_cast<long long>(page), static_cast<long long>(d_.pages));
        return false;
      }
    }
    return true;
  }

  NsaSelectedAttentionInferDesc d_;
};

}  // namespace

std::unique_ptr<Step> MakeNsaCompressAttentionStep(const NsaCompressAttentionDesc& desc) {
  return std::make_unique<NsaCompressAttentionStep>(desc);
}

std::unique_ptr<Step> MakeNsaCompressAttentionInferStep(const NsaCompressAttentionInferDesc& desc) {
  return std::make_unique<NsaCompressAttentionInferStep>(desc);
}

std::unique_ptr<Step> MakeNsaSelectedAttentionStep(const NsaSelectedAttentionDesc& desc) {
  return std::make_unique<NsaSelectedAttentionStep>(desc);
}

std::unique_ptr<Step> MakeNsaSelectedAttentionInferStep(const NsaSelectedAttentionInferDesc& desc) {
  return std::make_unique<NsaSelectedAttentionInferStep>(desc);
}

}  // namespace canopy::kernels
