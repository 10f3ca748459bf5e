// The communicator secret and the proofs that connections carry: HMAC-SHA256
// of the secret over a fresh nonce of the other side, so that a secret never
// crosses the wire and a recorded proof cannot be replayed.
#pragma once

#include <array>
#include <cstdint>
#include <string_view>

#include "net.h"

namespace canopy::hccl {

constexpr size_t kSecretBytes = 32;
constexpr size_t kNonceBytes = 32;
constexpr size_t kProofBytes = 32;
using Secret = std::array<uint8_t, kSecretBytes>;
using Nonce = std::array<uint8_t, kNonceBytes>;
using Proof = std::array<uint8_t, kProofBytes>;

// Bytes from the kernel's random source (getrandom).
void RandomBytes(void* data, size_t bytes);

// HMAC-SHA256(secret, role || nonce || context).
Proof Prove(const Secret& secret, std::string_view role, const Nonce& nonce, uint64_t context = 0);
// HMAC-SHA256(key, label || 0 || data): a secret bound to `data` (a rank
// table's layout), or a public value (a name) that reveals nothing of `key`.
Secret Derive(const Secret& key, std::string_view label, std::string_view data);
// Constant-time comparison.
bool SameProof(const Proof& a, const Proof& b);

// Mutual proof over a fresh connection: each side shows it knows `secret`
// before anything else is exchanged. The server side returns false (after
// logging) when the client's proof is wrong; the client side throws
// (HCCL_E_AGAIN when the server closed before its first byte: connect again).
bool AuthenticateClient(const Socket& socket, const Secret& secret, Deadline deadline);
void AuthenticateToServer(const Socket& socket, const Secret& secret, Deadline deadline);

}  // namespace canopy::hccl
