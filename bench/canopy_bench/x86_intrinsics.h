// <immintrin.h> for canopy-bench's x86 loops, as src/kernels/x86_intrinsics.h
// gives it to the kernels (the bench includes only public headers of the
// library): GCC 12 builds some AVX-512 intrinsics' results from
// _mm512_undefined_*() and its (maybe-)uninitialized analysis then flags the
// header's own lines once they are inlined (GCC PR105593), silenced for the
// header's lines only.
#pragma once

#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wuninitialized"
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"
#endif
#include <immintrin.h>
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic pop
#endif
