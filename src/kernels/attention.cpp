// Blockwise attention with an online softmax (see attention.h).
#include "attention.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <string>

#include "common/dtype.h"
#include "dtype_dispatch.h"
#include "parallel_for.h"

namespace canopy::kernels {
namespace {

constexpr int64_t kQueryBlock = 16;  // query rows that share each loaded key/value block
constexpr int64_t kKeyBlock = 64;    // keys loaded (as f32) at once
constexpr float kNegativeInfinity = -std::numeric_limits<float>::infinity();

class AttentionStep final : public Step {
 public:
  explicit AttentionStep(AttentionDesc desc) : desc_(std::move(desc)) {}

  aclnnStatus Run(const RunContext& context) const override {
    const int64_t query_blocks = (desc_.query_length + kQueryBlock - 1) / kQueryBlock;
    const int64_t units = desc_.batch * desc_.heads * query_blocks;
    ParallelFor(units, 1, [&](int64_t begin, int64_t end) {
      Scratch scratch(desc_);
      for (int64_t unit = begin; unit < end; ++unit) {
        const int64_t block = unit % query_blocks;
        const int64_t head = unit / query_blocks % desc_.heads;
        const int64_t b = unit / query_blocks / desc_.heads;
        RunUnit(context, b, head, block * kQueryBlock, std::min(desc_.query_length, (block + 1) * kQueryBlock),
                scratch);
      }
    });
    return ACLNN_SUCCESS;
  }

  std::string Describe() const override {
    return std::string("attention ") + DtypeName(desc_.dtype) + " B=" + std::to_string(desc_.batch) +
           " N=" + std::to_string(desc_.heads) + " Nkv=" + std::to_string(desc_.kv_heads) +
           " Sq=" + std::to_string(desc_.query_length) + " D=" + std::to_string(desc_.head_dim) +
           (desc_.has_pse ? " pse" : "") + (desc_.has_mask ? " mask" : "") + (desc_.band ? " band" : "");
  }

 private:
  struct Scratch {
    explicit Scratch(const AttentionDesc& d)
        : query(static_cast<size_t>(kQueryBlock * d.head_dim)),
          acc(static_cast<size_t>(kQueryBlock * d.value_dim)),
          key(static_cast<size_t>(kKeyBlock * d.head_dim)),
          value(static_cast<size_t>(kKeyBlock * d.value_dim)),
          scores(static_cast<size_t>(kKeyBlock)),
          pse(static_cast<size_t>(kKeyBlock)),
          max(static_cast<size_t>(kQueryBlock)),
          sum(static_cast<size_t>(kQueryBlock)) {}
    std::vector<float> query, acc, key, value, scores, pse, max, sum;
  };

  // The keys [lo, hi) query row i may see (before the mask and the pse).
  void KeyRange(int64_t i, int64_t kv_length, int64_t query_valid, int64_t& lo, int64_t& hi) const {
    lo = 0;
    hi = kv_length;
    if (!desc_.band) return;
    const int64_t shift = desc_.right_down ? kv_length - query_valid : 0;
    // Saturating: pre/next tokens may be as large as INT64_MAX.
    const int64_t centre = i + shift;
    const int64_t first = desc_.pre_tokens >= centre ? 0 : centre - desc_.pre_tokens;
    const int64_t last = desc_.next_tokens >= kv_length - centre ? kv_length : centre + desc_.next_tokens + 1;
    lo = std::max<int64_t>(lo, first);
    hi = std::min<int64_t>(hi, last);
  }

