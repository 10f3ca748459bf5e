// Blockwise attention with an online softmax (see attention.h).
#include "attention.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>
#include <string>

#include "acl/error_codes/rt_error_codes.h"
#include "common/dtype.h"
#include "common/half.h"
#include "common/shape.h"
#include "dtype_dispatch.h"
#include "parallel_for.h"
#define CANOPY_ATTENTION_ISA portable_isa
#include "attention_isa.h"
#include "attention_loops.h"
#include "cpu_features.h"

namespace canopy::kernels {
namespace {

// A unit's rows are (query head, query row) pairs of one KV head's group: every
// key/value block loaded (and converted to f32) once serves all of them, so under
// GQA/MQA K and V are read once per group, not once per query head.
constexpr int64_t kMaxQueryBlock = 64;  // query rows per head in a unit
constexpr int64_t kRowBudget = 256;     // (head, query row) pairs per unit, at most
// Keys are taken in blocks at fixed multiples of kKeyBlock, whatever rows share a
// unit: every row sees the same blocks in the same order, so the online softmax
// rounds the same way however heads and rows are split into units (thread count).
constexpr int64_t kKeyBlock = 64;
static_assert(kKeyBlock == portable_isa::kBlockKeys, "BlockDots' fixed-size path is one key block");
static_assert(kKeyBlock == kBlockPairKeys, "the bf16 BlockDots take one key block");
// Up to this many query rows (decode, speculative decode), each key's score is a
// dot product over the head dim (KeyDots) on the key rows as loaded; above it the
// key block is transposed once and serves the unit's many rows as vector sums
// over keys (BlockDots). Chosen by the query length alone, never by the split.
constexpr int64_t kFewQueryRows = 4;
// KV heads a decode unit reading rows in place takes at most (AttentionStep::Run).
constexpr int64_t kMaxKvSpan = 8;
constexpr int64_t kCacheLine = 64;
constexpr float kNegativeInfinity = -std::numeric_limits<float>::infinity();

constexpr AttentionLoops kAttentionLoopsPortable = {portable_isa::BlockDots,        portable_isa::KeyDots,
                                                    portable_isa::ScaledScores,     portable_isa::SoftmaxWeights,
                                                    portable_isa::AccumulateValues, portable_isa::DequantRow};

// The widest inner loops this CPU runs (CANOPY_MAX_ISA caps Cpu()).
const AttentionLoops& Loops() {
#if defined(__x86_64__)  // the vector loops are x86 code
  if (Cpu().Avx512()) return kAttentionLoopsAvx512;
  if (Cpu().Avx2()) return kAttentionLoopsAvx2;
#endif
  return kAttentionLoopsPortable;
}

// Decode's loops on fp16 rows as stored where the CPU has AVX-512, else null.
const AttentionF16Loops* F16Loops() {
#if defined(__x86_64__)
  if (Cpu().Avx512()) return &kAttentionF16LoopsAvx512;
#endif
  return nullptr;
}

// The loops on bf16 data where the CPU has AVX-512 BF16, else null.
const AttentionBf16Loops* Bf16Loops() {
#if defined(__x86_64__)
  if (Cpu().Avx512() && Cpu().avx512bf16) return &kAttentionBf16LoopsAvx512;
#endif
  return nullptr;
}

// The scale and offset of an INT8 cache's row (batch b, KV head, token j) as f32
// vectors of n elements (a missing offset is zeros).
void LoadDequantParams(const RunContext& context, const AttentionDequant& dq, int64_t b, int64_t head, int64_t j,
                       int64_t n, float* scale, float* offset) {
  const auto size = static_cast<int64_t>(DtypeSize(dq.param_dtype));
  const auto load = [&](const AttentionDequantParam& p, float* out) {
    const int64_t at = b * p.batch_stride + head * p.head_stride + j * p.token_stride;
    Load(dq.param_dtype, context.Resolve(p.data) + at * size, p.dim_stride, n, out);
  };
  load(dq.scale, scale);
  if (dq.has_offset) {
    load(dq.offset, offset);
  } else {
    std::fill(offset, offset + n, 0.0f);
  }
}

// out[e] = (row[e * stride] + offset[e]) * scale[e], in f32: one INT8 key or value row dequantised as it is loaded
// (contiguous rows by the ISA's loop, which computes the same).
void DequantRow(const AttentionLoops& loops, const char* row, int64_t stride, int64_t n, const float* scale,
                const float* offset, float* out) {
  const auto* q = reinterpret_cast<const int8_t*>(row);
  if (stride == 1) {
    loops.dequant_row(q, n, scale, offset, out);
    return;
  }
  for (int64_t e = 0; e < n; ++e) out[e] = (static_cast<float>(q[e * stride]) + offset[e]) * scale[e];
}

// Asks for the cache lines of bytes [p, p + bytes) ahead of their use, into
// L2 (hint T2): prefetches into L1 held the few fill buffers until the lines
// came, and the decode loops waited on them (bf16 decode 0.57 -> 0.47 ms).
void Prefetch(const char* p, int64_t bytes) {
  for (int64_t offset = 0; offset < bytes; offset += kCacheLine) __builtin_prefetch(p + offset, 0, 1);
}

class AttentionStep final : public Step {
 public:
  explicit AttentionStep(AttentionDesc desc)
      : desc_(std::move(desc)), loops_(Loops()), bf16_(Bf16Loops()), f16_(F16Loops()) {}

