// Rotary position embedding (see rope.h).
#include "rope.h"

#include <string>
#include <vector>

#include "common/dtype.h"
#include "dtype_dispatch.h"
#include "parallel_for.h"

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
    ParallelFor(rows, std::max<int64_t>(1, kGrainElements / std::max<int64_t>(d, 1)), [&](int64_t begin, int64_t end) {
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
           DtypeName(desc_.dtype) + ", rows of " + std::to_string(desc_.shape[3]);
  }

 private:
  RopeDesc desc_;
};

}  // namespace

std::unique_ptr<Step> MakeRopeStep(const RopeDesc& desc) { return std::make_unique<RopeStep>(desc); }

}  // namespace canopy::kernels
