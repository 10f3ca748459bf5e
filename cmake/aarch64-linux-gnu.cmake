# Cross-compiling Canopy for aarch64 Linux on an x86-64 Debian host (see
# scripts/cross_aarch64.sh, which prepares everything this file expects):
# - Debian's cross toolchain (g++-aarch64-linux-gnu), whose libc, libstdc++ and
#   libgomp live in /usr/aarch64-linux-gnu;
# - Debian's arm64 packages of Canopy's libraries (oneDNN, SLEEF, Gloo, OpenSSL,
#   GoogleTest) unpacked into CANOPY_AARCH64_SYSROOT, a directory laid out like
#   an arm64 Debian root (usr/include, usr/lib/aarch64-linux-gnu, ...).
set(CMAKE_SYSTEM_NAME Linux)
set(CMAKE_SYSTEM_PROCESSOR aarch64)
set(CMAKE_C_COMPILER aarch64-linux-gnu-gcc)
set(CMAKE_CXX_COMPILER aarch64-linux-gnu-g++)
set(CMAKE_LIBRARY_ARCHITECTURE aarch64-linux-gnu)

# try_compile projects read this file again without the cache: pass the
# sysroot on through the environment.
if(CANOPY_AARCH64_SYSROOT)
  set(ENV{CANOPY_AARCH64_SYSROOT} "${CANOPY_AARCH64_SYSROOT}")
else()
  set(CANOPY_AARCH64_SYSROOT "$ENV{CANOPY_AARCH64_SYSROOT}")
endif()
if(NOT IS_DIRECTORY "${CANOPY_AARCH64_SYSROOT}/usr/include")
  message(FATAL_ERROR "CANOPY_AARCH64_SYSROOT (${CANOPY_AARCH64_SYSROOT}) holds no arm64 libraries: "
                      "scripts/cross_aarch64.sh unpacks them there.")
endif()

# Headers and libraries come from the arm64 trees only; programs (the build tools) from the host.
set(CMAKE_FIND_ROOT_PATH "${CANOPY_AARCH64_SYSROOT}" /usr/aarch64-linux-gnu)
set(CMAKE_FIND_ROOT_PATH_MODE_PROGRAM NEVER)
set(CMAKE_FIND_ROOT_PATH_MODE_LIBRARY ONLY)
set(CMAKE_FIND_ROOT_PATH_MODE_INCLUDE ONLY)
set(CMAKE_FIND_ROOT_PATH_MODE_PACKAGE ONLY)

# OpenSSL keeps its configuration header in the multiarch include directory.
set(CMAKE_C_STANDARD_INCLUDE_DIRECTORIES "${CANOPY_AARCH64_SYSROOT}/usr/include/aarch64-linux-gnu")
set(CMAKE_CXX_STANDARD_INCLUDE_DIRECTORIES "${CANOPY_AARCH64_SYSROOT}/usr/include/aarch64-linux-gnu")

# The unpacked libraries' own dependencies (libgloo needs libhiredis and
# libibverbs, which needs libnl) are resolved at link time from the sysroot.
set(canopy_rpath_link "")
foreach(dir usr/lib/aarch64-linux-gnu usr/lib lib/aarch64-linux-gnu)
  string(APPEND canopy_rpath_link " -Wl,-rpath-link,${CANOPY_AARCH64_SYSROOT}/${dir}")
endforeach()
set(CMAKE_EXE_LINKER_FLAGS_INIT "${canopy_rpath_link}")
set(CMAKE_SHARED_LINKER_FLAGS_INIT "${canopy_rpath_link}")

# Test programs run under qemu-user with the toolchain's loader and libc, and
# the sysroot's libraries on the loader's path.
set(CMAKE_CROSSCOMPILING_EMULATOR
    qemu-aarch64 -L /usr/aarch64-linux-gnu -E
    "LD_LIBRARY_PATH=${CANOPY_AARCH64_SYSROOT}/usr/lib/aarch64-linux-gnu:${CANOPY_AARCH64_SYSROOT}/usr/lib:${CANOPY_AARCH64_SYSROOT}/lib/aarch64-linux-gnu")
