// Counter-based random numbers (see random.h).
#include "random.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>
#include <numeric>
#include <string>
#include <vector>

#include "acl/error_codes/rt_error_codes.h"
#include "common/dtype.h"
#include "dtype_dispatch.h"
#include "parallel_for.h"

namespace canopy::kernels {
namespace {

constexpr uint32_t kPhiloxM0 = 0xD2511F53, kPhiloxM1 = 0xCD9E8D57;
constexpr uint32_t kPhiloxW0 = 0x9E3779B9, kPhiloxW1 = 0xBB67AE85;
constexpr int64_t kGrain = 16384;

// Element offsets of the row-major position `index` in a view of `shape` with `strides`.
int64_t OffsetOf(int64_t index, int rank, const int64_t* shape, const int64_t* strides) {
  int64_t offset = 0;
  for (int d = rank - 1; d >= 0; --d) {
    offset += (index % shape[d]) * strides[d];
    index /= shape[d];
  }
  return offset;
}

int64_t CountOf(int rank, const int64_t* shape) {
  int64_t count = 1;
  for (int d = 0; d < rank; ++d) count *= shape[d];
  return count;
}

uint64_t ReadWord(const char* base, aclDataType dtype) {
  int64_t value = 0;
  if (dtype == ACL_UINT64 || dtype == ACL_INT64) {
    std::memcpy(&value, base, sizeof value);
  } else {
    Load(dtype, base, 1, 1, &value);
  }
  return static_cast<uint64_t>(value);
}

// One value into element `offset` of `out` (any dtype).
void StoreOne(double value, const StridedOperand& out, char* base, int64_t offset) {
  Store(&value, out.dtype, base + offset * static_cast<int64_t>(DtypeSize(out.dtype)), 1, 1);
}

// v as a tensor of `dtype` holds it.
double AsStored(double v, aclDataType dtype) {
  uint64_t scratch = 0;
  Store(&v, dtype, reinterpret_cast<char*>(&scratch), 1, 1);
  double stored = 0;
  Load(dtype, reinterpret_cast<const char*>(&scratch), 1, 1, &stored);
  return stored;
}

// A standard normal from two uniforms (Box-Muller).
double Normal(const std::array<uint32_t, 4>& words) {
  const double u1 = 1.0 - UnitDouble(words[0], words[1]);  // (0, 1]
  const double u2 = UnitDouble(words[2], words[3]);
  return std::sqrt(-2.0 * std::log(u1)) * std::cos(2.0 * 3.14159265358979323846 * u2);
}

class RandomStep final : public Step {
 public:
  explicit RandomStep(const RandomDesc& desc) : d_(desc) {}

  aclnnStatus Run(const RunContext& context) const override {
    const std::array<uint64_t, 2> key = d_.seed.Resolve(context);
    const uint64_t seed = key[0], offset = key[1];
    char* out = context.Resolve(d_.out.buffer);
    const char* prob = d_.has_prob ? context.Resolve(d_.prob.buffer) : nullptr;
    const int64_t count = CountOf(d_.rank, d_.shape);
    // Integers into an integer (or bool) out are stored as they are drawn: a
    // double holds only 53 bits, and int64 draws near 2^63 rounded onto `to`.
    const bool exact = d_.kind == RandomKind::kInteger && !IsFloating(d_.out.dtype);
    const int64_t element = static_cast<int64_t>(DtypeSize(d_.out.dtype));
    ParallelFor(count, kGrain, [&](int64_t begin, int64_t end) {
      for (int64_t i = begin; i < end; ++i) {
        const std::array<uint32_t, 4> w = Philox(seed, static_cast<uint64_t>(i), offset);
        const int64_t at = OffsetOf(i, d_.rank, d_.shape, d_.out.strides);
        if (exact) {
          const int64_t value = Integer(w);
          Store(&value, d_.out.dtype, out + at * element, 1, 1);
        } else {
          StoreOne(Value(w, i, prob), d_.out, out, at);
        }
      }
    });
    return ACLNN_SUCCESS;
  }

  std::string Describe() const override {
    static const char* const kNames[] = {"uniform", "normal", "bernoulli", "integer", "exponential"};
    return std::string("random ") + kNames[static_cast<int>(d_.kind)] + " into " + DtypeName(d_.out.dtype) + " x" +
           std::to_string(CountOf(d_.rank, d_.shape));
  }

