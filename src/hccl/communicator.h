// A communicator: this rank's place in it, its transport, and the first error
// of its asynchronous work. Handles given to clients are looked up in a
// registry, so a stale or made-up HcclComm is an error, not a crash; queued
// operations hold the communicator alive, so HcclCommDestroy never pulls the
// transport from under work already on a stream (that work still runs).
#pragma once

#include <atomic>
#include <chrono>
#include <cstdint>
#include <memory>
#include <mutex>
#include <string>

#include "hccl/hccl_types.h"
#include "transport.h"

namespace canopy::hccl {

class Communicator {
 public:
  // `device`: the device this rank runs on (HcclCommInitAll's entry, else the
  // creating thread's current device; -1 when it had none).
  Communicator(uint32_t rank, uint32_t size, std::string name, int32_t device, std::unique_ptr<Transport> transport)
      : rank_(rank), size_(size), name_(std::move(name)), device_(device), transport_(std::move(transport)) {}

  uint32_t rank() const { return rank_; }
  uint32_t size() const { return size_; }
  const std::string& name() const { return name_; }
  int32_t device() const { return device_; }
  Transport& transport() { return *transport_; }

  // The first failure of asynchronous work sticks: later work fails at once
  // with it (a transport that failed once is not trusted again).
  void SetAsyncError(HcclResult code, const std::string& message);
  HcclResult async_error(std::string* message = nullptr) const;

  // One operation of this rank at a time: a second that starts while one runs
  // (the communicator used from two streams at once) would meet its peers'
  // operations out of turn. TryBegin says whether the caller may run one.
  bool TryBegin() { return !running_.exchange(true, std::memory_order_acquire); }
  void End() { running_.store(false, std::memory_order_release); }

 private:
  const uint32_t rank_;
  const uint32_t size_;
  const std::string name_;
  const int32_t device_;
  std::unique_ptr<Transport> transport_;
  mutable std::mutex mutex_;
  HcclResult async_error_ = HCCL_SUCCESS;  // guarded by mutex_
  std::string async_message_;              // guarded by mutex_
  std::atomic<bool> running_{false};
};

// Registers `comm` and returns its client handle.
HcclComm Register(std::shared_ptr<Communicator> comm);
// The live communicator of `handle`, or null.
std::shared_ptr<Communicator> Find(HcclComm handle);
// Forgets `handle`; false when it was not live.
bool Unregister(HcclComm handle);
// The live communicator a group name denotes on `device`, as fused ops name
// theirs (HcclGetCommName): the ranks of one communicator in one process share
// its name, so the device tells them apart. A communicator made where no device
// was set matches any device. Null when none or more than one matches.
std::shared_ptr<Communicator> FindByName(const std::string& name, int32_t device);

// Timeouts: HCCL_CONNECT_TIMEOUT (s, default 120) bounds making a
// communicator; HCCL_EXEC_TIMEOUT (s, default 1836; 0 = no limit) or the
// config's hcclExecTimeOut bounds each operation's waits.
std::chrono::milliseconds ConnectTimeout();
std::chrono::milliseconds ExecTimeout(int32_t config_seconds);

}  // namespace canopy::hccl
