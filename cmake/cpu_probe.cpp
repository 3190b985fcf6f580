// Exits 0 when this machine's CPU (and OS) run the instruction sets a tuned Jolt build
// uses: AVX2, FMA, F16C, LZCNT and BMI1 (TZCNT). Built and run at configure time.
#if defined(__x86_64__) || defined(__i386__)
#include <cpuid.h>

static bool OsSavesAvxState() {
  unsigned lo = 0, hi = 0;
  __asm__ volatile("xgetbv" : "=a"(lo), "=d"(hi) : "c"(0));
  return (lo & 0x6u) == 0x6u;  // XMM and YMM state enabled
}

int main() {
  unsigned a = 0, b = 0, c = 0, d = 0;
  if (!__get_cpuid(1, &a, &b, &c, &d)) return 1;
  const bool osxsave = c & (1u << 27), avx = c & (1u << 28), fma = c & (1u << 12), f16c = c & (1u << 29);
  if (!(osxsave && avx && fma && f16c && OsSavesAvxState())) return 1;
  if (!__get_cpuid_count(7, 0, &a, &b, &c, &d)) return 1;
  const bool avx2 = b & (1u << 5), bmi1 = b & (1u << 3);
  if (!__get_cpuid(0x80000001u, &a, &b, &c, &d)) return 1;
  const bool lzcnt = c & (1u << 5);
  return avx2 && bmi1 && lzcnt ? 0 : 1;
}
#else
int main() { return 1; }
#endif
