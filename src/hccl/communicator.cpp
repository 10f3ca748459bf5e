#include "communicator.h"

#include <cstdlib>
#include <map>

#include "error.h"

namespace canopy::hccl {
namespace {

constexpr double kDefaultConnectSeconds = 120;
constexpr double kDefaultExecSeconds = 1836;
// "No limit" (HCCL_EXEC_TIMEOUT=0) is a wait of about 24 days.
constexpr std::chrono::milliseconds kNoLimit{int64_t{1} << 31};

struct Registry {
  std::mutex mutex;
  std::map<HcclComm, std::shared_ptr<Communicator>> live;
};

Registry& TheRegistry() {
  static Registry* registry = new Registry;  // never destroyed: usable from exit-time destructors
  return *registry;
}

// Seconds from the environment (fractions allowed); `fallback` when unset.
// A value that is not a non-negative number is ignored with a warning.
double EnvSeconds(const char* name, double fallback) {
  const char* text = std::getenv(name);
  if (text == nullptr || *text == '\0') return fallback;
  char* end = nullptr;
  const double value = std::strtod(text, &end);
  if (end == text || *end != '\0' || !(value >= 0)) {
    LogWarning(std::string(name) + "='" + text + "' is not a number of seconds; the default is used");
    return fallback;
  }
  return value;
}

std::chrono::milliseconds Milliseconds(double seconds) {
  if (seconds <= 0 || seconds * 1000 >= static_cast<double>(kNoLimit.count())) return kNoLimit;
  return std::chrono::milliseconds(std::max<int64_t>(1, static_cast<int64_t>(seconds * 1000)));
}

}  // namespace

void Communicator::SetAsyncError(HcclResult code, const std::string& message) {
  std::lock_guard lock(mutex_);
  if (async_error_ != HCCL_SUCCESS) return;
  async_error_ = code;
  async_message_ = message;
}

HcclResult Communicator::async_error(std::string* message) const {
  std::lock_guard lock(mutex_);
  if (message != nullptr) *message = async_message_;
  return async_error_;
}

HcclComm Register(std::shared_ptr<Communicator> comm) {
  Registry& registry = TheRegistry();
  HcclComm handle = comm.get();
  std::lock_guard lock(registry.mutex);
  registry.live[handle] = std::move(comm);
  return handle;
}

std::shared_ptr<Communicator> Find(HcclComm handle) {
  Registry& registry = TheRegistry();
  std::lock_guard lock(registry.mutex);
  auto found = registry.live.find(handle);
  return found == registry.live.end() ? nullptr : found->second;
}

bool Unregister(HcclComm handle) {
  Registry& registry = TheRegistry();
  std::shared_ptr<Communicator> last;  // released outside the lock
  std::lock_guard lock(registry.mutex);
  auto found = registry.live.find(handle);
  if (found == registry.live.end()) return false;
  last = std::move(found->second);
  registry.live.erase(found);
  return true;
}

std::shared_ptr<Communicator> FindByName(const std::string& name, int32_t device) {
  Registry& registry = TheRegistry();
  std::lock_guard lock(registry.mutex);
  std::shared_ptr<Communicator> found;
  for (const auto& [handle, comm] : registry.live) {
    if (comm->name() != name || (comm->device() != device && comm->device() >= 0)) continue;
    if (found != nullptr) return nullptr;  // ambiguous
    found = comm;
  }
  return found;
}

std::chrono::milliseconds ConnectTimeout() {
  return Milliseconds(std::max(EnvSeconds("HCCL_CONNECT_TIMEOUT", kDefaultConnectSeconds), 0.001));
}

std::chrono::milliseconds ExecTimeout(int32_t config_seconds) {
  if (config_seconds >= 0) return Milliseconds(config_seconds);
  return Milliseconds(EnvSeconds("HCCL_EXEC_TIMEOUT", kDefaultExecSeconds));
}

}  // namespace canopy::hccl
