// HcclCommInitAll: one communicator over every device of this process
// (CANOPY_DEVICE_COUNT of them), on the shared-memory transport. The test
// thread queues each rank's operation on that rank's stream, then
// synchronises every stream and checks every rank.
#include <gtest/gtest.h>

#include <cstdlib>
#include <string>
#include <vector>

#include "acl/acl.h"
#include "hccl/hccl.h"
#include "hccl_cases.h"

namespace {

using hccl_test::Rank;

class InProcess : public ::testing::Test {
 protected:
  void SetUp() override {
    ASSERT_EQ(aclrtGetDeviceCount(&devices_), ACL_SUCCESS);
    ASSERT_GE(devices_, 2u) << "the suite runs with CANOPY_DEVICE_COUNT >= 2";
    for (uint32_t d = 0; d < devices_; ++d) ids_.push_back(static_cast<int32_t>(d));
    comms_.resize(devices_);
    ASSERT_EQ(HcclCommInitAll(devices_, ids_.data(), comms_.data()), HCCL_SUCCESS) << aclGetRecentErrMsg();
    for (uint32_t d = 0; d < devices_; ++d) {
      ASSERT_EQ(aclrtSetDevice(ids_[d]), ACL_SUCCESS);
      Rank rank;
      rank.comm = comms_[d];
      rank.rank = d;
      rank.size = devices_;
      ASSERT_EQ(aclrtCreateStream(&rank.stream), ACL_SUCCESS);
      ranks_.push_back(rank);
    }
  }
  void TearDown() override {
    for (Rank& rank : ranks_) {
      aclrtSetDevice(ids_[rank.rank]);
      aclrtSynchronizeStream(rank.stream);
      aclrtDestroyStream(rank.stream);
    }
    for (HcclComm comm : comms_) {
      if (comm != nullptr) {
        EXPECT_EQ(HcclCommDestroy(comm), HCCL_SUCCESS);
      }
    }
  }
  // aclrtMalloc allocates on the current device: switch before each rank's work.
  void OnDevice(uint32_t rank) { ASSERT_EQ(aclrtSetDevice(ids_[rank]), ACL_SUCCESS); }

