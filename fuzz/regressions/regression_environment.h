// Shared set-up of the fuzz regression tests: acl initialised, device 0 set,
// once per test program, exactly as a client does.
#pragma once

#include <gtest/gtest-spi.h>
#include <gtest/gtest.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <thread>

#include "acl/acl.h"

namespace canopy::fuzz_regressions {

class AclEnvironment : public ::testing::Environment {
 public:
  void SetUp() override {
    const aclError init = aclInit(nullptr);
    ASSERT_TRUE(init == ACL_SUCCESS || init == ACL_ERROR_REPEAT_INITIALIZE);
    ASSERT_EQ(aclrtSetDevice(0), ACL_SUCCESS);
  }
};

// Runs `body` in a child process (gtest's threadsafe death-test style re-runs
// the test there) and expects it to finish without a crash or a failed check.
// Every regression test runs this way: until its bug is fixed it may crash (or,
// under the sanitizers, abort), and must not take the rest of the suite with it.
template <typename Body>
void ExpectNoCrash(Body body) {
  GTEST_FLAG_SET(death_test_style, "threadsafe");
  EXPECT_EXIT(
      {
        // The child reports to gtest's parent only its exit status: echo what failed.
        ::testing::TestPartResultArray results;
        {
          ::testing::ScopedFakeTestPartResultReporter reporter(
              ::testing::ScopedFakeTestPartResultReporter::INTERCEPT_ALL_THREADS, &results);
          body();
        }
        bool failed = false;
        for (int i = 0; i < results.size(); ++i) {
          const ::testing::TestPartResult& result = results.GetTestPartResult(i);
          if (!result.failed()) continue;
          failed = true;
          std::fprintf(stderr, "%s:%d: %s\n", result.file_name() ? result.file_name() : "?", result.line_number(),
                       result.summary());
        }
        std::_Exit(failed ? 1 : 0);
      },
      ::testing::ExitedWithCode(0), "");
}

// A host function that keeps its stream busy for a while, so that what is
// queued behind it is still pending when the test acts.
inline void SleepHostFunction(void* milliseconds) {
  std::this_thread::sleep_for(std::chrono::milliseconds(*static_cast<int*>(milliseconds)));
}

// The device's free bytes, as aclrtGetMemInfo reports them.
inline size_t FreeDeviceBytes() {
  size_t free = 0, total = 0;
  EXPECT_EQ(aclrtGetMemInfo(ACL_HBM_MEM, &free, &total), ACL_SUCCESS);
  return free;
}

}  // namespace canopy::fuzz_regressions