 private:
  double Value(const std::array<uint32_t, 4>& w, int64_t i, const char* prob) const {
    switch (d_.kind) {
      case RandomKind::kUniform: {
        // In FLOAT, as CANN's generator draws; a value that out's dtype rounds up to b becomes a.
        const float low = static_cast<float>(d_.a), high = static_cast<float>(d_.b);
        const double v = static_cast<float>(low + UnitDouble(w[0], w[1]) * (static_cast<double>(high) - low));
        return high > low && AsStored(v, d_.out.dtype) >= high ? low : v;
      }
      case RandomKind::kNormal:
        return d_.a + d_.b * Normal(w);
      case RandomKind::kBernoulli: {
        double p = d_.a;
        if (prob != nullptr) {
          // prob pairs with out by flat index; out elements past prob's count take the last one's cycle.
          const int64_t j = d_.prob_count == 0 ? 0 : i % d_.prob_count;
          Load(d_.prob.dtype, prob + j * d_.prob.strides[0] * static_cast<int64_t>(DtypeSize(d_.prob.dtype)), 1, 1, &p);
        }
        return UnitDouble(w[0], w[1]) < p ? 1.0 : 0.0;
      }
      case RandomKind::kInteger:
        return static_cast<double>(Integer(w));
      case RandomKind::kExponential:
        return -std::log1p(-UnitDouble(w[0], w[1])) / d_.a;
    }
    return 0;
  }

  // An integer in [from, to) from two words.
  int64_t Integer(const std::array<uint32_t, 4>& w) const {
    const auto range = static_cast<uint64_t>(d_.to) - static_cast<uint64_t>(d_.from);
    const uint64_t x = (static_cast<uint64_t>(w[0]) << 32) | w[1];
    return static_cast<int64_t>(static_cast<uint64_t>(d_.from) + x % range);
  }

  RandomDesc d_;
};

class DropoutMaskStep final : public Step {
 public:
  explicit DropoutMaskStep(const DropoutMaskDesc& desc) : d_(desc) {}

  aclnnStatus Run(const RunContext& context) const override {
    const std::array<uint64_t, 2> key = d_.seed.Resolve(context);
    const uint64_t seed = key[0], offset = key[1];
    auto* mask = reinterpret_cast<uint8_t*>(context.Resolve(d_.mask));
    const double keep = 1.0 - d_.drop;
    const int64_t bytes = d_.bits / 8;
    ParallelFor(bytes, kGrain / 8, [&](int64_t begin, int64_t end) {
      for (int64_t b = begin; b < end; ++b) {
        uint8_t byte = 0;
        for (int bit = 0; bit < 8; ++bit) {
          const std::array<uint32_t, 4> w = Philox(seed, static_cast<uint64_t>(b * 8 + bit), offset);
          if (UnitDouble(w[0], w[1]) < keep) byte |= static_cast<uint8_t>(1u << bit);
        }
        mask[b] = byte;
      }
    });
    return ACLNN_SUCCESS;
  }

  std::string Describe() const override { return "dropout mask of " + std::to_string(d_.bits) + " bits"; }

 private:
  DropoutMaskDesc d_;
};

class ApplyMaskStep final : public Step {
 public:
  explicit ApplyMaskStep(const ApplyMaskDesc& desc) : d_(desc) {}

  aclnnStatus Run(const RunContext& context) const override {
    const auto* mask = reinterpret_cast<const uint8_t*>(context.Resolve(d_.mask));
    const char* in = context.Resolve(d_.in.buffer);
    char* out = context.Resolve(d_.out.buffer);
    const int64_t in_size = static_cast<int64_t>(DtypeSize(d_.in.dtype));
    const int64_t count = CountOf(d_.rank, d_.shape);
    ParallelFor(count, kGrain, [&](int64_t begin, int64_t end) {
      for (int64_t i = begin; i < end; ++i) {
        double x = 0;
        Load(d_.in.dtype, in + OffsetOf(i, d_.rank, d_.shape, d_.in.strides) * in_size, 1, 1, &x);
        const bool keep = ((mask[i / 8] >> (i % 8)) & 1) != 0;
        StoreOne(keep ? static_cast<double>(static_cast<float>(x) * static_cast<float>(d_.scale)) : 0.0, d_.out, out,
                 OffsetOf(i, d_.rank, d_.shape, d_.out.strides));
      }
    });
    return ACLNN_SUCCESS;
  }

