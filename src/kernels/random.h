// Counter-based random numbers for the random ops (Bernoulli, Dropout and its
// masks, Normal, Uniform, Random, Multinomial, Randperm, Exponential): element
// i of a call with (seed, offset) draws from Philox4x32-10 with key = seed and
// counter = {i, offset}, so the output depends only on seed, offset, the
// shape and the parameters, never on threads or earlier calls (CANN's random
// ops are stateless in the same way; their bits differ by chip, and so do
// Canopy's). Seed and offset may come from device tensors read on the stream
// (the *Tensor forms: seed = seedTensor[0], offset = offsetTensor[0] + offset).
#pragma once

#include <array>
#include <cstdint>
#include <memory>

#include "acl/acl_base.h"
#include "elementwise.h"
#include "nnopbase/executor.h"

namespace canopy::kernels {

// Four 32-bit words of Philox4x32-10 for (key, counter).
std::array<uint32_t, 4> Philox(uint64_t key, uint64_t counter_low, uint64_t counter_high);

// A uniform double in [0, 1) from two words (53 bits).
inline double UnitDouble(uint32_t high, uint32_t low) {
  return static_cast<double>(((static_cast<uint64_t>(high) << 32) | low) >> 11) * 0x1.0p-53;
}

enum class RandomKind : uint8_t {
  kUniform,      // [a, b), a float rounded into out's dtype (never b)
  kNormal,       // mean a, standard deviation b
  kBernoulli,    // 1 with probability a (or prob[i] when has_prob), else 0
  kInteger,      // integers in [from, to)
  kExponential,  // rate a: -log(1 - u) / a
};

// Where seed and offset come from.
struct RandomSeed {
  uint64_t seed = 0, offset = 0;
  bool from_tensors = false;  // seed = seed_tensor[0], offset = offset_tensor[0] + offset (INT64 or UINT64)
  BufferRef seed_tensor, offset_tensor;
  aclDataType seed_dtype = ACL_INT64, offset_dtype = ACL_INT64;

  // The (seed, offset) the run uses.
  std::array<uint64_t, 2> Resolve(const RunContext& context) const;
};

struct RandomDesc {
  RandomKind kind = RandomKind::kUniform;
  double a = 0, b = 1;
  int64_t from = 0, to = 1;
  RandomSeed seed;
  StridedOperand out;  // any dtype and strides, walked row-major over shape
  int rank = 0;
  int64_t shape[kMaxRank] = {};
  bool has_prob = false;  // kBernoulli with a tensor of probabilities, paired with out by flat index
  StridedOperand prob;
  int64_t prob_count = 0;
};

std::unique_ptr<Step> MakeRandomStep(const RandomDesc& desc);

// Dropout's bit mask: `bits` bits (the element count rounded up to 128), bit i
// (byte i / 8, bit i % 8, LSB first) 1 = keep, with probability 1 - drop.
struct DropoutMaskDesc {
  double drop = 0.5;
  RandomSeed seed;
  int64_t bits = 0;
  BufferRef mask;  // uint8, bits / 8 bytes, contiguous
};
std::unique_ptr<Step> MakeDropoutMaskStep(const DropoutMaskDesc& desc);

// out = mask bit i ? in * scale : 0 (DoMask, Dropout): in and out strided over shape, walked row-major.
struct ApplyMaskDesc {
  double scale = 1;
  BufferRef mask;
  StridedOperand in, out;
  int rank = 0;
  int64_t shape[kMaxRank] = {};
};
std::unique_ptr<Step> MakeApplyMaskStep(const ApplyMaskDesc& desc);

// A uniformly random permutation of 0..n-1 into out (any dtype, one stride).
struct RandpermDesc {
  int64_t n = 0;
  RandomSeed seed;
  StridedOperand out;
};
std::unique_ptr<Step> MakeRandpermStep(const RandpermDesc& desc);

// Per row of weights [rows, classes]: `samples` category indices (INT64), with
// replacement (inverse CDF) or without (the exponential race, in descending
// key order). Rows whose weights sum to 0 or hold a negative or non-finite
// weight fail the run with a message.
struct MultinomialDesc {
  int64_t rows = 1, classes = 0, samples = 0;
  bool replacement = true;
  RandomSeed seed;
  StridedOperand weights;  // strides[0] rows, strides[1] classes
  StridedOperand out;      // INT64, strides[0] rows, strides[1] samples
};
std::unique_ptr<Step> MakeMultinomialStep(const MultinomialDesc& desc);

}  // namespace canopy::kernels
