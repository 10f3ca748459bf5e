// CANOPY_TRACE=FILE writes a Chrome/Perfetto trace: phase 1 and phase 2 of
// each op with its shapes and dtypes, each task's run on its stream, host
// callbacks, enqueues and event records.
#include <gtest/gtest.h>

#include <cstdlib>
#include <fstream>
#include <sstream>
#include <string>

#include "acl/acl.h"
#include "aclnnop/aclnn_add.h"
#include "aclnnop/aclnn_reduce_sum.h"

namespace {

std::string ReadFile(const std::string& path) {
  std::ifstream file(path);
  std::stringstream text;
  text << file.rdbuf();
  return text.str();
}

size_t Count(const std::string& text, const std::string& needle) {
  size_t count = 0;
  for (size_t at = text.find(needle); at != std::string::npos; at = text.find(needle, at + 1)) ++count;
  return count;
}

TEST(Trace, RecordsPhasesTasksCallbacksAndEvents) {
  const std::string path = ::testing::TempDir() + "canopy_trace_test.json";
  std::remove(path.c_str());
  ASSERT_EQ(setenv("CANOPY_TRACE", path.c_str(), 1), 0);
  ASSERT_EQ(aclInit(nullptr), ACL_SUCCESS);
  ASSERT_EQ(aclrtSetDevice(0), ACL_SUCCESS);
  aclrtStream stream = nullptr;
  ASSERT_EQ(aclrtCreateStream(&stream), ACL_SUCCESS);
  aclrtEvent event = nullptr;
  ASSERT_EQ(aclrtCreateEvent(&event), ACL_SUCCESS);

  constexpr int64_t kRows = 3, kCols = 5;
  void* data = nullptr;
  ASSERT_EQ(aclrtMalloc(&data, kRows * kCols * sizeof(float), ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
  ASSERT_EQ(aclrtMemset(data, kRows * kCols * sizeof(float), 0, kRows * kCols * sizeof(float)), ACL_SUCCESS);
  const int64_t shape[] = {kRows, kCols};
  constexpr int kOps = 3;
  for (int i = 0; i < kOps; ++i) {
    aclTensor* x = aclCreateTensor(shape, 2, ACL_FLOAT, nullptr, 0, ACL_FORMAT_ND, shape, 2, data);
    float two = 2.0f;
    aclScalar* value = aclCreateScalar(&two, ACL_FLOAT);
    aclScalar* alpha = aclCreateScalar(&two, ACL_FLOAT);
    uint64_t workspace = 0;
    aclOpExecutor* executor = nullptr;
    ASSERT_EQ(aclnnInplaceAddsGetWorkspaceSize(x, value, alpha, &workspace, &executor), ACL_SUCCESS);
    ASSERT_EQ(aclnnInplaceAdds(nullptr, 0, executor, stream), ACL_SUCCESS);
    aclDestroyTensor(x);
    aclDestroyScalar(value);
    aclDestroyScalar(alpha);
  }
  // An op with an array, a bool and an enum argument: the trace shows their values.
  {
    aclTensor* x = aclCreateTensor(shape, 2, ACL_FLOAT, nullptr, 0, ACL_FORMAT_ND, shape, 2, data);
    const int64_t reducedShape[] = {kRows, 1};
    void* sumData = nullptr;
    ASSERT_EQ(aclrtMalloc(&sumData, kRows * sizeof(float), ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
    aclTensor* sum = aclCreateTensor(reducedShape, 2, ACL_FLOAT, nullptr, 0, ACL_FORMAT_ND, reducedShape, 2, sumData);
    const int64_t dims[] = {-1};
    aclIntArray* dimArray = aclCreateIntArray(dims, 1);
    uint64_t workspace = 0;
    aclOpExecutor* executor = nullptr;
    ASSERT_EQ(aclnnReduceSumGetWorkspaceSize(x, dimArray, true, ACL_FLOAT, sum, &workspace, &executor), ACL_SUCCESS);
    ASSERT_EQ(aclnnReduceSum(nullptr, 0, executor, stream), ACL_SUCCESS);
    aclDestroyTensor(x);
    aclDestroyTensor(sum);
    aclDestroyIntArray(dimArray);
    ASSERT_EQ(aclrtSynchronizeStream(stream), ACL_SUCCESS);
    ASSERT_EQ(aclrtFree(sumData), ACL_SUCCESS);
  }
  ASSERT_EQ(aclrtLaunchHostFunc(
                stream, [](void*) {}, nullptr),
            ACL_SUCCESS);
  ASSERT_EQ(aclrtRecordEvent(event, stream), ACL_SUCCESS);
  ASSERT_EQ(aclrtSynchronizeStream(stream), ACL_SUCCESS);
  ASSERT_EQ(aclrtDestroyEvent(event), ACL_SUCCESS);
  ASSERT_EQ(aclrtFree(data), ACL_SUCCESS);
  ASSERT_EQ(aclrtDestroyStream(stream), ACL_SUCCESS);
  ASSERT_EQ(aclrtResetDevice(0), ACL_SUCCESS);
  ASSERT_EQ(aclFinalize(), ACL_SUCCESS);  // writes the file

  const std::string trace = ReadFile(path);
  ASSERT_FALSE(trace.empty()) << path;
  EXPECT_EQ(trace.rfind("{\"displayTimeUnit\"", 0), 0u);
  EXPECT_NE(trace.find("\"traceEvents\":["), std::string::npos);
  EXPECT_EQ(trace.substr(trace.size() - 4), "\n]}\n");
  EXPECT_EQ(Count(trace, "\"cat\":\"phase1\""), static_cast<size_t>(kOps + 1));
  EXPECT_EQ(Count(trace, "\"cat\":\"phase2\""), static_cast<size_t>(kOps + 1));
  EXPECT_EQ(Count(trace, "\"cat\":\"kernel\""), static_cast<size_t>(kOps + 1));
  EXPECT_EQ(Count(trace, "\"name\":\"aclnnInplaceAdds\",\"cat\":\"task\""), static_cast<size_t>(kOps));
  EXPECT_EQ(Count(trace, "\"cat\":\"callback\""), 1u);
  EXPECT_EQ(Count(trace, "\"name\":\"event record\""), 1u);
  EXPECT_GE(Count(trace, "\"cat\":\"enqueue\""), static_cast<size_t>(kOps + 2));
  EXPECT_NE(trace.find("\"tensors\":\"FLOAT[3,5]\""), std::string::npos) << "phase 1 names shapes and dtypes";
  EXPECT_NE(trace.find("\"args\":\"self=FLOAT[3,5] dims=[-1] keepDims=true dtype=0 out=FLOAT[3,1]\""),
            std::string::npos)
      << "phase 1 names every argument's value";
  EXPECT_EQ(Count(trace, "\"plan\":\"planned\""), 4u) << "first calls plan (phase 1 span and kernel span)";
  EXPECT_EQ(Count(trace, "\"plan\":\"cache hit\""), 2u * (kOps - 1));
  std::remove(path.c_str());
}

}  // namespace