  std::string Describe() const override {
    return "apply dropout mask to " + std::to_string(CountOf(d_.rank, d_.shape)) + " elements";
  }

 private:
  ApplyMaskDesc d_;
};

class RandpermStep final : public Step {
 public:
  explicit RandpermStep(const RandpermDesc& desc) : d_(desc) {}

  aclnnStatus Run(const RunContext& context) const override {
    const std::array<uint64_t, 2> key = d_.seed.Resolve(context);
    const uint64_t seed = key[0], offset = key[1];
    std::vector<int64_t> values(static_cast<size_t>(d_.n));
    std::iota(values.begin(), values.end(), int64_t{0});
    // Fisher-Yates from the top, element i's draw from counter {i, offset}.
    for (int64_t i = d_.n - 1; i > 0; --i) {
      const std::array<uint32_t, 4> w = Philox(seed, static_cast<uint64_t>(i), offset);
      const uint64_t x = (static_cast<uint64_t>(w[0]) << 32) | w[1];
      std::swap(values[static_cast<size_t>(i)], values[static_cast<size_t>(x % static_cast<uint64_t>(i + 1))]);
    }
    char* out = context.Resolve(d_.out.buffer);
    for (int64_t i = 0; i < d_.n; ++i)
      StoreOne(static_cast<double>(values[static_cast<size_t>(i)]), d_.out, out, i * d_.out.strides[0]);
    return ACLNN_SUCCESS;
  }

  std::string Describe() const override { return "randperm of " + std::to_string(d_.n); }

 private:
  RandpermDesc d_;
};

class MultinomialStep final : public Step {
 public:
  explicit MultinomialStep(const MultinomialDesc& desc) : d_(desc) {}

  aclnnStatus Run(const RunContext& context) const override {
    const std::array<uint64_t, 2> key = d_.seed.Resolve(context);
    const uint64_t seed = key[0], offset = key[1];
    const char* weights = context.Resolve(d_.weights.buffer);
    char* out = context.Resolve(d_.out.buffer);
    const int64_t size = static_cast<int64_t>(DtypeSize(d_.weights.dtype));
    // Every row's weights first: a bad row fails the run before anything is written.
    std::vector<double> w(static_cast<size_t>(d_.rows * d_.classes));
    for (int64_t r = 0; r < d_.rows; ++r) {
      double sum = 0;
      for (int64_t c = 0; c < d_.classes; ++c) {
        double v = 0;
        Load(d_.weights.dtype, weights + (r * d_.weights.strides[0] + c * d_.weights.strides[1]) * size, 1, 1, &v);
        if (!(v >= 0) || !std::isfinite(v)) {
          SetErrorMessage("aclnnMultinomial: row %lld of 'self' holds %g; weights must be finite and not negative",
                          static_cast<long long>(r), v);
          return ACL_ERROR_RT_AICORE_EXCEPTION;
        }
        w[static_cast<size_t>(r * d_.classes + c)] = v;
        sum += v;
      }
      if (!(sum > 0)) {
        SetErrorMessage("aclnnMultinomial: the weights of row %lld of 'self' sum to 0", static_cast<long long>(r));
        return ACL_ERROR_RT_AICORE_EXCEPTION;
      }
      const auto positive =
          std::count_if(w.begin() + r * d_.classes, w.begin() + (r + 1) * d_.classes, [](double v) { return v > 0; });
      if (!d_.replacement && positive < d_.samples) {
        SetErrorMessage(
            "aclnnMultinomial: row %lld of 'self' has %lld non-zero weights for %lld samples without "
            "replacement",
            static_cast<long long>(r), static_cast<long long>(positive), static_cast<long long>(d_.samples));
        return ACL_ERROR_RT_AICORE_EXCEPTION;
      }
    }
    ParallelFor(d_.rows, 1, [&](int64_t begin, int64_t end) {
      for (int64_t r = begin; r < end; ++r) Row(seed, offset, &w[static_cast<size_t>(r * d_.classes)], r, out);
    });
    return ACLNN_SUCCESS;
  }

  std::string Describe() const override {
    return "multinomial " + std::to_string(d_.rows) + "x" + std::to_string(d_.classes) + " -> " +
           std::to_string(d_.samples) + (d_.replacement ? " with" : " without") + " replacement";
  }

