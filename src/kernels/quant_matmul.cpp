#include "quant_matmul.h"

#include <algorithm>
#include <atomic>
#include <cmath>
#include <sstream>
#include <vector>

#include "common/dtype.h"
#include "common/half.h"
#include "cpu_features.h"
#include "parallel_for.h"
#define CANOPY_QMM_ISA portable_isa
#include "quant_matmul_impl.h"
#include "quant_matmul_isa.h"

namespace canopy::kernels {
namespace {

constexpr QuantLoops kQuantLoopsPortable = {portable_isa::QuantColumns, portable_isa::DequantizeRows, nullptr};

const QuantLoops& Loops() {
#if defined(__x86_64__)  // the vector loops are x86 code
  if (Cpu().Avx512()) return kQuantLoopsAvx512;
  if (Cpu().Avx2()) return kQuantLoopsAvx2;
#endif
  return kQuantLoopsPortable;
}

// AVX-512 BF16's vdpbf16ps, for the INT4 bf16-pair kernel.
bool HasBf16Pairs() {
#if defined(__x86_64__)
  return Cpu().Avx512() && Cpu().avx512bf16;
#else
  return false;
#endif
}

// AMX tiles for the INT4 / INT8 kernel (quant_matmul_amx.cpp).
bool HasAmx() {
#if defined(__x86_64__)
  static const bool usable = AmxQuantUsable();
  return usable;
#else
  return false;
#endif
}

// The bf16 terms that hold a value of x's source dtype exactly (see
// PreparePairsX): bf16 has 8 significant bits, f16 11, f32 24.
int XTerms(aclDataType source) {
  if (source == ACL_BF16) return 1;
  return source == ACL_FLOAT16 ? 2 : 3;
}

// The AMX kernel's cost hardly depends on how many columns of x (rows times
// bf16 terms, at most 16 a tile) it multiplies; the vector kernels' grows with
// them. Measured on a Xeon with AMX (docs/perf.md, "Quantised decode on AMX"):
// from four columns on AMX is the faster.
constexpr int64_t kAmxMinColumns = 4;

bool AmxFits(const QuantMatmulDesc& d) {
  return AmxQuantFit(d.w) && d.m * XTerms(d.x_source) >= kAmxMinColumns && HasAmx();
}

// Fewer weight elements than this per thread are not worth a fork.
constexpr int64_t kParallelWork = 1 << 16;

std::string WeightText(const QuantWeight& w) {
  std::ostringstream text;
  text << DtypeName(w.dtype) << " [" << w.k << "x" << w.n << "]" << (w.k_contiguous ? " (K contiguous)" : "")
       << " group " << w.group_size << (w.has_offset ? " with offset" : "");
  return text.str();
}

class QuantMatmulStep final : public Step {
 public:
  explicit QuantMatmulStep(const QuantMatmulDesc& desc) : d_(desc) {}

  aclnnStatus Run(const RunContext& context) const override {
    const QuantWeight& w = d_.w;
    const auto* x = reinterpret_cast<const float*>(context.Resolve(d_.x));
    auto* scratch = reinterpret_cast<float*>(context.Resolve(d_.scratch));
    // Per-call preparation from x: group sums for the offset term, and x's even
    // and odd elements for INT4 rows packed along K.
    float* sums = scratch;
    float* xe = sums + (w.has_offset ? d_.m * w.Groups() : 0);
    float* xo = xe + (UsesSplitX() ? d_.m * (w.k / 2) : 0);
    if (w.has_offset) portable_isa::GroupSums(x, d_.m, w.k, w.group_size, sums);
    // The AMX kernel's or the bf16-pair kernel's own copy of x takes the split
    // one's place, unless x is too small for them (then the split one is
    // written over it).
    const bool amx = UsesAmx() && PrepareAmx(x, reinterpret_cast<uint32_t*>(xe));
    const bool pairs = !amx && UsesPairs() && PreparePairs(x, reinterpret_cast<uint16_t*>(xe));
    if (!amx && !pairs && UsesSplitX()) {
      for (int64_t i = 0; i < d_.m * (w.k / 2); ++i) {
        xe[i] = x[2 * i];
        xo[i] = x[2 * i + 1];
      }
    }
    const char* wbase = context.Resolve(w.data);
    const void* scale = context.Resolve(w.scale);
    const void* offset = w.has_offset ? context.Resolve(w.offset) : nullptr;
    const auto* bias = d_.has_bias ? reinterpret_cast<const float*>(context.Resolve(d_.bias)) : nullptr;
    auto* y = reinterpret_cast<float*>(context.Resolve(d_.y));
    const QuantLoops& loops = Loops();
    const int64_t grain = std::max<int64_t>(1, kParallelWork / std::max<int64_t>(1, w.k * d_.m));
    ParallelFor(w.n, grain, portable_isa::kColumnBlock, [&](int64_t c0, int64_t c1) {
      if (amx) {
        AmxColumns(reinterpret_cast<const uint32_t*>(xe), sums, wbase, scale, offset, bias, y, c0, c1);
      } else if (pairs) {
        PairColumns(reinterpret_cast<const uint16_t*>(xe), sums, wbase, scale, offset, bias, y, c0, c1);
      } else {
        loops.columns(d_, x, xe, xo, sums, wbase, scale, offset, bias, y, c0, c1);
      }
    });
    RedoNonFiniteRows(x, wbase, scale, offset, bias, y);
    return ACLNN_SUCCESS;
  }

