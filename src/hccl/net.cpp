#include "net.h"

#include <arpa/inet.h>
#include <ifaddrs.h>
#include <net/if.h>
#include <netdb.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <thread>

#include "error.h"

namespace canopy::hccl {
namespace {

constexpr auto kConnectRetryPause = std::chrono::milliseconds(20);

int RemainingMs(Deadline deadline) {
  const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(deadline - Clock::now()).count();
  return left <= 0 ? 0 : static_cast<int>(std::min<int64_t>(left, 1 << 30));
}

// Waits until `fd` is ready for `events`; false when the deadline passed first.
bool WaitReady(int fd, short events, Deadline deadline) {
  for (;;) {
    pollfd entry{fd, events, 0};
    const int ready = ::poll(&entry, 1, RemainingMs(deadline));
    if (ready > 0) return true;
    if (ready == 0) return false;
    if (errno != EINTR) Throw(HCCL_E_TCP_TRANSFER, "poll failed: %s", std::strerror(errno));
  }
}

sockaddr_storage Resolve(const std::string& host, uint16_t port, socklen_t& length) {
  addrinfo hints{};
  hints.ai_family = AF_UNSPEC;
  hints.ai_socktype = SOCK_STREAM;
  hints.ai_flags = AI_NUMERICHOST | AI_NUMERICSERV;
  addrinfo* found = nullptr;
  const std::string service = std::to_string(port);
  const int status = ::getaddrinfo(host.c_str(), service.c_str(), &hints, &found);
  if (status != 0 || found == nullptr) {
    Throw(HCCL_E_PARA, "'%s' is not a numeric IPv4 or IPv6 address: %s", host.c_str(), ::gai_strerror(status));
  }
  sockaddr_storage address{};
  std::memcpy(&address, found->ai_addr, found->ai_addrlen);
  length = found->ai_addrlen;
  ::freeaddrinfo(found);
  return address;
}

std::string NumericHost(const sockaddr* address, socklen_t length) {
  char host[NI_MAXHOST];
  if (::getnameinfo(address, length, host, sizeof(host), nullptr, 0, NI_NUMERICHOST) != 0) {
    Throw(HCCL_E_NETWORK, "getnameinfo failed");
  }
  return host;
}

// The first IPv4 (else IPv6) address of the interface named `name`.
std::string InterfaceAddress(const std::string& name) {
  ifaddrs* interfaces = nullptr;
  if (::getifaddrs(&interfaces) != 0) Throw(HCCL_E_NETWORK, "getifaddrs failed: %s", std::strerror(errno));
  std::string v4, v6;
  for (ifaddrs* entry = interfaces; entry != nullptr; entry = entry->ifa_next) {
    if (entry->ifa_addr == nullptr || name != entry->ifa_name) continue;
    if (entry->ifa_addr->sa_family == AF_INET && v4.empty()) {
      v4 = NumericHost(entry->ifa_addr, sizeof(sockaddr_in));
    } else if (entry->ifa_addr->sa_family == AF_INET6 && v6.empty()) {
      v6 = NumericHost(entry->ifa_addr, sizeof(sockaddr_in6));
    }
  }
  ::freeifaddrs(interfaces);
  if (!v4.empty()) return v4;
  if (!v6.empty()) return v6;
  Throw(HCCL_E_PARA, "HCCL_SOCKET_IFNAME names '%s', which has no IP address", name.c_str());
}

}  // namespace

Socket& Socket::operator=(Socket&& other) noexcept {
  if (this != &other) {
    Close();
    fd_ = other.Release();
  }
  return *this;
}

void Socket::Close() {
  if (fd_ >= 0) ::close(fd_);
  fd_ = -1;
}

Socket Listen(const std::string& host, uint16_t& port) {
  socklen_t length = 0;
  sockaddr_storage address = Resolve(host, port, length);
  Socket socket(::socket(address.ss_family, SOCK_STREAM | SOCK_CLOEXEC, 0));
  if (!socket.valid()) Throw(HCCL_E_NETWORK, "socket failed: %s", std::strerror(errno));
  if (port != 0) {
    // A fixed port (a rank table's) is taken again right after the last
    // communicator on it closed, while its old connections linger in TIME_WAIT.
    const int one = 1;
    ::setsockopt(socket.fd(), SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one));
  }
  if (::bind(socket.fd(), reinterpret_cast<sockaddr*>(&address), length) != 0) {
    Throw(HCCL_E_NETWORK, "cannot listen on %s port %u: %s", host.c_str(), unsigned{port}, std::strerror(errno));
  }
  if (::listen(socket.fd(), SOMAXCONN) != 0) Throw(HCCL_E_NETWORK, "listen failed: %s", std::strerror(errno));
  socklen_t bound_length = sizeof(address);
  ::getsockname(socket.fd(), reinterpret_cast<sockaddr*>(&address), &bound_length);
  port = ntohs(address.ss_family == AF_INET ? reinterpret_cast<sockaddr_in*>(&address)->sin_port
                                            : reinterpret_cast<sockaddr_in6*>(&address)->sin6_port);
  return socket;
}

