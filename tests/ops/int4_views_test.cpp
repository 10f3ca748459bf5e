// INT4 views, two values a byte, where the op kit's byte arithmetic once took
// an element size of 0: an INT4 output inside an input's bytes was staged in a
// buffer of 0 bytes (heap overflow), an INT4 input sharing its first byte with
// the output looked disjoint (the output overwrote packed input not yet read),
// and a strided INT4 output was staged in 0 bytes and never copied back.
// Everything goes through the public C API; values are checked against the
// same op into separate memory or against the quantisation done here.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

#include "aclnnop/aclnn_add_rms_norm_dynamic_quant_v2.h"
#include "aclnnop/aclnn_ascend_anti_quant.h"
#include "aclnnop/aclnn_ascend_quant_v3.h"
#include "aclnnop/aclnn_rotate_quant.h"
#include "aclnnop/aclnn_swi_glu_quant_v2.h"
#include "op_test_support.h"

namespace canopy_test {
namespace {

using W = uint64_t*;
using E = aclOpExecutor**;

// A view of `storage_elements` elements of `dtype` at `data`.
aclTensor* ViewOf(void* data, aclDataType dtype, const Shape& shape, const Shape& strides, int64_t offset,
                  int64_t storage_elements) {
  return aclCreateTensor(shape.data(), shape.size(), dtype, strides.data(), offset, ACL_FORMAT_ND, &storage_elements, 1,
                         data);
}

aclTensor* FloatScalarTensor(DeviceBuffer& memory, float value) {
  EXPECT_EQ(aclrtMemcpy(memory.get(), sizeof(float), &value, sizeof(float), ACL_MEMCPY_HOST_TO_DEVICE), ACL_SUCCESS);
  return ViewOf(memory.get(), ACL_FLOAT, {1}, {1}, 0, 1);
}

std::vector<uint8_t> Download(const void* device, size_t bytes) {
  std::vector<uint8_t> host(bytes);
  EXPECT_EQ(aclrtMemcpy(host.data(), bytes, device, bytes, ACL_MEMCPY_DEVICE_TO_HOST), ACL_SUCCESS);
  return host;
}

void Upload(void* device, const std::vector<uint8_t>& host) {
  ASSERT_EQ(aclrtMemcpy(device, host.size(), host.data(), host.size(), ACL_MEMCPY_HOST_TO_DEVICE), ACL_SUCCESS);
}

int Nibble(const std::vector<uint8_t>& bytes, int64_t index) {
  const int value = (bytes[static_cast<size_t>(index / 2)] >> (index % 2 * 4)) & 0xF;
  return value >= 8 ? value - 16 : value;
}

// AscendQuantV3 into an INT4 y that starts 64 bytes into x's fp16 bytes: the
// guard stages y, and y holds x's values rounded (scale 1).
TEST(Int4Views, QuantisedOutputInsideTheInputsBytesIsStaged) {
  constexpr int64_t n = 256;
  std::vector<uint16_t> x_half(n);
  std::vector<float> x_values(n);
  for (int64_t i = 0; i < n; ++i) {
    x_values[static_cast<size_t>(i)] = static_cast<float>((i * 5) % 15 - 7);
    x_half[static_cast<size_t>(i)] = DoubleToHalf(x_values[static_cast<size_t>(i)]);
  }
  DeviceBuffer memory(4096);
  ASSERT_EQ(aclrtMemcpy(memory.get(), n * 2, x_half.data(), n * 2, ACL_MEMCPY_HOST_TO_DEVICE), ACL_SUCCESS);
  DeviceBuffer scale_memory(sizeof(float));
  aclTensor* x = ViewOf(memory.get(), ACL_FLOAT16, {n}, {1}, 0, 2048);
  aclTensor* y = ViewOf(memory.get(), ACL_INT4, {n}, {1}, 128, 8192);  // bytes [64, 192): inside x's [0, 512)
  aclTensor* scale = FloatScalarTensor(scale_memory, 1.0f);
  const OpRun run = RunOp(
      [&](OpArgs&, W w, E e) {
        return aclnnAscendQuantV3GetWorkspaceSize(x, scale, nullptr, false, "round", ACL_INT4, -1, y, w, e);
      },
      aclnnAscendQuantV3);
  ASSERT_TRUE(run.ok()) << Describe(run);
  const std::vector<uint8_t> bytes = Download(static_cast<char*>(memory.get()) + 64, n / 2);
  for (int64_t i = 0; i < n; ++i) EXPECT_EQ(Nibble(bytes, i), x_values[static_cast<size_t>(i)]) << "element " << i;
  for (aclTensor* t : {x, y, scale}) aclDestroyTensor(t);
}

// AscendAntiQuant of an INT4 x into an fp16 y at the same address: the kernel
// works in chunks, so without staging the first chunk's y overwrote the packed
// x of later chunks.
TEST(Int4Views, DequantisedOutputOverTheInputIsStaged) {
  constexpr int64_t n = 16384;
  std::vector<uint8_t> packed(n / 2);
  for (size_t i = 0; i < packed.size(); ++i) packed[i] = static_cast<uint8_t>((i * 7 + 3) & 0xFF);
  DeviceBuffer memory(n * 2);
  Upload(memory.get(), packed);
  DeviceBuffer scale_memory(sizeof(float));
  aclTensor* x = ViewOf(memory.get(), ACL_INT4, {n}, {1}, 0, n);
  aclTensor* y = ViewOf(memory.get(), ACL_FLOAT16, {n}, {1}, 0, n);
  aclTensor* scale = FloatScalarTensor(scale_memory, 0.5f);
  const OpRun run =
      RunOp([&](OpArgs&, W w,
                E e) { return aclnnAscendAntiQuantGetWorkspaceSize(x, scale, nullptr, ACL_FLOAT16, false, y, w, e); },
            aclnnAscendAntiQuant);
  ASSERT_TRUE(run.ok()) << Describe(run);
  const std::vector<uint8_t> bytes = Download(memory.get(), n * 2);
  int wrong = 0;
  for (int64_t i = 0; i < n && wrong < 8; ++i) {
    uint16_t half = 0;
    std::memcpy(&half, &bytes[static_cast<size_t>(i * 2)], 2);
    const double want = Nibble(packed, i) * 0.5;
    if (HalfToDouble(half) != want) {
      ADD_FAILURE() << "element " << i << ": " << HalfToDouble(half) << ", want " << want;
      ++wrong;
    }
  }
  for (aclTensor* t : {x, y, scale}) aclDestroyTensor(t);
}

// Strided INT4 outputs cannot be written through a staging copy (two values a
// byte): refused with 161002 where the op would otherwise stage them.
TEST(Int4Views, StridedInt4OutputsAreRefused) {
  constexpr int64_t rows = 4, columns = 16, half = 8;
  Rng rng = Rng::ForCurrentTest();
  DeviceTensor x(ACL_FLOAT, {rows, columns});
  x.WriteView(RandomValues(rng, ACL_FLOAT, rows * columns, Range{}));
  DeviceTensor smooth(ACL_FLOAT, {1, half});
  smooth.WriteView(Values(half, 1.0));
  DeviceTensor scale(ACL_FLOAT, {rows});
  DeviceBuffer y_memory(256);
  char quant_mode[] = "dynamic";
  aclTensor* transposed = ViewOf(y_memory.get(), ACL_INT4, {rows, half}, {1, rows}, 0, rows * half);
  const OpRun swiglu = RunOp(
      [&](OpArgs& a, W w, E e) {
        return aclnnSwiGluQuantV2GetWorkspaceSize(a.Tensor(x), a.Tensor(smooth), nullptr, nullptr, false, quant_mode, 0,
                                                  ACL_INT4, transposed, a.Tensor(scale), w, e);
      },
      aclnnSwiGluQuantV2);
  EXPECT_EQ(swiglu.phase1, ACLNN_ERR_PARAM_INVALID) << Describe(swiglu);
  EXPECT_NE(swiglu.message.find("INT4 yOut must be contiguous"), std::string::npos) << swiglu.message;
  aclDestroyTensor(transposed);

  constexpr int64_t m = 16, n = 128, k = 16;
  DeviceTensor rx(ACL_FLOAT16, {m, n}), rotation(ACL_FLOAT16, {k, k}), row_scale(ACL_FLOAT, {m});
  rx.WriteView(RandomValues(rng, ACL_FLOAT16, m * n, Range{}));
  rotation.WriteView(RandomValues(rng, ACL_FLOAT16, k * k, Range{}));
  DeviceBuffer padded_memory(4096);
  aclTensor* padded = ViewOf(padded_memory.get(), ACL_INT4, {m, n}, {n + 2, 1}, 2, 2 + m * (n + 2));
  char round_mode[] = "rint";
  const OpRun rotate = RunOp(
      [&](OpArgs& a, W w, E e) {
        return aclnnRotateQuantGetWorkspaceSize(a.Tensor(rx), a.Tensor(rotation), nullptr, -1, round_mode, 0, 0.0,
                                                false, padded, a.Tensor(row_scale), w, e);
      },
      aclnnRotateQuant);
  EXPECT_EQ(rotate.phase1, ACLNN_ERR_PARAM_INVALID) << Describe(rotate);
  EXPECT_NE(rotate.message.find("INT4 yOut must be contiguous"), std::string::npos) << rotate.message;
  aclDestroyTensor(padded);

  DeviceTensor x1(ACL_FLOAT16, {rows, columns}), x2(ACL_FLOAT16, {rows, columns}), gamma(ACL_FLOAT16, {columns});
  x1.WriteView(RandomValues(rng, ACL_FLOAT16, rows * columns, Range{}));
  x2.WriteView(RandomValues(rng, ACL_FLOAT16, rows * columns, Range{}));
  gamma.WriteView(Values(columns, 1.0));
  DeviceTensor x_out(ACL_FLOAT16, {rows, columns}), scale1(ACL_FLOAT, {rows}), scale2(ACL_FLOAT, {rows});
  DeviceBuffer y1_memory(256), y2_memory(256);
  aclTensor* y1 = ViewOf(y1_memory.get(), ACL_INT4, {rows, columns}, {1, rows}, 0, rows * columns);
  aclTensor* y2 = ViewOf(y2_memory.get(), ACL_INT4, {rows, columns}, {columns, 1}, 0, rows * columns);
  const OpRun norm = RunOp(
      [&](OpArgs& a, W w, E e) {
        return aclnnAddRmsNormDynamicQuantV2GetWorkspaceSize(a.Tensor(x1), a.Tensor(x2), a.Tensor(gamma), nullptr,
                                                             nullptr, nullptr, 1e-6, a.BoolArray({true, false}), y1, y2,
                                                             a.Tensor(x_out), a.Tensor(scale1), a.Tensor(scale2), w, e);
      },
      aclnnAddRmsNormDynamicQuantV2);
  EXPECT_EQ(norm.phase1, ACLNN_ERR_PARAM_INVALID) << Describe(norm);
  EXPECT_NE(norm.message.find("INT4 y1Out must be contiguous"), std::string::npos) << norm.message;
  aclDestroyTensor(y1);
  aclDestroyTensor(y2);
}

}  // namespace
}  // namespace canopy_test