  std::string Describe() const override {
    std::ostringstream text;
    text << "quantised matmul " << d_.m << "x" << d_.w.k << " f32 @ " << WeightText(d_.w) << " -> f32"
         << (d_.has_bias ? " + bias" : "");
    return text.str();
  }

  bool UsesSplitX() const { return d_.w.dtype == ACL_INT4 && d_.w.k_contiguous; }
  bool UsesPairs() const { return PairsFit(d_.w, d_.m, XTerms(d_.x_source)) && HasBf16Pairs(); }
  bool UsesAmx() const { return AmxFits(d_); }

  // The pair kernel's calls, x86 code only (HasBf16Pairs is false elsewhere).
  bool PreparePairs([[maybe_unused]] const float* x, [[maybe_unused]] uint16_t* xp) const {
#if defined(__x86_64__)
    return PreparePairsX(d_.w, x, d_.m, XTerms(d_.x_source), xp);
#else
    return false;
#endif
  }
  bool PrepareAmx([[maybe_unused]] const float* x, [[maybe_unused]] uint32_t* xb) const {
#if defined(__x86_64__)
    // Row blocks on the team's threads: for many rows (prefill) this is a pass over all of x.
    const int terms = XTerms(d_.x_source);
    std::atomic<bool> exact{true};
    ParallelFor(AmxQuantRowBlocks(d_.m, terms), std::max<int64_t>(1, kParallelWork / std::max<int64_t>(1, 16 * d_.w.k)),
                [&](int64_t b0, int64_t b1) {
                  if (!PrepareAmxQuantX(x, d_.m, d_.w.k, terms, d_.w.dtype == ACL_INT4, xb, b0, b1)) exact = false;
                });
    return exact.load();
#else
    return false;
#endif
  }
  void AmxColumns([[maybe_unused]] const uint32_t* xb, [[maybe_unused]] const float* sums,
                  [[maybe_unused]] const char* wbase, [[maybe_unused]] const void* scale,
                  [[maybe_unused]] const void* offset, [[maybe_unused]] const float* bias, [[maybe_unused]] float* y,
                  [[maybe_unused]] int64_t c0, [[maybe_unused]] int64_t c1) const {
#if defined(__x86_64__)
    AmxQuantColumns(d_, XTerms(d_.x_source), xb, sums, wbase, scale, offset, bias, y, c0, c1);
#endif
  }
  void PairColumns([[maybe_unused]] const uint16_t* xp, [[maybe_unused]] const float* sums,
                   [[maybe_unused]] const char* wbase, [[maybe_unused]] const void* scale,
                   [[maybe_unused]] const void* offset, [[maybe_unused]] const float* bias, [[maybe_unused]] float* y,
                   [[maybe_unused]] int64_t c0, [[maybe_unused]] int64_t c1) const {
#if defined(__x86_64__)
    PairsColumns(d_, XTerms(d_.x_source), xp, sums, wbase, scale, offset, bias, y, c0, c1);
#endif
  }