  void RunUnit(const RunContext& context, int64_t b, int64_t head, int64_t row_begin, int64_t row_end,
               Scratch& s) const {
    const AttentionKv& kv = desc_.kv[static_cast<size_t>(b)];
    const int64_t group = desc_.heads / desc_.kv_heads;
    const int64_t kv_head = head / group;
    const int64_t d = desc_.head_dim, dv = desc_.value_dim;
    const int64_t element = static_cast<int64_t>(DtypeSize(desc_.dtype));
    const int64_t rows = row_end - row_begin;
    const int64_t valid_rows = std::clamp<int64_t>(desc_.query_valid[static_cast<size_t>(b)] - row_begin, 0, rows);
    const char* query = context.Resolve(desc_.query);
    const char* key = context.Resolve(kv.key);
    const char* value = context.Resolve(kv.value);
    const char* pse = desc_.has_pse ? context.Resolve(desc_.pse) : nullptr;
    const auto* mask = desc_.has_mask ? reinterpret_cast<const uint8_t*>(context.Resolve(desc_.mask)) : nullptr;
    char* out = context.Resolve(desc_.out);

    for (int64_t r = 0; r < valid_rows; ++r) {
      const int64_t i = row_begin + r;
      Load(desc_.dtype,
           query + (b * desc_.query_strides[0] + head * desc_.query_strides[1] + i * desc_.query_strides[2]) * element,
           desc_.query_strides[3], d, s.query.data() + r * d);
    }
    std::fill(s.acc.begin(), s.acc.end(), 0.0f);
    std::fill(s.max.begin(), s.max.end(), kNegativeInfinity);
    std::fill(s.sum.begin(), s.sum.end(), 0.0f);

    // The keys any row of this block may see.
    int64_t block_lo = kv.length, block_hi = 0;
    for (int64_t r = 0; r < valid_rows; ++r) {
      int64_t lo, hi;
      KeyRange(row_begin + r, kv.length, desc_.query_valid[static_cast<size_t>(b)], lo, hi);
      block_lo = std::min(block_lo, lo);
      block_hi = std::max(block_hi, hi);
    }
    for (int64_t j0 = block_lo; j0 < block_hi; j0 += kKeyBlock) {
      const int64_t keys = std::min(kKeyBlock, block_hi - j0);
      for (int64_t t = 0; t < keys; ++t) {
        const int64_t j = j0 + t;
        Load(desc_.dtype, key + (kv_head * kv.key_strides[0] + j * kv.key_strides[1]) * element, kv.key_strides[2], d,
             s.key.data() + t * d);
        Load(desc_.dtype, value + (kv_head * kv.value_strides[0] + j * kv.value_strides[1]) * element,
             kv.value_strides[2], dv, s.value.data() + t * dv);
      }
      for (int64_t r = 0; r < valid_rows; ++r) {
        const int64_t i = row_begin + r;
        int64_t lo, hi;
        KeyRange(i, kv.length, desc_.query_valid[static_cast<size_t>(b)], lo, hi);
        if (desc_.has_pse) {
          const char* row = pse + (b * desc_.pse_strides[0] + head * desc_.pse_strides[1] + i * desc_.pse_strides[2] +
                                   j0 * desc_.pse_strides[3]) *
                                      static_cast<int64_t>(DtypeSize(desc_.pse_dtype));
          Load(desc_.pse_dtype, row, desc_.pse_strides[3], keys, s.pse.data());
        }
        const float* q = s.query.data() + r * d;
        float block_max = kNegativeInfinity;
        for (int64_t t = 0; t < keys; ++t) {
          const int64_t j = j0 + t;
          float score = kNegativeInfinity;
          const bool masked =
              mask != nullptr &&
              mask[b * desc_.mask_strides[0] + i * desc_.mask_strides[1] + j * desc_.mask_strides[2]] != 0;
          if (j >= lo && j < hi && !masked) {
            const float* k = s.key.data() + t * d;
            float dot = 0.0f;
            // A vectorised sum (a fixed lane order: the same result on every run).
#pragma omp simd reduction(+ : dot)
            for (int64_t e = 0; e < d; ++e) dot += q[e] * k[e];
            score = dot * desc_.scale + (desc_.has_pse ? s.pse[static_cast<size_t>(t)] : 0.0f);
          }
          s.scores[static_cast<size_t>(t)] = score;
          block_max = std::max(block_max, score);
        }
        float& max = s.max[static_cast<size_t>(r)];
        float& sum = s.sum[static_cast<size_t>(r)];
        const float new_max = std::max(max, block_max);
        if (new_max == kNegativeInfinity) continue;  // nothing seen yet
        float* acc = s.acc.data() + r * dv;
        if (max != new_max) {
          const float rescale = std::exp(max - new_max);  // 0 when max is -inf
          sum *= rescale;
          for (int64_t e = 0; e < dv; ++e) acc[e] *= rescale;
          max = new_max;
        }
        for (int64_t t = 0; t < keys; ++t) {
          const float score = s.scores[static_cast<size_t>(t)];
          if (score == kNegativeInfinity) continue;
          const float p = std::exp(score - max);
          sum += p;
          const float* v = s.value.data() + t * dv;
          for (int64_t e = 0; e < dv; ++e) acc[e] += p * v[e];
        }
      }
    }

    float* lse = desc_.has_lse ? reinterpret_cast<float*>(context.Resolve(desc_.lse)) : nullptr;
    for (int64_t r = 0; r < rows; ++r) {
      const int64_t i = row_begin + r;
      float* acc = s.acc.data() + r * dv;
      const float sum = r < valid_rows ? s.sum[static_cast<size_t>(r)] : 0.0f;
      if (sum > 0.0f) {
        const float inverse = 1.0f / sum;
        for (int64_t e = 0; e < dv; ++e) acc[e] *= inverse;
      } else {
        std::fill(acc, acc + dv, 0.0f);  // no key took part
      }
      Store(acc, desc_.dtype,
            out + (b * desc_.out_strides[0] + head * desc_.out_strides[1] + i * desc_.out_strides[2]) * element,
            desc_.out_strides[3], dv);
      if (lse != nullptr) {
        lse[b * desc_.lse_strides[0] + head * desc_.lse_strides[1] + i * desc_.lse_strides[2]] =
            sum > 0.0f ? s.max[static_cast<size_t>(r)] + std::log(sum) : kNegativeInfinity;
      }
    }
  }

  AttentionDesc desc_;
};

}  // namespace

std::unique_ptr<Step> MakeAttentionStep(AttentionDesc desc) { return std::make_unique<AttentionStep>(std::move(desc)); }

}  // namespace canopy::kernels
