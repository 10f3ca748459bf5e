// Devices, contexts, SoC name, memory info and peer access.
#include "api_common.h"
#include "common/c_boundary.h"

using namespace canopy::runtime;

namespace {

std::shared_ptr<Context> CurrentContext() { return Runtime::Get().current_context(); }

}  // namespace

extern "C" {

aclError aclrtGetDeviceCount(uint32_t* count) try {
  CANOPY_REQUIRE_INIT();
  CANOPY_REQUIRE_NOT_NULL(count);
  *count = static_cast<uint32_t>(Runtime::Get().config().device_count);
  return ACL_SUCCESS;
}
CANOPY_C_BOUNDARY_ACL

aclError aclrtSetDevice(int32_t deviceId) try {
  // CANN's aclrtSetDevice needs no aclInit: it starts the runtime itself.
  if (!Runtime::Get().initialized()) CANOPY_RETURN_IF_ERROR(Runtime::Get().Initialize(/*implicitly=*/true));
  std::shared_ptr<Device> device;
  CANOPY_RETURN_IF_ERROR(ResolveDevice(__func__, deviceId, device));
  Runtime& runtime = Runtime::Get();
  std::lock_guard lock(runtime.lifecycle_mutex);
  if (device->primary_context == nullptr) {
    device->primary_context = runtime.CreateContext(__func__, device, /*primary=*/true);
    if (device->primary_context == nullptr) return ACL_ERROR_UNINITIALIZE;
  }
  ++device->primary_references;
  runtime.set_current_context(device->primary_context);
  return ACL_SUCCESS;
}
CANOPY_C_BOUNDARY_ACL

aclError aclrtGetDevice(int32_t* deviceId) try {
  CANOPY_REQUIRE_INIT();
  CANOPY_REQUIRE_NOT_NULL(deviceId);
  const auto context = CurrentContext();
  if (context == nullptr) {
    return Fail(ACL_ERROR_RT_CONTEXT_NULL,
                "aclrtGetDevice: no device is set on this thread (call aclrtSetDevice first)");
  }
  *deviceId = context->device().id();
  return ACL_SUCCESS;
}
CANOPY_C_BOUNDARY_ACL

namespace {

// Work still running on streams destroyed with aclrtDestroyStreamForce is the
// device's work too. Their failures are nobody's to report any more; what they
// dropped is released as soon as they are idle. `deadline_ns` < 0: no limit.
aclError WaitForRetiredStreams(const char* function, int32_t device_id, int64_t deadline_ns) {
  for (const auto& stream : Runtime::Get().RetiredStreamsOfDevice(device_id)) {
    CANOPY_RETURN_IF_ERROR(CheckMayWait(function, *stream));
    const int64_t left_ms = deadline_ns < 0 ? -1 : std::max<int64_t>(0, (deadline_ns - NowNs()) / kNsPerMs);
    CANOPY_RETURN_IF_ERROR(
        ReportSync(function, stream->Synchronize(left_ms, /*consume_error=*/false), ACL_ERROR_RT_STREAM_SYNC_TIMEOUT));
    stream->ReleaseDiscarded();
  }
  return ACL_SUCCESS;
}

// Drops one aclrtSetDevice reference (all of them when `force`); the last one
// releases the default context, draining its streams first. Memory stays valid.
aclError ResetDevice(const char* function, int32_t device_id, bool force) {
  CANOPY_RETURN_IF_ERROR(RequireInitialized(function));
  std::shared_ptr<Device> device;
  CANOPY_RETURN_IF_ERROR(ResolveDevice(function, device_id, device));
  Runtime& runtime = Runtime::Get();
  std::shared_ptr<Context> released;
  {
    std::lock_guard lock(runtime.lifecycle_mutex);
    const bool releases = device->primary_context != nullptr && (force || device->primary_references <= 1);
    if (releases) {
      CANOPY_RETURN_IF_ERROR(CheckNotInsideDrainedWork(function, &device->engine(), device->primary_context));
    }
    if (device->primary_references > 0) --device->primary_references;
    if (force) device->primary_references = 0;
    if (device->primary_references == 0 && device->primary_context != nullptr) {
      released = runtime.DetachContext(device->primary_context);
    }
  }
  // Outside the lock: draining may run host callbacks that use the API.
  if (released != nullptr) released->Teardown();
  // The device's last user is gone (or the reset is forced): so is all of its work.
  if (released != nullptr || force) return WaitForRetiredStreams(function, device_id, -1);
  return ACL_SUCCESS;
}

}  // namespace

aclError aclrtResetDevice(int32_t deviceId) try { return ResetDevice(__func__, deviceId, false); }
CANOPY_C_BOUNDARY_ACL

aclError aclrtResetDeviceForce(int32_t deviceId) try { return ResetDevice(__func__, deviceId, true); }
CANOPY_C_BOUNDARY_ACL

aclError aclrtSynchronizeDevice() try {
  CANOPY_REQUIRE_INIT();
  const auto context = CurrentContext();
  if (context == nullptr) {
    return Fail(ACL_ERROR_RT_CONTEXT_NULL, "aclrtSynchronizeDevice: no device is set on this thread");
  }
  // Every stream of every context on the device: the whole device drains.
  aclError first_error = ACL_SUCCESS;
  std::string first_message;
  const int32_t device_id = context->device().id();
  const auto streams = Runtime::Get().StreamsOfDevice(device_id);
  for (const auto& stream : streams) CANOPY_RETURN_IF_ERROR(CheckMayWait(__func__, *stream));
  for (const auto& stream : streams) {
    const aclError status = ReportSync(__func__, stream->Synchronize(-1), ACL_ERROR_RT_STREAM_SYNC_TIMEOUT);
    if (status != ACL_SUCCESS && first_error == ACL_SUCCESS) {
      first_error = status;
      first_message = RecentError();
    }
  }
  if (first_error != ACL_SUCCESS) {
    SetRecentError(first_message);
    return first_error;
  }
  return WaitForRetiredStreams(__func__, device_id, -1);
}
CANOPY_C_BOUNDARY_ACL

aclError aclrtSynchronizeDeviceWithTimeout(int32_t timeout) try {
  CANOPY_REQUIRE_INIT();
  const auto context = CurrentContext();
  if (context == nullptr) {
    return Fail(ACL_ERROR_RT_CONTEXT_NULL, "aclrtSynchronizeDeviceWithTimeout: no device is set");
  }
  if (timeout == 0 || timeout < -1) {
    return Fail(ACL_ERROR_RT_PARAM_INVALID,
                "aclrtSynchronizeDeviceWithTimeout: argument 'timeout' must be -1 (forever) or > 0 ms, "
                "got %d",
                timeout);
  }
  const int64_t deadline = timeout < 0 ? -1 : NowNs() + int64_t{timeout} * kNsPerMs;
  const auto streams = Runtime::Get().StreamsOfDevice(context->device().id());
  for (const auto& stream : streams) CANOPY_RETURN_IF_ERROR(CheckMayWait(__func__, *stream));
  for (const auto& stream : streams) {
    const int64_t left_ms = deadline < 0 ? -1 : std::max<int64_t>(0, (deadline - NowNs()) / kNsPerMs);
    CANOPY_RETURN_IF_ERROR(ReportSync(__func__, stream->Synchronize(left_ms), ACL_ERROR_RT_STREAM_SYNC_TIMEOUT));
  }
  return WaitForRetiredStreams(__func__, context->device().id(), deadline);
}
CANOPY_C_BOUNDARY_ACL

const char* aclrtGetSocName() try {
  if (!Runtime::Get().initialized()) {
    SetRecentError("aclrtGetSocName: acl is not initialized (call aclInit first)");
    return nullptr;
  }
  return Runtime::Get().config().soc_name.c_str();
}
CANOPY_C_BOUNDARY(nullptr)

aclError aclrtGetMemInfo(aclrtMemAttr attr, size_t* free, size_t* total) try {
  CANOPY_REQUIRE_INIT();
  CANOPY_REQUIRE_NOT_NULL(free);
  CANOPY_REQUIRE_NOT_NULL(total);
  const auto context = CurrentContext();
  if (context == nullptr) {
    return Fail(ACL_ERROR_RT_CONTEXT_NULL, "aclrtGetMemInfo: no device is set on this thread");
  }
  // Canopy's device memory is one pool: every attribute reports it. CANN answers
  // an attribute the device does not have with zeros.
  constexpr int kLastMemAttr = 17;  // ACL_MEM_P2P_HUGE1G
  if (static_cast<int>(attr) < 0 || static_cast<int>(attr) > kLastMemAttr) {
    *free = 0;
    *total = 0;
    return ACL_SUCCESS;
  }
  const Device& device = context->device();
  *total = device.total_memory();
  *free = device.total_memory() - device.used_memory();
  return ACL_SUCCESS;
}
CANOPY_C_BOUNDARY_ACL

aclError aclrtCreateContext(aclrtContext* context, int32_t deviceId) try {
  CANOPY_REQUIRE_INIT();
  CANOPY_REQUIRE_NOT_NULL(context);
  std::shared_ptr<Device> device;
  CANOPY_RETURN_IF_ERROR(ResolveDevice(__func__, deviceId, device));
  Runtime& runtime = Runtime::Get();
  std::lock_guard lock(runtime.lifecycle_mutex);
  Context* created = runtime.CreateContext(__func__, device, /*primary=*/false);
  if (created == nullptr) return ACL_ERROR_UNINITIALIZE;
  runtime.set_current_context(created);
  *context = created->handle();
  return ACL_SUCCESS;
}
CANOPY_C_BOUNDARY_ACL

aclError aclrtDestroyContext(aclrtContext context) try {
  CANOPY_REQUIRE_INIT();
  CANOPY_REQUIRE_NOT_NULL(context);
  Runtime& runtime = Runtime::Get();
  std::shared_ptr<Context> released;
  {
    std::lock_guard lock(runtime.lifecycle_mutex);
    const auto target = runtime.FindContext(context);
    if (target == nullptr) {
      return Fail(kInvalidHandle, "aclrtDestroyContext: argument 'context' (%p) is not a live context", context);
    }
    if (target->primary()) {
      return Fail(ACL_ERROR_INVALID_PARAM,
                  "aclrtDestroyContext: the default context of a device is released by "
                  "aclrtResetDevice, not destroyed");
    }
    CANOPY_RETURN_IF_ERROR(CheckNotInsideDrainedWork(__func__, &target->device().engine(), target.get()));
    released = runtime.DetachContext(target.get());
  }
  released->Teardown();  // drains its streams
  return ACL_SUCCESS;
}
CANOPY_C_BOUNDARY_ACL

aclError aclrtSetCurrentContext(aclrtContext context) try {
  CANOPY_REQUIRE_INIT();
  CANOPY_REQUIRE_NOT_NULL(context);
  const auto target = Runtime::Get().FindContext(context);
  if (target == nullptr) {
    return Fail(kInvalidHandle, "aclrtSetCurrentContext: argument 'context' (%p) is not a live context", context);
  }
  Runtime::Get().set_current_context(target.get());
  return ACL_SUCCESS;
}
CANOPY_C_BOUNDARY_ACL

aclError aclrtGetCurrentContext(aclrtContext* context) try {
  CANOPY_REQUIRE_INIT();
  CANOPY_REQUIRE_NOT_NULL(context);
  const auto current = CurrentContext();
  if (current == nullptr) {
    return Fail(ACL_ERROR_RT_CONTEXT_NULL, "aclrtGetCurrentContext: no context is current");
  }
  *context = current->handle();
  return ACL_SUCCESS;
}
CANOPY_C_BOUNDARY_ACL

aclError aclrtDeviceCanAccessPeer(int32_t* canAccessPeer, int32_t deviceId, int32_t peerDeviceId) try {
  CANOPY_REQUIRE_INIT();
  CANOPY_REQUIRE_NOT_NULL(canAccessPeer);
  std::shared_ptr<Device> device;
  CANOPY_RETURN_IF_ERROR(ResolveDevice(__func__, deviceId, device));
  CANOPY_RETURN_IF_ERROR(ResolveDevice(__func__, peerDeviceId, device));
  if (deviceId == peerDeviceId) {
    return Fail(ACL_ERROR_INVALID_PARAM, "aclrtDeviceCanAccessPeer: deviceId and peerDeviceId are both %d", deviceId);
  }
  // Every Canopy device lives in the same host memory.
  *canAccessPeer = 1;
  return ACL_SUCCESS;
}
CANOPY_C_BOUNDARY_ACL

aclError aclrtDeviceEnablePeerAccess(int32_t peerDeviceId, uint32_t flags) try {
  CANOPY_REQUIRE_INIT();
  std::shared_ptr<Device> peer;
  CANOPY_RETURN_IF_ERROR(ResolveDevice(__func__, peerDeviceId, peer));
  if (flags != 0) {
    return Fail(ACL_ERROR_FEATURE_UNSUPPORTED,
                "aclrtDeviceEnablePeerAccess: argument 'flags' is reserved and must be 0, got %u", flags);
  }
  const auto context = CurrentContext();
  if (context == nullptr) {
    return Fail(ACL_ERROR_RT_CONTEXT_NULL, "aclrtDeviceEnablePeerAccess: no device is set");
  }
  if (context->device().id() == peerDeviceId) {
    return Fail(ACL_ERROR_INVALID_PARAM, "aclrtDeviceEnablePeerAccess: device %d cannot be its own peer", peerDeviceId);
  }
  std::lock_guard lock(Runtime::Get().lifecycle_mutex);
  context->device().peers_enabled.insert(peerDeviceId);  // enabling twice is harmless
  return ACL_SUCCESS;
}
CANOPY_C_BOUNDARY_ACL

aclError aclrtDeviceDisablePeerAccess(int32_t peerDeviceId) try {
  CANOPY_REQUIRE_INIT();
  std::shared_ptr<Device> peer;
  CANOPY_RETURN_IF_ERROR(ResolveDevice(__func__, peerDeviceId, peer));
  const auto context = CurrentContext();
  if (context == nullptr) {
    return Fail(ACL_ERROR_RT_CONTEXT_NULL, "aclrtDeviceDisablePeerAccess: no device is set");
  }
  std::lock_guard lock(Runtime::Get().lifecycle_mutex);
  if (context->device().peers_enabled.erase(peerDeviceId) == 0) {
    return Fail(ACL_ERROR_INVALID_PARAM, "aclrtDeviceDisablePeerAccess: peer access to device %d was not enabled",
                peerDeviceId);
  }
  return ACL_SUCCESS;
}
CANOPY_C_BOUNDARY_ACL

}  // extern "C"
