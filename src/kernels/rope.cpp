// Rotary position embedding (see rope.h).
#include "rope.h"

#include <string>
#include <vector>

#include "acl/error_codes/rt_error_codes.h"
#include "common/dtype.h"
#include "cpu_features.h"
#include "dtype_dispatch.h"
#include "parallel_for.h"
#include "rope_isa.h"

namespace canopy::kernels {
namespace {

constexpr int64_t kGrainElements = 16 * 1024;

// rotated = rotate(x) for one row of d elements; for interleave-half, x is
// also rearranged (evens then odds), as the mode's formula multiplies that by cos.
void Rotate(RopeMode mode, int64_t d, float* x, float* rotated, float* scratch) {
  switch (mode) {
    case RopeMode::kHalf: {
      const int64_t h = d / 2;
      for (int64_t i = 0; i < h; ++i) {
        rotated[i] = -x[i + h];
        rotated[i + h] = x[i];
      }
      return;
    }
    case RopeMode::kInterleave:
      for (int64_t i = 0; i + 1 < d; i += 2) {
        rotated[i] = -x[i + 1];
        rotated[i + 1] = x[i];
      }
      return;
    case RopeMode::kQuarter: {
      const int64_t q = d / 4;
      for (int64_t i = 0; i < q; ++i) {
        rotated[i] = -x[i + q];
        rotated[i + q] = x[i];
        rotated[i + 2 * q] = -x[i + 3 * q];
        rotated[i + 3 * q] = x[i + 2 * q];
      }
      return;
    }
    case RopeMode::kInterleaveHalf: {
      const int64_t h = d / 2;
      for (int64_t i = 0; i < h; ++i) {
        scratch[i] = x[2 * i];
        scratch[i + h] = x[2 * i + 1];
      }
      for (int64_t i = 0; i < h; ++i) {
        rotated[i] = -scratch[i + h];
        rotated[i + h] = scratch[i];
      }
      for (int64_t i = 0; i < d; ++i) x[i] = scratch[i];
      return;
    }
  }
}

class RopeStep final : public Step {
 public:
  explicit RopeStep(const RopeDesc& desc) : desc_(desc) {}

  aclnnStatus Run(const RunContext& context) const override {
    const char* x = context.Resolve(desc_.x.buffer);
    const char* cos = context.Resolve(desc_.cos.buffer);
    const char* sin = context.Resolve(desc_.sin.buffer);
    char* y = context.Resolve(desc_.y.buffer);
    const int64_t element = static_cast<int64_t>(DtypeSize(desc_.dtype));
    const int64_t d = desc_.shape[3];
    const int64_t rows = desc_.shape[0] * desc_.shape[1] * desc_.shape[2];
    const auto offset = [&](const RopeOperand& o, int64_t row) {
      const int64_t i2 = row % desc_.shape[2];
      const int64_t i1 = row / desc_.shape[2] % desc_.shape[1];
      const int64_t i0 = row / desc_.shape[2] / desc_.shape[1];
      return (i0 * o.strides[0] + i1 * o.strides[1] + i2 * o.strides[2]) * element;
    };
    const int64_t grain = std::max<int64_t>(1, kGrainElements / std::max<int64_t>(d, 1));
#if defined(__x86_64__)
    if (Vector()) {
      ParallelFor(rows, grain, [&](int64_t begin, int64_t end) {
        for (int64_t r = begin; r < end; ++r) {
          RopeRowAvx512(desc_.mode, desc_.dtype, d, x + offset(desc_.x, r), cos + offset(desc_.cos, r),
                        sin + offset(desc_.sin, r), y + offset(desc_.y, r));
        }
      });
      return ACLNN_SUCCESS;
    }
#endif
    ParallelFor(rows, grain, [&](int64_t begin, int64_t end) {
      std::vector<float> row(d), rotated(d), scratch(d), c(d), s(d);
      for (int64_t r = begin; r < end; ++r) {
        Load(desc_.dtype, x + offset(desc_.x, r), desc_.x.strides[3], d, row.data());
        Load(desc_.dtype, cos + offset(desc_.cos, r), desc_.cos.strides[3], d, c.data());
        Load(desc_.dtype, sin + offset(desc_.sin, r), desc_.sin.strides[3], d, s.data());
        Rotate(desc_.mode, d, row.data(), rotated.data(), scratch.data());
        for (int64_t i = 0; i < d; ++i) row[i] = row[i] * c[i] + rotated[i] * s[i];
        Store(row.data(), desc_.dtype, y + offset(desc_.y, r), desc_.y.strides[3], d);
      }
    });
    return ACLNN_SUCCESS;
  }

  std::string Describe() const override {
    return std::string("rotary position embedding mode ") + std::to_string(static_cast<int64_t>(desc_.mode)) + " " +
           DtypeName(desc_.dtype) + ", rows of " + std::to_string(desc_.shape[3]) + (Vector() ? " (avx512)" : "");
  }

