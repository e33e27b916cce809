# Declarations of the tables that tools/gen_tables.py writes into the build (handrank_tables.h).
from libc.stdint cimport uint16_t, uint32_t, uint64_t

cdef extern from "handrank_tables.h" nogil:
    const uint64_t hr_card_key[256]
    const uint64_t hr_card_mask[256]
    const uint64_t hr_card_sums[512]      # key, card bit (none for ids 52..255) of each id
    const uint64_t hr_card_hashes[512]    # the same with the key's rank sum hashed (see _kernels)
    const uint64_t HR_SUIT_COUNTER_START
    const uint64_t HR_FLUSH_BITS
    const uint64_t HR_INVALID_CARD_BIT

    const uint64_t HR_HASH3_MUL, HR_HASH5_MUL, HR_HASH6_MUL, HR_HASH7_MUL
    const int HR_HASH3_BUCKET_SHIFT, HR_HASH5_BUCKET_SHIFT, HR_HASH6_BUCKET_SHIFT, HR_HASH7_BUCKET_SHIFT
    const int HR_HASH3_SLOT_SHIFT, HR_HASH5_SLOT_SHIFT, HR_HASH6_SLOT_SHIFT, HR_HASH7_SLOT_SHIFT
    const uint32_t HR_HASH3_SLOT_MASK, HR_HASH5_SLOT_MASK, HR_HASH6_SLOT_MASK, HR_HASH7_SLOT_MASK
    const uint16_t hr_hash3_displacement[]
    const uint16_t hr_hash5_displacement[]
    const uint16_t hr_hash6_displacement[]
    const uint16_t hr_hash7_displacement[]

    const uint16_t hr_high3[]
    const uint16_t hr_high5[]
    const uint16_t hr_high6[]
    const uint16_t hr_high7[]
    const uint16_t hr_lowa5_5[]
    const uint16_t hr_lowa5_6[]
    const uint16_t hr_lowa5_7[]
    const uint16_t hr_flush[8192]
    const uint16_t hr_low27_of_high[7463]
    const uint16_t hr_low27_5[]             # hr_low27_of_high of hr_high5, slot by slot
    const uint16_t hr_low27_flush[8192]     # hr_low27_of_high of hr_flush

    const uint32_t hr_high_class[7463]
    const uint32_t hr_low27_class[7463]
    const uint32_t hr_lowa5_class[6176]
    const uint32_t hr_high3_class[456]
    const int HR_LOWA5_QUALIFY8
    const uint16_t hr_row_of_high[7463]
    const uint16_t hr_row_of_high3[456]
    const int HR_ROW_MAX

    const char* HR_BIGTWO_DEFAULT_SIGNATURE
    const uint32_t hr_bigtwo_default_classes[7463]
    const uint32_t hr_three_runs[]
    const int HR_THREE_RUNS
