// CANN's logging conventions: ASCEND_GLOBAL_LOG_LEVEL, ASCEND_SLOG_PRINT_TO_STDOUT
// and ASCEND_PROCESS_LOG_PATH. The settings are read once per process, so the
// suite runs under several environments (tests/observability/CMakeLists.txt)
// and each test derives what it expects from the environment it runs in.
#include <gtest/gtest.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

#include "acl/acl.h"
#include "aclnnop/aclnn_add.h"

namespace {

int Level() {
  const char* value = std::getenv("ASCEND_GLOBAL_LOG_LEVEL");
  return value != nullptr && value[0] >= '0' && value[0] <= '4' && value[1] == '\0' ? value[0] - '0' : 3;
}
bool ToStdout() {
  const char* value = std::getenv("ASCEND_SLOG_PRINT_TO_STDOUT");
  return value != nullptr && std::strcmp(value, "1") == 0;
}

// Everything written to file descriptor 1 while `body` runs.
template <typename Body>
std::string CaptureStdout(Body body) {
  std::fflush(stdout);
  char path[] = "/tmp/canopy_slog_XXXXXX";
  const int file = mkstemp(path);
  EXPECT_GE(file, 0);
  const int saved = dup(1);
  dup2(file, 1);
  body();
  std::fflush(stdout);
  dup2(saved, 1);
  close(saved);
  close(file);
  std::ifstream in(path);
  std::stringstream text;
  text << in.rdbuf();
  std::remove(path);
  return text.str();
}

// This process's plog file under ASCEND_PROCESS_LOG_PATH, "" when there is none.
std::string PlogText() {
  const char* directory = std::getenv("ASCEND_PROCESS_LOG_PATH");
  if (directory == nullptr) return "";
  const std::string prefix = "plog-" + std::to_string(getpid()) + "_";
  std::error_code error;
  for (const auto& entry : std::filesystem::directory_iterator(std::string(directory) + "/plog", error)) {
    if (entry.path().filename().string().rfind(prefix, 0) != 0) continue;
    std::ifstream in(entry.path());
    std::stringstream text;
    text << in.rdbuf();
    return text.str();
  }
  return "";
}

class Slog : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    ASSERT_EQ(aclInit(nullptr), ACL_SUCCESS);
    ASSERT_EQ(aclrtSetDevice(0), ACL_SUCCESS);
  }
};

TEST_F(Slog, AnErrorIsOneErrorRecordNamingTheFunction) {
  const std::string out =
      CaptureStdout([] { EXPECT_EQ(aclrtMalloc(nullptr, 64, ACL_MEM_MALLOC_HUGE_FIRST), ACL_ERROR_INVALID_PARAM); });
  const bool expected = ToStdout() && Level() <= 3;
  if (expected) {
    EXPECT_NE(out.find("[ERROR] CANOPY(" + std::to_string(getpid()) + ","), std::string::npos) << out;
    EXPECT_NE(out.find("aclrtMalloc"), std::string::npos) << out;
    EXPECT_EQ(out.back(), '\n');
  } else {
    EXPECT_EQ(out, "") << "nothing on stdout without ASCEND_SLOG_PRINT_TO_STDOUT=1 or at level 4";
  }
  // The message is still the caller's, logged or not.
  EXPECT_NE(std::string(aclGetRecentErrMsg()).find("aclrtMalloc"), std::string::npos);
}

TEST_F(Slog, APlanIsAnInfoRecordOnlyAtLevelInfoOrBelow) {
  const std::string out = CaptureStdout([] {
    const int64_t shape[] = {2, 3};
    void* data = nullptr;
    ASSERT_EQ(aclrtMalloc(&data, 6 * sizeof(float), ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
    aclTensor* x = aclCreateTensor(shape, 2, ACL_FLOAT, nullptr, 0, ACL_FORMAT_ND, shape, 2, data);
    float one = 1.0f;
    aclScalar* alpha = aclCreateScalar(&one, ACL_FLOAT);
    uint64_t workspace = 0;
    aclOpExecutor* executor = nullptr;
    EXPECT_EQ(aclnnAddGetWorkspaceSize(x, x, alpha, x, &workspace, &executor), ACL_SUCCESS);
    EXPECT_EQ(aclnnAdd(nullptr, 0, executor, nullptr), ACL_SUCCESS);
    EXPECT_EQ(aclrtSynchronizeDevice(), ACL_SUCCESS);
    aclDestroyTensor(x);
    aclDestroyScalar(alpha);
    EXPECT_EQ(aclrtFree(data), ACL_SUCCESS);
  });
  const bool expected = ToStdout() && Level() <= 1;
  EXPECT_EQ(out.find("[INFO] OP(") != std::string::npos && out.find("AddGetWorkspaceSize") != std::string::npos,
            expected)
      << out;
  EXPECT_EQ(out.find("[ERROR]"), std::string::npos) << out;
}

TEST_F(Slog, AclAppLogHonoursTheLevelAndTheDestination) {
  const std::string out = CaptureStdout([] {
    aclAppLog(ACL_WARNING, "MyFunction", "app.cpp", 42, "value %d out of range", 7);
    aclAppLog(ACL_DEBUG, "MyFunction", "app.cpp", 43, "a debug detail");
  });
  EXPECT_EQ(out.find("[WARNING] APP(") != std::string::npos &&
                out.find("[app.cpp:42] MyFunction: value 7 out of range") != std::string::npos,
            ToStdout() && Level() <= 2)
      << out;
  EXPECT_EQ(out.find("a debug detail") != std::string::npos, ToStdout() && Level() == 0) << out;
}

TEST_F(Slog, RecordsGoToThePlogFileUnderAscendProcessLogPath) {
  EXPECT_EQ(aclrtFree(nullptr), ACL_ERROR_INVALID_PARAM);
  const std::string plog = PlogText();
  if (std::getenv("ASCEND_PROCESS_LOG_PATH") != nullptr && Level() <= 3) {
    EXPECT_NE(plog.find("[ERROR] CANOPY("), std::string::npos) << plog;
    EXPECT_NE(plog.find("aclrtFree"), std::string::npos) << plog;
  } else {
    EXPECT_EQ(plog, "");
  }
}

}  // namespace
