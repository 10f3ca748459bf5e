// The row primitives' portable forms and the choice between forms (see reduce_rows.h).
#include "reduce_rows.h"

#include <algorithm>
#include <cmath>
#include <cstdlib>

#include "cpu_features.h"

namespace canopy::kernels {
namespace {

// Independent accumulators: the compiler keeps them in vector registers, and the
// order of the additions is fixed by n alone.
constexpr int kLanes = 8;

template <typename Term>
double LaneSum(int64_t n, const Term& term) {
  double lanes[kLanes] = {};
  int64_t i = 0;
  for (; i + kLanes <= n; i += kLanes) {
    for (int l = 0; l < kLanes; ++l) lanes[l] += term(i + l);
  }
  for (int l = 0; i < n; ++i, ++l) lanes[l] += term(i);
  for (int width = kLanes / 2; width >= 1; width /= 2) {
    for (int l = 0; l < width; ++l) lanes[l] += lanes[l + width];
  }
  return lanes[0];
}

float MaxPortable(const float* x, int64_t n) {
  float lanes[kLanes];
  for (float& lane : lanes) lane = -INFINITY;
  bool nan = false;
  int64_t i = 0;
  for (; i + kLanes <= n; i += kLanes) {
    for (int l = 0; l < kLanes; ++l) {
      nan |= x[i + l] != x[i + l];
      lanes[l] = lanes[l] > x[i + l] ? lanes[l] : x[i + l];
    }
  }
  float max = -INFINITY;
  for (; i < n; ++i) {
    nan |= x[i] != x[i];
    max = max > x[i] ? max : x[i];
  }
  for (const float lane : lanes) max = max > lane ? max : lane;
  return nan ? NAN : max;
}

double ExpSumPortable(const float* x, int64_t n, float shift, float* e) {
  return LaneSum(n, [&](int64_t i) {
    const float term = std::exp(x[i] - shift);
    if (e != nullptr) e[i] = term;
    return static_cast<double>(term);
  });
}

double SumPortable(const float* x, int64_t n) {
  return LaneSum(n, [&](int64_t i) { return static_cast<double>(x[i]); });
}

double SumSquaresPortable(const float* x, int64_t n) {
  return LaneSum(n, [&](int64_t i) { return static_cast<double>(x[i]) * x[i]; });
}

double SumSquaredDeviationsPortable(const float* x, int64_t n, double mean) {
  return LaneSum(n, [&](int64_t i) {
    const double deviation = x[i] - mean;
    return deviation * deviation;
  });
}

constexpr RowKernels kPortable = {MaxPortable, ExpSumPortable, SumPortable, SumSquaresPortable,
                                  SumSquaredDeviationsPortable};

}  // namespace

bool StreamsOutput(int64_t elements, int64_t element_bytes) {
  const char* text = std::getenv("CANOPY_STREAM_OUTPUT_BYTES");
  const int64_t threshold = text == nullptr ? int64_t{256} << 20 : std::strtoll(text, nullptr, 10);
  if (threshold <= 0) return true;
  const int64_t size = std::max<int64_t>(element_bytes, 1);
  return elements >= threshold / size + (threshold % size != 0 ? 1 : 0);
}

const RowKernels& Rows() {
#if defined(__x86_64__)
  static const RowKernels& chosen = Cpu().Avx512() ? Avx512Rows() : Cpu().Avx2() ? Avx2Rows() : kPortable;
  return chosen;
#else
  return kPortable;
#endif
}

const StoredRowKernels* StoredRows(aclDataType dtype, bool stream) {
#if defined(__x86_64__)
  if (Cpu().Avx512() && Cpu().avx512bf16 && dtype == ACL_BF16) return Avx512Bf16StoredRows(stream);
  if (Cpu().Avx512()) return Avx512StoredRows(dtype, stream);
#endif
  (void)dtype;
  (void)stream;
  return nullptr;
}

}  // namespace canopy::kernels