  aclnnStatus Run(const RunContext& context) const override {
    if (desc_.paged) {
      if (const aclnnStatus status = CheckBlockTable(context); status != ACLNN_SUCCESS) return status;
    }
    const int64_t group = desc_.heads / desc_.kv_heads;
    // Split a group's heads into chunks only when there would be fewer units
    // than threads (decode with few KV heads): that costs extra K/V reads.
    int64_t chunk = group;
    const int64_t threads = ParallelPieces(int64_t{1} << 30, 1);
    const auto units_for = [&](int64_t c) {
      const int64_t rows = std::clamp<int64_t>(kRowBudget / c, 1, kMaxQueryBlock);
      return desc_.batch * desc_.kv_heads * (group / c) * ((desc_.query_length + rows - 1) / rows);
    };
    while (chunk % 2 == 0 && units_for(chunk) < threads) chunk /= 2;
    const int64_t query_block = std::clamp<int64_t>(kRowBudget / chunk, 1, kMaxQueryBlock);
    const int64_t query_blocks = (desc_.query_length + query_block - 1) / query_block;
    const int64_t chunks = group / chunk;
    // Decode reading K and V in place: a unit takes kv_span neighbouring KV
    // heads block by block, so that a thread reads each token's rows of those
    // heads together (one span of bytes where heads lie side by side, as in
    // BSND) instead of one head's few lines per token row, a pattern the
    // hardware prefetcher does not follow. The most heads that still leave a
    // unit for every thread; each row's sums are the same either way.
    int64_t kv_span = 1;
    if (chunk == group && query_blocks == 1 && ReadsRowsInPlace()) {
      for (int64_t span = std::min(kMaxKvSpan, desc_.kv_heads); span > 1; --span) {
        if (desc_.kv_heads % span == 0 && desc_.batch * (desc_.kv_heads / span) >= threads) {
          kv_span = span;
          break;
        }
      }
    }
    const int64_t spans = desc_.kv_heads / kv_span;
    const int64_t units = desc_.batch * spans * chunks * query_blocks;
    ParallelFor(units, 1, [&](int64_t begin, int64_t end) {
      // A unit holds at most kv_span x chunk heads of min(query_block,
      // query_length) rows (decode: a few, not the row budget's 256, whose
      // buffers would be fresh pages to fault in and clear on every call).
      Scratch scratch(desc_, kv_span * chunk * std::min(query_block, desc_.query_length));
      for (int64_t unit = begin; unit < end; ++unit) {
        const int64_t block = unit % query_blocks;
        const int64_t c = unit / query_blocks % chunks;
        const int64_t kv_head = unit / query_blocks / chunks % spans * kv_span;
        const int64_t b = unit / query_blocks / chunks / spans;
        const int64_t row_begin = block * query_block;
        RunUnit(context, b, kv_head, kv_span, kv_head * group + c * chunk, chunk, row_begin,
                std::min(desc_.query_length, row_begin + query_block), scratch);
      }
    });
    return ACLNN_SUCCESS;
  }

