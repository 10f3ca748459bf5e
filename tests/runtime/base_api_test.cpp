// acl_base.h helpers and version queries: sizes, fp16 conversion, data buffers.
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>

#include "acl/acl.h"

namespace {

TEST(BaseApi, DataTypeSizes) {
  EXPECT_EQ(aclDataTypeSize(ACL_FLOAT), 4u);
  EXPECT_EQ(aclDataTypeSize(ACL_FLOAT16), 2u);
  EXPECT_EQ(aclDataTypeSize(ACL_BF16), 2u);
  EXPECT_EQ(aclDataTypeSize(ACL_DOUBLE), 8u);
  EXPECT_EQ(aclDataTypeSize(ACL_INT8), 1u);
  EXPECT_EQ(aclDataTypeSize(ACL_UINT64), 8u);
  EXPECT_EQ(aclDataTypeSize(ACL_BOOL), 1u);
  EXPECT_EQ(aclDataTypeSize(ACL_COMPLEX64), 8u);
  EXPECT_EQ(aclDataTypeSize(ACL_COMPLEX128), 16u);
  EXPECT_EQ(aclDataTypeSize(ACL_DT_UNDEFINED), 0u);
  EXPECT_EQ(aclDataTypeSize(static_cast<aclDataType>(999)), 0u);
}

TEST(BaseApi, Float16RoundTripsAndRoundsToNearestEven) {
  for (float v : {0.0f, -0.0f, 1.0f, -2.5f, 65504.0f, 6.103515625e-05f, 5.9604644775390625e-08f}) {
    EXPECT_EQ(aclFloat16ToFloat(aclFloatToFloat16(v)), v) << v;
  }
  EXPECT_EQ(aclFloatToFloat16(1.0f), 0x3c00);
  EXPECT_EQ(aclFloatToFloat16(1.0f + 1.0f / 2048), 0x3c00) << "a tie rounds to even";
  EXPECT_EQ(aclFloatToFloat16(1.0f + 3.0f / 2048), 0x3c02);
  EXPECT_EQ(aclFloatToFloat16(1e6f), 0x7c00) << "overflow becomes infinity";
  EXPECT_TRUE(std::isnan(aclFloat16ToFloat(aclFloatToFloat16(NAN))));
}

TEST(BaseApi, DataBuffers) {
  int storage[4] = {};
  aclDataBuffer* buffer = aclCreateDataBuffer(storage, sizeof(storage));
  ASSERT_NE(buffer, nullptr);
  EXPECT_EQ(aclGetDataBufferAddr(buffer), storage);
  EXPECT_EQ(aclGetDataBufferSizeV2(buffer), sizeof(storage));
  EXPECT_EQ(aclUpdateDataBuffer(buffer, storage + 1, 8), ACL_SUCCESS);
  EXPECT_EQ(aclGetDataBufferAddr(buffer), storage + 1);
  EXPECT_EQ(aclGetDataBufferSizeV2(buffer), 8u);
  EXPECT_EQ(aclUpdateDataBuffer(nullptr, storage, 8), ACL_ERROR_INVALID_PARAM);
  EXPECT_EQ(aclDestroyDataBuffer(buffer), ACL_SUCCESS);
  EXPECT_EQ(aclDestroyDataBuffer(nullptr), ACL_ERROR_INVALID_PARAM);
  EXPECT_EQ(aclGetDataBufferAddr(nullptr), nullptr);
}

TEST(BaseApi, VersionAndRunMode) {
  aclrtRunMode mode = ACL_DEVICE;
  EXPECT_EQ(aclrtGetRunMode(&mode), ACL_SUCCESS);
  EXPECT_EQ(mode, ACL_HOST);
  EXPECT_EQ(aclrtGetRunMode(nullptr), ACL_ERROR_INVALID_PARAM);
  char package[] = "runtime";
  char version[64] = {};
  EXPECT_EQ(aclsysGetVersionStr(package, version), ACL_SUCCESS);
  EXPECT_GT(std::strlen(version), 0u);
  int32_t number = 0;
  EXPECT_EQ(aclsysGetVersionNum(package, &number), ACL_SUCCESS);
  EXPECT_GT(number, 0);
}

}  // namespace
