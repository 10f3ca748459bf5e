// The rendezvous store of a communicator made from root info: a key-value
// server the HcclGetRootInfo process runs, and the client each rank uses as
// Gloo's rendezvous store. Every connection proves the communicator secret
// first; every length that arrives is checked against a fixed bound.
#pragma once

#include <gloo/rendezvous/store.h>

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <list>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "auth.h"
#include "net.h"

namespace canopy::hccl {

// Wire limits: a request beyond them ends the connection.
constexpr size_t kMaxKeyBytes = 256;
constexpr size_t kMaxValueBytes = 1 << 20;
constexpr size_t kMaxStoreBytes = 64 << 20;
constexpr size_t kMaxConnections = 4096;

class StoreServer {
 public:
  // Listens on `host` and `port` (0: an ephemeral one); the bound port is port().
  StoreServer(const std::string& host, const Secret& secret, uint16_t port = 0);
  ~StoreServer();
  StoreServer(const StoreServer&) = delete;
  StoreServer& operator=(const StoreServer&) = delete;

  uint16_t port() const { return port_; }
  // True once every rank has reported its communicator made (or the server stopped).
  bool finished() const { return finished_.load(); }

 private:
  // A connection's thread; `ended` once it has served its last request.
  struct Connection {
    std::thread thread;
    std::atomic<bool> ended{false};
  };

  void AcceptLoop();
  void Serve(Socket socket);
  // Handles one request; false ends the connection.
  bool HandleRequest(const Socket& socket);

  const Secret secret_;
  Socket listener_;
  uint16_t port_ = 0;
  std::atomic<bool> stopping_{false};
  std::atomic<bool> finished_{false};

  std::mutex mutex_;
  std::condition_variable changed_;
  std::map<std::string, std::vector<char>> values_;  // guarded by mutex_
  size_t stored_bytes_ = 0;                          // guarded by mutex_
  size_t done_ranks_ = 0;                            // guarded by mutex_
  std::list<Connection> connections_;                // guarded by mutex_
  std::thread acceptor_;
};

// Gloo's view of the store: set, and get/wait that block until the key is
// there or the connect timeout has passed.
class StoreClient : public gloo::rendezvous::Store {
 public:
  StoreClient(const std::string& host, uint16_t port, const Secret& secret, std::chrono::milliseconds timeout);

  void set(const std::string& key, const std::vector<char>& data) override;
  std::vector<char> get(const std::string& key) override;
  void wait(const std::vector<std::string>& keys) override;
  void wait(const std::vector<std::string>& keys, const std::chrono::milliseconds& timeout) override;

  // This end's address: the interface that reaches the root.
  std::string local_address() const { return LocalAddress(socket_); }
  // Tells the server that this rank (of `ranks`) has its communicator.
  void ReportDone(uint32_t rank, uint32_t ranks);

 private:
  std::vector<char> Fetch(const std::string& key, std::chrono::milliseconds timeout);

  Socket socket_;
  std::chrono::milliseconds timeout_;
  std::mutex mutex_;  // one request at a time on the connection
};

}  // namespace canopy::hccl
