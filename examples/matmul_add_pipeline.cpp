// Canopy's main demo, written exactly as an Ascend client would write it:
// C = A @ B, then D = C + bias (bias broadcast over the rows), both ops
// enqueued on one stream without waiting, each workspace released in stream
// order by a host function, events around the work, one synchronisation at the
// end, and the result checked against a float64 reference.
//
//   matmul_add_pipeline [M K N]     (default 512 512 512)
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <random>
#include <vector>

#include "acl/acl.h"
#include "aclnnop/aclnn_add.h"
#include "aclnnop/aclnn_matmul.h"

#define CHECK_ACL(expr)                                                                                     \
  do {                                                                                                      \
    const auto status_ = (expr);                                                                            \
    if (status_ != 0) {                                                                                     \
      std::fprintf(stderr, "%s failed: %d (%s)\n", #expr, static_cast<int>(status_), aclGetRecentErrMsg()); \
      std::exit(1);                                                                                         \
    }                                                                                                       \
  } while (0)

namespace {

using Clock = std::chrono::steady_clock;

double MicrosecondsSince(Clock::time_point start) {
  return std::chrono::duration<double, std::micro>(Clock::now() - start).count();
}

aclTensor* CreateTensor(const std::vector<int64_t>& shape, void* device) {
  std::vector<int64_t> strides(shape.size(), 1);
  for (size_t i = shape.size() - 1; i > 0; --i) strides[i - 1] = strides[i] * shape[i];
  return aclCreateTensor(shape.data(), shape.size(), ACL_FLOAT, strides.data(), 0, ACL_FORMAT_ND, shape.data(),
                         shape.size(), device);
}

void* DeviceCopyOf(const std::vector<float>& host) {
  void* device = nullptr;
  const size_t bytes = host.size() * sizeof(float);
  CHECK_ACL(aclrtMalloc(&device, bytes, ACL_MEM_MALLOC_HUGE_FIRST));
  CHECK_ACL(aclrtMemcpy(device, bytes, host.data(), bytes, ACL_MEMCPY_HOST_TO_DEVICE));
  return device;
}

// Runs on a callback thread once the stream has passed the op that used the workspace.
void ReleaseWorkspace(void* workspace) {
  if (workspace != nullptr) aclrtFree(workspace);
}

void* AllocateWorkspace(uint64_t bytes) {
  void* workspace = nullptr;
  if (bytes > 0) CHECK_ACL(aclrtMalloc(&workspace, bytes, ACL_MEM_MALLOC_HUGE_FIRST));
  return workspace;
}

}  // namespace

int main(int argc, char** argv) {
  const int64_t m = argc > 3 ? std::atoll(argv[1]) : 512;
  const int64_t k = argc > 3 ? std::atoll(argv[2]) : 512;
  const int64_t n = argc > 3 ? std::atoll(argv[3]) : 512;

  CHECK_ACL(aclInit(nullptr));
  CHECK_ACL(aclrtSetDevice(0));
  aclrtStream stream = nullptr;
  CHECK_ACL(aclrtCreateStream(&stream));
  std::printf("Canopy demo on %s: D = A[%lldx%lld] @ B[%lldx%lld] + bias[%lld]\n", aclrtGetSocName(),
              static_cast<long long>(m), static_cast<long long>(k), static_cast<long long>(k),
              static_cast<long long>(n), static_cast<long long>(n));

  std::mt19937 rng(2026);
  std::uniform_real_distribution<float> uniform(-1.0f, 1.0f);
  std::vector<float> a(m * k), b(k * n), bias(n);
  for (auto* v : {&a, &b, &bias}) {
    for (float& x : *v) x = uniform(rng);
  }
  void* a_device = DeviceCopyOf(a);
  void* b_device = DeviceCopyOf(b);
  void* bias_device = DeviceCopyOf(bias);
  void* c_device = nullptr;
  void* d_device = nullptr;
  CHECK_ACL(aclrtMalloc(&c_device, m * n * sizeof(float), ACL_MEM_MALLOC_HUGE_FIRST));
  CHECK_ACL(aclrtMalloc(&d_device, m * n * sizeof(float), ACL_MEM_MALLOC_HUGE_FIRST));

  aclrtEvent start = nullptr, after_matmul = nullptr, end = nullptr;
  CHECK_ACL(aclrtCreateEvent(&start));
  CHECK_ACL(aclrtCreateEvent(&after_matmul));
  CHECK_ACL(aclrtCreateEvent(&end));

  // ---- Enqueue everything: no call below waits for the device.
  const auto enqueue_start = Clock::now();
  CHECK_ACL(aclrtRecordEvent(start, stream));

  aclTensor* ta = CreateTensor({m, k}, a_device);
  aclTensor* tb = CreateTensor({k, n}, b_device);
  aclTensor* tc = CreateTensor({m, n}, c_device);
  uint64_t matmul_workspace_size = 0;
  aclOpExecutor* matmul = nullptr;
  auto phase1 = Clock::now();
  CHECK_ACL(aclnnMatmulGetWorkspaceSize(ta, tb, tc, /*cubeMathType=*/0, &matmul_workspace_size, &matmul));
  const double matmul_phase1_us = MicrosecondsSince(phase1);
  void* matmul_workspace = AllocateWorkspace(matmul_workspace_size);
  auto phase2 = Clock::now();
  CHECK_ACL(aclnnMatmul(matmul_workspace, matmul_workspace_size, matmul, stream));
  const double matmul_phase2_us = MicrosecondsSince(phase2);
  CHECK_ACL(aclrtLaunchHostFunc(stream, ReleaseWorkspace, matmul_workspace));
  aclDestroyTensor(ta);  // clients drop their descriptors right after phase 2
  aclDestroyTensor(tb);
  CHECK_ACL(aclrtRecordEvent(after_matmul, stream));

  aclTensor* tbias = CreateTensor({n}, bias_device);
  aclTensor* td = CreateTensor({m, n}, d_device);
  float one = 1.0f;
  aclScalar* alpha = aclCreateScalar(&one, ACL_FLOAT);
  uint64_t add_workspace_size = 0;
  aclOpExecutor* add = nullptr;
  phase1 = Clock::now();
  CHECK_ACL(aclnnAddGetWorkspaceSize(tc, tbias, alpha, td, &add_workspace_size, &add));
  const double add_phase1_us = MicrosecondsSince(phase1);
  void* add_workspace = AllocateWorkspace(add_workspace_size);
  phase2 = Clock::now();
  CHECK_ACL(aclnnAdd(add_workspace, add_workspace_size, add, stream));
  const double add_phase2_us = MicrosecondsSince(phase2);
  CHECK_ACL(aclrtLaunchHostFunc(stream, ReleaseWorkspace, add_workspace));
  aclDestroyTensor(tc);
  aclDestroyTensor(tbias);
  aclDestroyTensor(td);
  aclDestroyScalar(alpha);
  CHECK_ACL(aclrtRecordEvent(end, stream));
  const double enqueue_us = MicrosecondsSince(enqueue_start);

  aclrtEventRecordedStatus status_after_enqueue = ACL_EVENT_RECORDED_STATUS_NOT_READY;
  CHECK_ACL(aclrtQueryEventStatus(end, &status_after_enqueue));

  // ---- The one synchronisation.
  const auto wait_start = Clock::now();
  CHECK_ACL(aclrtSynchronizeStream(stream));
  const double wait_us = MicrosecondsSince(wait_start);

  float matmul_ms = 0, add_ms = 0;
  CHECK_ACL(aclrtEventElapsedTime(&matmul_ms, start, after_matmul));
  CHECK_ACL(aclrtEventElapsedTime(&add_ms, after_matmul, end));

  std::vector<float> d(m * n);
  CHECK_ACL(
      aclrtMemcpy(d.data(), d.size() * sizeof(float), d_device, d.size() * sizeof(float), ACL_MEMCPY_DEVICE_TO_HOST));

  // ---- Check against a float64 reference.
  double max_error = 0;
  for (int64_t i = 0; i < m; ++i) {
    for (int64_t j = 0; j < n; ++j) {
      double expected = bias[j];
      for (int64_t p = 0; p < k; ++p) expected += static_cast<double>(a[i * k + p]) * b[p * n + j];
      max_error = std::max(max_error, std::abs(expected - d[i * n + j]) / (1.0 + std::abs(expected)));
    }
  }
  const double tolerance = 1e-5 * std::sqrt(static_cast<double>(k));
  const bool correct = max_error <= tolerance;

  std::printf("  enqueue of the whole pipeline returned after %.1f us (end event %s at that point)\n", enqueue_us,
              status_after_enqueue == ACL_EVENT_RECORDED_STATUS_COMPLETE ? "already complete" : "still pending");
  std::printf("  Matmul: phase 1 %.1f us, phase 2 %.1f us, ran %.3f ms on the stream = %.1f GFLOP/s\n",
              matmul_phase1_us, matmul_phase2_us, matmul_ms, 2.0 * m * n * k / (matmul_ms * 1e6));
  std::printf("  Add:    phase 1 %.1f us, phase 2 %.1f us, ran %.3f ms on the stream\n", add_phase1_us, add_phase2_us,
              add_ms);
  std::printf("  aclrtSynchronizeStream waited %.1f us\n", wait_us);
  std::printf("  max relative error vs float64: %.3g (tolerance %.3g): %s\n", max_error, tolerance,
              correct ? "PASS" : "FAIL");

  for (aclrtEvent event : {start, after_matmul, end}) CHECK_ACL(aclrtDestroyEvent(event));
  for (void* p : {a_device, b_device, bias_device, c_device, d_device}) CHECK_ACL(aclrtFree(p));
  CHECK_ACL(aclrtDestroyStream(stream));
  CHECK_ACL(aclrtResetDevice(0));
  CHECK_ACL(aclFinalize());
  return correct ? 0 : 1;
}