  std::string Describe() const override {
    return std::string("attention ") + DtypeName(desc_.dtype) + " B=" + std::to_string(desc_.batch) +
           " N=" + std::to_string(desc_.heads) + " Nkv=" + std::to_string(desc_.kv_heads) +
           " Sq=" + std::to_string(desc_.query_length) + " D=" + std::to_string(desc_.head_dim) +
           (desc_.has_pse ? " pse" : "") + (desc_.has_mask ? " mask" : "") + (desc_.band ? " band" : "") +
           (desc_.paged ? " paged block=" + std::to_string(desc_.block_size) : "") + (desc_.has_sink ? " sink" : "") +
           (desc_.key_dequant.on ? " int8-kv" : "") + (desc_.row_offsets.empty() ? "" : " varlen");
  }

 private:
  // The block-table entries each batch's keys use, before anything is read through them.
  aclnnStatus CheckBlockTable(const RunContext& context) const {
    const auto* table = reinterpret_cast<const int32_t*>(context.Resolve(desc_.block_table));
    for (int64_t b = 0; b < desc_.batch; ++b) {
      // Phase 1 holds each length within the table's columns; the bound is kept here too.
      const int64_t length = desc_.kv[static_cast<size_t>(b)].length;
      const int64_t used = std::min(desc_.table_columns, CeilDiv(length, desc_.block_size));
      for (int64_t c = 0; c < used; ++c) {
        const int32_t block = table[b * desc_.table_columns + c];
        if (block < 0 || block >= desc_.blocks) {
          SetErrorMessage("attention: block table entry [%lld, %lld] is %d, outside [0, %lld) (the cache's blocks)",
                          static_cast<long long>(b), static_cast<long long>(c), block,
                          static_cast<long long>(desc_.blocks));
          return ACL_ERROR_RT_AICORE_EXCEPTION;
        }
      }
    }
    return ACLNN_SUCCESS;
  }

  struct Scratch {
    Scratch(const AttentionDesc& d, int64_t rows)
        : query(static_cast<size_t>(rows * d.head_dim)),
          acc(static_cast<size_t>(rows * d.value_dim)),
          key(static_cast<size_t>(kKeyBlock * d.head_dim)),
          key_t(static_cast<size_t>(kKeyBlock * d.head_dim)),
          row_dots(static_cast<size_t>(rows * kKeyBlock)),
          value(static_cast<size_t>(kKeyBlock * d.value_dim)),
          scores(static_cast<size_t>(kKeyBlock)),
          pse(static_cast<size_t>(kKeyBlock)),
          max(static_cast<size_t>(rows)),
          sum(static_cast<size_t>(rows)),
          rescale(static_cast<size_t>(rows)),
          query16(static_cast<size_t>(rows * d.head_dim)),
          key16(static_cast<size_t>(kKeyBlock * d.head_dim)),
          key_pairs(static_cast<size_t>(kKeyBlock * d.head_dim)),
          value16(static_cast<size_t>(kKeyBlock * d.value_dim)),
          value_weights(static_cast<size_t>(rows * kKeyBlock)),
          value_pairs(static_cast<size_t>(kKeyBlock * d.value_dim)),
          key_scale(static_cast<size_t>(d.head_dim)),
          key_offset(static_cast<size_t>(d.head_dim)),
          value_scale(static_cast<size_t>(d.value_dim)),
          value_offset(static_cast<size_t>(d.value_dim)) {}
    // key_t: the key block transposed, [dim][key], so a row's scores are a
    // vector sum over dims (no horizontal reduction per key).
    // row_dots: every row's dots of the block, [row][key] (KeyDots or BlockDots), then
    // its softmax weights; rescale: each row's factor for its sums so far.
    std::vector<float> query, acc, key, key_t, row_dots, value, scores, pse, max, sum, rescale;
    // The bf16 decode dots' queries and key rows, as bf16 (key rows as stored);
    // the bf16 prefill dots' key block as [dim pair][key][2]; a paged cache's
    // bf16 value rows gathered, and the bf16 value pass's weights and
    // interleaved value rows.
    std::vector<uint16_t> query16, key16, key_pairs, value16, value_weights, value_pairs;
    // An INT8 cache's dequantisation parameters of the current row (per channel: of the unit's KV head).
    std::vector<float> key_scale, key_offset, value_scale, value_offset;
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

