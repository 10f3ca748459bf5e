// The plan cache's bounds, seen as a client sees them: with CANOPY_VERBOSE=1
// (harness/stderr_capture.h sets it) a reused plan says "plan cache hit" on
// stderr. Plans over long tensor lists hold a step per tensor (~1 MiB
// for 256 tensors), so the cache is bounded by their estimated bytes as well
// as by its entry count (src/ops/framework/plan_cache.h).
#include <gtest/gtest.h>

#include <cstdint>
#include <string>
#include <vector>

#include "acl/acl.h"
#include "aclnnop/aclnn_foreach_abs.h"
#include "harness/stderr_capture.h"
#include "op_test_support.h"

namespace canopy_test {
namespace {

// ForeachAbs over `count` tensors of shape [rows, 4], all views of `in` and
// `out` (the lists alias one buffer each: phase 1 only, nothing runs).
// Returns whether phase 1 reused a cached plan.
bool PlansFromCache(const DeviceTensor& in, const DeviceTensor& out, int count, int64_t rows) {
  const std::vector<int64_t> shape = {rows, 4};
  const std::vector<int64_t> strides = {4, 1};
  const auto list = [&](const DeviceTensor& buffer) {
    std::vector<aclTensor*> tensors;
    for (int i = 0; i < count; ++i) {
      tensors.push_back(aclCreateTensor(shape.data(), shape.size(), ACL_FLOAT, strides.data(), 0, ACL_FORMAT_ND,
                                        shape.data(), shape.size(), buffer.data()));
    }
    return aclCreateTensorList(tensors.data(), tensors.size());
  };
  aclTensorList* x = list(in);
  aclTensorList* y = list(out);
  uint64_t workspace = 0;
  aclOpExecutor* executor = nullptr;
  harness::StderrCapture capture;
  capture.Start();
  const aclnnStatus status = aclnnForeachAbsGetWorkspaceSize(x, y, &workspace, &executor);
  const std::string verbose = capture.Stop();
  EXPECT_EQ(status, ACLNN_SUCCESS) << verbose;
  if (executor != nullptr) {
    EXPECT_EQ(aclDestroyAclOpExecutor(executor), ACLNN_SUCCESS);
  }
  aclDestroyTensorList(x);
  aclDestroyTensorList(y);
  return verbose.find(harness::kCacheHitMessage) != std::string::npos;
}

// 72 plans of 256 tensors each (~1 MiB apiece by the cache's estimate) outgrow
// its 64 MiB budget long before its 4096 entries: the oldest are evicted, the
// newest still hit. (Before the budget all 72 stayed: ~1 GiB per 1000 such
// plans, 4 GiB at the entry limit.)
TEST(PlanCacheBudget, PlansOverLongListsAreBoundedByBytes) {
  if (!harness::PlanCacheOn()) GTEST_SKIP() << "CANOPY_PLAN_CACHE=0";
  constexpr int kTensors = 256;
  constexpr int kPlans = 72;
  DeviceTensor in(ACL_FLOAT, {kPlans, 4}), out(ACL_FLOAT, {kPlans, 4});
  for (int p = 1; p <= kPlans; ++p) EXPECT_FALSE(PlansFromCache(in, out, kTensors, p)) << "plan " << p;
  EXPECT_TRUE(PlansFromCache(in, out, kTensors, kPlans)) << "the newest plan was not kept";
  EXPECT_TRUE(PlansFromCache(in, out, kTensors, kPlans - 8)) << "a recent plan was not kept";
  EXPECT_FALSE(PlansFromCache(in, out, kTensors, 1)) << "the oldest plan was kept past the byte budget";
}

// A plan bigger than half the budget (9000 tensors, ~35 MiB estimated) is not
// kept at all, so it cannot evict every other plan; small plans still are.
TEST(PlanCacheBudget, OnePlanAboveHalfTheBudgetIsNotKept) {
  if (!harness::PlanCacheOn()) GTEST_SKIP() << "CANOPY_PLAN_CACHE=0";
  DeviceTensor in(ACL_FLOAT, {3, 4}), out(ACL_FLOAT, {3, 4});
  EXPECT_FALSE(PlansFromCache(in, out, 2, 3));
  EXPECT_FALSE(PlansFromCache(in, out, 9000, 3));
  EXPECT_FALSE(PlansFromCache(in, out, 9000, 3)) << "a 9000-tensor plan was kept";
  EXPECT_TRUE(PlansFromCache(in, out, 2, 3)) << "a small plan made before it was evicted";
}

}  // namespace
}  // namespace canopy_test
