// HCCL operations run as host tasks (src/runtime/host_task.h): one client
// thread queues a collective on every rank's stream of an HcclCommInitAll
// communicator and then waits for them in every order and every way. A rank
// whose stream was idle starts on a callback thread at once, so whichever
// stream the thread waits for first (running that rank's part itself), the
// other ranks' parts make progress: nothing here may deadlock.
#include <gtest/gtest.h>
#include <signal.h>

#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <numeric>
#include <string>
#include <thread>
#include <vector>

#include "acl/acl.h"
#include "hccl/hccl.h"
#include "hccl_cases.h"

namespace {

using hccl_test::Rank;

class HostTaskCollectives : public ::testing::Test {
 protected:
  void SetUp() override {
    ASSERT_EQ(aclrtGetDeviceCount(&devices_), ACL_SUCCESS);
    ASSERT_GE(devices_, 2u) << "the suite runs with CANOPY_DEVICE_COUNT >= 2";
    for (uint32_t d = 0; d < devices_; ++d) ids_.push_back(static_cast<int32_t>(d));
    comms_ = MakeCommunicator();
    for (uint32_t d = 0; d < devices_; ++d) {
      ASSERT_EQ(aclrtSetDevice(ids_[d]), ACL_SUCCESS);
      aclrtStream stream = nullptr;
      ASSERT_EQ(aclrtCreateStream(&stream), ACL_SUCCESS);
      streams_.push_back(stream);
    }
    ASSERT_EQ(aclrtSetDevice(0), ACL_SUCCESS);
  }
  void TearDown() override {
    for (uint32_t d = 0; d < streams_.size(); ++d) {
      aclrtSetDevice(ids_[d]);
      aclrtSynchronizeStream(streams_[d]);
      EXPECT_EQ(aclrtDestroyStream(streams_[d]), ACL_SUCCESS);
    }
    for (HcclComm comm : comms_) {
      if (comm != nullptr) {
        EXPECT_EQ(HcclCommDestroy(comm), HCCL_SUCCESS);
      }
    }
    aclrtSetDevice(0);
  }

  std::vector<HcclComm> MakeCommunicator() {
    std::vector<HcclComm> comms(devices_);
    EXPECT_EQ(HcclCommInitAll(devices_, ids_.data(), comms.data()), HCCL_SUCCESS) << aclGetRecentErrMsg();
    return comms;
  }
  Rank RankOf(uint32_t d, aclrtStream stream, const std::vector<HcclComm>& comms) const {
    return Rank{comms[d], stream, d, devices_};
  }
  // One all-reduce per rank (`count` elements, seeded by `round`), queued rank by rank.
  std::vector<std::unique_ptr<hccl_test::RankCase>> LaunchAllReduce(uint64_t count,
                                                                    const std::vector<aclrtStream>& streams,
                                                                    const std::vector<HcclComm>& comms) {
    std::vector<std::unique_ptr<hccl_test::RankCase>> cases;
    for (uint32_t d = 0; d < devices_; ++d) {
      EXPECT_EQ(aclrtSetDevice(ids_[d]), ACL_SUCCESS);
      cases.push_back(hccl_test::AllReduceCase(HCCL_DATA_TYPE_FP32, HCCL_REDUCE_SUM, count));
      EXPECT_EQ(cases.back()->Launch(RankOf(d, streams[d], comms)), HCCL_SUCCESS) << aclGetRecentErrMsg();
    }
    return cases;
  }
  void ExpectVerified(std::vector<std::unique_ptr<hccl_test::RankCase>>& cases, const std::string& where) {
    for (uint32_t d = 0; d < cases.size(); ++d) {
      ASSERT_EQ(aclrtSetDevice(ids_[d]), ACL_SUCCESS);
      EXPECT_EQ(cases[d]->Verify(), "") << where << ", rank " << d;
    }
    ASSERT_EQ(aclrtSetDevice(0), ACL_SUCCESS);
  }

