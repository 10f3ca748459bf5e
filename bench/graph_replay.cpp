// Host cost of issuing a sequence of N tiny ops: N two-phase calls versus one
// aclmdlRIExecuteAsync of the same sequence captured once (issue [graph]).
//
//   graph_replay [N=64] [rounds=2000]
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <vector>

#include "acl/acl.h"
#include "aclnnop/aclnn_add.h"

namespace {

using Clock = std::chrono::steady_clock;
constexpr int64_t kElements = 16;

void Check(int status, const char* what) {
  if (status != 0) {
    std::fprintf(stderr, "%s failed: %d (%s)\n", what, status, aclGetRecentErrMsg());
    std::exit(1);
  }
}

// N chained in-place adds x += y, issued through both phases.
void IssueOps(int n, aclTensor* x, aclTensor* y, aclScalar* alpha, aclrtStream stream) {
  for (int i = 0; i < n; ++i) {
    uint64_t workspace = 0;
    aclOpExecutor* executor = nullptr;
    Check(aclnnInplaceAddGetWorkspaceSize(x, y, alpha, &workspace, &executor), "phase 1");
    Check(aclnnInplaceAdd(nullptr, 0, executor, stream), "phase 2");
  }
}

double Median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v[v.size() / 2];
}

}  // namespace

int main(int argc, char** argv) {
  const int n = argc > 1 ? std::atoi(argv[1]) : 64;
  const int rounds = argc > 2 ? std::atoi(argv[2]) : 2000;
  Check(aclInit(nullptr), "aclInit");
  Check(aclrtSetDevice(0), "aclrtSetDevice");
  aclrtStream stream = nullptr, capture = nullptr;
  Check(aclrtCreateStream(&stream), "stream");
  Check(aclrtCreateStream(&capture), "stream");
  void *x_data = nullptr, *y_data = nullptr;
  Check(aclrtMalloc(&x_data, kElements * sizeof(float), ACL_MEM_MALLOC_HUGE_FIRST), "malloc");
  Check(aclrtMalloc(&y_data, kElements * sizeof(float), ACL_MEM_MALLOC_HUGE_FIRST), "malloc");
  const int64_t shape[] = {kElements};
  aclTensor* x = aclCreateTensor(shape, 1, ACL_FLOAT, nullptr, 0, ACL_FORMAT_ND, shape, 1, x_data);
  aclTensor* y = aclCreateTensor(shape, 1, ACL_FLOAT, nullptr, 0, ACL_FORMAT_ND, shape, 1, y_data);
  float one = 1.0f;
  aclScalar* alpha = aclCreateScalar(&one, ACL_FLOAT);

  Check(aclmdlRICaptureBegin(capture, ACL_MODEL_RI_CAPTURE_MODE_GLOBAL), "capture begin");
  IssueOps(n, x, y, alpha, capture);
  aclmdlRI model = nullptr;
  Check(aclmdlRICaptureEnd(capture, &model), "capture end");

  std::vector<double> direct_issue, direct_total, replay_issue, replay_total;
  for (int round = 0; round < rounds; ++round) {
    auto start = Clock::now();
    IssueOps(n, x, y, alpha, stream);
    auto issued = Clock::now();
    Check(aclrtSynchronizeStream(stream), "sync");
    auto done = Clock::now();
    direct_issue.push_back(std::chrono::duration<double, std::micro>(issued - start).count());
    direct_total.push_back(std::chrono::duration<double, std::micro>(done - start).count());

    start = Clock::now();
    Check(aclmdlRIExecuteAsync(model, stream), "replay");
    issued = Clock::now();
    Check(aclrtSynchronizeStream(stream), "sync");
    done = Clock::now();
    replay_issue.push_back(std::chrono::duration<double, std::micro>(issued - start).count());
    replay_total.push_back(std::chrono::duration<double, std::micro>(done - start).count());
  }
  const double di = Median(direct_issue), dt = Median(direct_total);
  const double ri = Median(replay_issue), rt = Median(replay_total);
  std::printf("sequence of %d tiny InplaceAdd ops (%lld f32 elements), median of %d rounds\n", n,
              static_cast<long long>(kElements), rounds);
  std::printf("  %-34s %10s %12s\n", "", "issue (us)", "end to end (us)");
  std::printf("  %-34s %10.1f %12.1f\n", "two-phase calls", di, dt);
  std::printf("  %-34s %10.1f %12.1f\n", "aclmdlRIExecuteAsync replay", ri, rt);
  std::printf("  replay issues the sequence %.1fx cheaper (end to end %.1fx)\n", di / ri, dt / rt);

  Check(aclmdlRIDestroy(model), "destroy");
  aclDestroyTensor(x);
  aclDestroyTensor(y);
  aclDestroyScalar(alpha);
  aclrtFree(x_data);
  aclrtFree(y_data);
  aclrtDestroyStream(stream);
  aclrtDestroyStream(capture);
  aclrtResetDevice(0);
  aclFinalize();
  return 0;
}
