/*
 * Canopy - CPU implementation of the CANN aclnn API.
 * aclnn/opdev/fp16_t.h: op::fp16_t, an IEEE-754 binary16 value type for host
 * code that fills and reads FLOAT16 tensors (CANN's own example programs build
 * their host buffers as std::vector<op::fp16_t>). Header only, C++11.
 *
 * The value is the 16-bit pattern in `val`, so a buffer of fp16_t is a FLOAT16
 * buffer. Conversions from arithmetic types round to nearest even (overflow
 * gives infinity, NaN stays NaN); conversions to float and double are exact.
 * Only the conversion to float is implicit, so arithmetic and comparisons on
 * fp16_t values are float arithmetic and comparisons, never ambiguous.
 */
#ifndef CANOPY_ACLNN_OPDEV_FP16_T_H_
#define CANOPY_ACLNN_OPDEV_FP16_T_H_

#include <stdint.h>
#include <string.h>

namespace op {

struct fp16_t {
  uint16_t val;

  fp16_t() : val(0) {}
  fp16_t(const float& f) : val(FromFloat(f)) {}
  fp16_t(const double& d) : val(FromFloat(static_cast<float>(d))) {}
  fp16_t(const int8_t& i) : val(FromFloat(static_cast<float>(i))) {}
  fp16_t(const uint8_t& i) : val(FromFloat(static_cast<float>(i))) {}
  fp16_t(const int16_t& i) : val(FromFloat(static_cast<float>(i))) {}
  fp16_t(const uint16_t& i) : val(FromFloat(static_cast<float>(i))) {}
  fp16_t(const int32_t& i) : val(FromFloat(static_cast<float>(i))) {}
  fp16_t(const uint32_t& i) : val(FromFloat(static_cast<float>(i))) {}
  fp16_t(const int64_t& i) : val(FromFloat(static_cast<float>(i))) {}
  fp16_t(const uint64_t& i) : val(FromFloat(static_cast<float>(i))) {}
  // The value of a 16-bit pattern.
  static fp16_t FromBits(uint16_t bits) {
    fp16_t h;
    h.val = bits;
    return h;
  }

  float toFloat() const { return ToFloat(val); }
  double toDouble() const { return static_cast<double>(ToFloat(val)); }
  operator float() const { return ToFloat(val); }
  explicit operator double() const { return static_cast<double>(ToFloat(val)); }
  explicit operator int8_t() const { return static_cast<int8_t>(ToFloat(val)); }
  explicit operator uint8_t() const { return static_cast<uint8_t>(ToFloat(val)); }
  explicit operator int16_t() const { return static_cast<int16_t>(ToFloat(val)); }
  explicit operator uint16_t() const { return static_cast<uint16_t>(ToFloat(val)); }
  explicit operator int32_t() const { return static_cast<int32_t>(ToFloat(val)); }
  explicit operator uint32_t() const { return static_cast<uint32_t>(ToFloat(val)); }
  explicit operator int64_t() const { return static_cast<int64_t>(ToFloat(val)); }
  explicit operator uint64_t() const { return static_cast<uint64_t>(ToFloat(val)); }

  static float ToFloat(uint16_t h) {
    const uint32_t sign = static_cast<uint32_t>(h & 0x8000u) << 16;
    const uint32_t exponent = (h >> 10) & 0x1fu;
    uint32_t mantissa = h & 0x3ffu;
    uint32_t bits;
    if (exponent == 0x1fu) {  // infinity or NaN (payload kept)
      bits = sign | 0x7f800000u | (mantissa << 13);
    } else if (exponent != 0) {  // normal: rebias 15 -> 127
      bits = sign | ((exponent + 112u) << 23) | (mantissa << 13);
    } else if (mantissa == 0) {
      bits = sign;
    } else {  // subnormal: normalise into a float normal
      uint32_t e = 113u;
      while ((mantissa & 0x400u) == 0) {
        mantissa <<= 1;
        --e;
      }
      bits = sign | (e << 23) | ((mantissa & 0x3ffu) << 13);
    }
    float f;
    memcpy(&f, &bits, sizeof f);
    return f;
  }

  static uint16_t FromFloat(float f) {
    uint32_t bits;
    memcpy(&bits, &f, sizeof bits);
    const uint16_t sign = static_cast<uint16_t>((bits >> 16) & 0x8000u);
    const uint32_t abs = bits & 0x7fffffffu;
    if (abs > 0x7f800000u) return static_cast<uint16_t>(sign | 0x7e00u | ((abs >> 13) & 0x3ffu));  // NaN
    if (abs >= 0x47800000u) return static_cast<uint16_t>(sign | 0x7c00u);  // |f| >= 65536: infinity
    const int32_t exponent = static_cast<int32_t>(abs >> 23) - 127;
    uint32_t mantissa = (abs & 0x7fffffu) | 0x800000u;  // with the implicit bit
    int32_t shift;                                      // how many low bits the binary16 drops
    uint32_t result_exponent;
    if (exponent >= -14) {  // binary16 normal
      shift = 13;
      result_exponent = static_cast<uint32_t>(exponent + 15);
    } else {  // binary16 subnormal (or rounds to zero)
      if (exponent < -25) return sign;
      shift = 13 + (-14 - exponent);
      result_exponent = 0;
    }
    const uint32_t kept = mantissa >> shift;
    const uint32_t dropped = mantissa & ((1u << shift) - 1u);
    const uint32_t half = 1u << (shift - 1);
    uint32_t rounded = kept;
    if (dropped > half || (dropped == half && (kept & 1u))) ++rounded;  // nearest, ties to even
    // A normal keeps its implicit bit in `rounded`: add the exponent and let a
    // mantissa carry run into it (1.11..1 rounding up to the next power of two,
    // 65504+ rounding to infinity). A subnormal carrying into bit 10 becomes the
    // smallest normal the same way.
    uint32_t out;
    if (result_exponent != 0) {
      out = ((result_exponent - 1u) << 10) + rounded;
    } else {
      out = rounded;
    }
    return static_cast<uint16_t>(sign | out);
  }
};

}  // namespace op

#endif /* CANOPY_ACLNN_OPDEV_FP16_T_H_ */
