#include "exception_callbacks.h"

#include <algorithm>
#include <mutex>
#include <vector>

namespace canopy::runtime {
namespace {

struct Registry {
  std::mutex mutex;
  aclrtExceptionInfoCallback set = nullptr;
  std::vector<aclrtExceptionInfoCallback> registered;
};

Registry& Callbacks() {
  static auto* registry = new Registry();  // never destroyed: engines may fail tasks during exit
  return *registry;
}

}  // namespace

void ExceptionCallbacks::Set(aclrtExceptionInfoCallback callback) {
  std::lock_guard lock(Callbacks().mutex);
  Callbacks().set = callback;
}

bool ExceptionCallbacks::Register(aclrtExceptionInfoCallback callback) {
  Registry& registry = Callbacks();
  std::lock_guard lock(registry.mutex);
  if (std::find(registry.registered.begin(), registry.registered.end(), callback) != registry.registered.end()) {
    return false;
  }
  registry.registered.push_back(callback);
  return true;
}

bool ExceptionCallbacks::Unregister(aclrtExceptionInfoCallback callback) {
  Registry& registry = Callbacks();
  std::lock_guard lock(registry.mutex);
  const auto it = std::find(registry.registered.begin(), registry.registered.end(), callback);
  if (it == registry.registered.end()) return false;
  registry.registered.erase(it);
  return true;
}

void ExceptionCallbacks::Dispatch(rtExceptionInfo info) {
  std::vector<aclrtExceptionInfoCallback> callbacks;
  {
    Registry& registry = Callbacks();
    std::lock_guard lock(registry.mutex);
    if (registry.set == nullptr && registry.registered.empty()) return;
    callbacks = registry.registered;
    if (registry.set != nullptr) callbacks.push_back(registry.set);
  }
  for (const aclrtExceptionInfoCallback callback : callbacks) callback(&info);
}

}  // namespace canopy::runtime
