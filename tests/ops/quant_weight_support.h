// Quantised weights for the weight-quant suites (WeightQuantBatchMatmulV2,
// mc2's WeightQuantMatmulAllReduce forms): INT8 or INT4 values (two a byte, the
// even element in the low nibble) packed into device memory K- or N-contiguous.
#pragma once

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <memory>
#include <vector>

#include "op_test_support.h"

namespace canopy_test {

// A quantised weight in device memory: logical values q[k][n] stored
// K-contiguous (row n of a [n, k] matrix) or N-contiguous, INT8 or INT4.
struct QuantWeightBuffer {
  aclDataType dtype;
  int64_t k, n;
  bool kContiguous;
  int64_t offset;          // elements before the view (even for INT4)
  std::vector<int64_t> q;  // logical [k][n]
  std::unique_ptr<DeviceBuffer> buffer;

  int64_t Elements() const { return offset + k * n; }
  aclTensor* Create(aclFormat format = ACL_FORMAT_ND) const {
    const int64_t dims[2] = {k, n};
    const int64_t strides[2] = {kContiguous ? 1 : n, kContiguous ? k : 1};
    const int64_t storage = Elements();
    return aclCreateTensor(dims, 2, dtype, strides, offset, format, &storage, 1, buffer->get());
  }
};

inline std::vector<uint8_t> PackWeight(aclDataType dtype, int64_t k, int64_t n, bool kContiguous, int64_t offset,
                                       const std::vector<int64_t>& q) {
  const int64_t elements = offset + k * n;
  std::vector<uint8_t> bytes(dtype == ACL_INT4 ? (elements + 1) / 2 : elements, 0x5A);
  for (int64_t kk = 0; kk < k; ++kk) {
    for (int64_t nn = 0; nn < n; ++nn) {
      const int64_t at = offset + (kContiguous ? nn * k + kk : kk * n + nn);
      const auto value = static_cast<uint8_t>(q[kk * n + nn]);
      if (dtype == ACL_INT4) {
        uint8_t& b = bytes[at / 2];
        b = at % 2 == 0 ? static_cast<uint8_t>((b & 0xF0) | (value & 0x0F))
                        : static_cast<uint8_t>((b & 0x0F) | ((value & 0x0F) << 4));
      } else {
        bytes[at] = value;
      }
    }
  }
  return bytes;
}

inline QuantWeightBuffer MakeWeight(Rng& rng, aclDataType dtype, int64_t k, int64_t n, bool kContiguous,
                                    int64_t offset = 0) {
  QuantWeightBuffer w{dtype, k, n, kContiguous, offset, {}, nullptr};
  const int64_t lo = dtype == ACL_INT4 ? -8 : -128, hi = dtype == ACL_INT4 ? 7 : 127;
  for (int64_t i = 0; i < k * n; ++i) {
    int64_t v = 0;
    while (v == 0) v = static_cast<int64_t>(std::floor(rng.Uniform(static_cast<double>(lo), hi + 1.0)));
    w.q.push_back(std::min(v, hi));
  }
  const std::vector<uint8_t> bytes = PackWeight(dtype, k, n, kContiguous, offset, w.q);
  w.buffer = std::make_unique<DeviceBuffer>(bytes.size());
  EXPECT_EQ(aclrtMemcpy(w.buffer->get(), bytes.size(), bytes.data(), bytes.size(), ACL_MEMCPY_HOST_TO_DEVICE),
            ACL_SUCCESS);
  return w;
}

}  // namespace canopy_test