  uint32_t devices_ = 0;
  std::vector<int32_t> ids_;
  std::vector<HcclComm> comms_;
  std::vector<Rank> ranks_;
};

TEST_F(InProcess, RanksAndNames) {
  char first[COMM_NAME_MAX_LENGTH] = {};
  ASSERT_EQ(HcclGetCommName(comms_[0], first), HCCL_SUCCESS);
  for (uint32_t d = 0; d < devices_; ++d) {
    uint32_t size = 0, id = 0;
    EXPECT_EQ(HcclGetRankSize(comms_[d], &size), HCCL_SUCCESS);
    EXPECT_EQ(HcclGetRankId(comms_[d], &id), HCCL_SUCCESS);
    EXPECT_EQ(size, devices_);
    EXPECT_EQ(id, d);
    char name[COMM_NAME_MAX_LENGTH] = {};
    EXPECT_EQ(HcclGetCommName(comms_[d], name), HCCL_SUCCESS);
    EXPECT_STREQ(name, first) << "every rank names the same communicator";
  }
}

TEST_F(InProcess, EveryCollectiveTypeAndReduceOpMatchesTheReference) {
  std::vector<std::vector<std::unique_ptr<hccl_test::RankCase>>> cases;
  for (uint32_t d = 0; d < devices_; ++d) {
    OnDevice(d);
    cases.push_back(hccl_test::AllCases(devices_));
    for (auto& one : cases.back()) ASSERT_EQ(one->Launch(ranks_[d]), HCCL_SUCCESS) << one->Name();
  }
  for (uint32_t d = 0; d < devices_; ++d) {
    ASSERT_EQ(aclrtSynchronizeStream(ranks_[d].stream), ACL_SUCCESS) << aclGetRecentErrMsg();
  }
  for (uint32_t d = 0; d < devices_; ++d) {
    for (auto& one : cases[d]) EXPECT_EQ(one->Verify(), "") << "rank " << d;
  }
}

// Send and receive buffers that overlap (the same address) give the values
// separate buffers give: ReduceScatter, AllGather, AlltoAll and Scatter once
// overwrote a rank's send data before its peers had read it.
TEST_F(InProcess, OverlappingSendAndReceiveBuffers) {
  constexpr uint64_t kCount = 1 << 16;  // elements a rank receives (ReduceScatter, Scatter) or sends
  const uint64_t size = devices_;
  enum Op { kReduceScatter, kAllGather, kAllToAll, kScatter };
  for (Op op : {kReduceScatter, kAllGather, kAllToAll, kScatter}) {
    SCOPED_TRACE(op);
    std::vector<void*> buffers(size);
    const uint64_t elements = kCount * size;
    for (uint32_t d = 0; d < size; ++d) {
      OnDevice(d);
      ASSERT_EQ(aclrtMalloc(&buffers[d], elements * sizeof(float), ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
      std::vector<float> host(elements);
      for (uint64_t i = 0; i < elements; ++i) host[i] = static_cast<float>(d * 1000 + i % 997);
      ASSERT_EQ(aclrtMemcpy(buffers[d], elements * sizeof(float), host.data(), elements * sizeof(float),
                            ACL_MEMCPY_HOST_TO_DEVICE),
                ACL_SUCCESS);
    }
    for (uint32_t d = 0; d < size; ++d) {
      OnDevice(d);
      void* b = buffers[d];
      HcclResult result = HCCL_SUCCESS;
      switch (op) {
        case kReduceScatter:
          result = HcclReduceScatter(b, b, kCount, HCCL_DATA_TYPE_FP32, HCCL_REDUCE_SUM, comms_[d], ranks_[d].stream);
          break;
        case kAllGather:
          result = HcclAllGather(b, b, kCount, HCCL_DATA_TYPE_FP32, comms_[d], ranks_[d].stream);
          break;
        case kAllToAll:
          result =
              HcclAlltoAll(b, kCount, HCCL_DATA_TYPE_FP32, b, kCount, HCCL_DATA_TYPE_FP32, comms_[d], ranks_[d].stream);
          break;
        case kScatter:
          result = HcclScatter(b, b, kCount, HCCL_DATA_TYPE_FP32, 1, comms_[d], ranks_[d].stream);
          break;
      }
      ASSERT_EQ(result, HCCL_SUCCESS) << aclGetRecentErrMsg();
    }
    for (uint32_t d = 0; d < size; ++d) {
      ASSERT_EQ(aclrtSynchronizeStream(ranks_[d].stream), ACL_SUCCESS) << aclGetRecentErrMsg();
    }
    const auto sent = [](uint64_t rank, uint64_t i) { return static_cast<double>(rank * 1000 + i % 997); };
    for (uint32_t d = 0; d < size; ++d) {
      const uint64_t received = op == kAllGather || op == kAllToAll ? elements : kCount;
      std::vector<float> host(received);
      ASSERT_EQ(aclrtMemcpy(host.data(), received * sizeof(float), buffers[d], received * sizeof(float),
                            ACL_MEMCPY_DEVICE_TO_HOST),
                ACL_SUCCESS);
      int wrong = 0;
      for (uint64_t i = 0; i < received && wrong < 3; ++i) {
        double want = 0;
        if (op == kReduceScatter) {
          for (uint64_t r = 0; r < size; ++r) want += sent(r, d * kCount + i);
        } else if (op == kAllGather) {
          want = sent(i / kCount, i % kCount);
        } else if (op == kAllToAll) {
          want = sent(i / kCount, d * kCount + i % kCount);
        } else {
          want = sent(1, d * kCount + i);
        }
        if (host[i] != want) {
          ADD_FAILURE() << "rank " << d << " element " << i << ": " << host[i] << ", want " << want;
          ++wrong;
        }
      }
    }
    for (uint32_t d = 0; d < size; ++d) {
      OnDevice(d);
      EXPECT_EQ(aclrtFree(buffers[d]), ACL_SUCCESS);
    }
  }
}

TEST_F(InProcess, MismatchedCountsFailEveryRank) {
  std::vector<std::unique_ptr<hccl_test::RankCase>> cases;
  for (uint32_t d = 0; d < devices_; ++d) {
    OnDevice(d);
    cases.push_back(hccl_test::AllReduceCase(HCCL_DATA_TYPE_FP32, HCCL_REDUCE_SUM, d == 0 ? 10 : 12));
    ASSERT_EQ(cases.back()->Launch(ranks_[d]), HCCL_SUCCESS);
  }
  for (uint32_t d = 0; d < devices_; ++d) {
    EXPECT_NE(aclrtSynchronizeStream(ranks_[d].stream), ACL_SUCCESS);
    HcclResult async = HCCL_SUCCESS;
    EXPECT_EQ(HcclGetCommAsyncError(comms_[d], &async), HCCL_SUCCESS);
    EXPECT_EQ(async, HCCL_E_PARA);
  }
}

TEST_F(InProcess, VariableCollectivesWithDisagreeingArraysFailEveryRank) {
  // Rank 0 says rank 1 sends 3 elements, the others say 2: every rank's
  // AllGatherV fails with HCCL_E_PARA, and nothing is written.
  std::vector<void*> send(devices_), recv(devices_);
  std::vector<std::vector<uint64_t>> counts(devices_), displs(devices_);
  for (uint32_t d = 0; d < devices_; ++d) {
    OnDevice(d);
    ASSERT_EQ(aclrtMalloc(&send[d], 64, ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
    ASSERT_EQ(aclrtMalloc(&recv[d], 64 * devices_, ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
    for (uint32_t r = 0; r < devices_; ++r) {
      counts[d].push_back(r == 1 && d == 0 ? 3 : 2);
      displs[d].push_back(4 * r);
    }
    const uint64_t own = counts[d][d];
    ASSERT_EQ(HcclAllGatherV(send[d], own, recv[d], counts[d].data(), displs[d].data(), HCCL_DATA_TYPE_FP32, comms_[d],
                             ranks_[d].stream),
              HCCL_SUCCESS);
  }
  for (uint32_t d = 0; d < devices_; ++d) {
    EXPECT_NE(aclrtSynchronizeStream(ranks_[d].stream), ACL_SUCCESS);
    HcclResult async = HCCL_SUCCESS;
    EXPECT_EQ(HcclGetCommAsyncError(comms_[d], &async), HCCL_SUCCESS);
    EXPECT_EQ(async, HCCL_E_PARA) << "rank " << d;
  }
  for (uint32_t d = 0; d < devices_; ++d) {
    OnDevice(d);
    aclrtFree(send[d]);
    aclrtFree(recv[d]);
  }
}

TEST(InProcessFaults, ARankThatNeverCallsTimesOut) {
  // HCCL_EXEC_TIMEOUT is read when the communicator is made.
  setenv("HCCL_EXEC_TIMEOUT", "1", 1);
  int32_t devices[] = {0, 1};
  HcclComm comms[2] = {};
  ASSERT_EQ(HcclCommInitAll(2, devices, comms), HCCL_SUCCESS);
  unsetenv("HCCL_EXEC_TIMEOUT");
  ASSERT_EQ(aclrtSetDevice(0), ACL_SUCCESS);
  aclrtStream stream = nullptr;
  ASSERT_EQ(aclrtCreateStream(&stream), ACL_SUCCESS);
  Rank rank{comms[0], stream, 0, 2};
  auto one = hccl_test::AllReduceCase(HCCL_DATA_TYPE_FP32, HCCL_REDUCE_SUM, 16);
  ASSERT_EQ(one->Launch(rank), HCCL_SUCCESS);  // rank 1 never calls
  EXPECT_NE(aclrtSynchronizeStream(stream), ACL_SUCCESS);
  EXPECT_NE(std::string(aclGetRecentErrMsg()).find("HCCL_E_TIMEOUT"), std::string::npos) << aclGetRecentErrMsg();
  HcclResult async = HCCL_SUCCESS;
  EXPECT_EQ(HcclGetCommAsyncError(comms[0], &async), HCCL_SUCCESS);
  EXPECT_EQ(async, HCCL_E_TIMEOUT);
  EXPECT_EQ(aclrtDestroyStream(stream), ACL_SUCCESS);
  EXPECT_EQ(HcclCommDestroy(comms[0]), HCCL_SUCCESS);
  EXPECT_EQ(HcclCommDestroy(comms[1]), HCCL_SUCCESS);
}

}  // namespace
