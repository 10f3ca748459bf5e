// aclInit/aclFinalize are process-wide: the suites in this binary share one
// initialisation, and each test starts on device 0's default context.
#include "runtime_test_util.h"

namespace {

class RuntimeEnvironment : public ::testing::Environment {
 public:
  void SetUp() override {
    ASSERT_EQ(aclInit(nullptr), ACL_SUCCESS) << canopy_test::RecentMessage();
    ASSERT_EQ(aclrtSetDevice(0), ACL_SUCCESS) << canopy_test::RecentMessage();
  }
  void TearDown() override {
    EXPECT_EQ(aclrtResetDevice(0), ACL_SUCCESS) << canopy_test::RecentMessage();
    EXPECT_EQ(aclFinalize(), ACL_SUCCESS) << canopy_test::RecentMessage();
  }
};

[[maybe_unused]] ::testing::Environment* const environment =
    ::testing::AddGlobalTestEnvironment(new RuntimeEnvironment);

}  // namespace
