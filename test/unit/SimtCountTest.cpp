//===- SimtCountTest.cpp - the SIMT harness's byte counting ---------------===//
//
// test/simt/Simt.h's hooks, called directly as ThreadSanitizer's
// instrumentation would call them from a kernel compiled with
// SIMT_COUNT_BYTES (KernelBytesTest counts a whole training step that way):
// each byte of a watched range once per block, nothing outside the ranges,
// an access that runs past its range's end counted only up to it (its
// bitmap ends there: counting on overran the heap); and the most accesses
// to the ranges one thread of a launch made.
//
//===----------------------------------------------------------------------===//

#include <gtest/gtest.h>

#include <cstdint>

// Last: the harness defines CUDA's keywords as macros.
#define SIMT_COUNT_BYTES
#include "test/simt/Simt.h"

namespace {

struct Counted {
  uint64_t read = 0, written = 0;
};

/// The block that made the accesses ends; what it counted.
Counted endBlock() {
  simt::endBlockCounts();
  Counted c;
  simt_take_bytes(&c.read, &c.written);
  return c;
}

TEST(SimtByteCount, EachByteOncePerBlockAndNothingOutsideTheRanges) {
  alignas(64) static uint8_t a[256], b[256], outside[64];
  simt_unwatch_all();
  simt_watch(b, sizeof b); // out of address order: the search needs sorting
  simt_watch(a, sizeof a);
  __tsan_read4(a + 8);
  __tsan_read8(a + 8); // 4 of its bytes already read
  __tsan_read4(b + 252);
  __tsan_unaligned_read2(a + 63); // across a word of the bitmap
  __tsan_read_range(b + 10, 100);
  __tsan_write16(a + 100);
  __tsan_read8(outside);
  __tsan_write4(outside + 8);
  Counted first = endBlock();
  EXPECT_EQ(first.read, 8u + 4u + 2u + 100u);
  EXPECT_EQ(first.written, 16u);

  // A new block counts the same bytes again.
  __tsan_read8(a + 8);
  Counted second = endBlock();
  EXPECT_EQ(second.read, 8u);
  EXPECT_EQ(second.written, 0u);
  simt_unwatch_all();
}

TEST(SimtByteCount, AnAccessPastItsRangesEndCountsTheBytesInsideOnly) {
  alignas(64) static uint8_t buffer[128];
  simt_unwatch_all();
  simt_watch(buffer, 64); // a bitmap of one word
  __tsan_read8(buffer + 60);
  __tsan_read_range(buffer + 32, 96);
  __tsan_write16(buffer + 56);
  Counted c = endBlock();
  EXPECT_EQ(c.read, 32u);
  EXPECT_EQ(c.written, 8u);
  simt_unwatch_all();
}

TEST(SimtByteCount, TheLongestThreadIsTheMostAccessesOneThreadMade) {
  alignas(64) static uint8_t buffer[64], outside[64];
  simt_unwatch_all();
  simt_watch(buffer, sizeof buffer);
  simt_take_longest_thread(); // nothing before this test
  // Block 1: thread 0 makes 2 accesses (and 5 outside: not counted),
  // thread 3 makes 3 (rereading a byte counts again).
  simt::running = 0;
  __tsan_read4(buffer);
  __tsan_write4(buffer + 4);
  for (int i = 0; i < 5; ++i)
    __tsan_read4(outside);
  simt::running = 3;
  __tsan_read4(buffer);
  __tsan_read4(buffer);
  __tsan_read16(buffer + 16);
  endBlock();
  // Block 2: thread 0 again, 2 accesses; the counts start afresh per block.
  simt::running = 0;
  __tsan_read4(buffer);
  __tsan_read4(buffer + 8);
  endBlock();
  EXPECT_EQ(simt_take_longest_thread(), 3u);
  EXPECT_EQ(simt_take_longest_thread(), 0u); // taken
  simt_unwatch_all();
}

TEST(SimtByteCount, AWarpsRequestMovesTheDistinctSectorsItsLanesTouch) {
  alignas(64) static uint8_t buffer[32 * 64];
  simt_unwatch_all();
  simt_watch(buffer, sizeof buffer);
  uint64_t requested = 0, sectors = 0;
  simt_take_sectors(&requested, &sectors); // nothing before this test
  // One warp, two requests: the lanes' first accesses read adjacent floats
  // (128 bytes: 4 sectors), their second a float 64 bytes apart each (32
  // sectors); lane 31 makes a third, alone, of 16 bytes across a sector's
  // end (2 sectors).
  for (unsigned lane = 0; lane < 32; ++lane) {
    simt::running = lane;
    __tsan_read4(buffer + 4 * lane);
    __tsan_read4(buffer + 64 * lane);
  }
  __tsan_read16(buffer + 24);
  endBlock();
  simt_take_sectors(&requested, &sectors);
  EXPECT_EQ(requested, 32u * 4 + 32u * 4 + 16u);
  EXPECT_EQ(sectors, 4u + 32u + 2u);
  EXPECT_EQ(simt_take_longest_thread(), 3u);
  simt_unwatch_all();
}

} // namespace