 private:
  // Rows the AVX-512 kernel takes: its modes and row lengths, every operand's row contiguous.
  bool Vector() const {
#if defined(__x86_64__)
    return Cpu().Avx512() && RopeRowAvx512Takes(desc_.mode, desc_.shape[3]) && desc_.x.strides[3] == 1 &&
           desc_.cos.strides[3] == 1 && desc_.sin.strides[3] == 1 && desc_.y.strides[3] == 1;
#else
    return false;
#endif
  }

  RopeDesc desc_;
};

class RopeCacheStep final : public Step {
 public:
  explicit RopeCacheStep(const RopeCacheDesc& desc) : d_(desc) {}

  aclnnStatus Run(const RunContext& context) const override {
    const int64_t sets = d_.mrope ? 3 : 1;
    std::vector<int64_t> positions(static_cast<size_t>(sets * d_.tokens));
    Load(d_.position_dtype, context.Resolve(d_.positions), 1, sets * d_.tokens, positions.data());
    for (size_t i = 0; i < positions.size(); ++i) {
      if (positions[i] < 0 || positions[i] >= d_.cache_rows) {
        SetErrorMessage("aclnnRopeWithSinCosCache: element %zu of 'positions' is %lld, outside [0, %lld)", i,
                        static_cast<long long>(positions[i]), static_cast<long long>(d_.cache_rows));
        return ACL_ERROR_RT_AICORE_EXCEPTION;
      }
    }
    const char* cache = context.Resolve(d_.cache);
    const int64_t half = d_.rotary_dim / 2;
    const auto element = static_cast<int64_t>(DtypeSize(d_.dtype));
    ParallelFor(d_.tokens, 1, [&](int64_t begin, int64_t end) {
      std::vector<float> cos(static_cast<size_t>(half)), sin(static_cast<size_t>(half)),
          table(static_cast<size_t>(half));
      std::vector<float> row;
      for (int64_t t = begin; t < end; ++t) {
        for (int64_t i = 0; i < half; ++i) {
          const int64_t set = !d_.mrope ? 0 : i < d_.sections[0] ? 0 : i < d_.sections[0] + d_.sections[1] ? 1 : 2;
          const int64_t p = positions[static_cast<size_t>(set * d_.tokens + t)];
          Load(d_.dtype, cache + (p * d_.rotary_dim + i) * element, 1, 1, &cos[static_cast<size_t>(i)]);
          Load(d_.dtype, cache + (p * d_.rotary_dim + half + i) * element, 1, 1, &sin[static_cast<size_t>(i)]);
        }
        for (const RopeCacheOperand* operand : {&d_.query, &d_.key}) {
          row.resize(static_cast<size_t>(operand->width));
          Load(d_.dtype, context.Resolve(operand->in) + t * operand->width * element, 1, operand->width, row.data());
          for (int64_t head = 0; head + d_.head_size <= operand->width; head += d_.head_size)
            RotateHead(&row[static_cast<size_t>(head)], cos, sin);
          Store(row.data(), d_.dtype, context.Resolve(operand->out) + t * operand->width * element, 1, operand->width);
        }
      }
    });
    return ACLNN_SUCCESS;
  }

  std::string Describe() const override {
    return std::string("rope with sin/cos cache ") + DtypeName(d_.dtype) + " tokens=" + std::to_string(d_.tokens) +
           " head=" + std::to_string(d_.head_size) + " rotary=" + std::to_string(d_.rotary_dim) +
           (d_.neox ? " neox" : " gpt-j") + (d_.mrope ? " mrope" : "");
  }

 private:
  // The first rotary_dim values of one head, in place: pairs (i, i + half) NeoX style, (2i, 2i + 1) GPT-J style.
  void RotateHead(float* x, const std::vector<float>& cos, const std::vector<float>& sin) const {
    const int64_t half = d_.rotary_dim / 2;
    for (int64_t i = 0; i < half; ++i) {
      const int64_t a = d_.neox ? i : 2 * i, b = d_.neox ? i + half : 2 * i + 1;
      const float x1 = x[a], x2 = x[b], c = cos[static_cast<size_t>(i)], s = sin[static_cast<size_t>(i)];
      x[a] = x1 * c - x2 * s;
      x[b] = x2 * c + x1 * s;
    }
  }

  RopeCacheDesc d_;
};

}  // namespace

std::unique_ptr<Step> MakeRopeStep(const RopeDesc& desc) { return std::make_unique<RopeStep>(desc); }

std::unique_ptr<Step> MakeRopeCacheStep(const RopeCacheDesc& desc) { return std::make_unique<RopeCacheStep>(desc); }

}  // namespace canopy::kernels
