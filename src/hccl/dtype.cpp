#include "dtype.h"

#include <algorithm>
#include <type_traits>

#include "common/half.h"

namespace canopy::hccl {
namespace {

// Integer sums and products wrap as on hardware; done in the unsigned type so
// that the wrap is defined behaviour.
template <typename T, bool = std::is_integral_v<T>>
struct Arithmetic {
  using type = T;
};
template <typename T>
struct Arithmetic<T, true> {
  using type = std::make_unsigned_t<T>;
};

template <typename T>
T Combine(HcclReduceOp op, T a, T b) {
  using Wide = typename Arithmetic<T>::type;
  switch (op) {
    case HCCL_REDUCE_SUM:
      return static_cast<T>(static_cast<Wide>(a) + static_cast<Wide>(b));
    case HCCL_REDUCE_PROD:
      return static_cast<T>(static_cast<Wide>(a) * static_cast<Wide>(b));
    case HCCL_REDUCE_MAX:
      return std::max(a, b);
    case HCCL_REDUCE_MIN:
      return std::min(a, b);
    default:
      return a;
  }
}

template <typename T>
void ReduceTyped(HcclReduceOp op, void* dst, const void* src, size_t count) {
  T* out = static_cast<T*>(dst);
  const T* in = static_cast<const T*>(src);
  // One switch per call, not per element, so that each loop vectorises.
  switch (op) {
    case HCCL_REDUCE_SUM:
      for (size_t i = 0; i < count; ++i) out[i] = Combine(HCCL_REDUCE_SUM, out[i], in[i]);
      break;
    case HCCL_REDUCE_PROD:
      for (size_t i = 0; i < count; ++i) out[i] = Combine(HCCL_REDUCE_PROD, out[i], in[i]);
      break;
    case HCCL_REDUCE_MAX:
      for (size_t i = 0; i < count; ++i) out[i] = std::max(out[i], in[i]);
      break;
    case HCCL_REDUCE_MIN:
      for (size_t i = 0; i < count; ++i) out[i] = std::min(out[i], in[i]);
      break;
    default:
      break;
  }
}

}  // namespace

size_t ElementSize(HcclDataType type) {
  switch (type) {
    case HCCL_DATA_TYPE_INT8:
    case HCCL_DATA_TYPE_UINT8:
      return 1;
    case HCCL_DATA_TYPE_INT16:
    case HCCL_DATA_TYPE_UINT16:
    case HCCL_DATA_TYPE_FP16:
    case HCCL_DATA_TYPE_BFP16:
      return 2;
    case HCCL_DATA_TYPE_INT32:
    case HCCL_DATA_TYPE_UINT32:
    case HCCL_DATA_TYPE_FP32:
      return 4;
    case HCCL_DATA_TYPE_INT64:
    case HCCL_DATA_TYPE_UINT64:
    case HCCL_DATA_TYPE_FP64:
      return 8;
    default:
      return 0;
  }
}

const char* DataTypeName(HcclDataType type) {
  switch (type) {
    case HCCL_DATA_TYPE_INT8:
      return "int8";
    case HCCL_DATA_TYPE_INT16:
      return "int16";
    case HCCL_DATA_TYPE_INT32:
      return "int32";
    case HCCL_DATA_TYPE_FP16:
      return "fp16";
    case HCCL_DATA_TYPE_FP32:
      return "fp32";
    case HCCL_DATA_TYPE_INT64:
      return "int64";
    case HCCL_DATA_TYPE_UINT64:
      return "uint64";
    case HCCL_DATA_TYPE_UINT8:
      return "uint8";
    case HCCL_DATA_TYPE_UINT16:
      return "uint16";
    case HCCL_DATA_TYPE_UINT32:
      return "uint32";
    case HCCL_DATA_TYPE_FP64:
      return "fp64";
    case HCCL_DATA_TYPE_BFP16:
      return "bfp16";
    default:
      return "unknown";
  }
}

const char* ReduceOpName(HcclReduceOp op) {
  switch (op) {
    case HCCL_REDUCE_SUM:
      return "sum";
    case HCCL_REDUCE_PROD:
      return "prod";
    case HCCL_REDUCE_MAX:
      return "max";
    case HCCL_REDUCE_MIN:
      return "min";
    default:
      return "unknown";
  }
}

bool IsReducibleType(HcclDataType type) {
  switch (type) {
    case HCCL_DATA_TYPE_INT8:
    case HCCL_DATA_TYPE_INT16:
    case HCCL_DATA_TYPE_INT32:
    case HCCL_DATA_TYPE_INT64:
    case HCCL_DATA_TYPE_FP16:
    case HCCL_DATA_TYPE_FP32:
    case HCCL_DATA_TYPE_BFP16:
      return true;
    default:
      return false;
  }
}

bool IsSupportedReduceOp(HcclDataType type, HcclReduceOp op) {
  switch (op) {
    case HCCL_REDUCE_SUM:
    case HCCL_REDUCE_MAX:
    case HCCL_REDUCE_MIN:
      return true;
    case HCCL_REDUCE_PROD:
      return type != HCCL_DATA_TYPE_INT16 && type != HCCL_DATA_TYPE_BFP16;
    default:
      return false;
  }
}

void ReduceInto(HcclDataType type, HcclReduceOp op, void* dst, const void* src, size_t count) {
  switch (type) {
    case HCCL_DATA_TYPE_INT8:
      return ReduceTyped<int8_t>(op, dst, src, count);
    case HCCL_DATA_TYPE_INT16:
      return ReduceTyped<int16_t>(op, dst, src, count);
    case HCCL_DATA_TYPE_INT32:
      return ReduceTyped<int32_t>(op, dst, src, count);
    case HCCL_DATA_TYPE_INT64:
      return ReduceTyped<int64_t>(op, dst, src, count);
    case HCCL_DATA_TYPE_UINT8:
      return ReduceTyped<uint8_t>(op, dst, src, count);
    case HCCL_DATA_TYPE_UINT16:
      return ReduceTyped<uint16_t>(op, dst, src, count);
    case HCCL_DATA_TYPE_UINT32:
      return ReduceTyped<uint32_t>(op, dst, src, count);
    case HCCL_DATA_TYPE_UINT64:
      return ReduceTyped<uint64_t>(op, dst, src, count);
    case HCCL_DATA_TYPE_FP32:
      return ReduceTyped<float>(op, dst, src, count);
    case HCCL_DATA_TYPE_FP64:
      return ReduceTyped<double>(op, dst, src, count);
    default:
      return;
  }
}

void ReduceFloatInto(HcclReduceOp op, float* dst, const float* src, size_t count) {
  ReduceTyped<float>(op, dst, src, count);
}

void HalfToFloat(HcclDataType type, const void* src, float* dst, size_t count) {
  const auto* bits = static_cast<const uint16_t*>(src);
  if (type == HCCL_DATA_TYPE_FP16) {
    canopy::HalfToFloatN(bits, dst, static_cast<int64_t>(count));
  } else {
    canopy::Bf16ToFloatN(bits, dst, static_cast<int64_t>(count));
  }
}

void FloatToHalf(HcclDataType type, const float* src, void* dst, size_t count) {
  auto* bits = static_cast<uint16_t*>(dst);
  if (type == HCCL_DATA_TYPE_FP16) {
    canopy::FloatToHalfN(src, bits, static_cast<int64_t>(count));
  } else {
    canopy::FloatToBf16N(src, bits, static_cast<int64_t>(count));
  }
}

}  // namespace canopy::hccl
