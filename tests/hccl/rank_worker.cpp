// One rank of a multi-process test (multi_process_test.cpp starts one per rank):
//   hccl_rank_worker <scenario> <rank> <ranks> <root info file | rank table (cluster_*)>
// Exits 0 when the scenario behaved as expected, else prints why and exits 1.
#include <signal.h>
#include <unistd.h>

#include <cstdio>
#include <cstring>
#include <fstream>
#include <string>
#include <vector>

#include "acl/acl.h"
#include "aclnn/acl_meta.h"
#include "aclnnop/aclnn_add.h"
#include "aclnnop/aclnn_matmul_all_reduce.h"
#include "hccl/hccl.h"
#include "hccl_cases.h"

namespace {

using hccl_test::Rank;

int Fail(const std::string& why) {
  std::fprintf(stderr, "FAILED: %s\n", why.c_str());
  std::fflush(stderr);
  return 1;
}

std::string Recent() {
  const char* message = aclGetRecentErrMsg();
  return message != nullptr ? message : "";
}

using Cases = std::vector<std::unique_ptr<hccl_test::RankCase>>;

// Checks every case of a synchronised stream; 0 when all match.
int VerifyCases(const Rank& rank, const Cases& cases) {
  int failures = 0;
  for (const auto& one : cases) {
    const std::string failure = one->Verify();
    if (!failure.empty()) {
      std::fprintf(stderr, "rank %u: %s\n", rank.rank, failure.c_str());
      ++failures;
    }
  }
  std::printf("rank %u: %zu cases, %d failed\n", rank.rank, cases.size(), failures);
  return failures == 0 ? 0 : 1;
}

// Every case: queued back to back on the stream, synchronised once, checked.
int RunCases(const Rank& rank, Cases cases) {
  for (auto& one : cases) {
    if (const HcclResult status = one->Launch(rank); status != HCCL_SUCCESS) {
      return Fail(one->Name() + " returned " + std::to_string(status));
    }
  }
  if (const aclError status = aclrtSynchronizeStream(rank.stream); status != ACL_SUCCESS) {
    return Fail("synchronize returned " + std::to_string(status) + ": " + Recent());
  }
  return VerifyCases(rank, cases);
}

int RunCases(const Rank& rank) { return RunCases(rank, hccl_test::AllCases(rank.size)); }

// A long seeded sequence of every kind of operation around the room for
// inline data; then a short one that the communicator is destroyed right
// after queuing (its queued operations still run and are right).
int RunInline(Rank& rank) {
  if (const int result = RunCases(rank, hccl_test::InlineSequence(rank.size, 7, 120)); result != 0) return result;
  Cases cases = hccl_test::InlineSequence(rank.size, 8, 24);
  for (auto& one : cases) {
    if (const HcclResult status = one->Launch(rank); status != HCCL_SUCCESS) {
      return Fail(one->Name() + " returned " + std::to_string(status));
    }
  }
  if (HcclCommDestroy(rank.comm) != HCCL_SUCCESS) return Fail("HcclCommDestroy: " + Recent());
  rank.comm = nullptr;
  if (const aclError status = aclrtSynchronizeStream(rank.stream); status != ACL_SUCCESS) {
    return Fail("synchronize after HcclCommDestroy returned " + std::to_string(status) + ": " + Recent());
  }
  return VerifyCases(rank, cases);
}

// Two communicators of the same ranks on two streams, their sequences
// queued alternately.
int RunTwoCommunicators(Rank& first, const std::string& root_file) {
  HcclRootInfo root{};
  std::ifstream in(root_file + "2", std::ios::binary);
  if (!in.read(root.internal, sizeof(root.internal))) return Fail("cannot read " + root_file + "2");
  Rank second = first;
  if (aclrtCreateStream(&second.stream) != ACL_SUCCESS) return Fail("stream");
  if (HcclCommInitRootInfo(first.size, &root, first.rank, &second.comm) != HCCL_SUCCESS) {
    return Fail("second communicator: " + Recent());
  }
  Cases one = hccl_test::InlineSequence(first.size, 21, 40), two = hccl_test::InlineSequence(first.size, 22, 40);
  for (size_t i = 0; i < one.size(); ++i) {
    if (one[i]->Launch(first) != HCCL_SUCCESS || two[i]->Launch(second) != HCCL_SUCCESS) {
      return Fail("launch " + std::to_string(i) + ": " + Recent());
    }
  }
  if (aclrtSynchronizeStream(first.stream) != ACL_SUCCESS || aclrtSynchronizeStream(second.stream) != ACL_SUCCESS) {
    return Fail("synchronize: " + Recent());
  }
  const int result = VerifyCases(first, one) | VerifyCases(second, two);
  HcclCommDestroy(second.comm);
  aclrtDestroyStream(second.stream);
  return result;
}

// A matched all-reduce leaves room for 16 f32 elements; then the last rank
// disagrees with the others in one thing only (hccl_cases.cpp's table) while
// the data would go inline: every rank fails with HCCL_E_PARA.
int RunDisagreement(const Rank& rank, size_t index) {
  auto matched = hccl_test::AllReduceCase(HCCL_DATA_TYPE_FP32, HCCL_REDUCE_SUM, 16);
  if (matched->Launch(rank) != HCCL_SUCCESS || aclrtSynchronizeStream(rank.stream) != ACL_SUCCESS) {
    return Fail("the matched all-reduce: " + Recent());
  }
  auto one = hccl_test::DisagreeingCase(index, rank.rank + 1 == rank.size);
  if (one->Launch(rank) != HCCL_SUCCESS) return Fail(one->Name() + ": launch refused: " + Recent());
  if (aclrtSynchronizeStream(rank.stream) == ACL_SUCCESS) return Fail(one->Name() + " succeeded");
  HcclResult async = HCCL_SUCCESS;
  HcclGetCommAsyncError(rank.comm, &async);
  if (async != HCCL_E_PARA) return Fail("async error " + std::to_string(async) + ", expected HCCL_E_PARA");
  std::printf("rank %u, %s: %s\n", rank.rank, one->Name().c_str(), Recent().c_str());
  return 0;
}

// Rank 1 dies in the middle of a run of inline all-reduces: the others'
// next one fails instead of hanging.
int RunKilledInline(const Rank& rank) {
  for (int i = 0; i < 40; ++i) {
    if (rank.rank == 1 && i == 6) ::raise(SIGKILL);
    auto one = hccl_test::AllReduceCase(HCCL_DATA_TYPE_FP32, HCCL_REDUCE_SUM, 16);
    if (one->Launch(rank) != HCCL_SUCCESS) return Fail("launch refused");
    if (aclrtSynchronizeStream(rank.stream) != ACL_SUCCESS) {
      if (i < 6) return Fail("all-reduce " + std::to_string(i) + " failed with every rank alive: " + Recent());
      HcclResult async = HCCL_SUCCESS;
      HcclGetCommAsyncError(rank.comm, &async);
      if (async == HCCL_SUCCESS) return Fail("no async error on the communicator");
      std::printf("rank %u, all-reduce %d: %s\n", rank.rank, i, Recent().c_str());
      return 0;
    }
    if (const std::string failure = one->Verify(); !failure.empty()) return Fail(failure);
  }
  return Fail("every all-reduce succeeded without rank 1");
}

// z = x + y (aclnnAdd), all-reduce z in place, w = z + z: all on one stream,
// so each step must see the one before it.
// aclnnMatmulAllReduce across processes (Gloo): each rank's f16 product of
// small multiples of 1/4 (exact in f16), summed over the ranks. Rank counts
// CANN's A2 kernel does not run on (3) are rejected in phase 1 with 561002.
int RunMatmulAllReduce(const Rank& rank) {
  constexpr int64_t kM = 4, kK = 8, kN = 3;
  auto x1_of = [](uint32_t r, int64_t i) { return 0.25 * static_cast<double>((i + r) % 5); };
  auto x2_of = [](uint32_t r, int64_t i) { return 0.25 * static_cast<double>((2 * i + r) % 3) - 0.25; };
  std::vector<uint16_t> x1(kM * kK), x2(kK * kN), out(kM * kN);
  // Values of the form q / 4 with small q: their f16 bits from the float's.
  auto half = [](double v) {
    const float f = static_cast<float>(v);
    uint32_t bits;
    std::memcpy(&bits, &f, sizeof bits);
    if ((bits & 0x7fffffffu) == 0) return static_cast<uint16_t>(bits >> 16);
    const uint32_t sign = (bits >> 16) & 0x8000u;
    const int32_t exponent = static_cast<int32_t>((bits >> 23) & 0xff) - 127 + 15;
    return static_cast<uint16_t>(sign | (static_cast<uint32_t>(exponent) << 10) | ((bits >> 13) & 0x3ffu));
  };
  for (int64_t i = 0; i < kM * kK; ++i) x1[i] = half(x1_of(rank.rank, i));
  for (int64_t i = 0; i < kK * kN; ++i) x2[i] = half(x2_of(rank.rank, i));
  void *d1 = nullptr, *d2 = nullptr, *dout = nullptr;
  aclrtMalloc(&d1, x1.size() * 2, ACL_MEM_MALLOC_HUGE_FIRST);
  aclrtMalloc(&d2, x2.size() * 2, ACL_MEM_MALLOC_HUGE_FIRST);
  aclrtMalloc(&dout, out.size() * 2, ACL_MEM_MALLOC_HUGE_FIRST);
  aclrtMemcpy(d1, x1.size() * 2, x1.data(), x1.size() * 2, ACL_MEMCPY_HOST_TO_DEVICE);
  aclrtMemcpy(d2, x2.size() * 2, x2.data(), x2.size() * 2, ACL_MEMCPY_HOST_TO_DEVICE);
  auto tensor = [](int64_t rows, int64_t cols, void* data) {
    const int64_t shape[] = {rows, cols};
    const int64_t strides[] = {cols, 1};
    return aclCreateTensor(shape, 2, ACL_FLOAT16, strides, 0, ACL_FORMAT_ND, shape, 2, data);
  };
  aclTensor *t1 = tensor(kM, kK, d1), *t2 = tensor(kK, kN, d2), *tout = tensor(kM, kN, dout);
  char group[COMM_NAME_MAX_LENGTH] = {};
  HcclGetCommName(rank.comm, group);
  uint64_t workspace_size = 0;
  aclOpExecutor* executor = nullptr;
  const aclnnStatus planned =
      aclnnMatmulAllReduceGetWorkspaceSize(t1, t2, nullptr, group, "sum", 0, 1, tout, &workspace_size, &executor);
  const bool runs_on_size = rank.size == 1 || rank.size == 2 || rank.size == 4 || rank.size == 8;
  if (!runs_on_size) {
    return planned == ACLNN_ERR_INNER_TILING_ERROR
               ? 0
               : Fail("phase 1 of " + std::to_string(rank.size) + " ranks returned " + std::to_string(planned));
  }
  if (planned != ACLNN_SUCCESS) return Fail("aclnnMatmulAllReduceGetWorkspaceSize: " + Recent());
  void* workspace = nullptr;
  if (workspace_size > 0) aclrtMalloc(&workspace, workspace_size, ACL_MEM_MALLOC_HUGE_FIRST);
  if (aclnnMatmulAllReduce(workspace, workspace_size, executor, rank.stream) != ACLNN_SUCCESS) {
    return Fail("aclnnMatmulAllReduce: " + Recent());
  }
  if (aclrtSynchronizeStream(rank.stream) != ACL_SUCCESS) return Fail("synchronize: " + Recent());
  aclrtMemcpy(out.data(), out.size() * 2, dout, out.size() * 2, ACL_MEMCPY_DEVICE_TO_HOST);
  for (int64_t i = 0; i < kM; ++i) {
    for (int64_t j = 0; j < kN; ++j) {
      double want = 0;
      for (uint32_t r = 0; r < rank.size; ++r) {
        for (int64_t p = 0; p < kK; ++p) want += x1_of(r, i * kK + p) * x2_of(r, p * kN + j);
      }
      if (out[i * kN + j] != half(want)) {
        return Fail("output[" + std::to_string(i) + ", " + std::to_string(j) + "] differs from " +
                    std::to_string(want));
      }
    }
  }
  for (aclTensor* t : {t1, t2, tout}) aclDestroyTensor(t);
  for (void* p : {d1, d2, dout, workspace}) {
    if (p != nullptr) aclrtFree(p);
  }
  return 0;
}

int RunWithAclnn(const Rank& rank) {
  constexpr int64_t kCount = 1000;
  std::vector<float> x(kCount), y(kCount);
  auto x_of = [](uint32_t r, int64_t i) { return 0.25f * static_cast<float>((r + 1) * (i % 13 + 1)); };
  auto y_of = [](uint32_t r, int64_t i) { return 0.5f + static_cast<float>(r) - 0.01f * static_cast<float>(i % 7); };
  for (int64_t i = 0; i < kCount; ++i) {
    x[i] = x_of(rank.rank, i);
    y[i] = y_of(rank.rank, i);
  }
  const size_t bytes = kCount * sizeof(float);
  void *dx = nullptr, *dy = nullptr, *dz = nullptr, *dw = nullptr;
  for (void** p : {&dx, &dy, &dz, &dw}) {
    if (aclrtMalloc(p, bytes, ACL_MEM_MALLOC_HUGE_FIRST) != ACL_SUCCESS) return Fail("aclrtMalloc");
  }
  aclrtMemcpy(dx, bytes, x.data(), bytes, ACL_MEMCPY_HOST_TO_DEVICE);
  aclrtMemcpy(dy, bytes, y.data(), bytes, ACL_MEMCPY_HOST_TO_DEVICE);
  const int64_t shape[] = {kCount};
  const int64_t strides[] = {1};
  auto tensor = [&](void* data) {
    return aclCreateTensor(shape, 1, ACL_FLOAT, strides, 0, ACL_FORMAT_ND, shape, 1, data);
  };
  aclTensor *tx = tensor(dx), *ty = tensor(dy), *tz = tensor(dz), *tw = tensor(dw);
  float one = 1.0f;
  aclScalar* alpha = aclCreateScalar(&one, ACL_FLOAT);
  auto add = [&](aclTensor* a, aclTensor* b, aclTensor* out) {
    uint64_t workspace_size = 0;
    aclOpExecutor* executor = nullptr;
    if (aclnnAddGetWorkspaceSize(a, b, alpha, out, &workspace_size, &executor) != ACL_SUCCESS) return false;
    void* workspace = nullptr;
    if (workspace_size > 0) aclrtMalloc(&workspace, workspace_size, ACL_MEM_MALLOC_HUGE_FIRST);
    const bool ok = aclnnAdd(workspace, workspace_size, executor, rank.stream) == ACL_SUCCESS;
    // The workspace is the client's until the stream has used it.
    if (workspace != nullptr) {
      aclrtSynchronizeStream(rank.stream);
      aclrtFree(workspace);
    }
    return ok;
  };
  if (!add(tx, ty, tz)) return Fail("aclnnAdd (1): " + Recent());
  if (HcclAllReduce(dz, dz, kCount, HCCL_DATA_TYPE_FP32, HCCL_REDUCE_SUM, rank.comm, rank.stream) != HCCL_SUCCESS) {
    return Fail("HcclAllReduce: " + Recent());
  }
  if (!add(tz, tz, tw)) return Fail("aclnnAdd (2): " + Recent());
  if (aclrtSynchronizeStream(rank.stream) != ACL_SUCCESS) return Fail("synchronize: " + Recent());
  std::vector<float> w(kCount);
  aclrtMemcpy(w.data(), bytes, dw, bytes, ACL_MEMCPY_DEVICE_TO_HOST);
  for (int64_t i = 0; i < kCount; ++i) {
    double want = 0;
    for (uint32_t r = 0; r < rank.size; ++r) want += double{x_of(r, i)} + double{y_of(r, i)};
    want *= 2;
    if (std::abs(w[i] - want) > 1e-4 * std::max(1.0, std::abs(want))) {
      return Fail("element " + std::to_string(i) + " is " + std::to_string(w[i]) + ", expected " +
                  std::to_string(want));
    }
  }
  for (aclTensor* t : {tx, ty, tz, tw}) aclDestroyTensor(t);
  aclDestroyScalar(alpha);
  for (void* p : {dx, dy, dz, dw}) aclrtFree(p);
  return 0;
}

// Ranks disagree about the count: every rank's operation fails with
// HCCL_E_PARA (at the stream), none crashes or hangs.
int RunMismatch(const Rank& rank) {
  // A matched all-reduce first leaves room for the mismatched one's data in
  // its first exchange (gloo_transport.cpp): the check still comes first.
  auto matched = hccl_test::AllReduceCase(HCCL_DATA_TYPE_FP32, HCCL_REDUCE_SUM, 16);
  if (matched->Launch(rank) != HCCL_SUCCESS || aclrtSynchronizeStream(rank.stream) != ACL_SUCCESS) {
    return Fail("the matched all-reduce: " + Recent());
  }
  if (const std::string failure = matched->Verify(); !failure.empty()) return Fail(failure);
  auto one = hccl_test::AllReduceCase(HCCL_DATA_TYPE_FP32, HCCL_REDUCE_SUM, rank.rank == 0 ? 10 : 11);
  if (one->Launch(rank) != HCCL_SUCCESS) return Fail("launch refused");
  if (aclrtSynchronizeStream(rank.stream) == ACL_SUCCESS) return Fail("a mismatched all-reduce succeeded");
  HcclResult async = HCCL_SUCCESS;
  HcclGetCommAsyncError(rank.comm, &async);
  if (async != HCCL_E_PARA) return Fail("async error " + std::to_string(async) + ", expected HCCL_E_PARA");
  std::printf("rank %u: %s\n", rank.rank, Recent().c_str());
  return 0;
}

// Rank 0 sends 8 floats to rank 1, which receives 4: the receiver fails with
// HCCL_E_PARA at once, the sender's send completes (it waited until
// HCCL_EXEC_TIMEOUT over Gloo before). Ranks past 1 take no part.
int RunPointToPointMismatch(const Rank& rank) {
  void* buffer = nullptr;
  if (aclrtMalloc(&buffer, 64, ACL_MEM_MALLOC_HUGE_FIRST) != ACL_SUCCESS) return Fail("aclrtMalloc");
  HcclResult queued = HCCL_SUCCESS;
  if (rank.rank == 0) queued = HcclSend(buffer, 8, HCCL_DATA_TYPE_FP32, 1, rank.comm, rank.stream);
  if (rank.rank == 1) queued = HcclRecv(buffer, 4, HCCL_DATA_TYPE_FP32, 0, rank.comm, rank.stream);
  if (queued != HCCL_SUCCESS) return Fail("launch refused: " + Recent());
  const aclError synced = aclrtSynchronizeStream(rank.stream);
  aclrtFree(buffer);
  if (rank.rank == 0 && synced != ACL_SUCCESS) return Fail("the sender failed: " + Recent());
  if (rank.rank == 1) {
    if (synced == ACL_SUCCESS) return Fail("a receive of the wrong size succeeded");
    HcclResult async = HCCL_SUCCESS;
    HcclGetCommAsyncError(rank.comm, &async);
    if (async != HCCL_E_PARA) return Fail("async error " + std::to_string(async) + ", expected HCCL_E_PARA");
  }
  std::printf("rank %u: %s\n", rank.rank, Recent().c_str());
  return 0;
}

// Rank 0 says rank 1 gathers 3 elements, the others say 2: every rank's
// AllGatherV fails with HCCL_E_PARA before Gloo moves any data.
int RunMismatchedArrays(const Rank& rank) {
  void *send = nullptr, *recv = nullptr;
  if (aclrtMalloc(&send, 64, ACL_MEM_MALLOC_HUGE_FIRST) != ACL_SUCCESS ||
      aclrtMalloc(&recv, 64 * rank.size, ACL_MEM_MALLOC_HUGE_FIRST) != ACL_SUCCESS) {
    return Fail("aclrtMalloc");
  }
  std::vector<uint64_t> counts, displs;
  for (uint32_t r = 0; r < rank.size; ++r) {
    counts.push_back(r == 1 && rank.rank == 0 ? 3 : 2);
    displs.push_back(4 * r);
  }
  if (HcclAllGatherV(send, counts[rank.rank], recv, counts.data(), displs.data(), HCCL_DATA_TYPE_FP32, rank.comm,
                     rank.stream) != HCCL_SUCCESS) {
    return Fail("launch refused: " + Recent());
  }
  if (aclrtSynchronizeStream(rank.stream) == ACL_SUCCESS) return Fail("a mismatched AllGatherV succeeded");
  HcclResult async = HCCL_SUCCESS;
  HcclGetCommAsyncError(rank.comm, &async);
  if (async != HCCL_E_PARA) return Fail("async error " + std::to_string(async) + ", expected HCCL_E_PARA");
  std::printf("rank %u: %s\n", rank.rank, Recent().c_str());
  aclrtFree(send);
  aclrtFree(recv);
  return 0;
}

// Rank 1 dies after the communicator is made; the others' next all-reduce
// fails with an error at synchronisation instead of hanging.
int RunKilled(const Rank& rank) {
  if (HcclBarrier(rank.comm, rank.stream) != HCCL_SUCCESS || aclrtSynchronizeStream(rank.stream) != ACL_SUCCESS) {
    return Fail("barrier: " + Recent());
  }
  if (rank.rank == 1) ::raise(SIGKILL);
  auto one = hccl_test::AllReduceCase(HCCL_DATA_TYPE_FP32, HCCL_REDUCE_SUM, 4096);
  if (one->Launch(rank) != HCCL_SUCCESS) return Fail("launch refused");
  if (aclrtSynchronizeStream(rank.stream) == ACL_SUCCESS) return Fail("an all-reduce without rank 1 succeeded");
  HcclResult async = HCCL_SUCCESS;
  HcclGetCommAsyncError(rank.comm, &async);
  if (async == HCCL_SUCCESS) return Fail("no async error on the communicator");
  std::printf("rank %u: %s\n", rank.rank, Recent().c_str());
  return 0;
}

std::string CommName(HcclComm comm) {
  char name[COMM_NAME_MAX_LENGTH] = {};
  HcclGetCommName(comm, name);
  return name;
}

bool Checked(const Rank& rank) {
  uint32_t size = 0, id = 0;
  return HcclGetRankSize(rank.comm, &size) == HCCL_SUCCESS && size == rank.size &&
         HcclGetRankId(rank.comm, &id) == HCCL_SUCCESS && id == rank.rank;
}

// Communicators from a rank table (the worker's file argument).
int RunCluster(const std::string& scenario, Rank& rank, const std::string& table) {
  if (scenario == "cluster_refused") {
    // Rank 1's table has another secret: rank 0's listener refuses it, and
    // rank 0 times out waiting for it.
    const HcclResult status = HcclCommInitClusterInfo(table.c_str(), rank.rank, &rank.comm);
    const HcclResult expected = rank.rank == 0 ? HCCL_E_TIMEOUT : HCCL_E_TCP_CONNECT;
    if (status != expected) {
      return Fail("init returned " + std::to_string(status) + ", expected " + std::to_string(expected) + ": " +
                  Recent());
    }
    std::printf("rank %u: %s\n", rank.rank, Recent().c_str());
    return 0;
  }
  if (scenario == "cluster_config") {
    HcclCommConfig config;
    HcclCommConfigInit(&config);
    std::strcpy(config.hcclCommName, "canopy_table_comm");
    if (HcclCommInitClusterInfoConfig(table.c_str(), rank.rank, &config, &rank.comm) != HCCL_SUCCESS) {
      return Fail("init (config): " + Recent());
    }
    if (!Checked(rank) || CommName(rank.comm) != "canopy_table_comm") return Fail("rank, size or name");
    if (const int result = RunWithAclnn(rank); result != 0) return result;
    // Once every rank has the first communicator, rank 0's port is free for a second.
    if (HcclBarrier(rank.comm, rank.stream) != HCCL_SUCCESS || aclrtSynchronizeStream(rank.stream) != ACL_SUCCESS) {
      return Fail("barrier: " + Recent());
    }
    HcclCommDestroy(rank.comm);
  }
  if (HcclCommInitClusterInfo(table.c_str(), rank.rank, &rank.comm) != HCCL_SUCCESS) return Fail("init: " + Recent());
  if (!Checked(rank)) return Fail("HcclGetRankSize or HcclGetRankId");
  if (CommName(rank.comm).rfind("hccl_", 0) != 0) return Fail("comm name " + CommName(rank.comm));
  const int result = scenario == "cluster_cases" ? RunCases(rank) : RunWithAclnn(rank);
  HcclCommDestroy(rank.comm);
  return result;
}

int Run(const std::string& scenario, uint32_t rank_id, uint32_t ranks, const std::string& root_file) {
  if (aclInit(nullptr) != ACL_SUCCESS || aclrtSetDevice(0) != ACL_SUCCESS) return Fail("acl setup");
  Rank rank;
  rank.rank = rank_id;
  rank.size = ranks;
  if (aclrtCreateStream(&rank.stream) != ACL_SUCCESS) return Fail("stream");
  if (scenario.rfind("cluster_", 0) == 0) {
    const int result = RunCluster(scenario, rank, root_file);
    aclrtDestroyStream(rank.stream);
    aclrtResetDevice(0);
    aclFinalize();
    return result;
  }
  HcclRootInfo root{};
  std::ifstream in(root_file, std::ios::binary);
  if (!in.read(root.internal, sizeof(root.internal))) return Fail("cannot read " + root_file);

  HcclResult status;
  if (scenario == "config") {
    HcclCommConfig config;
    HcclCommConfigInit(&config);
    std::strcpy(config.hcclCommName, "canopy_test_comm");
    status = HcclCommInitRootInfoConfig(ranks, &root, rank_id, &config, &rank.comm);
  } else if (scenario == "nranks_mismatch") {  // rank 1 is told of one rank more than the others
    status = HcclCommInitRootInfo(rank_id == 1 ? ranks + 1 : ranks, &root, rank_id, &rank.comm);
  } else {
    status = HcclCommInitRootInfo(ranks, &root, rank_id, &rank.comm);
  }
  if (scenario == "nranks_mismatch") {
    // Ranks 0 and 1 compare their counts: both fail with HCCL_E_PARA (others time out).
    if (rank_id <= 1 && status != HCCL_E_PARA) {
      return Fail("init returned " + std::to_string(status) + ", expected HCCL_E_PARA: " + Recent());
    }
    std::printf("rank %u: %s\n", rank_id, Recent().c_str());
    return 0;
  }
  if (scenario == "missing") {
    if (status != HCCL_E_TIMEOUT) return Fail("init returned " + std::to_string(status) + ", expected HCCL_E_TIMEOUT");
    std::printf("rank %u: %s\n", rank_id, Recent().c_str());
    return 0;
  }
  if (status != HCCL_SUCCESS) return Fail("init returned " + std::to_string(status) + ": " + Recent());

  uint32_t size = 0, id = 0;
  if (HcclGetRankSize(rank.comm, &size) != HCCL_SUCCESS || size != ranks) return Fail("HcclGetRankSize");
  if (HcclGetRankId(rank.comm, &id) != HCCL_SUCCESS || id != rank_id) return Fail("HcclGetRankId");

  int result = 1;
  if (scenario == "cases") {
    result = RunCases(rank);
  } else if (scenario == "aclnn") {
    result = RunWithAclnn(rank);
  } else if (scenario == "mc2") {
    result = RunMatmulAllReduce(rank);
  } else if (scenario == "mismatch") {
    result = RunMismatch(rank);
  } else if (scenario == "p2p_mismatch") {
    result = RunPointToPointMismatch(rank);
  } else if (scenario == "mismatch_v") {
    result = RunMismatchedArrays(rank);
  } else if (scenario == "killed") {
    result = RunKilled(rank);
  } else if (scenario == "inline") {
    result = RunInline(rank);
  } else if (scenario == "inline_killed") {
    result = RunKilledInline(rank);
  } else if (scenario == "two_comms") {
    result = RunTwoCommunicators(rank, root_file);
  } else if (scenario.rfind("disagree_", 0) == 0) {
    result = RunDisagreement(rank, std::stoul(scenario.substr(9)));
  } else if (scenario == "config") {
    char name[COMM_NAME_MAX_LENGTH] = {};
    HcclGetCommName(rank.comm, name);
    result = std::string(name) == "canopy_test_comm" ? RunWithAclnn(rank) : Fail(std::string("comm name ") + name);
  } else {
    result = Fail("unknown scenario " + scenario);
  }
  if (rank.comm != nullptr) HcclCommDestroy(rank.comm);
  aclrtDestroyStream(rank.stream);
  aclrtResetDevice(0);
  aclFinalize();
  return result;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc != 5) {
    std::fprintf(stderr, "usage: %s <scenario> <rank> <ranks> <root info file>\n", argv[0]);
    return 2;
  }
  const int result =
      Run(argv[1], static_cast<uint32_t>(std::stoul(argv[2])), static_cast<uint32_t>(std::stoul(argv[3])), argv[4]);
  std::fflush(stdout);
  return result;
}
