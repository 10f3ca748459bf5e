#include "mc2_ranks.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <cstring>
#include <mutex>
#include <stdexcept>

#include "acl/acl.h"

namespace canopy_test {
namespace {

void CheckHccl(HcclResult result, const char* what) {
  if (result != HCCL_SUCCESS) {
    const char* why = aclGetRecentErrMsg();
    throw std::runtime_error(std::string(what) + " failed: " + (why != nullptr ? why : ""));
  }
}

void CheckAclCall(aclError error, const char* what) {
  if (error != ACL_SUCCESS) throw std::runtime_error(std::string(what) + " failed with " + std::to_string(error));
}

}  // namespace

std::vector<double> Product(const Values& x1, const Values& x2, const Values* bias, int64_t m, int64_t k, int64_t n) {
  std::vector<double> out(static_cast<size_t>(m * n));
  for (int64_t i = 0; i < m; ++i) {
    for (int64_t j = 0; j < n; ++j) {
      double acc = bias != nullptr ? (*bias)[j].real() : 0;
      for (int64_t p = 0; p < k; ++p) acc += x1[i * k + p].real() * x2[p * n + j].real();
      out[i * n + j] = acc;
    }
  }
  return out;
}

void EnsureExampleGroup() {
  static std::once_flag once;
  std::call_once(once, [] {
    TestStream();  // aclInit, device 0 current on this thread
    HcclRootInfo root;
    CheckHccl(HcclGetRootInfo(&root), "HcclGetRootInfo");
    HcclCommConfig config;
    HcclCommConfigInit(&config);
    std::snprintf(config.hcclCommName, sizeof config.hcclCommName, "%s", kExampleGroup);
    HcclComm comm = nullptr;  // lives until the process ends, as a client's world communicator
    CheckHccl(HcclCommInitRootInfoConfig(1, &root, 0, &config, &comm), "HcclCommInitRootInfoConfig");
  });
}

Ranks::Ranks(uint32_t size) : comms_(size), streams_(size) {
  TestStream();  // aclInit
  std::vector<int32_t> devices(size);
  for (uint32_t r = 0; r < size; ++r) devices[r] = static_cast<int32_t>(r);
  CheckHccl(HcclCommInitAll(size, devices.data(), comms_.data()), "HcclCommInitAll");
  char name[COMM_NAME_MAX_LENGTH] = {};
  CheckHccl(HcclGetCommName(comms_[0], name), "HcclGetCommName");
  group_ = name;
  for (uint32_t r = 0; r < size; ++r) {
    OnDevice(r);
    CheckAclCall(aclrtCreateStream(&streams_[r]), "aclrtCreateStream");
  }
  OnDevice(0);
}

Ranks::~Ranks() {
  for (uint32_t r = 0; r < size(); ++r) {
    EXPECT_EQ(aclrtSetDevice(static_cast<int32_t>(r)), ACL_SUCCESS);
    EXPECT_EQ(aclrtSynchronizeStream(streams_[r]), ACL_SUCCESS);
    EXPECT_EQ(aclrtDestroyStream(streams_[r]), ACL_SUCCESS);
    EXPECT_EQ(HcclCommDestroy(comms_[r]), HCCL_SUCCESS);
  }
  EXPECT_EQ(aclrtSetDevice(0), ACL_SUCCESS);
}

void Ranks::OnDevice(uint32_t rank) const {
  CheckAclCall(aclrtSetDevice(static_cast<int32_t>(rank)), "aclrtSetDevice");
}

Value Rounded(double v, aclDataType dtype) { return ConvertValue(Value(v), dtype); }

Expected SumOfRoundedParts(const std::vector<std::vector<double>>& products, const std::vector<const Values*>& x3,
                           aclDataType dtype) {
  const double u = UnitRoundoff(dtype);
  Expected want;
  for (size_t e = 0; e < products[0].size(); ++e) {
    double sum = 0, magnitude = 0;
    for (size_t r = 0; r < products.size(); ++r) {
      const double exact = products[r][e];
      double part = Rounded(exact, dtype).real();
      if (x3[r] != nullptr) part = Rounded(part + (*x3[r])[e].real(), dtype).real();
      sum += part;
      magnitude += std::abs(part) + std::abs(exact);
    }
    want.values.push_back(Rounded(sum, dtype));
    want.tolerance.push_back(4 * u * (magnitude + std::abs(sum)) + 1e-6);
  }
  return want;
}

void ExpectEveryRankGets(const std::vector<OpRun>& runs, const std::function<Values(uint32_t)>& output,
                         const Expected& want) {
  for (uint32_t r = 0; r < runs.size(); ++r) {
    ASSERT_TRUE(runs[r].ok()) << "rank " << r << ": " << Describe(runs[r]);
    ExpectNear(output(r), want, "rank " + std::to_string(r));
  }
}

void AddRmsNormReference(const std::vector<double>& reduced, const std::vector<double>& magnitude,
                         const Values& residual, const Values& gamma, int64_t n, aclDataType dtype, double eps,
                         Expected& y, Expected& norm) {
  const double u = UnitRoundoff(dtype);
  const auto round = [&](double v) { return ConvertValue(Value(v), dtype).real(); };
  const auto m = static_cast<int64_t>(reduced.size()) / n;
  for (int64_t i = 0; i < m; ++i) {
    std::vector<double> x(static_cast<size_t>(n));
    double squares = 0;
    for (int64_t j = 0; j < n; ++j) {
      const auto e = static_cast<size_t>(i * n + j);
      const double sum = round(reduced[e]) + residual[e].real();
      y.values.push_back(round(sum));
      y.tolerance.push_back(4 * u * (magnitude[e] + std::abs(sum)) + 1e-6);
      x[static_cast<size_t>(j)] = dtype == ACL_FLOAT16 ? round(sum) : sum;
      squares += x[static_cast<size_t>(j)] * x[static_cast<size_t>(j)];
    }
    const double rstd = 1 / std::sqrt(squares / static_cast<double>(n) + eps);
    for (int64_t j = 0; j < n; ++j) {
      const double value = x[static_cast<size_t>(j)] * rstd * gamma[static_cast<size_t>(j)].real();
      norm.values.push_back(round(value));
      // An error of y's size in x moves normOut by about that much times rstd * gamma.
      norm.tolerance.push_back(y.tolerance[static_cast<size_t>(i * n + j)] * rstd * 2 + 4 * u * std::abs(value));
    }
  }
}

double Fp19(double v) {
  auto f = static_cast<float>(v);
  uint32_t bits = 0;
  std::memcpy(&bits, &f, sizeof bits);
  bits &= 0xFFFFE000u;
  std::memcpy(&f, &bits, sizeof f);
  return f;
}

double PackedScaleWord(double fp19) {
  const auto f = static_cast<float>(fp19);
  uint32_t bits = 0;
  std::memcpy(&bits, &f, sizeof bits);
  return static_cast<double>(uint64_t{bits} | (uint64_t{1} << 46));
}

OpRun Phase1Only(const Phase1& phase1) {
  OpArgs args;
  OpRun run;
  aclOpExecutor* executor = nullptr;
  run.phase1 = phase1(args, &run.workspaceSize, &executor);
  const char* message = aclGetRecentErrMsg();
  run.message = message != nullptr ? message : "";
  if (run.phase1 == ACLNN_SUCCESS) aclDestroyAclOpExecutor(executor);
  return run;
}

std::vector<OpRun> Ranks::Run(const RankPhase1& phase1, Phase2 phase2) const {
  std::vector<OpRun> runs(size());
  std::vector<OpArgs> args(size());
  std::vector<void*> workspaces(size(), nullptr);
  for (uint32_t r = 0; r < size(); ++r) {
    OnDevice(r);
    uint64_t workspace_size = 0;
    aclOpExecutor* executor = nullptr;
    runs[r].phase1 = phase1(r, args[r], &workspace_size, &executor);
    runs[r].workspaceSize = workspace_size;
    if (runs[r].phase1 != ACLNN_SUCCESS) {
      const char* message = aclGetRecentErrMsg();
      runs[r].message = message != nullptr ? message : "";
      continue;
    }
    if (workspace_size > 0) {
      CheckAclCall(aclrtMalloc(&workspaces[r], workspace_size, ACL_MEM_MALLOC_HUGE_FIRST), "aclrtMalloc");
    }
    runs[r].phase2 = phase2(workspaces[r], workspace_size, executor, streams_[r]);
    args[r].DestroyDescriptors();  // as clients do, before the work has run
  }
  for (uint32_t r = 0; r < size(); ++r) {
    if (runs[r].phase1 != ACLNN_SUCCESS) continue;
    OnDevice(r);
    runs[r].sync = aclrtSynchronizeStream(streams_[r]);
    if (runs[r].phase2 != ACLNN_SUCCESS || runs[r].sync != ACL_SUCCESS) {
      const char* message = aclGetRecentErrMsg();
      runs[r].message = message != nullptr ? message : "";
    }
    if (workspaces[r] != nullptr) CheckAclCall(aclrtFree(workspaces[r]), "aclrtFree");
  }
  OnDevice(0);
  return runs;
}

}  // namespace canopy_test