Socket Connect(const std::string& host, uint16_t port, Deadline deadline) {
  socklen_t length = 0;
  const sockaddr_storage address = Resolve(host, port, length);
  for (;;) {
    Socket socket(::socket(address.ss_family, SOCK_STREAM | SOCK_CLOEXEC | SOCK_NONBLOCK, 0));
    if (!socket.valid()) Throw(HCCL_E_NETWORK, "socket failed: %s", std::strerror(errno));
    int status = ::connect(socket.fd(), reinterpret_cast<const sockaddr*>(&address), length);
    int error = status == 0 ? 0 : errno;
    if (error == EINPROGRESS) {
      if (!WaitReady(socket.fd(), POLLOUT, deadline)) {
        Throw(HCCL_E_TIMEOUT, "no connection to the root at %s:%u within HCCL_CONNECT_TIMEOUT", host.c_str(),
              unsigned{port});
      }
      socklen_t error_length = sizeof(error);
      ::getsockopt(socket.fd(), SOL_SOCKET, SO_ERROR, &error, &error_length);
    }
    if (error == 0) {
      const int one = 1;
      ::setsockopt(socket.fd(), IPPROTO_TCP, TCP_NODELAY, &one, sizeof(one));
      return socket;
    }
    if (Clock::now() + kConnectRetryPause >= deadline) {
      Throw(HCCL_E_TCP_CONNECT, "cannot connect to the root at %s:%u: %s", host.c_str(), unsigned{port},
            std::strerror(error));
    }
    std::this_thread::sleep_for(kConnectRetryPause);
  }
}

Socket Accept(const Socket& listener, Deadline deadline) {
  if (!WaitReady(listener.fd(), POLLIN, deadline)) return Socket();
  Socket socket(::accept4(listener.fd(), nullptr, nullptr, SOCK_CLOEXEC | SOCK_NONBLOCK));
  if (socket.valid()) {
    const int one = 1;
    ::setsockopt(socket.fd(), IPPROTO_TCP, TCP_NODELAY, &one, sizeof(one));
  }
  return socket;
}

void SendAll(const Socket& socket, const void* data, size_t bytes, Deadline deadline) {
  const char* next = static_cast<const char*>(data);
  while (bytes > 0) {
    const ssize_t sent = ::send(socket.fd(), next, bytes, MSG_NOSIGNAL | MSG_DONTWAIT);
    if (sent > 0) {
      next += sent;
      bytes -= static_cast<size_t>(sent);
      continue;
    }
    if (sent < 0 && errno == EINTR) continue;
    if (sent < 0 && (errno == EAGAIN || errno == EWOULDBLOCK)) {
      if (!WaitReady(socket.fd(), POLLOUT, deadline)) Throw(HCCL_E_TIMEOUT, "a peer stopped reading (timeout)");
      continue;
    }
    Throw(HCCL_E_TCP_TRANSFER, "send failed: %s", std::strerror(errno));
  }
}

void RecvAll(const Socket& socket, void* data, size_t bytes, Deadline deadline) {
  char* next = static_cast<char*>(data);
  while (bytes > 0) {
    const ssize_t got = ::recv(socket.fd(), next, bytes, MSG_DONTWAIT);
    if (got > 0) {
      next += got;
      bytes -= static_cast<size_t>(got);
      continue;
    }
    if (got == 0) Throw(HCCL_E_TCP_TRANSFER, "the peer closed the connection");
    if (errno == EINTR) continue;
    if (errno == EAGAIN || errno == EWOULDBLOCK) {
      if (!WaitReady(socket.fd(), POLLIN, deadline)) Throw(HCCL_E_TIMEOUT, "a peer did not answer in time");
      continue;
    }
    Throw(HCCL_E_TCP_TRANSFER, "recv failed: %s", std::strerror(errno));
  }
}

std::string LocalAddress(const Socket& socket) {
  sockaddr_storage address{};
  socklen_t length = sizeof(address);
  if (::getsockname(socket.fd(), reinterpret_cast<sockaddr*>(&address), &length) != 0) {
    Throw(HCCL_E_NETWORK, "getsockname failed: %s", std::strerror(errno));
  }
  return NumericHost(reinterpret_cast<sockaddr*>(&address), length);
}

std::string RendezvousHost() {
  if (const char* ip = std::getenv("HCCL_IF_IP"); ip != nullptr && *ip != '\0') return ip;
  if (const char* name = std::getenv("HCCL_SOCKET_IFNAME"); name != nullptr && *name != '\0') {
    // CANN's syntax allows a leading '=' (exact name) and a list; the first name is used.
    std::string first(name[0] == '=' ? name + 1 : name);
    first = first.substr(0, first.find(','));
    return InterfaceAddress(first);
  }
  return "127.0.0.1";
}

bool IsLoopback(const std::string& host) { return host.rfind("127.", 0) == 0 || host == "::1"; }

}  // namespace canopy::hccl