  uint32_t devices_ = 0;
  std::vector<int32_t> ids_;
  std::vector<HcclComm> comms_;
  std::vector<aclrtStream> streams_;
};

// The orders a single thread waits for the ranks in.
std::vector<std::vector<uint32_t>> Orders(uint32_t ranks) {
  std::vector<uint32_t> forward(ranks);
  std::iota(forward.begin(), forward.end(), 0u);
  std::vector<uint32_t> backward(forward.rbegin(), forward.rend());
  std::vector<uint32_t> rotated = forward;
  std::rotate(rotated.begin(), rotated.begin() + ranks / 2, rotated.end());
  return {forward, backward, rotated};
}

TEST_F(HostTaskCollectives, OneThreadWaitsForTheRanksInEveryOrder) {
  int variant = 0;
  for (const auto& order : Orders(devices_)) {
    for (const uint64_t count : {16ull, 20000ull}) {
      for (int how = 0; how < 4; ++how, ++variant) {
        // Two in a row: the first starts at the enqueue, the second behind it (the engine starts it).
        auto first = LaunchAllReduce(count, streams_, comms_);
        auto second = LaunchAllReduce(count + 1, streams_, comms_);
        for (const uint32_t d : order) {
          ASSERT_EQ(aclrtSetDevice(ids_[d]), ACL_SUCCESS);
          aclError status = ACL_SUCCESS;
          if (how == 0) {
            status = aclrtSynchronizeStream(streams_[d]);
          } else if (how == 1) {
            status = aclrtSynchronizeStreamWithTimeout(streams_[d], 60000);
          } else if (how == 2) {
            status = aclrtSynchronizeDevice();
          } else {
            aclrtEvent event = nullptr;
            ASSERT_EQ(aclrtCreateEvent(&event), ACL_SUCCESS);
            ASSERT_EQ(aclrtRecordEvent(event, streams_[d]), ACL_SUCCESS);
            status = aclrtSynchronizeEvent(event);
            EXPECT_EQ(aclrtDestroyEvent(event), ACL_SUCCESS);
            if (status == ACL_SUCCESS) status = aclrtSynchronizeStream(streams_[d]);
          }
          ASSERT_EQ(status, ACL_SUCCESS) << "variant " << variant << ", rank " << d << ": " << aclGetRecentErrMsg();
        }
        ExpectVerified(first, "variant " + std::to_string(variant) + " (first)");
        ExpectVerified(second, "variant " + std::to_string(variant) + " (second)");
      }
    }
  }
}

// The communicators destroyed right after the operations were queued: the
// queued operations still run (they hold the communicator) and succeed.
TEST_F(HostTaskCollectives, CommunicatorsDestroyedRightAfterQueuingStillRunTheirOperations) {
  for (int round = 0; round < 6; ++round) {
    std::vector<HcclComm> comms = MakeCommunicator();
    auto cases = LaunchAllReduce(64 + round, streams_, comms);
    for (HcclComm comm : comms) ASSERT_EQ(HcclCommDestroy(comm), HCCL_SUCCESS);
    for (uint32_t d = devices_; d-- > 0;) {
      ASSERT_EQ(aclrtSynchronizeStream(streams_[d]), ACL_SUCCESS)
          << "round " << round << ", rank " << d << ": " << aclGetRecentErrMsg();
    }
    ExpectVerified(cases, "round " + std::to_string(round));
  }
}

// Two communicators over the same devices, each rank with a stream per
// communicator, their operations interleaved; the thread waits for them
// crosswise.
TEST_F(HostTaskCollectives, TwoCommunicatorsInterleavedOnTwoStreamsPerRank) {
  std::vector<HcclComm> second = MakeCommunicator();
  std::vector<aclrtStream> others;
  for (uint32_t d = 0; d < devices_; ++d) {
    ASSERT_EQ(aclrtSetDevice(ids_[d]), ACL_SUCCESS);
    aclrtStream stream = nullptr;
    ASSERT_EQ(aclrtCreateStream(&stream), ACL_SUCCESS);
    others.push_back(stream);
  }
  for (int round = 0; round < 4; ++round) {
    auto a1 = LaunchAllReduce(32, streams_, comms_);
    auto b1 = LaunchAllReduce(40000, others, second);
    auto a2 = LaunchAllReduce(33, streams_, comms_);
    auto b2 = LaunchAllReduce(7, others, second);
    for (uint32_t i = 0; i < devices_; ++i) {
      const uint32_t d = (round % 2 == 0) ? i : devices_ - 1 - i;
      ASSERT_EQ(aclrtSetDevice(ids_[d]), ACL_SUCCESS);
      ASSERT_EQ(aclrtSynchronizeStream(round % 2 == 0 ? others[d] : streams_[d]), ACL_SUCCESS) << aclGetRecentErrMsg();
      ASSERT_EQ(aclrtSynchronizeStream(round % 2 == 0 ? streams_[d] : others[d]), ACL_SUCCESS) << aclGetRecentErrMsg();
    }
    ExpectVerified(a1, "a1");
    ExpectVerified(b1, "b1");
    ExpectVerified(a2, "a2");
    ExpectVerified(b2, "b2");
  }
  for (uint32_t d = 0; d < devices_; ++d) {
    ASSERT_EQ(aclrtSetDevice(ids_[d]), ACL_SUCCESS);
    EXPECT_EQ(aclrtDestroyStream(others[d]), ACL_SUCCESS);
    EXPECT_EQ(HcclCommDestroy(second[d]), HCCL_SUCCESS);
  }
  ASSERT_EQ(aclrtSetDevice(0), ACL_SUCCESS);
}

// One client thread per rank, as a multi-device program runs: each queues its
// rank's operations and waits for its own stream, so every rank's part may run
// on the thread that waits for it.
TEST_F(HostTaskCollectives, AThreadPerRankEachWaitingForItsOwnStream) {
  std::vector<std::vector<std::unique_ptr<hccl_test::RankCase>>> cases(devices_);
  std::vector<std::string> failures(devices_);
  std::vector<std::thread> threads;
  for (uint32_t d = 0; d < devices_; ++d) {
    threads.emplace_back([&, d] {
      if (aclrtSetDevice(ids_[d]) != ACL_SUCCESS) {
        failures[d] = "aclrtSetDevice";
        return;
      }
      for (int round = 0; round < 20 && failures[d].empty(); ++round) {
        auto one = hccl_test::AllReduceCase(HCCL_DATA_TYPE_FP32, HCCL_REDUCE_SUM, 8 + round * 300);
        if (one->Launch(RankOf(d, streams_[d], comms_)) != HCCL_SUCCESS) failures[d] = "launch";
        if (aclrtSynchronizeStream(streams_[d]) != ACL_SUCCESS) failures[d] = aclGetRecentErrMsg();
        if (failures[d].empty()) failures[d] = one->Verify();
      }
      aclrtResetDevice(ids_[d]);
    });
  }
  for (auto& thread : threads) thread.join();
  for (uint32_t d = 0; d < devices_; ++d) EXPECT_EQ(failures[d], "") << "rank " << d;
}

bool SigpipeBlocked() {
  sigset_t mask;
  pthread_sigmask(SIG_SETMASK, nullptr, &mask);
  return sigismember(&mask, SIGPIPE) == 1;
}

// The waiting thread, having run collectives itself, is as it was: its own
// recent message, its current device, its SIGPIPE mask (blocked or not).
TEST_F(HostTaskCollectives, TheWaitingThreadKeepsItsMessageDeviceAndSignalMask) {
  for (const bool blocked : {false, true}) {
    sigset_t pipe;
    sigemptyset(&pipe);
    sigaddset(&pipe, SIGPIPE);
    ASSERT_EQ(pthread_sigmask(blocked ? SIG_BLOCK : SIG_UNBLOCK, &pipe, nullptr), 0);
    for (int round = 0; round < 10; ++round) {
      auto cases = LaunchAllReduce(24, streams_, comms_);
      ASSERT_EQ(aclrtSetDevice(0), ACL_SUCCESS);
      ASSERT_EQ(aclrtSetDevice(99), ACL_ERROR_RT_INVALID_DEVICEID);  // a message of the thread's own
      const std::string own = aclGetRecentErrMsg();
      ASSERT_EQ(aclrtSetDevice(99), ACL_ERROR_RT_INVALID_DEVICEID);
      for (uint32_t d = 0; d < devices_; ++d) ASSERT_EQ(aclrtSynchronizeStream(streams_[d]), ACL_SUCCESS);
      EXPECT_EQ(std::string(aclGetRecentErrMsg()), own);
      int32_t device = -1;
      ASSERT_EQ(aclrtGetDevice(&device), ACL_SUCCESS);
      EXPECT_EQ(device, 0);
      EXPECT_EQ(SigpipeBlocked(), blocked);
      ExpectVerified(cases, "round " + std::to_string(round));
    }
  }
  sigset_t pipe;
  sigemptyset(&pipe);
  sigaddset(&pipe, SIGPIPE);
  pthread_sigmask(SIG_UNBLOCK, &pipe, nullptr);
}

// A failing collective run by the waiting thread: every rank's stream reports
// an error with the HCCL reason, once; the streams go on.
TEST_F(HostTaskCollectives, ARankThatDisagreesFailsEveryRanksSynchronisationOnce) {
  std::vector<std::unique_ptr<hccl_test::RankCase>> cases;
  for (uint32_t d = 0; d < devices_; ++d) {
    ASSERT_EQ(aclrtSetDevice(ids_[d]), ACL_SUCCESS);
    cases.push_back(hccl_test::AllReduceCase(HCCL_DATA_TYPE_FP32, HCCL_REDUCE_SUM, d == 0 ? 8 : 9));
    ASSERT_EQ(cases.back()->Launch(RankOf(d, streams_[d], comms_)), HCCL_SUCCESS);
  }
  for (uint32_t d = devices_; d-- > 0;) {
    ASSERT_EQ(aclrtSetDevice(ids_[d]), ACL_SUCCESS);
    EXPECT_NE(aclrtSynchronizeStream(streams_[d]), ACL_SUCCESS) << "rank " << d;
    const std::string message = aclGetRecentErrMsg();
    EXPECT_NE(message.find("HcclAllReduce"), std::string::npos) << message;
    EXPECT_EQ(aclrtSynchronizeStream(streams_[d]), ACL_SUCCESS) << "reported once";
  }
  // The communicators keep the failure: they are done with.
  for (HcclComm& comm : comms_) {
    EXPECT_EQ(HcclCommDestroy(comm), HCCL_SUCCESS);
    comm = nullptr;
  }
  ASSERT_EQ(aclrtSetDevice(0), ACL_SUCCESS);
}

// A collective captured into a model runs again at every replay (an
// adversarial pass found the second replay failing with bad_function_call: the
// first run had dropped the operation's work, which replays share).
TEST_F(HostTaskCollectives, ACapturedCollectiveRunsAtEveryReplay) {
  std::vector<std::unique_ptr<hccl_test::RankCase>> cases;
  std::vector<aclmdlRI> models(devices_, nullptr);
  for (uint32_t d = 0; d < devices_; ++d) {
    ASSERT_EQ(aclrtSetDevice(ids_[d]), ACL_SUCCESS);
    ASSERT_EQ(aclmdlRICaptureBegin(streams_[d], ACL_MODEL_RI_CAPTURE_MODE_RELAXED), ACL_SUCCESS)
        << aclGetRecentErrMsg();
    cases.push_back(hccl_test::AllReduceCase(HCCL_DATA_TYPE_FP32, HCCL_REDUCE_SUM, 300));
    ASSERT_EQ(cases.back()->Launch(RankOf(d, streams_[d], comms_)), HCCL_SUCCESS) << aclGetRecentErrMsg();
    ASSERT_EQ(aclmdlRICaptureEnd(streams_[d], &models[d]), ACL_SUCCESS) << aclGetRecentErrMsg();
  }
  for (int replay = 0; replay < 3; ++replay) {
    for (uint32_t d = 0; d < devices_; ++d) {
      ASSERT_EQ(aclrtSetDevice(ids_[d]), ACL_SUCCESS);
      ASSERT_EQ(aclmdlRIExecuteAsync(models[d], streams_[d]), ACL_SUCCESS) << aclGetRecentErrMsg();
    }
    for (uint32_t d = 0; d < devices_; ++d) {
      ASSERT_EQ(aclrtSetDevice(ids_[d]), ACL_SUCCESS);
      ASSERT_EQ(aclrtSynchronizeStream(streams_[d]), ACL_SUCCESS)
          << "replay " << replay << ": " << aclGetRecentErrMsg();
    }
    ExpectVerified(cases, "replay " + std::to_string(replay));
  }
  for (uint32_t d = 0; d < devices_; ++d) {
    ASSERT_EQ(aclrtSetDevice(ids_[d]), ACL_SUCCESS);
    EXPECT_EQ(aclmdlRIDestroy(models[d]), ACL_SUCCESS);
  }
  ASSERT_EQ(aclrtSetDevice(0), ACL_SUCCESS);
}

// One rank using its communicator from two streams at once: two operations of
// that rank would meet the peers' in the wrong turn. Whatever the timing,
// every stream either reports an error or holds the right sums; never success
// with wrong data (an adversarial pass saw both operations of rank 0 pair with
// each other at the shared-memory barrier, and success with the wrong sums).
// Both operations carry the same data, so the two pairing with the peer's in
// either order (which only the client's issue order can rule out) sums right;
// a rank's two pairing with each other does not.
TEST_F(HostTaskCollectives, OneCommunicatorOnTwoStreamsOfARankNeverGivesWrongSums) {
  // The peers of an operation that failed wait for it until HCCL_EXEC_TIMEOUT,
  // read when the communicator is made.
  // Two ranks: rank 0's two operations alone would fill the barrier.
  constexpr uint32_t kRanks = 2;
  setenv("HCCL_EXEC_TIMEOUT", "1", 1);
  std::vector<HcclComm> comms(kRanks);
  ASSERT_EQ(HcclCommInitAll(kRanks, ids_.data(), comms.data()), HCCL_SUCCESS) << aclGetRecentErrMsg();
  unsetenv("HCCL_EXEC_TIMEOUT");
  ASSERT_EQ(aclrtSetDevice(ids_[0]), ACL_SUCCESS);
  aclrtStream second = nullptr;
  ASSERT_EQ(aclrtCreateStream(&second), ACL_SUCCESS);
  std::vector<std::unique_ptr<hccl_test::RankCase>> first_ops, second_ops;
  for (uint32_t d = 0; d < kRanks; ++d) {
    ASSERT_EQ(aclrtSetDevice(ids_[d]), ACL_SUCCESS);
    first_ops.push_back(hccl_test::AllReduceCase(HCCL_DATA_TYPE_FP32, HCCL_REDUCE_SUM, 4096));
    second_ops.push_back(hccl_test::AllReduceCase(HCCL_DATA_TYPE_FP32, HCCL_REDUCE_SUM, 4096));
    ASSERT_EQ(first_ops.back()->Launch(Rank{comms[d], streams_[d], d, kRanks}), HCCL_SUCCESS);
    ASSERT_EQ(second_ops.back()->Launch(Rank{comms[d], d == 0 ? second : streams_[d], d, kRanks}), HCCL_SUCCESS);
  }
  // Rank 1's stream first, as a client waiting for its peers would.
  for (uint32_t d = kRanks; d-- > 0;) {
    ASSERT_EQ(aclrtSetDevice(ids_[d]), ACL_SUCCESS);
    // Ranks past 0 hold both operations on one stream, whose success covers both.
    const bool first_ok = aclrtSynchronizeStream(streams_[d]) == ACL_SUCCESS;
    const bool second_ok = d == 0 ? aclrtSynchronizeStream(second) == ACL_SUCCESS : first_ok;
    if (first_ok) {
      EXPECT_EQ(first_ops[d]->Verify(), "") << "rank " << d << ": the first operation reported success";
    }
    if (second_ok) {
      EXPECT_EQ(second_ops[d]->Verify(), "") << "rank " << d << ": the second operation reported success";
    }
  }
  ASSERT_EQ(aclrtSetDevice(ids_[0]), ACL_SUCCESS);
  EXPECT_EQ(aclrtDestroyStream(second), ACL_SUCCESS);
  for (HcclComm comm : comms) EXPECT_EQ(HcclCommDestroy(comm), HCCL_SUCCESS);
  ASSERT_EQ(aclrtSetDevice(0), ACL_SUCCESS);
}

}  // namespace
