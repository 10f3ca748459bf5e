// Making, querying and destroying communicators (hccl/hccl_comm.h).
#include <atomic>
#include <cstddef>
#include <cstring>
#include <list>
#include <mutex>
#include <set>

#include "api_common.h"
#include "common/c_boundary.h"
#include "gloo_transport.h"
#include "local_transport.h"
#include "rank_table.h"
#include "root_info.h"
#include "store.h"

using namespace canopy::hccl;

namespace canopy::hccl {

int32_t CurrentDevice() {
  int32_t device = -1;
  return aclrtGetDevice(&device) == ACL_SUCCESS ? device : -1;
}

std::shared_ptr<Communicator> RequireComm(HcclComm handle) {
  RequireNotNull(handle, "comm");
  std::shared_ptr<Communicator> comm = Find(handle);
  if (comm == nullptr) Throw(HCCL_E_PARA, "comm is not a live communicator (destroyed, or never made)");
  return comm;
}

}  // namespace canopy::hccl

namespace {

// The rendezvous listeners this process opened with HcclGetRootInfo. One
// closes once every rank of its communicator has connected; the rest close
// at exit.
struct Listeners {
  std::mutex mutex;
  std::list<std::unique_ptr<StoreServer>> servers;
};

Listeners& TheListeners() {
  static Listeners listeners;
  return listeners;
}

// What a config of the client's size says, or "not set" for fields beyond it.
struct ConfigChoice {
  std::string name;
  int32_t exec_timeout = HCCL_COMM_EXECTIMEOUT_CONFIG_NOT_SET;
};

ConfigChoice ReadConfig(const HcclCommConfig* config) {
  ConfigChoice choice;
  if (config == nullptr) return choice;
  size_t size = 0;
  uint32_t magic = 0;
  std::memcpy(&size, config->reserved, sizeof(size));
  std::memcpy(&magic, config->reserved + sizeof(size), sizeof(magic));
  if (magic != HCCL_COMM_CONFIG_MAGIC_WORD) {
    Throw(HCCL_E_PARA, "config was not initialised with HcclCommConfigInit (wrong magic word)");
  }
  auto has = [size](size_t offset, size_t bytes) { return size >= offset + bytes; };
  if (has(offsetof(HcclCommConfig, hcclCommName), COMM_NAME_MAX_LENGTH)) {
    const char* name = config->hcclCommName;
    const size_t length = strnlen(name, COMM_NAME_MAX_LENGTH);
    if (length == COMM_NAME_MAX_LENGTH) Throw(HCCL_E_PARA, "config->hcclCommName has no terminating NUL");
    choice.name.assign(name, length);
  }
  if (has(offsetof(HcclCommConfig, hcclExecTimeOut), sizeof(int32_t))) {
    choice.exec_timeout = config->hcclExecTimeOut;
  }
  return choice;
}

HcclResult InitRootInfo(uint32_t nRanks, const HcclRootInfo* rootInfo, uint32_t rank, const HcclCommConfig* config,
                        HcclComm* comm) {
  RequireNotNull(rootInfo, "rootInfo");
  RequireNotNull(comm, "comm");
  if (nRanks == 0) Throw(HCCL_E_PARA, "nRanks is 0");
  if (rank >= nRanks) Throw(HCCL_E_PARA, "rank %u is out of range [0, %u)", rank, nRanks);
  const ConfigChoice choice = ReadConfig(config);
  const RootInfo root = DecodeRootInfo(*rootInfo);
  auto transport = ConnectGlooTransport(root, rank, nRanks, ConnectTimeout(), ExecTimeout(choice.exec_timeout));
  const std::string name = choice.name.empty() ? root.Name() : choice.name;
  *comm = Register(std::make_shared<Communicator>(rank, nRanks, name, CurrentDevice(), std::move(transport)));
  return HCCL_SUCCESS;
}

// CANN's bound on the rank table's path, its NUL included.
constexpr size_t kMaxRankTablePath = 4096;

HcclResult InitClusterInfo(const char* clusterInfo, uint32_t rank, const HcclCommConfig* config, HcclComm* comm) {
  RequireNotNull(clusterInfo, "clusterInfo");
  RequireNotNull(comm, "comm");
  if (strnlen(clusterInfo, kMaxRankTablePath) == kMaxRankTablePath) {
    Throw(HCCL_E_PARA, "clusterInfo is longer than %zu bytes", kMaxRankTablePath - 1);
  }
  if (*clusterInfo == '\0') Throw(HCCL_E_PARA, "clusterInfo is an empty path");
  const ConfigChoice choice = ReadConfig(config);
  const RankTable table = ReadRankTable(clusterInfo);
  const auto size = static_cast<uint32_t>(table.ranks.size());
  if (rank >= size) {
    Throw(HCCL_E_PARA, "rank %u is not a rank_id of the rank table '%s' (its ranks are 0 .. %u)", rank, clusterInfo,
          size - 1);
  }
  const RootInfo root = RankTableRoot(table);
  // Rank 0 hosts the rendezvous on its device_ip and device_port; it stops
  // listening once every rank has its communicator.
  std::unique_ptr<StoreServer> server;
  if (rank == 0) {
    {
      // A communicator made from this table before, whose ranks all have it,
      // frees the port first.
      Listeners& listeners = TheListeners();
      std::lock_guard lock(listeners.mutex);
      listeners.servers.remove_if([](const auto& one) { return one->finished(); });
    }
    server = std::make_unique<StoreServer>(root.host, root.secret, root.port);
  }
  auto transport = ConnectGlooTransport(root, rank, size, ConnectTimeout(), ExecTimeout(choice.exec_timeout),
                                        table.ranks[rank].device_ip);
  if (server != nullptr) {
    Listeners& listeners = TheListeners();
    std::lock_guard lock(listeners.mutex);
    listeners.servers.remove_if([](const auto& one) { return one->finished(); });
    listeners.servers.push_back(std::move(server));
  }
  const std::string name = choice.name.empty() ? root.Name() : choice.name;
  *comm = Register(std::make_shared<Communicator>(rank, size, name, CurrentDevice(), std::move(transport)));
  return HCCL_SUCCESS;
}

}  // namespace

