// Small blocking TCP helpers with deadlines, for the rendezvous store and its
// clients. Every wait is bounded: a peer that stops answering is an
// HCCL_E_TIMEOUT, a broken connection an HCCL_E_TCP_TRANSFER.
#pragma once

#include <chrono>
#include <cstddef>
#include <cstdint>
#include <string>

namespace canopy::hccl {

using Clock = std::chrono::steady_clock;
using Deadline = Clock::time_point;

// Owns a socket descriptor.
class Socket {
 public:
  Socket() = default;
  explicit Socket(int fd) : fd_(fd) {}
  Socket(Socket&& other) noexcept : fd_(other.Release()) {}
  Socket& operator=(Socket&& other) noexcept;
  Socket(const Socket&) = delete;
  Socket& operator=(const Socket&) = delete;
  ~Socket() { Close(); }

  int fd() const { return fd_; }
  bool valid() const { return fd_ >= 0; }
  int Release() {
    const int fd = fd_;
    fd_ = -1;
    return fd;
  }
  void Close();

 private:
  int fd_ = -1;
};

// A listening socket on `host` (numeric IPv4/IPv6) and `port`, or an
// ephemeral port when `port` is 0; `port` receives the bound one.
Socket Listen(const std::string& host, uint16_t& port);
// Connects to host:port, retrying refused attempts until `deadline`.
Socket Connect(const std::string& host, uint16_t port, Deadline deadline);
// Accepts one connection, or returns an invalid socket when none came before
// `deadline` (or the listener was shut down).
Socket Accept(const Socket& listener, Deadline deadline);

void SendAll(const Socket& socket, const void* data, size_t bytes, Deadline deadline);
void RecvAll(const Socket& socket, void* data, size_t bytes, Deadline deadline);

// The numeric address of this end of a connected socket.
std::string LocalAddress(const Socket& socket);

// The address the rendezvous listener binds to: HCCL_IF_IP, else the first
// address of the interface HCCL_SOCKET_IFNAME names, else loopback (every
// rank on this machine: nothing outside the machine can connect).
std::string RendezvousHost();

// True for 127.0.0.0/8 and ::1.
bool IsLoopback(const std::string& host);

}  // namespace canopy::hccl
