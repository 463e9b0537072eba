// C++ allocation for jpegli and libc++: over malloc and free, like every C codec. When malloc
// cannot have more memory (the engine's budget refused it, host.c), the job fails with the
// engine's out-of-memory error (a 413), as a C allocation failure does; without exceptions,
// libc++'s own operator new would abort (a trap, a 500).
#include <cstddef>
#include <cstdlib>
#include <new>

extern "C" {
#include "host.h"
}

namespace {
void *allocate(std::size_t size) {
  void *p = std::malloc(size ? size : 1);
  if (!p) host_fail(FAIL_MEMORY, "out of memory (operator new)");
  return p;
}

void *allocate_aligned(std::size_t size, std::align_val_t align) {
  std::size_t a = static_cast<std::size_t>(align) < sizeof(void *) ? sizeof(void *) : static_cast<std::size_t>(align);
  void *p = nullptr;
  if (posix_memalign(&p, a, size ? size : 1) != 0) host_fail(FAIL_MEMORY, "out of memory (operator new)");
  return p;
}
}  // namespace

void *operator new(std::size_t size) { return allocate(size); }
void *operator new[](std::size_t size) { return allocate(size); }
void *operator new(std::size_t size, const std::nothrow_t &) noexcept { return allocate(size); }
void *operator new[](std::size_t size, const std::nothrow_t &) noexcept { return allocate(size); }
void *operator new(std::size_t size, std::align_val_t align) { return allocate_aligned(size, align); }
void *operator new[](std::size_t size, std::align_val_t align) { return allocate_aligned(size, align); }
void *operator new(std::size_t size, std::align_val_t align, const std::nothrow_t &) noexcept { return allocate_aligned(size, align); }
void *operator new[](std::size_t size, std::align_val_t align, const std::nothrow_t &) noexcept { return allocate_aligned(size, align); }

void operator delete(void *p) noexcept { std::free(p); }
void operator delete[](void *p) noexcept { std::free(p); }
void operator delete(void *p, std::size_t) noexcept { std::free(p); }
void operator delete[](void *p, std::size_t) noexcept { std::free(p); }
void operator delete(void *p, const std::nothrow_t &) noexcept { std::free(p); }
void operator delete[](void *p, const std::nothrow_t &) noexcept { std::free(p); }
void operator delete(void *p, std::align_val_t) noexcept { std::free(p); }
void operator delete[](void *p, std::align_val_t) noexcept { std::free(p); }
void operator delete(void *p, std::size_t, std::align_val_t) noexcept { std::free(p); }
void operator delete[](void *p, std::size_t, std::align_val_t) noexcept { std::free(p); }
void operator delete(void *p, std::align_val_t, const std::nothrow_t &) noexcept { std::free(p); }
void operator delete[](void *p, std::align_val_t, const std::nothrow_t &) noexcept { std::free(p); }