extern "C" {

HcclResult HcclCommInitClusterInfo(const char* clusterInfo, uint32_t rank, HcclComm* comm) try {
  return InitClusterInfo(clusterInfo, rank, nullptr, comm);
}
CANOPY_C_BOUNDARY_HCCL

HcclResult HcclCommInitClusterInfoConfig(const char* clusterInfo, uint32_t rank, HcclCommConfig* config,
                                         HcclComm* comm) try {
  RequireNotNull(config, "config");
  return InitClusterInfo(clusterInfo, rank, config, comm);
}
CANOPY_C_BOUNDARY_HCCL

HcclResult HcclGetRootInfo(HcclRootInfo* rootInfo) try {
  RequireNotNull(rootInfo, "rootInfo");
  RootInfo info;
  info.host = RendezvousHost();
  RandomBytes(info.secret.data(), info.secret.size());
  RandomBytes(info.id.data(), info.id.size());
  Listeners& listeners = TheListeners();
  std::lock_guard lock(listeners.mutex);
  listeners.servers.remove_if([](const auto& server) { return server->finished(); });
  auto server = std::make_unique<StoreServer>(info.host, info.secret);
  info.port = server->port();
  EncodeRootInfo(info, rootInfo);
  listeners.servers.push_back(std::move(server));
  return HCCL_SUCCESS;
}
CANOPY_C_BOUNDARY_HCCL

HcclResult HcclCommInitRootInfo(uint32_t nRanks, const HcclRootInfo* rootInfo, uint32_t rank, HcclComm* comm) try {
  return InitRootInfo(nRanks, rootInfo, rank, nullptr, comm);
}
CANOPY_C_BOUNDARY_HCCL

HcclResult HcclCommInitRootInfoConfig(uint32_t nRanks, const HcclRootInfo* rootInfo, uint32_t rank,
                                      const HcclCommConfig* config, HcclComm* comm) try {
  RequireNotNull(config, "config");
  return InitRootInfo(nRanks, rootInfo, rank, config, comm);
}
CANOPY_C_BOUNDARY_HCCL

HcclResult HcclCommInitAll(uint32_t ndev, int32_t* devices, HcclComm* comms) try {
  RequireNotNull(devices, "devices");
  RequireNotNull(comms, "comms");
  if (ndev == 0) Throw(HCCL_E_PARA, "ndev is 0");
  uint32_t device_count = 0;
  if (aclrtGetDeviceCount(&device_count) != ACL_SUCCESS) {
    Throw(HCCL_E_RUNTIME, "aclrtGetDeviceCount failed (is acl initialised?)");
  }
  std::set<int32_t> seen;
  for (uint32_t i = 0; i < ndev; ++i) {
    if (devices[i] < 0 || static_cast<uint32_t>(devices[i]) >= device_count) {
      Throw(HCCL_E_PARA, "devices[%u] = %d is not a device (there are %u)", i, devices[i], device_count);
    }
    if (!seen.insert(devices[i]).second) Throw(HCCL_E_PARA, "device %d is listed twice", devices[i]);
  }
  Nonce id;
  RandomBytes(id.data(), 8);
  char name[32];
  std::snprintf(name, sizeof(name), "hccl_local_%02x%02x%02x%02x%02x%02x%02x%02x", id[0], id[1], id[2], id[3], id[4],
                id[5], id[6], id[7]);
  auto transports = MakeLocalTransports(ndev, ExecTimeout(HCCL_COMM_EXECTIMEOUT_CONFIG_NOT_SET));
  for (uint32_t i = 0; i < ndev; ++i) {
    comms[i] = Register(std::make_shared<Communicator>(i, ndev, name, devices[i], std::move(transports[i])));
  }
  return HCCL_SUCCESS;
}
CANOPY_C_BOUNDARY_HCCL

HcclResult HcclCommDestroy(HcclComm comm) try {
  RequireNotNull(comm, "comm");
  if (!Unregister(comm)) Throw(HCCL_E_PARA, "comm is not a live communicator (destroyed already?)");
  return HCCL_SUCCESS;
}
CANOPY_C_BOUNDARY_HCCL

HcclResult HcclGetRankSize(HcclComm comm, uint32_t* rankSize) try {
  RequireNotNull(rankSize, "rankSize");
  *rankSize = RequireComm(comm)->size();
  return HCCL_SUCCESS;
}
CANOPY_C_BOUNDARY_HCCL

HcclResult HcclGetRankId(HcclComm comm, uint32_t* rank) try {
  RequireNotNull(rank, "rank");
  *rank = RequireComm(comm)->rank();
  return HCCL_SUCCESS;
}
CANOPY_C_BOUNDARY_HCCL

HcclResult HcclGetCommName(HcclComm comm, char* commName) try {
  RequireNotNull(commName, "commName");
  const std::string& name = RequireComm(comm)->name();
  const size_t length = std::min<size_t>(name.size(), COMM_NAME_MAX_LENGTH - 1);
  std::memcpy(commName, name.data(), length);
  commName[length] = '\0';
  return HCCL_SUCCESS;
}
CANOPY_C_BOUNDARY_HCCL

HcclResult HcclGetCommAsyncError(HcclComm comm, HcclResult* asyncError) try {
  RequireNotNull(asyncError, "asyncError");
  *asyncError = RequireComm(comm)->async_error();
  return HCCL_SUCCESS;
}
CANOPY_C_BOUNDARY_HCCL

const char* HcclGetErrorString(HcclResult code) try { return ResultText(code); }
CANOPY_C_BOUNDARY(nullptr)

}  // extern "C"

