// HcclCommInitClusterInfo's rank-table file, in this process: a one-rank
// table makes a working communicator; every malformed table, missing or
// exposed secret and bad argument is refused with CANN's status and a
// message naming what is wrong, before anything listens.
#include <fcntl.h>
#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include "acl/acl.h"
#include "hccl/hccl.h"
#include "hccl_cases.h"

namespace {

constexpr char kSecret[] = "0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef";

// A one-server table; `devices` is the text of its device list.
std::string Table(const std::string& devices,
                  const std::string& extra = "\"canopy_secret\": \"" + std::string(kSecret) + "\",") {
  return "{\"status\": \"completed\", \"version\": \"1.0\", " + extra +
         " \"server_count\": \"1\", \"server_list\": [{\"server_id\": \"node_0\", \"device\": [" + devices + "]}]}";
}

std::string Device(int rank, int device, const std::string& ip, int port = 0) {
  std::string text = "{\"device_id\": \"" + std::to_string(device) + "\", \"device_ip\": \"" + ip + "\", ";
  if (port != 0) text += "\"device_port\": \"" + std::to_string(port) + "\", ";
  return text + "\"rank_id\": \"" + std::to_string(rank) + "\"}";
}

// Two servers whose ranks interleave ({0, 2} and {1}), which CANN does not allow.
std::string Interleaved() {
  return "{\"status\": \"completed\", \"version\": \"1.0\", \"canopy_secret\": \"" + std::string(kSecret) +
         "\", \"server_count\": \"2\", \"server_list\": [{\"server_id\": \"a\", \"device\": [" +
         Device(0, 0, "127.0.0.1") + ", " + Device(2, 1, "127.0.0.3") + "]}, {\"server_id\": \"b\", \"device\": [" +
         Device(1, 0, "127.0.0.2") + "]}]}";
}

class RankTableFile : public ::testing::Test {
 protected:
  void SetUp() override {
    char directory[] = "/tmp/canopy_rank_table_XXXXXX";
    ASSERT_NE(mkdtemp(directory), nullptr);
    directory_ = directory;
    path_ = directory_ + "/rank_table.json";
  }
  void TearDown() override {
    unlink(path_.c_str());
    rmdir(directory_.c_str());
    unsetenv("CANOPY_HCCL_SECRET");
  }
  void Write(const std::string& text, mode_t mode = 0600) {
    unlink(path_.c_str());
    const int fd = open(path_.c_str(), O_WRONLY | O_CREAT | O_TRUNC, mode);
    ASSERT_GE(fd, 0);
    ASSERT_EQ(write(fd, text.data(), text.size()), static_cast<ssize_t>(text.size()));
    close(fd);
    chmod(path_.c_str(), mode);
  }
  // Initialises rank `rank` from `text`; returns the status, `message` the recent error.
  HcclResult Init(const std::string& text, uint32_t rank = 0, mode_t mode = 0600) {
    Write(text, mode);
    HcclComm comm = nullptr;
    const HcclResult status = HcclCommInitClusterInfo(path_.c_str(), rank, &comm);
    const char* message = aclGetRecentErrMsg();  // reading it clears it
    message_ = message != nullptr ? message : "";
    if (status == HCCL_SUCCESS) HcclCommDestroy(comm);
    return status;
  }
  std::string directory_, path_, message_;
};

TEST_F(RankTableFile, AOneRankTableMakesAWorkingCommunicator) {
  Write(Table(Device(0, 0, "127.0.0.1")));
  HcclComm comm = nullptr;
  ASSERT_EQ(HcclCommInitClusterInfo(path_.c_str(), 0, &comm), HCCL_SUCCESS) << aclGetRecentErrMsg();
  uint32_t size = 0;
  ASSERT_EQ(HcclGetRankSize(comm, &size), HCCL_SUCCESS);
  EXPECT_EQ(size, 1u);
  char name[COMM_NAME_MAX_LENGTH] = {};
  ASSERT_EQ(HcclGetCommName(comm, name), HCCL_SUCCESS);
  EXPECT_EQ(std::string(name).rfind("hccl_", 0), 0u) << name;
  ASSERT_EQ(aclrtSetDevice(0), ACL_SUCCESS);
  aclrtStream stream = nullptr;
  ASSERT_EQ(aclrtCreateStream(&stream), ACL_SUCCESS);
  hccl_test::Rank rank{comm, stream, 0, 1};
  auto one = hccl_test::AllReduceCase(HCCL_DATA_TYPE_FP32, HCCL_REDUCE_SUM, 257);
  ASSERT_EQ(one->Launch(rank), HCCL_SUCCESS);
  ASSERT_EQ(aclrtSynchronizeStream(stream), ACL_SUCCESS) << aclGetRecentErrMsg();
  EXPECT_EQ(one->Verify(), "");
  EXPECT_EQ(HcclCommDestroy(comm), HCCL_SUCCESS);
  EXPECT_EQ(aclrtDestroyStream(stream), ACL_SUCCESS);

  // The same table again, with a config naming the communicator: the port
  // of the first is free again.
  HcclCommConfig config;
  HcclCommConfigInit(&config);
  std::strcpy(config.hcclCommName, "table_comm");
  ASSERT_EQ(HcclCommInitClusterInfoConfig(path_.c_str(), 0, &config, &comm), HCCL_SUCCESS) << aclGetRecentErrMsg();
  ASSERT_EQ(HcclGetCommName(comm, name), HCCL_SUCCESS);
  EXPECT_STREQ(name, "table_comm");
  EXPECT_EQ(HcclCommDestroy(comm), HCCL_SUCCESS);
}

TEST_F(RankTableFile, TheSecretMayComeFromTheEnvironmentInstead) {
  setenv("CANOPY_HCCL_SECRET", kSecret, 1);
  EXPECT_EQ(Init(Table(Device(0, 0, "127.0.0.1"), "")), HCCL_SUCCESS) << message_;
  // Given twice, it is refused (ranks could otherwise disagree silently).
  EXPECT_EQ(Init(Table(Device(0, 0, "127.0.0.1"))), HCCL_E_PARA);
  EXPECT_NE(message_.find("given twice"), std::string::npos) << message_;
}

struct Refusal {
  const char* name;
  std::string table;
  const char* message;  // a part of the error message
  uint32_t rank = 0;
  mode_t mode = 0600;
};

TEST_F(RankTableFile, EveryMalformedTableIsHcclEParaNamingTheProblem) {
  const std::string dev0 = Device(0, 0, "127.0.0.1");
  const std::string two_servers =
      "{\"status\": \"completed\", \"version\": \"1.0\", \"canopy_secret\": \"" + std::string(kSecret) +
      "\", \"server_count\": \"2\", \"server_list\": [{\"server_id\": \"a\", \"device\": [{\"device_id\": \"0\", "
      "\"rank_id\": \"0\"}]}, {\"server_id\": \"b\", \"device\": [" +
      Device(1, 0, "127.0.0.2") + "]}]}";
  std::string deep = Table(dev0, "\"x\": " + std::string(40, '[') + std::string(40, ']') + ",");
  const std::vector<Refusal> refusals = {
      {"unclosed", "{\"status\": \"completed\"", "not valid JSON"},
      {"comments", "{ // a note\n}", "comments are not JSON"},
      {"trailing text", Table(dev0) + " x", "after the document"},
      {"duplicate key", Table(dev0, "\"version\": \"1.0\","), "appears twice"},
      {"nesting", deep, "nested too deeply"},
      {"not an object", "[1, 2]", "must be an object"},
      {"status", Table(dev0).replace(Table(dev0).find("completed"), 9, "initializing"), "status is \"initializing\""},
      {"version", "{\"status\": \"completed\", \"version\": \"1.2\"}", "version is \"1.2\""},
      {"server_count", Table(dev0).replace(Table(dev0).find("\"1\""), 3, "\"2\""), "server_count is 2"},
      {"server_count text", Table(dev0).replace(Table(dev0).find("\"1\""), 3, "\"one\""), "server_count is 'one'"},
      {"no server_list", "{\"status\": \"completed\", \"version\": \"1.0\", \"server_count\": \"1\"}",
       "no \"server_list\""},
      {"no devices", Table(""), "device is empty"},
      {"device not an object", Table("3"), "device[0] must be an object"},
      {"rank twice", Table(dev0 + ", " + Device(0, 1, "127.0.0.2")), "rank_id 0 appears twice"},
      {"rank gap", Table(Device(1, 0, "127.0.0.1")), "rank_id 0 is missing"},
      {"no rank_id", Table("{\"device_id\": \"0\"}"), "no \"rank_id\""},
      {"bad ip", Table(Device(0, 0, "300.1.2.3")), "not an IPv4 or IPv6 address"},
      {"ip twice", Table(dev0 + ", " + Device(1, 1, "127.0.0.1")), "device_ip 127.0.0.1 appears twice"},
      {"interleaved", Interleaved(), "not consecutive"},
      {"device_ip needed", two_servers, "no \"device_ip\""},
      {"port 0", Table(Device(0, 0, "127.0.0.1", 0).replace(0, 1, "{\"device_port\": 0, ")), "device_port is 0"},
      {"port range", Table(Device(0, 0, "127.0.0.1", 70000)), "device_port is '70000'"},
      {"server_id", Table(dev0).replace(Table(dev0).find("node_0"), 6, std::string(65, 's')), "server_id must have"},
      {"no secret", Table(dev0, ""), "no communicator secret"},
      {"short secret", Table(dev0, "\"canopy_secret\": \"abc\","), "canopy_secret must be 64 hex digits"},
      {"exposed secret", Table(dev0), "other users can read it", 0, 0644},
      {"rank not in table", Table(dev0), "rank 1 is not a rank_id", 1},
  };
  for (const Refusal& refusal : refusals) {
    EXPECT_EQ(Init(refusal.table, refusal.rank, refusal.mode), HCCL_E_PARA) << refusal.name << ": " << message_;
    EXPECT_NE(message_.find(refusal.message), std::string::npos) << refusal.name << ": " << message_;
  }
}

TEST_F(RankTableFile, MutatedTablesFailWithAStatusNeverACrash) {
  // Bytes flipped, inserted, removed and the file cut short, from a fixed
  // seed: each call returns (success for a mutation that is still a valid
  // table, HCCL_E_PARA or a network status otherwise) and nothing crashes,
  // leaks a listener or hangs (connect timeout 2 s).
  setenv("HCCL_CONNECT_TIMEOUT", "2", 1);
  // One rank: a mutation that stays valid makes a communicator at once.
  const std::string valid = Table(Device(0, 0, "127.0.0.1"));
  uint64_t state = 12345;
  auto next = [&state] {
    state = state * 6364136223846793005ull + 1442695040888963407ull;
    return static_cast<uint32_t>(state >> 33);
  };
  const char alphabet[] = "{}[]:,\"\\0123456789-.eE \ntrufalsn/";
  int accepted = 0;
  for (int i = 0; i < 600; ++i) {
    std::string text = valid;
    const int edits = 1 + static_cast<int>(next() % 4);
    for (int e = 0; e < edits && !text.empty(); ++e) {
      const size_t at = next() % text.size();
      switch (next() % 4) {
        case 0:
          text[at] = alphabet[next() % (sizeof(alphabet) - 1)];
          break;
        case 1:
          text.insert(at, 1, alphabet[next() % (sizeof(alphabet) - 1)]);
          break;
        case 2:
          text.erase(at, 1 + next() % 8);
          break;
        default:
          text.resize(at);
      }
    }
    const HcclResult status = Init(text, next() % 2);
    EXPECT_TRUE(status == HCCL_SUCCESS || status == HCCL_E_PARA || status == HCCL_E_NETWORK ||
                status == HCCL_E_TIMEOUT || status == HCCL_E_TCP_CONNECT)
        << "status " << status << " for:\n"
        << text << "\n"
        << message_;
    accepted += status == HCCL_SUCCESS;
  }
  unsetenv("HCCL_CONNECT_TIMEOUT");
  EXPECT_LT(accepted, 600) << "the mutations must reach the checks";
}

TEST_F(RankTableFile, BadArgumentsAndMissingFiles) {
  HcclComm comm = nullptr;
  EXPECT_EQ(HcclCommInitClusterInfo(nullptr, 0, &comm), HCCL_E_PTR);
  Write(Table(Device(0, 0, "127.0.0.1")));
  EXPECT_EQ(HcclCommInitClusterInfo(path_.c_str(), 0, nullptr), HCCL_E_PTR);
  EXPECT_EQ(HcclCommInitClusterInfoConfig(path_.c_str(), 0, nullptr, &comm), HCCL_E_PTR);
  EXPECT_EQ(HcclCommInitClusterInfo("", 0, &comm), HCCL_E_PARA);
  const std::string too_long(4096, 'a');
  EXPECT_EQ(HcclCommInitClusterInfo(too_long.c_str(), 0, &comm), HCCL_E_PARA);
  const std::string missing = directory_ + "/absent.json";
  EXPECT_EQ(HcclCommInitClusterInfo(missing.c_str(), 0, &comm), HCCL_E_OPEN_FILE_FAILURE);
  EXPECT_NE(std::string(aclGetRecentErrMsg()).find("absent.json"), std::string::npos) << aclGetRecentErrMsg();
  EXPECT_EQ(HcclCommInitClusterInfo(directory_.c_str(), 0, &comm), HCCL_E_OPEN_FILE_FAILURE);
  const std::string fifo = directory_ + "/fifo";
  ASSERT_EQ(mkfifo(fifo.c_str(), 0600), 0);
  EXPECT_EQ(HcclCommInitClusterInfo(fifo.c_str(), 0, &comm), HCCL_E_OPEN_FILE_FAILURE) << "without blocking";
  unlink(fifo.c_str());
}

}  // namespace