  // Decode whose products read every K and V row where it lies: unpaged,
  // undequantised fp16 (AVX-512) or bf16 (AVX-512 BF16, head and value dims
  // multiples of 32) rows with contiguous dims; RunUnit's flags agree.
  bool ReadsRowsInPlace() const {
    if (desc_.query_length > kFewQueryRows || desc_.paged || desc_.key_dequant.on || desc_.value_dequant.on) {
      return false;
    }
    const bool bf16 =
        desc_.dtype == ACL_BF16 && bf16_ != nullptr && desc_.head_dim % 32 == 0 && desc_.value_dim % 32 == 0;
    const bool f16 = desc_.dtype == ACL_FLOAT16 && f16_ != nullptr;
    if (!bf16 && !f16) return false;
    return std::all_of(desc_.kv.begin(), desc_.kv.end(),
                       [](const AttentionKv& kv) { return kv.key_strides[2] == 1 && kv.value_strides[2] == 1; });
  }

  // Query heads [head_begin, head_begin + head_count) of KV head kv_head, query
  // rows [row_begin, row_end): unit row r is head head_begin + r / q_rows, query
  // row row_begin + r % q_rows.
  // With kv_span > 1 (decode reading rows in place, ReadsRowsInPlace), also
  // the next KV heads up to kv_head + kv_span - 1 with their query heads: the
  // unit's rows are the first KV head's, then the next one's, ...
  void RunUnit(const RunContext& context, int64_t b, int64_t kv_head, int64_t kv_span, int64_t head_begin,
               int64_t head_count, int64_t row_begin, int64_t row_end, Scratch& s) const {
    const AttentionKv& kv = desc_.kv[static_cast<size_t>(b)];
    const int64_t d = desc_.head_dim, dv = desc_.value_dim;
    const int64_t element = static_cast<int64_t>(DtypeSize(desc_.dtype));
    // Key and value elements: INT8 when dequantised.
    const AttentionDequant& key_dq = desc_.key_dequant;
    const AttentionDequant& value_dq = desc_.value_dequant;
    const int64_t key_element = key_dq.on ? 1 : element;
    const int64_t value_element = value_dq.on ? 1 : element;
    const int64_t q_rows = row_end - row_begin;
    const int64_t query_valid = desc_.query_valid[static_cast<size_t>(b)];
    const int64_t valid_q_rows = std::clamp<int64_t>(query_valid - row_begin, 0, q_rows);
    const int64_t kv_rows = head_count * q_rows;  // the rows of one KV head
    const int64_t rows = kv_span * kv_rows;
    const bool few_rows = desc_.query_length <= kFewQueryRows;
    const char* query = context.Resolve(desc_.query);
    const char* key = context.Resolve(kv.key);
    const char* value = context.Resolve(kv.value);
    const auto* table =
        desc_.paged ? reinterpret_cast<const int32_t*>(context.Resolve(desc_.block_table)) + b * desc_.table_columns
                    : nullptr;
    // Key j's row in the cache, in elements: unpaged, j rows along the sequence; paged, through the block table.
    const auto row_offset = [&](int64_t j, int64_t row_stride, int64_t block_stride) {
      if (table == nullptr) return j * row_stride;
      return table[j / desc_.block_size] * block_stride + j % desc_.block_size * row_stride;
    };
    const char* pse = desc_.has_pse ? context.Resolve(desc_.pse) : nullptr;
    const auto* mask = desc_.has_mask ? reinterpret_cast<const uint8_t*>(context.Resolve(desc_.mask)) : nullptr;
    char* out = context.Resolve(desc_.out);
    const auto head_of = [&](int64_t r) { return head_begin + r / q_rows; };
    const auto row_of = [&](int64_t r) { return row_begin + r % q_rows; };
    // Where row 0 of this batch lies along the sequence dim of query, out and lse (TND: its first token).
    const int64_t first_row = desc_.row_offsets.empty() ? 0 : desc_.row_offsets[static_cast<size_t>(b)];
    const auto valid = [&](int64_t r) { return r % q_rows < valid_q_rows; };

    for (int64_t r = 0; r < rows; ++r) {
      if (!valid(r)) continue;
      Load(desc_.dtype,
           query + (b * desc_.query_strides[0] + head_of(r) * desc_.query_strides[1] +
                    (first_row + row_of(r)) * desc_.query_strides[2]) *
                       element,
           desc_.query_strides[3], d, s.query.data() + r * d);
    }
    // Decode with bf16 queries and keys: the dots take the key rows as stored
    // (the queries, exact in bf16, go back to it once).
    const bool bf16_dots =
        few_rows && desc_.dtype == ACL_BF16 && !key_dq.on && bf16_ != nullptr && d % 32 == 0 && kv.key_strides[2] == 1;
    // Prefill with bf16 queries and keys: each key block is laid out in dim
    // pairs for vdpbf16ps (instead of transposed to f32).
    const bool bf16_block_dots =
        !few_rows && desc_.dtype == ACL_BF16 && !key_dq.on && bf16_ != nullptr && d % 2 == 0 && kv.key_strides[2] == 1;
    if (bf16_dots || bf16_block_dots) FloatToBf16N(s.query.data(), s.query16.data(), rows * d);
    // Decode with fp16 keys and values: both products read the rows as stored,
    // widened as they go (the same results as on f32 copies).
    const bool f16_dots =
        few_rows && desc_.dtype == ACL_FLOAT16 && !key_dq.on && f16_ != nullptr && kv.key_strides[2] == 1;
    const bool f16_values =
        few_rows && desc_.dtype == ACL_FLOAT16 && !value_dq.on && f16_ != nullptr && kv.value_strides[2] == 1;
    // bf16 values: the value pass takes the rows as stored, the weights rounded
    // to bf16 (as CANN's kernel rounds them to the inputs' dtype).
    const bool bf16_values =
        desc_.dtype == ACL_BF16 && !value_dq.on && bf16_ != nullptr && dv % 32 == 0 && kv.value_strides[2] == 1;
    // Per-channel (or per-tensor, per-head) parameters are the unit's for every key: loaded once.
    if (key_dq.on && !key_dq.per_token) {
      LoadDequantParams(context, key_dq, b, kv_head, 0, d, s.key_scale.data(), s.key_offset.data());
    }
    if (value_dq.on && !value_dq.per_token) {
      LoadDequantParams(context, value_dq, b, kv_head, 0, dv, s.value_scale.data(), s.value_offset.data());
    }
    std::fill(s.acc.begin(), s.acc.begin() + rows * dv, 0.0f);
    std::fill(s.max.begin(), s.max.begin() + rows, kNegativeInfinity);
    std::fill(s.sum.begin(), s.sum.begin() + rows, 0.0f);

    // The keys any row of this unit may see (the same for every head), widened to whole key blocks.
    int64_t block_lo = kv.length, block_hi = 0;
    for (int64_t r = 0; r < valid_q_rows; ++r) {
      int64_t lo, hi;
      KeyRange(row_begin + r, kv.length, query_valid, lo, hi);
      block_lo = std::min(block_lo, lo);
      block_hi = std::max(block_hi, hi);
    }
    // Row r's softmax weights for the keys [j0, j0 + keys) of the block loaded
    // in s (into its row of s.row_dots), its max, sum and rescale factor
    // updated; false when the block holds no key the row sees.
    const auto block_weights = [&](int64_t r, int64_t j0, int64_t keys) {
      const int64_t head = head_of(r);
      const int64_t i = row_of(r);
      int64_t lo, hi;
      KeyRange(i, kv.length, query_valid, lo, hi);
      if (hi <= j0 || lo >= j0 + keys) return false;  // no key of this block for the row
      if (desc_.has_pse) {
        const char* row = pse + (b * desc_.pse_strides[0] + head * desc_.pse_strides[1] + i * desc_.pse_strides[2] +
                                 j0 * desc_.pse_strides[3]) *
                                    static_cast<int64_t>(DtypeSize(desc_.pse_dtype));
        Load(desc_.pse_dtype, row, desc_.pse_strides[3], keys, s.pse.data());
      }
      // q . k for every key of the block (computed for all rows at once below),
      // summed over dims in a fixed order (the same result on every run).
      const float* dots = s.row_dots.data() + r * kKeyBlock;
      float block_max = kNegativeInfinity;
      if (mask == nullptr && !desc_.has_pse) {  // the keys of the row's range, scaled
        block_max = loops_.scaled_scores(dots, std::clamp<int64_t>(lo - j0, 0, keys),
                                         std::clamp<int64_t>(hi - j0, 0, keys), keys, desc_.scale, s.scores.data());
      } else {
        for (int64_t t = 0; t < keys; ++t) {
          const int64_t j = j0 + t;
          float score = kNegativeInfinity;
          const bool masked = mask != nullptr && mask[b * desc_.mask_strides[0] + head * desc_.mask_head_stride +
                                                      i * desc_.mask_strides[1] + j * desc_.mask_strides[2]] != 0;
          if (j >= lo && j < hi && !masked) {
            score = dots[t] * desc_.scale + (desc_.has_pse ? desc_.pse_scale * s.pse[static_cast<size_t>(t)] : 0.0f);
          }
          s.scores[static_cast<size_t>(t)] = score;
          block_max = std::max(block_max, score);
        }
      }
      float& max = s.max[static_cast<size_t>(r)];
      float& sum = s.sum[static_cast<size_t>(r)];
      const float new_max = std::max(max, block_max);
      if (new_max == kNegativeInfinity) {  // nothing seen yet, unless a score is NaN (left out of the max)
        // A NaN score (from a NaN or inf in q or in a key the row sees) makes
        // the row NaN, as in PyTorch: its sum turns NaN and stays so (a later
        // block's rescale multiplies it by 0).
        if (std::any_of(s.scores.begin(), s.scores.begin() + keys, [](float v) { return std::isnan(v); })) {
          sum = std::numeric_limits<float>::quiet_NaN();
        }
        return false;
      }
      if (max != new_max) {
        const float rescale = std::exp(max - new_max);  // 0 when max is -inf
        s.rescale[static_cast<size_t>(r)] = rescale;
        sum *= rescale;
        max = new_max;
      }
      // The dots are spent (few rows: this row's own): the weights take their place.
      // exp(-inf - max) is 0: masked keys and keys outside the row's range weigh nothing.
      sum += loops_.softmax_weights(s.scores.data(), keys, max, s.row_dots.data() + r * kKeyBlock);
      return true;
    };

    // Rows of K and V sit a token apart (BSND: all heads between), a stride the
    // hardware prefetcher follows late: ask for the next block's rows while this
    // block is converted. Only rows with contiguous dims (one span of bytes).
    // A unit of several KV heads reads spans the hardware prefetcher follows:
    // software prefetches there only held fill buffers (fp16 decode with 8 KV
    // heads, 2 threads: 0.51 ms with them, 0.44 ms without).
    const bool prefetch = kv_span == 1 && kv.key_strides[2] == 1 && kv.value_strides[2] == 1;
    for (int64_t j0 = block_lo / kKeyBlock * kKeyBlock; j0 < block_hi; j0 += kKeyBlock) {
      const int64_t keys = std::min(kKeyBlock, kv.length - j0);
      for (int64_t t = 0; t < keys; ++t) {
        const int64_t j = j0 + t;
        const int64_t ahead = j + kKeyBlock;
        for (int64_t h = kv_head; prefetch && ahead < block_hi && h < kv_head + kv_span; ++h) {
          Prefetch(
              key + (h * kv.key_strides[0] + row_offset(ahead, kv.key_strides[1], kv.key_block_stride)) * key_element,
              d * key_element);
          Prefetch(value + (h * kv.value_strides[0] + row_offset(ahead, kv.value_strides[1], kv.value_block_stride)) *
                               value_element,
                   dv * value_element);
        }
        const char* key_row =
            key + (kv_head * kv.key_strides[0] + row_offset(j, kv.key_strides[1], kv.key_block_stride)) * key_element;
        if (key_dq.on) {
          if (key_dq.per_token) {
            LoadDequantParams(context, key_dq, b, kv_head, j, d, s.key_scale.data(), s.key_offset.data());
          }
          DequantRow(loops_, key_row, kv.key_strides[2], d, s.key_scale.data(), s.key_offset.data(),
                     s.key.data() + t * d);
        } else if (bf16_dots || f16_dots) {
          // An unpaged cache's rows are read where they lie; a paged one's are gathered.
          if (table != nullptr) std::memcpy(s.key16.data() + t * d, key_row, static_cast<size_t>(d * element));
        } else if (bf16_block_dots) {
          uint16_t* column = s.key_pairs.data() + 2 * t;  // key t's dims 2p, 2p + 1 at column + 2 * kKeyBlock * p
          for (int64_t pair = 0; pair < d / 2; ++pair) {
            std::memcpy(column + 2 * kKeyBlock * pair, key_row + 2 * pair * element, 2 * sizeof(uint16_t));
          }
        } else {
          Load(desc_.dtype, key_row, kv.key_strides[2], d, s.key.data() + t * d);
        }
        const char* value_row =
            value +
            (kv_head * kv.value_strides[0] + row_offset(j, kv.value_strides[1], kv.value_block_stride)) * value_element;
        if (value_dq.on) {
          if (value_dq.per_token) {
            LoadDequantParams(context, value_dq, b, kv_head, j, dv, s.value_scale.data(), s.value_offset.data());
          }
          DequantRow(loops_, value_row, kv.value_strides[2], dv, s.value_scale.data(), s.value_offset.data(),
                     s.value.data() + t * dv);
        } else if (bf16_values || f16_values) {
          if (table != nullptr) std::memcpy(s.value16.data() + t * dv, value_row, static_cast<size_t>(dv * element));
        } else {
          Load(desc_.dtype, value_row, kv.value_strides[2], dv, s.value.data() + t * dv);
        }
      }
      // Every row's dots of the block into its row of s.row_dots (rows past
      // query_valid hold stale queries: their dots are computed and never read),
      // KV head by KV head (sub, with its rows from r0).
      for (int64_t sub = 0; sub < kv_span; ++sub) {
        const int64_t r0 = sub * kv_rows;
        // The 16-bit dots' key rows of this KV head: where an unpaged cache
        // holds them, or as gathered from a paged one.
        const uint16_t* block_keys = nullptr;
        if (bf16_dots || f16_dots) {
          block_keys = table != nullptr
                           ? s.key16.data()
                           : reinterpret_cast<const uint16_t*>(
                                 key + ((kv_head + sub) * kv.key_strides[0] + j0 * kv.key_strides[1]) * element);
        }
        const int64_t key_stride = table != nullptr ? d : kv.key_strides[1];
        float* dots = s.row_dots.data() + r0 * kKeyBlock;
        if (bf16_dots) {
          bf16_->key_dots(s.query16.data() + r0 * d, kv_rows, block_keys, key_stride, d, keys, dots, kKeyBlock);
        } else if (f16_dots) {
          f16_->key_dots(s.query.data() + r0 * d, kv_rows, block_keys, key_stride, d, keys, dots, kKeyBlock,
                         s.key.data());
        } else if (bf16_block_dots) {
          bf16_->block_dots(s.query16.data() + r0 * d, kv_rows, s.key_pairs.data(), d, dots, kKeyBlock);
        } else if (few_rows) {
          loops_.key_dots(s.query.data() + r0 * d, kv_rows, s.key.data(), d, keys, dots, kKeyBlock);
        } else {
          for (int64_t t = 0; t < keys; ++t) {
            for (int64_t e = 0; e < d; ++e)
              s.key_t[static_cast<size_t>(e * kKeyBlock + t)] = s.key[static_cast<size_t>(t * d + e)];
          }
          loops_.block_dots(s.query.data() + r0 * d, kv_rows, s.key_t.data(), d, kKeyBlock, keys, dots, kKeyBlock);
        }
      }
      // Each row's softmax weights for the block go to its row of `weights`
      // (zeros, with rescale 1, for a row the block leaves alone); then one
      // pass over the block's values serves every row.
      float* weights = s.row_dots.data();
      for (int64_t r = 0; r < rows; ++r) {
        s.rescale[static_cast<size_t>(r)] = 1.0f;
        if (!valid(r) || !block_weights(r, j0, keys)) {
          std::fill(weights + r * kKeyBlock, weights + r * kKeyBlock + keys, 0.0f);
        }
      }
      for (int64_t sub = 0; sub < kv_span; ++sub) {
        const int64_t r0 = sub * kv_rows;
        // The 16-bit value rows of this KV head, as the key rows above.
        const uint16_t* block_values = nullptr;
        if (bf16_values || f16_values) {
          block_values =
              table != nullptr
                  ? s.value16.data()
                  : reinterpret_cast<const uint16_t*>(
                        value + ((kv_head + sub) * kv.value_strides[0] + j0 * kv.value_strides[1]) * element);
        }
        const int64_t value_stride = table != nullptr ? dv : kv.value_strides[1];
        float* acc = s.acc.data() + r0 * dv;
        float* rescale = s.rescale.data() + r0;
        if (bf16_values) {
          bf16_->accumulate_values(weights + r0 * kKeyBlock, kKeyBlock, kv_rows, block_values, value_stride, keys, dv,
                                   rescale, acc, s.value_weights.data(), s.value_pairs.data());
        } else if (f16_values) {
          f16_->accumulate_values(weights + r0 * kKeyBlock, kKeyBlock, kv_rows, block_values, value_stride, keys, dv,
                                  rescale, acc, s.value.data());
        } else {
          loops_.accumulate_values(weights + r0 * kKeyBlock, kKeyBlock, kv_rows, s.value.data(), keys, dv, rescale,
                                   acc);
        }
      }
    }

    float* lse = desc_.has_lse ? reinterpret_cast<float*>(context.Resolve(desc_.lse)) : nullptr;
    float* stats_max = desc_.has_stats ? reinterpret_cast<float*>(context.Resolve(desc_.softmax_max)) : nullptr;
    float* stats_sum = desc_.has_stats ? reinterpret_cast<float*>(context.Resolve(desc_.softmax_sum)) : nullptr;
    const char* sinks = desc_.has_sink ? context.Resolve(desc_.sink) : nullptr;
    for (int64_t r = 0; r < rows; ++r) {
      if (!valid(r) && !desc_.row_offsets.empty()) continue;  // another batch's row (TND)
      const int64_t head = head_of(r);
      const int64_t i = first_row + row_of(r);
      float* acc = s.acc.data() + r * dv;
      const float sum = valid(r) ? s.sum[static_cast<size_t>(r)] : 0.0f;
      // Some key took part (positive), or a NaN score did (NaN): the results are the sums', NaN for NaN.
      const bool took_part = !(sum == 0.0f);
      if (took_part) {
        float inverse = 1.0f / sum;
        if (sinks != nullptr) {
          // The sink joins the denominator only, unscaled: acc / (sum + exp(sink - max)), both terms taken
          // relative to the larger of max and the sink, so neither overflows (a sink of -inf adds
          // nothing, +inf gives zeros, NaN gives NaN).
          float sink = 0.0f;
          Load(desc_.sink_dtype, sinks + head * desc_.sink_stride * static_cast<int64_t>(DtypeSize(desc_.sink_dtype)),
               1, 1, &sink);
          const float max = s.max[static_cast<size_t>(r)];
          const float top = std::isnan(sink) ? sink : std::max(max, sink);
          const float keys_scale = std::exp(max - top);
          const float sink_term = sink == top ? 1.0f : std::exp(sink - top);
          inverse = keys_scale / (sum * keys_scale + sink_term);
        }
        for (int64_t e = 0; e < dv; ++e) acc[e] *= inverse;
      } else {
        std::fill(acc, acc + dv, 0.0f);  // no key took part
      }
      Store(acc, desc_.dtype,
            out + (b * desc_.out_strides[0] + head * desc_.out_strides[1] + i * desc_.out_strides[2]) * element,
            desc_.out_strides[3], dv);
      if (desc_.has_stats) {
        const int64_t at = b * desc_.stats_strides[0] + head * desc_.stats_strides[1] + i * desc_.stats_strides[2];
        const float row_max = took_part ? s.max[static_cast<size_t>(r)] : kNegativeInfinity;
        for (int64_t c = 0; c < desc_.stats_copies; ++c) {
          stats_max[at + c * desc_.stats_strides[3]] = row_max;
          stats_sum[at + c * desc_.stats_strides[3]] = sum;
        }
      }
      if (lse != nullptr) {
        lse[b * desc_.lse_strides[0] + head * desc_.lse_strides[1] + i * desc_.lse_strides[2]] =
            took_part ? s.max[static_cast<size_t>(r)] + std::log(sum) : kNegativeInfinity;
      }
    }
  }

  AttentionDesc desc_;
  const AttentionLoops& loops_;
  const AttentionBf16Loops* bf16_;  // null without AVX-512 BF16
  const AttentionF16Loops* f16_;    // null without AVX-512
};

}  // namespace

std::unique_ptr<Step> MakeAttentionStep(AttentionDesc desc) { return std::make_unique<AttentionStep>(std::move(desc)); }

}  // namespace canopy::kernels
