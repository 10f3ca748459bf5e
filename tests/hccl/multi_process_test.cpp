// Communicators across processes on loopback: the test makes the root info
// (its process hosts the rendezvous listener) and starts one worker process
// per rank (rank_worker.cpp), each of which checks its own results. A worker
// that does not finish in time is killed and fails the test: nothing here can
// hang CI.
#include <arpa/inet.h>
#include <fcntl.h>
#include <gtest/gtest.h>
#include <signal.h>
#include <spawn.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstdlib>
#include <fstream>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include "hccl/hccl.h"

extern char** environ;

namespace {

// A whole scenario's bound; the HCCL timeouts the workers get are far below it.
constexpr auto kWorkerDeadline = std::chrono::seconds(120);

struct Outcome {
  int status = -1;  // waitpid's status
  std::string output;
};

std::string ReadFile(const std::string& path) {
  std::ifstream in(path);
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

// Runs `spawned` workers of a `ranks`-rank communicator with `environment`
// added; returns each worker's outcome. Without `rank_tables` the workers get
// a root info file this process made; with them, a rank-table file (mode
// 0600): the one table for every rank, or rank_tables[r] for rank r.
std::vector<Outcome> RunRanks(const std::string& scenario, uint32_t ranks, uint32_t spawned,
                              const std::vector<std::string>& environment,
                              const std::vector<std::string>& rank_tables = {}) {
  char directory[] = "/tmp/canopy_hccl_XXXXXX";
  if (mkdtemp(directory) == nullptr) {
    ADD_FAILURE() << "mkdtemp";
    return {};
  }
  std::vector<std::string> inputs;  // the file each rank reads
  if (rank_tables.empty()) {
    HcclRootInfo root{};
    EXPECT_EQ(HcclGetRootInfo(&root), HCCL_SUCCESS);
    inputs.push_back(std::string(directory) + "/root_info");
    std::ofstream(inputs.back(), std::ios::binary).write(root.internal, sizeof(root.internal));
    if (scenario == "two_comms") {  // the second communicator's, beside the first's
      HcclRootInfo second{};
      EXPECT_EQ(HcclGetRootInfo(&second), HCCL_SUCCESS);
      std::ofstream(inputs.back() + "2", std::ios::binary).write(second.internal, sizeof(second.internal));
    }
  } else {
    for (size_t i = 0; i < rank_tables.size(); ++i) {
      inputs.push_back(std::string(directory) + "/rank_table" + std::to_string(i) + ".json");
      const int fd = open(inputs.back().c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0600);
      EXPECT_EQ(write(fd, rank_tables[i].data(), rank_tables[i].size()), static_cast<ssize_t>(rank_tables[i].size()));
      close(fd);
    }
  }

  std::vector<std::string> env_strings;
  for (char** entry = environ; *entry != nullptr; ++entry) env_strings.emplace_back(*entry);
  for (const std::string& extra : environment) env_strings.push_back(extra);
  std::vector<char*> env;
  for (std::string& entry : env_strings) env.push_back(entry.data());
  env.push_back(nullptr);

  std::vector<pid_t> pids;
  std::vector<std::string> logs;
  for (uint32_t rank = 0; rank < spawned; ++rank) {
    const std::string log = std::string(directory) + "/rank" + std::to_string(rank) + ".log";
    logs.push_back(log);
    posix_spawn_file_actions_t actions;
    posix_spawn_file_actions_init(&actions);
    posix_spawn_file_actions_addopen(&actions, 1, log.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0600);
    posix_spawn_file_actions_adddup2(&actions, 1, 2);
    std::string rank_text = std::to_string(rank), ranks_text = std::to_string(ranks);
    std::string worker = HCCL_RANK_WORKER;
    std::string input = inputs[inputs.size() == 1 ? 0 : rank];
    char* argv[] = {
        worker.data(), const_cast<char*>(scenario.c_str()), rank_text.data(), ranks_text.data(), input.data(), nullptr};
    pid_t pid = -1;
    EXPECT_EQ(posix_spawn(&pid, worker.c_str(), &actions, nullptr, argv, env.data()), 0);
    posix_spawn_file_actions_destroy(&actions);
    pids.push_back(pid);
  }

  std::vector<Outcome> outcomes(spawned);
  std::vector<bool> done(spawned, false);
  const auto deadline = std::chrono::steady_clock::now() + kWorkerDeadline;
  size_t remaining = spawned;
  while (remaining > 0) {
    for (uint32_t rank = 0; rank < spawned; ++rank) {
      if (done[rank] || pids[rank] <= 0) continue;
      if (waitpid(pids[rank], &outcomes[rank].status, WNOHANG) == pids[rank]) {
        done[rank] = true;
        --remaining;
      }
    }
    if (remaining == 0) break;
    if (std::chrono::steady_clock::now() > deadline) {
      for (uint32_t rank = 0; rank < spawned; ++rank) {
        if (!done[rank]) {
          kill(pids[rank], SIGKILL);
          waitpid(pids[rank], &outcomes[rank].status, 0);
          ADD_FAILURE() << "rank " << rank << " of '" << scenario << "' did not finish in time";
        }
      }
      break;
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  for (uint32_t rank = 0; rank < spawned; ++rank) {
    outcomes[rank].output = ReadFile(logs[rank]);
    std::remove(logs[rank].c_str());
  }
  for (const std::string& input : inputs) {
    std::remove(input.c_str());
    std::remove((input + "2").c_str());
  }
  rmdir(directory);
  return outcomes;
}

bool ExitedCleanly(const Outcome& outcome) { return WIFEXITED(outcome.status) && WEXITSTATUS(outcome.status) == 0; }

// Short HCCL timeouts: a defect fails the scenario long before the watchdog.
const std::vector<std::string> kTimeouts = {"HCCL_CONNECT_TIMEOUT=30", "HCCL_EXEC_TIMEOUT=30"};

void ExpectAllPass(const std::string& scenario, uint32_t ranks, const std::vector<std::string>& environment = kTimeouts,
                   const std::vector<std::string>& rank_tables = {}) {
  const std::vector<Outcome> outcomes = RunRanks(scenario, ranks, ranks, environment, rank_tables);
  ASSERT_EQ(outcomes.size(), ranks);
  for (uint32_t rank = 0; rank < ranks; ++rank) {
    EXPECT_TRUE(ExitedCleanly(outcomes[rank])) << "rank " << rank << ":\n" << outcomes[rank].output;
  }
}

// Ranks given different rank counts fail their init with HCCL_E_PARA and a
// message (an adversarial pass found HCCL_E_INTERNAL with Gloo's own text).
TEST(MultiProcessInit, RanksGivenDifferentRankCountsFailWithHcclEPara) {
  ExpectAllPass("nranks_mismatch", 2, {"HCCL_CONNECT_TIMEOUT=10", "HCCL_EXEC_TIMEOUT=10"});
}

class MultiProcess : public ::testing::TestWithParam<uint32_t> {};

TEST_P(MultiProcess, EveryCollectiveTypeAndReduceOpMatchesTheReference) { ExpectAllPass("cases", GetParam()); }

TEST_P(MultiProcess, CollectivesInterleaveWithAclnnOpsOnTheSameStream) { ExpectAllPass("aclnn", GetParam()); }

// An op fused with a collective (aclnnMatmulAllReduce) names its communicator
// by group; across processes its all-reduce runs on Gloo.
TEST_P(MultiProcess, MatmulAllReduceSumsTheRanksProducts) { ExpectAllPass("mc2", GetParam()); }

// Small messages ride in the signature exchange (docs/hccl.md): a long
// seeded sequence of every operation around the room boundary, then one
// whose communicator is destroyed right after queuing.
TEST_P(MultiProcess, InlineSequenceAroundTheRoomMatchesTheReference) { ExpectAllPass("inline", GetParam()); }

TEST_P(MultiProcess, TwoCommunicatorsOnTwoStreamsAlternate) { ExpectAllPass("two_comms", GetParam()); }

INSTANTIATE_TEST_SUITE_P(Ranks, MultiProcess, ::testing::Values(2u, 3u, 4u));

// 256 KiB over 6 ranks is not a multiple of 8: the frames' room must be, or
// the folds read misaligned elements.
TEST(MultiProcessInline, SixRanksRunTheInlineSequence) { ExpectAllPass("inline", 6); }

// The last rank differs in one thing only while both sides would go inline.
class MultiProcessDisagreement : public ::testing::TestWithParam<int> {};

TEST_P(MultiProcessDisagreement, FailsEveryRankWithParaError) {
  ExpectAllPass("disagree_" + std::to_string(GetParam()), 3);
}

// hccl_cases.cpp's kDisagreements: kind, type, reduce op, root, kind, count, enormous count.
INSTANTIATE_TEST_SUITE_P(Table, MultiProcessDisagreement, ::testing::Range(0, 7));

TEST(MultiProcessFaults, ARankKilledAmidInlineAllReducesMakesThePeersFail) {
  const auto outcomes = RunRanks("inline_killed", 3, 3, {"HCCL_CONNECT_TIMEOUT=30", "HCCL_EXEC_TIMEOUT=10"});
  ASSERT_EQ(outcomes.size(), 3u);
  EXPECT_TRUE(WIFSIGNALED(outcomes[1].status)) << outcomes[1].output;
  for (uint32_t rank : {0u, 2u}) {
    EXPECT_TRUE(ExitedCleanly(outcomes[rank])) << "rank " << rank << " (wait status " << outcomes[rank].status << "):\n"
                                               << outcomes[rank].output;
  }
}

TEST(MultiProcessFaults, ConfigNamesTheCommunicator) { ExpectAllPass("config", 2); }

TEST(MultiProcessFaults, MismatchedCountsFailEveryRankWithoutACrash) { ExpectAllPass("mismatch", 3); }

TEST(MultiProcessFaults, DisagreeingAllGatherVArraysFailEveryRank) { ExpectAllPass("mismatch_v", 3); }
// A receive of the wrong size fails at the receiver; the sender is not left
// waiting (an adversarial pass: it waited for HCCL_EXEC_TIMEOUT, 1836 s by default).
TEST(MultiProcessFaults, AReceiveOfTheWrongSizeFailsWithoutHangingTheSender) {
  ExpectAllPass("p2p_mismatch", 2, {"HCCL_CONNECT_TIMEOUT=30", "HCCL_EXEC_TIMEOUT=120"});
}

TEST(MultiProcessFaults, ARankThatNeverArrivesTimesOutWithAnError) {
  // Three ranks, two started: both report HCCL_E_TIMEOUT after the connect timeout.
  const auto outcomes = RunRanks("missing", 3, 2, {"HCCL_CONNECT_TIMEOUT=2", "HCCL_EXEC_TIMEOUT=2"});
  ASSERT_EQ(outcomes.size(), 2u);
  for (uint32_t rank = 0; rank < 2; ++rank) {
    EXPECT_TRUE(ExitedCleanly(outcomes[rank])) << "rank " << rank << ":\n" << outcomes[rank].output;
  }
}

TEST(MultiProcessFaults, AKilledRankMakesThePeersFailNotHang) {
  const auto outcomes = RunRanks("killed", 3, 3, {"HCCL_CONNECT_TIMEOUT=30", "HCCL_EXEC_TIMEOUT=10"});
  ASSERT_EQ(outcomes.size(), 3u);
  EXPECT_TRUE(WIFSIGNALED(outcomes[1].status)) << outcomes[1].output;
  for (uint32_t rank : {0u, 2u}) {
    EXPECT_TRUE(ExitedCleanly(outcomes[rank])) << "rank " << rank << " (wait status " << outcomes[rank].status << "):\n"
                                               << outcomes[rank].output;
  }
}

// Rank tables (HcclCommInitClusterInfo): CANN's JSON layout, the devices on
// loopback addresses 127.0.0.x, rank 0's device_port a port free just now.

uint16_t FreePort() {
  const int fd = socket(AF_INET, SOCK_STREAM, 0);
  sockaddr_in address{};
  address.sin_family = AF_INET;
  address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  socklen_t length = sizeof(address);
  EXPECT_EQ(bind(fd, reinterpret_cast<sockaddr*>(&address), sizeof(address)), 0);
  getsockname(fd, reinterpret_cast<sockaddr*>(&address), &length);
  close(fd);
  return ntohs(address.sin_port);
}

constexpr char kSecret[] = "00112233445566778899aabbccddeeff00112233445566778899aabbccddeeff";
constexpr char kOtherSecret[] = "ffeeddccbbaa99887766554433221100ffeeddccbbaa99887766554433221100";

// servers[s] lists the rank ids of server s's devices; `secret` empty leaves
// canopy_secret out.
std::string RankTable(const std::vector<std::vector<uint32_t>>& servers, uint16_t port, const std::string& secret) {
  std::ostringstream json;
  json << "{\n  \"status\": \"completed\",\n  \"version\": \"1.0\",\n";
  if (!secret.empty()) json << "  \"canopy_secret\": \"" << secret << "\",\n";
  json << "  \"server_count\": \"" << servers.size() << "\",\n  \"server_list\": [";
  for (size_t s = 0; s < servers.size(); ++s) {
    json << (s ? "," : "") << "\n    {\"server_id\": \"node_" << s << "\", \"device\": [";
    for (size_t d = 0; d < servers[s].size(); ++d) {
      const uint32_t rank = servers[s][d];
      json << (d ? ", " : "") << "{\"device_id\": \"" << d << "\", \"device_ip\": \"127.0.0." << rank + 1 << "\", ";
      if (rank == 0) json << "\"device_port\": \"" << port << "\", ";
      json << "\"rank_id\": \"" << rank << "\"}";
    }
    json << "]}";
  }
  json << "\n  ]\n}\n";
  return json.str();
}

TEST(MultiProcessRankTable, TwoDevicesOfOneServer) {
  ExpectAllPass("cluster_aclnn", 2, kTimeouts, {RankTable({{0, 1}}, FreePort(), kSecret)});
}

TEST(MultiProcessRankTable, ThreeServersListedOutOfRankOrderRunEveryCase) {
  ExpectAllPass("cluster_cases", 3, kTimeouts, {RankTable({{2}, {0}, {1}}, FreePort(), kSecret)});
}

TEST(MultiProcessRankTable, ConfigAndTheSecretFromTheEnvironmentAndASecondCommunicatorOnThePort) {
  std::vector<std::string> environment = kTimeouts;
  environment.push_back(std::string("CANOPY_HCCL_SECRET=") + kSecret);
  ExpectAllPass("cluster_config", 2, environment, {RankTable({{0}, {1}}, FreePort(), "")});
}

TEST(MultiProcessRankTable, ARankWithAnotherSecretIsRefusedAndNobodyHangs) {
  const uint16_t port = FreePort();
  const auto outcomes = RunRanks("cluster_refused", 2, 2, {"HCCL_CONNECT_TIMEOUT=3", "HCCL_EXEC_TIMEOUT=3"},
                                 {RankTable({{0, 1}}, port, kSecret), RankTable({{0, 1}}, port, kOtherSecret)});
  ASSERT_EQ(outcomes.size(), 2u);
  for (uint32_t rank = 0; rank < 2; ++rank) {
    EXPECT_TRUE(ExitedCleanly(outcomes[rank])) << "rank " << rank << ":\n" << outcomes[rank].output;
  }
}

}  // namespace
