// Process-wide runtime state: initialisation, configuration, devices, contexts
// and the tables that turn client handles back into live objects (a stale or
// foreign handle is an error code, never a dereference).
#pragma once

#include <atomic>
#include <condition_variable>
#include <cstdint>
#include <memory>
#include <mutex>
#include <optional>
#include <set>
#include <shared_mutex>
#include <string>
#include <unordered_map>
#include <unordered_set>
#include <vector>

#include "acl/acl.h"

namespace canopy::runtime {

class Engine;
class Event;
class Stream;
class Context;

// Codes the runtime reports for failures inside asynchronous work.
inline constexpr int32_t kInternalTaskError = ACL_ERROR_RT_INTERNAL_ERROR;
inline constexpr int32_t kCallbackLostError = ACL_ERROR_RT_THREAD_SUBSCRIBE;
// A host function or host task whose thread the system refused to start.
inline constexpr int32_t kHostThreadError = ACL_ERROR_RT_RESOURCE_ALLOC_FAIL;

// Steady-clock nanoseconds, the time base of event timestamps.
int64_t NowNs();
inline constexpr int64_t kNsPerMs = 1000000;

struct RuntimeConfig {
  int32_t device_count = 1;
  std::string soc_name = "Ascend910B3";
  size_t device_memory = 0;  // bytes per device
  static RuntimeConfig FromEnvironment();
};

// Shared ownership, as contexts: a call that resolved a device (or holds a
// context of it) keeps it a valid object while aclFinalize drops the runtime's.
class Device {
 public:
  Device(int32_t id, size_t total_memory);
  ~Device();

  int32_t id() const { return id_; }
  size_t total_memory() const { return total_memory_; }
  size_t used_memory() const { return used_memory_.load(std::memory_order_relaxed); }
  // Counts `bytes` against the device's memory; false when it would not fit.
  bool Reserve(size_t bytes);
  void Unreserve(size_t bytes);

  // The engine runs from aclInit to aclFinalize. Streams share it: a call still
  // enqueueing on a stream while aclFinalize tears down (it notifies the engine
  // after queueing) finds a stopped engine, never a freed one.
  Engine& engine() { return *engine_; }
  const std::shared_ptr<Engine>& shared_engine() const { return engine_; }

  // Guarded by Runtime::lifecycle_mutex.
  Context* primary_context = nullptr;
  int32_t primary_references = 0;   // aclrtSetDevice calls not yet reset
  std::set<int32_t> peers_enabled;  // aclrtDeviceEnablePeerAccess

 private:
  const int32_t id_;
  const size_t total_memory_;
  std::atomic<size_t> used_memory_{0};
  std::shared_ptr<Engine> engine_;
};

// Shared ownership: the handle table holds a context, and so does every API call
// that uses one (the thread's current context, a stream's), so a context torn
// down by another thread meanwhile stays a valid object until the call is done.
class Context {
 public:
  Context(std::shared_ptr<Device> device, bool primary, aclrtContext handle);
  ~Context();

  Device& device() const { return *device_; }
  const std::shared_ptr<Device>& shared_device() const { return device_; }
  bool primary() const { return primary_; }
  aclrtContext handle() const { return handle_; }
  const std::shared_ptr<Stream>& default_stream() const { return default_stream_; }
  // Streams created while this context was current, the default stream first.
  std::vector<std::shared_ptr<Stream>> streams() const;
  // Null once the context is torn down: no stream is made in it any more.
  std::shared_ptr<Stream> CreateStream(uint32_t flags, uint32_t priority);
  // aclrtDestroyStream(Force): false when another thread destroyed it first.
  // Waits for the queued work unless `discard_pending`, which drops what has not started.
  bool DestroyStream(const std::shared_ptr<Stream>& stream, bool discard_pending);
  // Drains and releases every stream of the context (aclrtDestroyContext,
  // aclrtResetDevice, aclFinalize, once it is detached); later CreateStream
  // calls fail. The object itself lives on while a call still holds it.
  void Teardown();

  // aclrtCtxSetSysParamOpt's values: the options a context takes
  // (ACL_OPT_DETERMINISTIC, ACL_OPT_ENABLE_DEBUG_KERNEL, ACL_OPT_STRONG_CONSISTENCY).
  static constexpr int kSysParamCount = 3;
  void SetSysParam(int opt, int64_t value);
  // False when the option was never set in this context.
  bool GetSysParam(int opt, int64_t& value) const;

 private:
  const std::shared_ptr<Device> device_;
  const bool primary_;
  const aclrtContext handle_;
  std::shared_ptr<Stream> default_stream_;
  mutable std::mutex mutex_;
  std::vector<std::shared_ptr<Stream>> streams_;
  bool torn_down_ = false;                             // guarded by mutex_
  std::optional<int64_t> sys_params_[kSysParamCount];  // guarded by mutex_
};

class Runtime {
 public:
  static Runtime& Get();