 private:
  void Row(uint64_t seed, uint64_t offset, const double* w, int64_t r, char* out) const {
    const auto base = static_cast<uint64_t>(r * std::max(d_.classes, d_.samples));
    auto put = [&](int64_t s, int64_t index) {
      const int64_t value = index;
      std::memcpy(out + (r * d_.out.strides[0] + s * d_.out.strides[1]) * 8, &value, sizeof value);
    };
    if (d_.replacement) {
      std::vector<double> cdf(static_cast<size_t>(d_.classes));
      std::partial_sum(w, w + d_.classes, cdf.begin());
      const double total = cdf.back();
      for (int64_t s = 0; s < d_.samples; ++s) {
        const std::array<uint32_t, 4> words = Philox(seed, base + static_cast<uint64_t>(s), offset);
        const double u = UnitDouble(words[0], words[1]) * total;
        auto it = std::upper_bound(cdf.begin(), cdf.end(), u);
        auto index = static_cast<int64_t>(it - cdf.begin());
        // Never a zero-weight class at the top edge.
        while (index > 0 && (index >= d_.classes || w[index] == 0)) --index;
        put(s, index);
      }
      return;
    }
    // Without replacement: the exponential race, keys w / E, the largest first.
    std::vector<std::pair<double, int64_t>> keys;
    for (int64_t c = 0; c < d_.classes; ++c) {
      if (w[c] == 0) continue;
      const std::array<uint32_t, 4> words = Philox(seed, base + static_cast<uint64_t>(c), offset);
      const double e = -std::log1p(-UnitDouble(words[0], words[1]));
      keys.emplace_back(w[c] / e, c);
    }
    std::partial_sort(keys.begin(), keys.begin() + d_.samples, keys.end(),
                      [](const auto& a, const auto& b) { return a.first > b.first; });
    for (int64_t s = 0; s < d_.samples; ++s) put(s, keys[static_cast<size_t>(s)].second);
  }

  MultinomialDesc d_;
};

}  // namespace

std::array<uint32_t, 4> Philox(uint64_t key, uint64_t counter_low, uint64_t counter_high) {
  uint32_t c[4] = {static_cast<uint32_t>(counter_low), static_cast<uint32_t>(counter_low >> 32),
                   static_cast<uint32_t>(counter_high), static_cast<uint32_t>(counter_high >> 32)};
  uint32_t k0 = static_cast<uint32_t>(key), k1 = static_cast<uint32_t>(key >> 32);
  for (int round = 0; round < 10; ++round) {
    const uint64_t p0 = static_cast<uint64_t>(kPhiloxM0) * c[0];
    const uint64_t p1 = static_cast<uint64_t>(kPhiloxM1) * c[2];
    const uint32_t next[4] = {static_cast<uint32_t>(p1 >> 32) ^ c[1] ^ k0, static_cast<uint32_t>(p1),
                              static_cast<uint32_t>(p0 >> 32) ^ c[3] ^ k1, static_cast<uint32_t>(p0)};
    std::memcpy(c, next, sizeof c);
    k0 += kPhiloxW0;
    k1 += kPhiloxW1;
  }
  return {c[0], c[1], c[2], c[3]};
}

std::array<uint64_t, 2> RandomSeed::Resolve(const RunContext& context) const {
  if (!from_tensors) return {seed, offset};
  return {ReadWord(context.Resolve(seed_tensor), seed_dtype),
          ReadWord(context.Resolve(offset_tensor), offset_dtype) + offset};
}

std::unique_ptr<Step> MakeRandomStep(const RandomDesc& desc) { return std::make_unique<RandomStep>(desc); }
std::unique_ptr<Step> MakeDropoutMaskStep(const DropoutMaskDesc& desc) {
  return std::make_unique<DropoutMaskStep>(desc);
}
std::unique_ptr<Step> MakeApplyMaskStep(const ApplyMaskDesc& desc) { return std::make_unique<ApplyMaskStep>(desc); }
std::unique_ptr<Step> MakeRandpermStep(const RandpermDesc& desc) { return std::make_unique<RandpermStep>(desc); }
std::unique_ptr<Step> MakeMultinomialStep(const MultinomialDesc& desc) {
  return std::make_unique<MultinomialStep>(desc);
}

}  // namespace canopy::kernels
