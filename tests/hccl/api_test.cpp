// The HCCL entry points' argument checks and status codes (CANN's: null
// pointers HCCL_E_PTR, out-of-range ranks HCCL_E_PARA, unsupported types and
// ops HCCL_E_NOT_SUPPORT), root info, the communicator secret, and the
// one-rank communicator over Gloo.
#include <arpa/inet.h>
#include <gtest/gtest.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include "acl/acl.h"
#include "hccl/hccl.h"
#include "hccl_cases.h"

namespace {

class HcclApi : public ::testing::Test {
 protected:
  void SetUp() override {
    ASSERT_EQ(aclrtSetDevice(0), ACL_SUCCESS);
    ASSERT_EQ(aclrtCreateStream(&stream_), ACL_SUCCESS);
    int32_t devices[] = {0, 1};
    ASSERT_EQ(HcclCommInitAll(2, devices, comms_), HCCL_SUCCESS);
    ASSERT_EQ(aclrtMalloc(&buffer_, 4096, ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
  }
  void TearDown() override {
    aclrtFree(buffer_);
    for (HcclComm comm : comms_) HcclCommDestroy(comm);
    aclrtDestroyStream(stream_);
  }
  aclrtStream stream_ = nullptr;
  HcclComm comms_[2] = {};
  void* buffer_ = nullptr;
};

TEST_F(HcclApi, NullPointersAreHcclEPtr) {
  EXPECT_EQ(HcclAllReduce(nullptr, buffer_, 4, HCCL_DATA_TYPE_FP32, HCCL_REDUCE_SUM, comms_[0], stream_), HCCL_E_PTR);
  EXPECT_EQ(HcclAllReduce(buffer_, nullptr, 4, HCCL_DATA_TYPE_FP32, HCCL_REDUCE_SUM, comms_[0], stream_), HCCL_E_PTR);
  EXPECT_EQ(HcclAllReduce(buffer_, buffer_, 4, HCCL_DATA_TYPE_FP32, HCCL_REDUCE_SUM, nullptr, stream_), HCCL_E_PTR);
  EXPECT_EQ(HcclAllReduce(buffer_, buffer_, 4, HCCL_DATA_TYPE_FP32, HCCL_REDUCE_SUM, comms_[0], nullptr), HCCL_E_PTR);
  EXPECT_EQ(HcclBroadcast(nullptr, 4, HCCL_DATA_TYPE_FP32, 0, comms_[0], stream_), HCCL_E_PTR);
  EXPECT_EQ(HcclSend(nullptr, 4, HCCL_DATA_TYPE_FP32, 1, comms_[0], stream_), HCCL_E_PTR);
  EXPECT_EQ(HcclRecv(nullptr, 4, HCCL_DATA_TYPE_FP32, 1, comms_[0], stream_), HCCL_E_PTR);
  EXPECT_EQ(HcclBarrier(comms_[0], nullptr), HCCL_E_PTR);
  EXPECT_EQ(HcclGetRootInfo(nullptr), HCCL_E_PTR);
  EXPECT_EQ(HcclGetRankSize(comms_[0], nullptr), HCCL_E_PTR);
  EXPECT_EQ(HcclGetRankId(nullptr, nullptr), HCCL_E_PTR);
  EXPECT_EQ(HcclGetCommName(comms_[0], nullptr), HCCL_E_PTR);
  EXPECT_EQ(HcclCommDestroy(nullptr), HCCL_E_PTR);
  HcclComm comm = nullptr;
  EXPECT_EQ(HcclCommInitRootInfo(2, nullptr, 0, &comm), HCCL_E_PTR);
  EXPECT_EQ(HcclCommInitAll(2, nullptr, &comm), HCCL_E_PTR);
  // The message names the argument.
  HcclAllReduce(buffer_, nullptr, 4, HCCL_DATA_TYPE_FP32, HCCL_REDUCE_SUM, comms_[0], stream_);
  EXPECT_NE(std::string(aclGetRecentErrMsg()).find("recvBuf"), std::string::npos) << aclGetRecentErrMsg();
}

TEST_F(HcclApi, ACountOfZeroIsANoOp) {
  EXPECT_EQ(HcclAllReduce(nullptr, nullptr, 0, HCCL_DATA_TYPE_FP32, HCCL_REDUCE_SUM, comms_[0], stream_), HCCL_SUCCESS);
  EXPECT_EQ(aclrtSynchronizeStream(stream_), ACL_SUCCESS);
}

TEST_F(HcclApi, RanksOutOfRangeAreHcclEPara) {
  EXPECT_EQ(HcclBroadcast(buffer_, 4, HCCL_DATA_TYPE_FP32, 2, comms_[0], stream_), HCCL_E_PARA);
  EXPECT_EQ(HcclReduce(buffer_, buffer_, 4, HCCL_DATA_TYPE_FP32, HCCL_REDUCE_SUM, 5, comms_[0], stream_), HCCL_E_PARA);
  EXPECT_EQ(HcclSend(buffer_, 4, HCCL_DATA_TYPE_FP32, 2, comms_[0], stream_), HCCL_E_PARA);
  EXPECT_EQ(HcclSend(buffer_, 4, HCCL_DATA_TYPE_FP32, 0, comms_[0], stream_), HCCL_E_PARA) << "to itself";
  EXPECT_EQ(HcclRecv(buffer_, 4, HCCL_DATA_TYPE_FP32, 7, comms_[0], stream_), HCCL_E_PARA);
  HcclSendRecvItem item{HCCL_SEND, buffer_, 4, HCCL_DATA_TYPE_FP32, 3};
  EXPECT_EQ(HcclBatchSendRecv(&item, 1, comms_[0], stream_), HCCL_E_PARA);
  item = {static_cast<HcclSendRecvType>(7), buffer_, 4, HCCL_DATA_TYPE_FP32, 1};
  EXPECT_EQ(HcclBatchSendRecv(&item, 1, comms_[0], stream_), HCCL_E_PARA);
  HcclRootInfo root{};
  ASSERT_EQ(HcclGetRootInfo(&root), HCCL_SUCCESS);
  HcclComm comm = nullptr;
  EXPECT_EQ(HcclCommInitRootInfo(2, &root, 2, &comm), HCCL_E_PARA);
  EXPECT_EQ(HcclCommInitRootInfo(0, &root, 0, &comm), HCCL_E_PARA);
  int32_t twice[] = {0, 0};
  EXPECT_EQ(HcclCommInitAll(2, twice, &comm), HCCL_E_PARA);
  int32_t missing[] = {0, 1000};
  EXPECT_EQ(HcclCommInitAll(2, missing, &comm), HCCL_E_PARA);
}

TEST_F(HcclApi, UnsupportedTypesAndOpsAreHcclENotSupport) {
  // Only rejections here: a call that is accepted would wait for rank 1.
  const std::vector<HcclDataType> reducible = hccl_test::ReducibleTypes();
  for (int type = 0; type <= 20; ++type) {
    const auto dtype = static_cast<HcclDataType>(type);
    if (std::find(reducible.begin(), reducible.end(), dtype) != reducible.end()) continue;
    EXPECT_EQ(HcclAllReduce(buffer_, buffer_, 4, dtype, HCCL_REDUCE_MAX, comms_[0], stream_), HCCL_E_NOT_SUPPORT)
        << type;
    EXPECT_EQ(HcclReduceScatter(buffer_, buffer_, 2, dtype, HCCL_REDUCE_SUM, comms_[0], stream_), HCCL_E_NOT_SUPPORT)
        << type;
  }
  EXPECT_EQ(HcclAllReduce(buffer_, buffer_, 4, HCCL_DATA_TYPE_INT16, HCCL_REDUCE_PROD, comms_[0], stream_),
            HCCL_E_NOT_SUPPORT);
  EXPECT_EQ(HcclAllReduce(buffer_, buffer_, 4, HCCL_DATA_TYPE_BFP16, HCCL_REDUCE_PROD, comms_[0], stream_),
            HCCL_E_NOT_SUPPORT);
  EXPECT_EQ(HcclAllReduce(buffer_, buffer_, 4, HCCL_DATA_TYPE_FP32, HCCL_REDUCE_RESERVED, comms_[0], stream_),
            HCCL_E_NOT_SUPPORT);
  EXPECT_EQ(HcclBroadcast(buffer_, 4, HCCL_DATA_TYPE_INT128, 0, comms_[0], stream_), HCCL_E_NOT_SUPPORT);
}

TEST_F(HcclApi, VariableCollectivesCheckTheirArrays) {
  // Only rejections here: a call that is accepted would wait for rank 1.
  char* const data = static_cast<char*>(buffer_);
  const uint64_t counts[] = {4, 2}, displs[] = {0, 8};
  void* const other = data + 2048;
  const HcclDataType fp32 = HCCL_DATA_TYPE_FP32;
  EXPECT_EQ(HcclAllGatherV(data, 4, other, nullptr, displs, fp32, comms_[0], stream_), HCCL_E_PTR);
  EXPECT_EQ(HcclAllGatherV(data, 4, other, counts, nullptr, fp32, comms_[0], stream_), HCCL_E_PTR);
  EXPECT_EQ(HcclAllGatherV(data, 4, nullptr, counts, displs, fp32, comms_[0], stream_), HCCL_E_PTR);
  EXPECT_EQ(HcclAllGatherV(nullptr, 4, other, counts, displs, fp32, comms_[0], stream_), HCCL_E_PTR);
  EXPECT_EQ(HcclAllGatherV(data, 4, other, counts, displs, fp32, comms_[0], nullptr), HCCL_E_PTR);
  EXPECT_EQ(HcclAllGatherV(data, 3, other, counts, displs, fp32, comms_[0], stream_), HCCL_E_PARA)
      << "sendCount is not recvCounts[rank]";
  EXPECT_NE(std::string(aclGetRecentErrMsg()).find("recvCounts[0]"), std::string::npos) << aclGetRecentErrMsg();
  EXPECT_EQ(HcclAllGatherV(data, 4, data, counts, displs, fp32, comms_[0], stream_), HCCL_E_PARA) << "same buffer";
  EXPECT_EQ(HcclAllGatherV(data, 4, other, counts, displs, HCCL_DATA_TYPE_INT128, comms_[0], stream_),
            HCCL_E_NOT_SUPPORT);
  EXPECT_EQ(HcclReduceScatterV(data, nullptr, displs, other, 4, fp32, HCCL_REDUCE_SUM, comms_[0], stream_), HCCL_E_PTR);
  EXPECT_EQ(HcclReduceScatterV(data, counts, nullptr, other, 4, fp32, HCCL_REDUCE_SUM, comms_[0], stream_), HCCL_E_PTR);
  EXPECT_EQ(HcclReduceScatterV(nullptr, counts, displs, other, 4, fp32, HCCL_REDUCE_SUM, comms_[0], stream_),
            HCCL_E_PTR);
  EXPECT_EQ(HcclReduceScatterV(data, counts, displs, other, 2, fp32, HCCL_REDUCE_SUM, comms_[0], stream_), HCCL_E_PARA)
      << "recvCount is not sendCounts[rank]";
  EXPECT_EQ(HcclReduceScatterV(data, counts, displs, data, 4, fp32, HCCL_REDUCE_SUM, comms_[0], stream_), HCCL_E_PARA);
  // Atlas A2: no int64 (or another type outside int8..bf16), no prod.
  for (HcclDataType type : {HCCL_DATA_TYPE_INT64, HCCL_DATA_TYPE_UINT8, HCCL_DATA_TYPE_FP64, HCCL_DATA_TYPE_INT128}) {
    EXPECT_EQ(HcclReduceScatterV(data, counts, displs, other, 4, type, HCCL_REDUCE_SUM, comms_[0], stream_),
              HCCL_E_NOT_SUPPORT)
        << type;
  }
  EXPECT_EQ(HcclReduceScatterV(data, counts, displs, other, 4, fp32, HCCL_REDUCE_PROD, comms_[0], stream_),
            HCCL_E_NOT_SUPPORT);
  // Nothing from anyone: nothing to do.
  const uint64_t zeros[] = {0, 0};
  EXPECT_EQ(HcclAllGatherV(nullptr, 0, nullptr, zeros, zeros, fp32, comms_[0], stream_), HCCL_SUCCESS);
  EXPECT_EQ(HcclReduceScatterV(nullptr, zeros, zeros, nullptr, 0, fp32, HCCL_REDUCE_SUM, comms_[0], stream_),
            HCCL_SUCCESS);
  EXPECT_EQ(aclrtSynchronizeStream(stream_), ACL_SUCCESS);
}

TEST_F(HcclApi, ADestroyedCommunicatorIsRejected) {
  int32_t devices[] = {0, 1};
  HcclComm comms[2] = {};
  ASSERT_EQ(HcclCommInitAll(2, devices, comms), HCCL_SUCCESS);
  ASSERT_EQ(HcclCommDestroy(comms[0]), HCCL_SUCCESS);
  uint32_t size = 0;
  EXPECT_EQ(HcclGetRankSize(comms[0], &size), HCCL_E_PARA);
  EXPECT_EQ(HcclCommDestroy(comms[0]), HCCL_E_PARA);
  EXPECT_EQ(HcclBarrier(comms[0], stream_), HCCL_E_PARA);
  int not_a_comm = 0;
  EXPECT_EQ(HcclGetRankSize(&not_a_comm, &size), HCCL_E_PARA);
  EXPECT_EQ(HcclCommDestroy(comms[1]), HCCL_SUCCESS);
}

TEST(HcclErrors, EveryCodeHasAString) {
  for (int code = HCCL_SUCCESS; code < HCCL_E_RESERVED; ++code) {
    const char* text = HcclGetErrorString(static_cast<HcclResult>(code));
    ASSERT_NE(text, nullptr);
    EXPECT_GT(std::strlen(text), 0u);
  }
  EXPECT_STRNE(HcclGetErrorString(HCCL_SUCCESS), HcclGetErrorString(HCCL_E_TIMEOUT));
}

TEST(HcclConfig, ConfigInitAndCapability) {
  HcclCommConfig config;
  std::memset(&config, 0x7f, sizeof(config));
  HcclCommConfigInit(&config);
  EXPECT_EQ(config.hcclBufferSize, HCCL_COMM_BUFFSIZE_CONFIG_NOT_SET);
  EXPECT_EQ(config.hcclExecTimeOut, HCCL_COMM_EXECTIMEOUT_CONFIG_NOT_SET);
  EXPECT_EQ(config.hcclCommName[0], '\0');
  EXPECT_EQ(HcclGetCommConfigCapability(), static_cast<uint32_t>(HCCL_COMM_CONFIG_RESERVED));
  union HcclConfigValue value;
  value.value = 1;
  EXPECT_EQ(HcclSetConfig(HCCL_DETERMINISTIC, value), HCCL_SUCCESS);
  value.value = 0;
  EXPECT_EQ(HcclGetConfig(HCCL_DETERMINISTIC, &value), HCCL_SUCCESS);
  EXPECT_EQ(value.value, 1);
  value.value = 5;
  EXPECT_EQ(HcclSetConfig(HCCL_DETERMINISTIC, value), HCCL_E_PARA);
  // A config that HcclCommConfigInit did not fill is refused.
  HcclRootInfo root{};
  ASSERT_EQ(HcclGetRootInfo(&root), HCCL_SUCCESS);
  HcclCommConfig garbage;
  std::memset(&garbage, 0, sizeof(garbage));
  HcclComm comm = nullptr;
  EXPECT_EQ(HcclCommInitRootInfoConfig(1, &root, 0, &garbage, &comm), HCCL_E_PARA);
}

TEST(HcclRootInfoTest, ABlobNotFromHcclGetRootInfoIsRefused) {
  HcclRootInfo root;
  std::memset(&root, 0, sizeof(root));
  HcclComm comm = nullptr;
  EXPECT_EQ(HcclCommInitRootInfo(1, &root, 0, &comm), HCCL_E_PARA);
  EXPECT_EQ(sizeof(HcclRootInfo), 4108u);
}

TEST(HcclRootInfoTest, AOneRankCommunicatorOverGlooWorks) {
  HcclRootInfo root{};
  ASSERT_EQ(HcclGetRootInfo(&root), HCCL_SUCCESS);
  HcclComm comm = nullptr;
  ASSERT_EQ(HcclCommInitRootInfo(1, &root, 0, &comm), HCCL_SUCCESS) << aclGetRecentErrMsg();
  char name[COMM_NAME_MAX_LENGTH] = {};
  ASSERT_EQ(HcclGetCommName(comm, name), HCCL_SUCCESS);
  EXPECT_EQ(std::string(name).rfind("hccl_", 0), 0u) << name;
  ASSERT_EQ(aclrtSetDevice(0), ACL_SUCCESS);
  aclrtStream stream = nullptr;
  ASSERT_EQ(aclrtCreateStream(&stream), ACL_SUCCESS);
  hccl_test::Rank rank{comm, stream, 0, 1};
  auto cases = hccl_test::AllCases(1);
  for (auto& one : cases) ASSERT_EQ(one->Launch(rank), HCCL_SUCCESS) << one->Name();
  ASSERT_EQ(aclrtSynchronizeStream(stream), ACL_SUCCESS) << aclGetRecentErrMsg();
  for (auto& one : cases) EXPECT_EQ(one->Verify(), "");
  EXPECT_EQ(HcclCommDestroy(comm), HCCL_SUCCESS);
  EXPECT_EQ(aclrtDestroyStream(stream), ACL_SUCCESS);
}

TEST(HcclRootInfoTest, AConnectionWithoutTheSecretIsRefused) {
  HcclRootInfo root{};
  ASSERT_EQ(HcclGetRootInfo(&root), HCCL_SUCCESS);
  // The same listener, a wrong secret: the listener drops the connection
  // before it reads any request, and the rank fails at once.
  HcclRootInfo forged = root;
  const size_t secret_at = 8 + 4 + 2 + 2 + 64;  // magic, version, port, host length, host
  for (size_t i = 0; i < 32; ++i) forged.internal[secret_at + i] ^= 0x55;
  HcclComm comm = nullptr;
  EXPECT_EQ(HcclCommInitRootInfo(1, &forged, 0, &comm), HCCL_E_TCP_CONNECT) << aclGetRecentErrMsg();
  // The real secret still works on the same listener.
  ASSERT_EQ(HcclCommInitRootInfo(1, &root, 0, &comm), HCCL_SUCCESS) << aclGetRecentErrMsg();
  EXPECT_EQ(HcclCommDestroy(comm), HCCL_SUCCESS);
}

TEST(HcclRootInfoTest, TheListenerIsOnLoopbackWithoutHcclIfIp) {
  HcclRootInfo root{};
  ASSERT_EQ(HcclGetRootInfo(&root), HCCL_SUCCESS);
  const size_t host_at = 8 + 4 + 2 + 2;
  EXPECT_STREQ(root.internal + host_at, "127.0.0.1");
}

// fuzz_hccl_store's finding: the listener kept the thread of every connection
// it had served until it closed, and refused connections beyond 4096 of them,
// so that 4096 short connections (a port scan, no secret needed) locked every
// rank out of the communicator for good.
TEST(HcclRootInfoTest, ConnectionsThatEndedDoNotLockTheRanksOut) {
  HcclRootInfo root{};
  ASSERT_EQ(HcclGetRootInfo(&root), HCCL_SUCCESS);
  const size_t host_at = 8 + 4 + 2 + 2;  // magic, version, port, host length
  ASSERT_STREQ(root.internal + host_at, "127.0.0.1");
  uint16_t port = 0;
  std::memcpy(&port, root.internal + 12, sizeof(port));
  sockaddr_in address{};
  address.sin_family = AF_INET;
  address.sin_port = htons(port);
  address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  for (int i = 0; i < 4100; ++i) {
    const int fd = ::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
    ASSERT_GE(fd, 0);
    ASSERT_EQ(::connect(fd, reinterpret_cast<const sockaddr*>(&address), sizeof(address)), 0) << i;
    ::close(fd);
  }
  ::setenv("HCCL_CONNECT_TIMEOUT", "20", 1);
  HcclComm comm = nullptr;
  const HcclResult status = HcclCommInitRootInfo(1, &root, 0, &comm);
  ::unsetenv("HCCL_CONNECT_TIMEOUT");
  ASSERT_EQ(status, HCCL_SUCCESS) << aclGetRecentErrMsg();
  EXPECT_EQ(HcclCommDestroy(comm), HCCL_SUCCESS);
}

}  // namespace
