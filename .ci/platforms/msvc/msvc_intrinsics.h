/* Forced in front of every translation unit (clang -include) by .ci/platforms/msvc-check.sh,
   after msvc_poison.h. The MSVC intrinsics handrank uses that Microsoft's <intrin.h> and
   <immintrin.h> declare but the headers this check has (clang's, MinGW-w64's, in MSVC mode) do
   not, with the prototypes of Microsoft's documentation ("Compiler intrinsics", learn.microsoft.com).
   A name missing here and there is an error: add it only after checking that page. */
unsigned char _BitScanForward(unsigned long* Index, unsigned long Mask);
unsigned char _BitScanForward64(unsigned long* Index, unsigned __int64 Mask);
unsigned char _BitScanReverse(unsigned long* Index, unsigned long Mask);
unsigned char _BitScanReverse64(unsigned long* Index, unsigned __int64 Mask);
void __cpuidex(int cpuInfo[4], int function_id, int subfunction_id);
unsigned int _pext_u32(unsigned int a, unsigned int mask);
unsigned int _pdep_u32(unsigned int a, unsigned int mask);
