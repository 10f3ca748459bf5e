// Writes f32 / fp16 matrices as bf16 pieces (see bf16_split.h): sixteen lanes
// at a time where the CPU has AVX-512, one element at a time elsewhere; both
// give the same bits.
#include "bf16_split.h"

#include <cmath>
#include <cstring>
#include <limits>
#include <string>

#include "common/env.h"
#include "common/half.h"
#include "cpu_features.h"
#include "parallel_for.h"

#if defined(__x86_64__)
#include "avx512_lanes.h"
#endif

namespace canopy::kernels {
namespace {

constexpr int kMaxPieces = 4;

// bf16's largest finite value at or below |x|, with x's sign: the high half of
// x's bits (what a finite x that rounds to infinity keeps).
uint16_t TruncatedBf16(float x) {
  uint32_t bits;
  std::memcpy(&bits, &x, sizeof(bits));
  return static_cast<uint16_t>(bits >> 16);
}

// The pieces' destinations for one row, and which piece each takes.
struct RowTargets {
  uint16_t* at[kMaxPieces] = {};
  Bf16Piece piece[kMaxPieces] = {};
  int count = 0;
};

template <typename Element>
void SplitRowPortable(const Element* src, int64_t cols, const RowTargets& targets) {
  for (int64_t c = 0; c < cols; ++c) {
    float x;
    if constexpr (sizeof(Element) == sizeof(float)) {
      x = src[c];
    } else {
      x = HalfToFloat(src[c]);
    }
    for (int p = 0; p < targets.count; ++p) targets.at[p][c] = Bf16PieceOf(x, targets.piece[p]);
  }
}

#if defined(__x86_64__)
// The same pieces, sixteen lanes at a time: Bf16::Round is the scalar rounding.
template <typename S>
CANOPY_AVX512_TARGET void SplitRowAvx512(const typename S::Element* src, int64_t cols, const RowTargets& targets) {
  const __m512 infinity = _mm512_set1_ps(std::numeric_limits<float>::infinity());
  for (int64_t c = 0; c < cols; c += 16) {
    const __mmask16 lanes = avx512::LanesBelow(cols - c);
    const __m512 x = S::Load(src + c, lanes);
    const __m512 magnitude = _mm512_abs_ps(x);
    const __mmask16 finite = _mm512_cmp_ps_mask(magnitude, infinity, _CMP_LT_OQ);
    __m256i hi_bits = avx512::Bf16::Round(x);
    __m512 hi = avx512::Bf16::Widen(hi_bits);
    // A finite x rounded up to infinity keeps its truncated high half.
    const __mmask16 overflow = _mm512_mask_cmp_ps_mask(finite, _mm512_abs_ps(hi), infinity, _CMP_EQ_OQ);
    const __m256i truncated = _mm512_cvtepi32_epi16(_mm512_srli_epi32(_mm512_castps_si512(x), 16));
    hi_bits = _mm256_mask_blend_epi16(overflow, hi_bits, truncated);
    hi = avx512::Bf16::Widen(hi_bits);
    const __m512 lo = _mm512_maskz_sub_ps(finite, x, hi);
    const __m256i lo_bits = avx512::Bf16::Round(lo);
    const __m256i finite_hi_bits = _mm256_maskz_mov_epi16(finite, hi_bits);
    for (int p = 0; p < targets.count; ++p) {
      const Bf16Piece piece = targets.piece[p];
      _mm256_mask_storeu_epi16(targets.at[p] + c, lanes,
                               piece == Bf16Piece::kLow          ? lo_bits
                               : piece == Bf16Piece::kFiniteHigh ? finite_hi_bits
                                                                 : hi_bits);
    }
  }
}
#endif

class Bf16SplitStep final : public Step {
 public:
  explicit Bf16SplitStep(const Bf16SplitDesc& desc) : d_(desc) {}

  aclnnStatus Run(const RunContext& context) const override {
    const char* src = context.Resolve(d_.src);
    auto* dst = reinterpret_cast<uint16_t*>(context.Resolve(d_.dst));
    const auto element_bytes = static_cast<int64_t>(d_.src_dtype == ACL_FLOAT ? sizeof(float) : sizeof(uint16_t));
    const int64_t total_rows = d_.batch * d_.rows;
    ParallelFor(total_rows, std::max<int64_t>(1, 16384 / std::max<int64_t>(d_.cols, 1)),
                [&](int64_t begin, int64_t end) {
                  for (int64_t index = begin; index < end; ++index) {
                    const int64_t b = index / d_.rows, r = index % d_.rows;
                    RowTargets targets;
                    targets.count = static_cast<int>(d_.pieces.size());
                    for (int p = 0; p < targets.count; ++p) {
                      targets.at[p] = dst + b * d_.batch_stride + r * d_.row_stride + p * d_.piece_stride;
                      targets.piece[p] = d_.pieces[p];
                    }
                    const char* row = src + index * d_.cols * element_bytes;
                    SplitRow(row, targets);
                  }
                });
    return ACLNN_SUCCESS;
  }

  std::string Describe() const override {
    return std::string("bf16 split (") + std::to_string(d_.pieces.size()) + " pieces) " + std::to_string(d_.batch) +
           "x" + std::to_string(d_.rows) + "x" + std::to_string(d_.cols) +
           (d_.src_dtype == ACL_FLOAT ? " f32" : " fp16");
  }

 private:
  void SplitRow(const char* row, const RowTargets& targets) const {
    const bool f32 = d_.src_dtype == ACL_FLOAT;
#if defined(__x86_64__)
    if (avx512::Available()) {
      if (f32) {
        SplitRowAvx512<avx512::F32>(reinterpret_cast<const float*>(row), d_.cols, targets);
      } else {
        SplitRowAvx512<avx512::F16>(reinterpret_cast<const uint16_t*>(row), d_.cols, targets);
      }
      return;
    }
#endif
    if (f32) {
      SplitRowPortable(reinterpret_cast<const float*>(row), d_.cols, targets);
    } else {
      SplitRowPortable(reinterpret_cast<const uint16_t*>(row), d_.cols, targets);
    }
  }

  Bf16SplitDesc d_;
};

}  // namespace

uint16_t Bf16PieceOf(float x, Bf16Piece piece) {
  if (!std::isfinite(x)) return piece == Bf16Piece::kHigh ? FloatToBf16(x) : uint16_t{0};
  uint16_t hi = FloatToBf16(x);
  if (std::isinf(Bf16ToFloat(hi))) hi = TruncatedBf16(x);
  return piece == Bf16Piece::kLow ? FloatToBf16(x - Bf16ToFloat(hi)) : hi;
}

std::unique_ptr<Step> MakeBf16SplitStep(const Bf16SplitDesc& desc) { return std::make_unique<Bf16SplitStep>(desc); }

std::vector<Bf16Piece> LeftBf16Pieces(int count) {
  using enum Bf16Piece;
  return count == 3 ? std::vector{kHigh, kLow, kFiniteHigh} : std::vector{kHigh, kLow, kFiniteHigh, kLow};
}

std::vector<Bf16Piece> RightBf16Pieces(int count) {
  using enum Bf16Piece;
  return count == 3 ? std::vector{kHigh, kFiniteHigh, kLow} : std::vector{kHigh, kFiniteHigh, kLow, kLow};
}

bool Bf16SplitForced() {
  static const bool forced = EnvSwitch("CANOPY_BF16_SPLIT", false);
  return forced;
}

bool Bf16SplitEnabled() {
  static const bool enabled = EnvSwitch("CANOPY_BF16_SPLIT", Cpu().amx);
  return enabled;
}

}  // namespace canopy::kernels