namespace {
std::atomic<int32_t> g_deterministic{0};
}  // namespace

extern "C" {

// Canopy's reductions are deterministic either way (a fixed order of ranks);
// the setting is kept so that a client reads back what it set.
HcclResult HcclSetConfig(HcclConfig config, union HcclConfigValue configValue) try {
  if (config != HCCL_DETERMINISTIC) Throw(HCCL_E_NOT_SUPPORT, "config %d is not supported", static_cast<int>(config));
  if (configValue.value != 0 && configValue.value != 1) {
    Throw(HCCL_E_PARA, "HCCL_DETERMINISTIC takes 0 or 1, not %d", configValue.value);
  }
  g_deterministic = configValue.value;
  return HCCL_SUCCESS;
}
CANOPY_C_BOUNDARY_HCCL

HcclResult HcclGetConfig(HcclConfig config, union HcclConfigValue* configValue) try {
  RequireNotNull(configValue, "configValue");
  if (config != HCCL_DETERMINISTIC) Throw(HCCL_E_NOT_SUPPORT, "config %d is not supported", static_cast<int>(config));
  configValue->value = g_deterministic;
  return HCCL_SUCCESS;
}
CANOPY_C_BOUNDARY_HCCL

// Every field of the version-10 config is read or has no effect on a CPU
// (buffer sizes, RDMA classes, expansion modes).
uint32_t HcclGetCommConfigCapability(void) try { return HCCL_COMM_CONFIG_RESERVED; }
CANOPY_C_BOUNDARY(0)

}  // extern "C"
