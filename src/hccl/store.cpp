#include "store.h"

#include <cstring>

#include "error.h"

namespace canopy::hccl {
namespace {

enum class Request : uint8_t { kSet = 1, kGet = 2, kDone = 3 };
enum class Reply : uint8_t { kOk = 0, kTimeout = 1, kRefused = 2 };

// A client that authenticated has this long to send each request's bytes.
constexpr auto kRequestTimeout = std::chrono::seconds(30);
// A connection has this long to prove the secret.
constexpr auto kHandshakeTimeout = std::chrono::seconds(10);
// How often the acceptor looks at the stop flag.
constexpr auto kAcceptPoll = std::chrono::milliseconds(100);
// How long a client waits before connecting again to a closing listener.
constexpr auto kReconnectPause = std::chrono::milliseconds(20);
// The longest wait a GET may ask for.
constexpr uint32_t kMaxGetWaitMs = 7200u * 1000u;

const std::string kDonePrefix = "\x01done/";

template <typename T>
T RecvValue(const Socket& socket, Deadline deadline) {
  T value;
  RecvAll(socket, &value, sizeof(value), deadline);
  return value;
}

template <typename T>
void SendValue(const Socket& socket, T value, Deadline deadline) {
  SendAll(socket, &value, sizeof(value), deadline);
}

}  // namespace

StoreServer::StoreServer(const std::string& host, const Secret& secret, uint16_t port) : secret_(secret), port_(port) {
  listener_ = Listen(host, port_);
  acceptor_ = std::thread([this] { AcceptLoop(); });
}

StoreServer::~StoreServer() {
  stopping_ = true;
  changed_.notify_all();
  if (acceptor_.joinable()) acceptor_.join();
  std::list<Connection> connections;
  {
    std::lock_guard lock(mutex_);
    connections.swap(connections_);
  }
  for (Connection& connection : connections) connection.thread.join();
}

void StoreServer::AcceptLoop() {
  while (!stopping_ && !finished_) {
    Socket socket = Accept(listener_, Clock::now() + kAcceptPoll);
    if (!socket.valid()) continue;
    // Every rank has its communicator: a late connection (the next
    // communicator's, on the same port) is closed unanswered, and retries.
    if (finished_) break;
    std::lock_guard lock(mutex_);
    // Connections that ended give their slots back: otherwise kMaxConnections
    // short-lived ones (a port scan) would lock the ranks out for good.
    connections_.remove_if([](Connection& connection) {
      if (!connection.ended) return false;
      connection.thread.join();
      return true;
    });
    if (connections_.size() >= kMaxConnections) {
      LogWarning("rendezvous: too many connections; one was dropped");
      continue;
    }
    Connection& connection = connections_.emplace_back();
    connection.thread = std::thread([this, &connection, socket = std::move(socket)]() mutable {
      Serve(std::move(socket));
      connection.ended = true;
    });
  }
  listener_.Close();
}

void StoreServer::Serve(Socket socket) {
  try {
    if (!AuthenticateClient(socket, secret_, Clock::now() + kHandshakeTimeout)) return;
    while (!stopping_ && HandleRequest(socket)) {
    }
  } catch (const HcclError& error) {
    // A client that went away or sent something malformed: its connection ends.
    LogWarning(std::string("rendezvous: a connection ended: ") + error.what());
  }
}

bool StoreServer::HandleRequest(const Socket& socket) {
  // Between requests a rank may be busy for long (connecting its pairs): wait
  // for the next request's first byte without a deadline of our own, but
  // look at the stop flag now and then.
  uint8_t kind = 0;
  for (;;) {
    try {
      RecvAll(socket, &kind, 1, Clock::now() + kAcceptPoll);
      break;
    } catch (const HcclError& error) {
      if (error.code() != HCCL_E_TIMEOUT) return false;
      if (stopping_) return false;
    }
  }
  const Deadline deadline = Clock::now() + kRequestTimeout;
  const auto key_bytes = RecvValue<uint32_t>(socket, deadline);
  if (key_bytes == 0 || key_bytes > kMaxKeyBytes) Throw(HCCL_E_PARA, "key of %u bytes", key_bytes);
  std::string key(key_bytes, '\0');
  RecvAll(socket, key.data(), key_bytes, deadline);

  switch (static_cast<Request>(kind)) {
    case Request::kSet: {
      const auto value_bytes = RecvValue<uint32_t>(socket, deadline);
      if (value_bytes > kMaxValueBytes) Throw(HCCL_E_PARA, "value of %u bytes", value_bytes);
      std::vector<char> value(value_bytes);
      RecvAll(socket, value.data(), value_bytes, deadline);
      bool accepted = false;
      {
        std::lock_guard lock(mutex_);
        auto found = values_.find(key);
        const size_t replaced = found == values_.end() ? 0 : found->second.size();
        if (stored_bytes_ - replaced + value_bytes + key_bytes <= kMaxStoreBytes) {
          stored_bytes_ = stored_bytes_ - replaced + value_bytes + key_bytes;
          values_[key] = std::move(value);
          accepted = true;
        }
      }
      changed_.notify_all();
      SendValue(socket, accepted ? Reply::kOk : Reply::kRefused, deadline);
      return accepted;
    }
    case Request::kGet: {
      const auto wait_ms = std::min(RecvValue<uint32_t>(socket, deadline), kMaxGetWaitMs);
      std::vector<char> value;
      bool found = false;
      {
        std::unique_lock lock(mutex_);
        found = changed_.wait_for(lock, std::chrono::milliseconds(wait_ms),
                                  [&] { return stopping_.load() || values_.count(key) != 0; });
        found = found && values_.count(key) != 0;
        if (found) value = values_[key];
      }
      const Deadline reply_deadline = Clock::now() + kRequestTimeout;
      SendValue(socket, found ? Reply::kOk : Reply::kTimeout, reply_deadline);
      if (found) {
        SendValue(socket, static_cast<uint32_t>(value.size()), reply_deadline);
        SendAll(socket, value.data(), value.size(), reply_deadline);
      }
      return true;
    }
    case Request::kDone: {
      // The key is the rank, the count is how many ranks the communicator has:
      // once all have reported, nobody needs the listener any more.
      const auto ranks = RecvValue<uint32_t>(socket, deadline);
      bool all = false;
      {
        std::lock_guard lock(mutex_);
        if (values_.emplace(kDonePrefix + key, std::vector<char>()).second) ++done_ranks_;
        all = ranks > 0 && done_ranks_ >= ranks;
      }
      if (all) finished_ = true;
      SendValue(socket, Reply::kOk, deadline);
      return true;
    }
  }
  Throw(HCCL_E_PARA, "unknown request %u", unsigned{kind});
}

StoreClient::StoreClient(const std::string& host, uint16_t port, const Secret& secret,
                         std::chrono::milliseconds timeout)
    : timeout_(timeout) {
  const Deadline deadline = Clock::now() + timeout;
  for (;;) {
    socket_ = Connect(host, port, deadline);
    try {
      AuthenticateToServer(socket_, secret, deadline);
      return;
    } catch (const HcclError& error) {
      // The previous communicator's listener on a fixed port (a rank
      // table's) was closing; the next one is about to listen there.
      if (error.code() != HCCL_E_AGAIN || Clock::now() + kReconnectPause >= deadline) throw;
    }
    socket_.Close();
    std::this_thread::sleep_for(kReconnectPause);
  }
}

void StoreClient::set(const std::string& key, const std::vector<char>& data) {
  if (key.empty() || key.size() > kMaxKeyBytes || data.size() > kMaxValueBytes) {
    Throw(HCCL_E_INTERNAL, "rendezvous entry '%s' is too large", key.c_str());
  }
  std::lock_guard lock(mutex_);
  const Deadline deadline = Clock::now() + timeout_;
  SendValue(socket_, Request::kSet, deadline);
  SendValue(socket_, static_cast<uint32_t>(key.size()), deadline);
  SendAll(socket_, key.data(), key.size(), deadline);
  SendValue(socket_, static_cast<uint32_t>(data.size()), deadline);
  SendAll(socket_, data.data(), data.size(), deadline);
  if (RecvValue<Reply>(socket_, deadline) != Reply::kOk) Throw(HCCL_E_UNAVAIL, "the rendezvous store is full");
}

std::vector<char> StoreClient::Fetch(const std::string& key, std::chrono::milliseconds timeout) {
  std::lock_guard lock(mutex_);
  const auto wait_ms = static_cast<uint32_t>(std::min<int64_t>(timeout.count(), kMaxGetWaitMs));
  // The server answers after its wait: allow for that and the transfer.
  const Deadline deadline = Clock::now() + timeout + kRequestTimeout;
  SendValue(socket_, Request::kGet, deadline);
  SendValue(socket_, static_cast<uint32_t>(key.size()), deadline);
  SendAll(socket_, key.data(), key.size(), deadline);
  SendValue(socket_, wait_ms, deadline);
  if (RecvValue<Reply>(socket_, deadline) != Reply::kOk) {
    Throw(HCCL_E_TIMEOUT, "rendezvous: not every rank arrived within HCCL_CONNECT_TIMEOUT (%lld ms; waiting for '%s')",
          static_cast<long long>(timeout.count()), key.c_str());
  }
  const auto value_bytes = RecvValue<uint32_t>(socket_, deadline);
  if (value_bytes > kMaxValueBytes) Throw(HCCL_E_TCP_TRANSFER, "rendezvous value of %u bytes", value_bytes);
  std::vector<char> value(value_bytes);
  RecvAll(socket_, value.data(), value_bytes, deadline);
  return value;
}

std::vector<char> StoreClient::get(const std::string& key) { return Fetch(key, timeout_); }

void StoreClient::wait(const std::vector<std::string>& keys) { wait(keys, timeout_); }

void StoreClient::wait(const std::vector<std::string>& keys, const std::chrono::milliseconds& timeout) {
  for (const std::string& key : keys) Fetch(key, std::min(timeout, timeout_));
}

void StoreClient::ReportDone(uint32_t rank, uint32_t ranks) {
  std::lock_guard lock(mutex_);
  const Deadline deadline = Clock::now() + timeout_;
  const std::string key = std::to_string(rank);
  SendValue(socket_, Request::kDone, deadline);
  SendValue(socket_, static_cast<uint32_t>(key.size()), deadline);
  SendAll(socket_, key.data(), key.size(), deadline);
  SendValue(socket_, ranks, deadline);
  RecvValue<Reply>(socket_, deadline);
}

}  // namespace canopy::hccl
