// The in-process suites share one aclInit per binary; each test starts on device 0.
#include <gtest/gtest.h>

#include "acl/acl.h"

namespace {

class AclEnvironment : public ::testing::Environment {
 public:
  void SetUp() override {
    ASSERT_EQ(aclInit(nullptr), ACL_SUCCESS) << aclGetRecentErrMsg();
    ASSERT_EQ(aclrtSetDevice(0), ACL_SUCCESS) << aclGetRecentErrMsg();
  }
  void TearDown() override { EXPECT_EQ(aclFinalize(), ACL_SUCCESS) << aclGetRecentErrMsg(); }
};

[[maybe_unused]] ::testing::Environment* const environment = ::testing::AddGlobalTestEnvironment(new AclEnvironment);

}  // namespace