 private:
  // The kernels multiply x . w exactly in f32 and scale a group's sum after,
  // and with an offset add scale * offset * sum(x) apart: exact for finite
  // results, but not where f32 overflows or an infinity meets them. A row of x
  // holding an infinity gave NaN where the doc's x @ ((w + offset) * scale) is
  // an infinity (inf - inf where w and w + offset differ in sign, inf * 0
  // where w is 0), and x . w past f32 (bf16 x near its largest times an INT8
  // weight) an infinity that a small scale would have brought back. Rows of y
  // holding an infinity or NaN are computed again as the formula reads, each
  // weight dequantised first, in f64 as the products and their sums, on this
  // thread: such rows are rare. A row of x holding a NaN is NaN throughout
  // either way, and is left as the kernels made it.
  void RedoNonFiniteRows(const float* x, const char* wbase, const void* scale, const void* offset, const float* bias,
                         float* y) const {
    const QuantWeight& w = d_.w;
    const auto finite = [](float v) { return std::isfinite(v); };
    const auto nan = [](float v) { return std::isnan(v); };
    std::vector<int64_t> rows;
    for (int64_t r = 0; r < d_.m; ++r) {
      const float* row = y + r * w.n;
      if (std::all_of(row, row + w.n, finite) || std::any_of(x + r * w.k, x + (r + 1) * w.k, nan)) continue;
      rows.push_back(r);
    }
    if (rows.empty()) return;
    // f32 scales and offsets (16-bit ones only reach here for a K-contiguous weight).
    std::vector<float> wide_scale, wide_offset;
    const auto* s = static_cast<const float*>(scale);
    const auto* o = static_cast<const float*>(offset);
    if (w.scale_dtype != ACL_FLOAT) {
      s = portable_isa::ChunkScales(w, scale, 0, w.n, wide_scale);
      if (w.has_offset) o = portable_isa::ChunkScales(w, offset, 0, w.n, wide_offset);
    }
    // The stored integers (columns n of a K-contiguous weight, else rows k), a
    // block at a time, as DequantizeRows reads them under a scale of 1.
    QuantWeight integers = w;
    integers.has_offset = false;
    const std::vector<float> ones(static_cast<size_t>(w.Groups() * w.n), 1.0f);
    const int64_t stored = w.k_contiguous ? w.n : w.k, length = w.k_contiguous ? w.k : w.n;
    const int64_t block = std::max<int64_t>(1, kRedoBlockFloats / length);
    std::vector<float> values(static_cast<size_t>(std::min(block, stored) * length));
    std::vector<double> totals(static_cast<size_t>(rows.size() * w.n), 0.0);
    // (q + offset) * scale in f64: a large bf16 scale times q may pass f32's
    // range where the formula's result does not.
    const auto weight = [&](float q, int64_t at) {
      return (static_cast<double>(q) + (w.has_offset ? static_cast<double>(o[at]) : 0.0)) * static_cast<double>(s[at]);
    };
    const int64_t groups = w.Groups();
    for (int64_t b0 = 0; b0 < stored; b0 += block) {
      const int64_t b1 = std::min(stored, b0 + block);
      portable_isa::DequantizeRows(integers, wbase, ones.data(), nullptr, values.data(), b0, b1);
      for (size_t i = 0; i < rows.size(); ++i) {
        const float* xr = x + rows[i] * w.k;
        double* total = totals.data() + i * w.n;
        for (int64_t b = b0; b < b1; ++b) {
          const float* line = values.data() + (b - b0) * length;
          if (w.k_contiguous) {  // line: column b over k; its scales side by side
            for (int64_t kk = 0; kk < w.k; ++kk) {
              total[b] += static_cast<double>(xr[kk]) * weight(line[kk], b * groups + kk / w.group_size);
            }
          } else {  // line: row k = b over n; one scale row
            const int64_t at = (b / w.group_size) * w.n;
            for (int64_t c = 0; c < w.n; ++c) total[c] += static_cast<double>(xr[b]) * weight(line[c], at + c);
          }
        }
      }
    }
    for (size_t i = 0; i < rows.size(); ++i) {
      for (int64_t c = 0; c < w.n; ++c) {
        const double sum = totals[i * w.n + c] + (bias != nullptr ? bias[c] : 0.0f);
        y[rows[i] * w.n + c] = static_cast<float>(sum);
      }
    }
  }

  // f32 elements of RedoNonFiniteRows' block of stored integers.
  static constexpr int64_t kRedoBlockFloats = int64_t{64} << 10;
  QuantMatmulDesc d_;
};

class DequantizeWeightStep final : public Step {
 public:
  DequantizeWeightStep(const QuantWeight& w, BufferRef out, aclDataType out_dtype)
      : w_(w), out_(out), out_dtype_(out_dtype) {}