  // aclInit / aclFinalize. aclrtSetDevice before aclInit starts the runtime
  // `implicitly`, as CANN's does (its programs may call only aclnnInit); the
  // first aclInit after that then succeeds instead of repeating.
  aclError Initialize(bool implicitly = false);
  aclError Finalize();
  bool initialized() const { return initialized_.load(std::memory_order_acquire); }
  // Counts aclInit calls that started the runtime; memory accounting of an
  // earlier initialisation does not leak into a later one.
  uint32_t epoch() const { return epoch_.load(std::memory_order_acquire); }

  const RuntimeConfig& config() const { return config_; }
  // Held by the caller for the call; null when out of range or not initialised.
  std::shared_ptr<Device> device(int32_t id);

  // The calling thread's current context (may be null), held for the call.
  std::shared_ptr<Context> current_context();
  void set_current_context(Context* context);

  // Handle tables; shared_mutex-protected lookups. Handles are unique values
  // that are never reused and never dereferenced, so a stale handle can never
  // alias a newer object: it is simply not in the table.
  std::shared_ptr<Stream> FindStream(aclrtStream handle);
  Event* FindEventRetained(aclrtEvent handle);                // adds a reference the caller releases
  std::shared_ptr<Context> FindContext(aclrtContext handle);  // null when not live

  // A fresh handle value for any table (streams, events, contexts, models).
  void* NewHandle();

  void RegisterStream(const std::shared_ptr<Stream>& stream);  // gives it its handle
  bool UnregisterStream(const Stream& stream);                 // false when it was not registered
  aclrtEvent RegisterEvent(Event* event);                      // takes the table's reference
  Event* UnregisterEvent(aclrtEvent handle);                   // returns the table's reference

  // Contexts: create under lifecycle_mutex; Detach under lifecycle_mutex, then
  // delete the returned context outside it (deleting drains its streams).
  // CreateContext is null (recent error set) while aclFinalize tears down: it
  // drains without the lock, and a context made then would outlive its device.
  // The caller tears the detached context down (Context::Teardown) outside the lock.
  Context* CreateContext(const char* function, const std::shared_ptr<Device>& device, bool primary);
  std::shared_ptr<Context> DetachContext(Context* context);  // null when not live

  // Streams destroyed with aclrtDestroyStreamForce while a task of theirs may
  // still run: a device synchronisation waits for them too. The list holds them
  // weakly and a stream leaves it at the end of its destructor, which releases
  // what its dropped tasks owned. RetiredStreamsOfDevice waits for destructors
  // already under way (the last owner, say the engine thread finishing the
  // running task, may be in one), so a synchronisation that returns has seen
  // every dropped task released.
  void RetireStream(const std::shared_ptr<Stream>& stream);
  std::vector<std::shared_ptr<Stream>> RetiredStreamsOfDevice(int32_t device_id);
  void ForgetRetiredStream(const Stream* stream);  // from ~Stream

  // Every stream object that still exists: registered, being drained by
  // aclrtDestroyStream, force-destroyed with a task still running, or held by
  // something else. A stream object outlives every task of its own, so this is a
  // superset of the streams that may still run a task (after_queued_work.h).
  std::vector<std::shared_ptr<Stream>> StreamsThatMayRun();

  void NotifyAllEngines();
  // Every stream of every live context on the device (all devices when device_id < 0).
  std::vector<std::shared_ptr<Stream>> StreamsOfDevice(int32_t device_id);

  // aclrtSetSysParamOpt values, indexed by aclSysParamOpt.
  static constexpr int kSysParamCount = 4;
  std::atomic<int64_t> sys_params[kSysParamCount] = {};

  // Guards device bring-up and teardown (SetDevice, ResetDevice, contexts).
  std::mutex lifecycle_mutex;

 private:
  Runtime() = default;

  std::atomic<bool> initialized_{false};
  // aclFinalize without a preceding aclInit succeeds once (CANN tears down
  // whatever exists); a second one reports ACL_ERROR_REPEAT_FINALIZE.
  bool finalize_armed_ = true;
  bool implicitly_initialized_ = false;  // guarded by lifecycle_mutex: started by aclrtSetDevice, no aclInit yet
  bool finalizing_ = false;              // guarded by lifecycle_mutex: from aclFinalize's start to its end
  std::atomic<uint32_t> epoch_{0};
  std::atomic<uint64_t> next_handle_{0};
  RuntimeConfig config_;
  // Replaced by aclInit and emptied by aclFinalize while other threads may look
  // devices up: the vector is read and written under devices_mutex_.
  std::shared_mutex devices_mutex_;
  std::vector<std::shared_ptr<Device>> devices_;

  std::shared_mutex handles_mutex_;
  std::unordered_map<const void*, std::shared_ptr<Stream>> streams_;    // by handle
  std::unordered_map<const void*, Event*> events_;                      // by handle
  std::unordered_map<const void*, std::shared_ptr<Context>> contexts_;  // by handle
  struct RetiredStream {
    std::weak_ptr<Stream> stream;
    const Stream* address;  // identifies it once expired, until its destructor ends
    int32_t device_id;
  };
  // Not handles_mutex_: a stream's destructor may run while that is held.
  std::mutex retired_mutex_;
  std::condition_variable retired_gone_;
  std::vector<RetiredStream> retired_streams_;
  std::vector<std::weak_ptr<Stream>> all_streams_;  // every stream ever registered, pruned when expired
};

}  // namespace canopy::runtime