  aclnnStatus Run(const RunContext& context) const override {
    const char* wbase = context.Resolve(w_.data);
    const auto* scale = reinterpret_cast<const float*>(context.Resolve(w_.scale));
    const auto* offset = w_.has_offset ? reinterpret_cast<const float*>(context.Resolve(w_.offset)) : nullptr;
    char* out = context.Resolve(out_);
    const int64_t rows = w_.k_contiguous ? w_.n : w_.k, length = w_.k_contiguous ? w_.k : w_.n;
    const QuantLoops& loops = Loops();
    ParallelFor(rows, std::max<int64_t>(1, kParallelWork / std::max<int64_t>(1, length)), [&](int64_t r0, int64_t r1) {
      if (out_dtype_ == ACL_FLOAT) {
        loops.dequantize(w_, wbase, scale, offset, reinterpret_cast<float*>(out) + r0 * length, r0, r1);
        return;
      }
      auto* narrow = reinterpret_cast<uint16_t*>(out);
      if (DequantizeVectorsFit(w_)) {
#if defined(__x86_64__)
        if (out_dtype_ == ACL_BF16 && HasBf16Pairs()) {
          DequantizeBf16Ne(w_, wbase, scale, offset, narrow + r0 * length, r0, r1);
          return;
        }
#endif
        if (loops.dequantize16 != nullptr) {
          loops.dequantize16(w_, wbase, scale, offset, narrow + r0 * length, out_dtype_, r0, r1);
          return;
        }
      }
      // Otherwise a few rows at a time through an f32 buffer that stays in cache.
      const int64_t block = std::max<int64_t>(1, kNarrowBlockFloats / std::max<int64_t>(1, length));
      std::vector<float> wide(static_cast<size_t>(std::min(block, r1 - r0) * length));
      for (int64_t b0 = r0; b0 < r1; b0 += block) {
        const int64_t b1 = std::min(r1, b0 + block), count = (b1 - b0) * length;
        loops.dequantize(w_, wbase, scale, offset, wide.data(), b0, b1);
        if (out_dtype_ == ACL_BF16) {
          FloatToBf16N(wide.data(), narrow + b0 * length, count);
        } else {
          FloatToHalfN(wide.data(), narrow + b0 * length, count);
        }
      }
    });
    return ACLNN_SUCCESS;
  }

  std::string Describe() const override { return "dequantise " + WeightText(w_) + " -> " + DtypeName(out_dtype_); }

 private:
  // f32 elements of the buffer a thread dequantises through for a 16-bit output.
  static constexpr int64_t kNarrowBlockFloats = int64_t{16} << 10;
  QuantWeight w_;
  BufferRef out_;
  aclDataType out_dtype_;
};

}  // namespace

bool QuantFusedTakes(const QuantWeight& w, int64_t m, aclDataType x_source) {
  if (m <= kQuantFusedMaxRows) return true;
  // Beyond the decode rows: the tiles against dequantising for oneDNN, one
  // thread, 4096 x 4096 (docs/perf.md, "Quantised decode on AMX"). f16
  // activations otherwise multiply in f32 (0.23 of the bf16 Matmul at 32 and
  // 128 rows; the tiles 0.64-0.77 and 0.31-0.35); bf16 ones run oneDNN's bf16
  // product of the weight dequantised to bf16 (quant_dequantize_avx512.h),
  // which the tiles beat at 32 rows (0.99-1.02 against 0.65, two threads),
  // match at 64 (0.71-0.79 against 0.73-0.84) and not at 128 (0.86-0.94).
  constexpr int64_t kBf16MaxRows = 64;
  if (!AmxQuantFit(w) || !HasAmx()) return false;
  return x_source == ACL_FLOAT16 || (x_source == ACL_BF16 && m <= kBf16MaxRows);
}

int64_t QuantMatmulScratchBytes(const QuantMatmulDesc& desc) {
  const QuantWeight& w = desc.w;
  const int64_t sums = w.has_offset ? desc.m * w.Groups() : 0;
  // After the group sums, in one place: x split into even and odd elements
  // (INT4 along K in the f32 loops), its bf16 terms for the pair kernel
  // (16-bit words) or its AMX tile layout (32-bit words), whichever the
  // CPU's kernel needs.
  int64_t after = w.dtype == ACL_INT4 && w.k_contiguous ? 2 * desc.m * (w.k / 2) : 0;
  if (PairsFit(w, desc.m, XTerms(desc.x_source)) && HasBf16Pairs())
    after = std::max(after, (PairsXWords(w, desc.m, XTerms(desc.x_source)) + 1) / 2);
  if (AmxFits(desc)) after = std::max(after, AmxQuantXWords(desc.m, w.k, XTerms(desc.x_source)));
  return std::max<int64_t>(sums + after, 1) * static_cast<int64_t>(sizeof(float));
}

std::unique_ptr<Step> MakeQuantMatmulStep(const QuantMatmulDesc& desc) {
  return std::make_unique<QuantMatmulStep>(desc);
}

std::unique_ptr<Step> MakeDequantizeWeightStep(const QuantWeight& w, BufferRef out, aclDataType out_dtype) {
  return std::make_unique<DequantizeWeightStep>(w, out, out_dtype);
}

}  // namespace canopy::kernels
