// The layout of the feature vectors Features.cpp fills: the index of each of Ansor's 164 features,
// the slots of a buffer, the Halide-specific ones, and the enums they encode (internal to
// src/features: extract_features() is the interface).
#pragma once

#include "features/Features.h"

#include <cstdint>
#include <string>
#include <vector>

namespace diet {
namespace feature_detail {


// ---------------------------------------------------------------------------------------------
// Layout of the 164 features (Ansor's order).
// ---------------------------------------------------------------------------------------------

enum OpKind {
    kFloatMad, kFloatAddSub, kFloatMul, kFloatDivMod, kFloatCmp, kFloatMath, kFloatOther,
    kIntMad, kIntAddSub, kIntMul, kIntDivMod, kIntCmp, kIntMath, kIntOther,
    kBoolOp, kSelectOp, kOpKinds
};
constexpr int kVecNum = 16, kVecProd = 17, kVecLen = 18, kVecType = 19;
constexpr int kUnrollNum = 27, kUnrollProd = 28, kUnrollLen = 29, kUnrollType = 30;
constexpr int kParallelNum = 38, kParallelProd = 39, kParallelLen = 40, kParallelType = 41;
constexpr int kIsGpu = 49, kBlockX = 50, kThreadX = 53, kVthread = 56;
constexpr int kBuffers = 57;
constexpr int kArithCurve = 147, kArithPoints = 10;
constexpr int kAllocSize = 157, kAllocProd = 158, kAllocOuterProd = 159, kAllocInnerProd = 160;
constexpr int kOuterProd = 161, kNumLoops = 162, kAutoUnrollMaxStep = 163;
static_assert(kBuffers + kAnsorMaxBuffers * kAnsorBufferFeatureCount == kArithCurve, "layout");
static_assert(kOuterProd + 3 == kAnsorFeatureCount, "layout");

// Within one buffer slot.
constexpr int kAccType = 0, kBytes = 3, kUniqueBytes = 4, kLines = 5, kUniqueLines = 6, kReuseType = 7,
              kReuseDisIter = 10, kReuseDisBytes = 11, kReuseCt = 12, kBytesDReuse = 13, kUniqueBytesDReuse = 14,
              kLinesDReuse = 15, kUniqueLinesDReuse = 16, kStride = 17;

// Ansor's AnnotationPosType has 8 values; its extractor only ever sets kPosNone (no such loop)
// or kPosMixed (the position encoding is a TODO there). Reproduced as is.
constexpr int kPosNone = 0, kPosMixed = 7;

// Halide features.
enum MemKind { kMemNone, kMemHeap, kMemStack, kMemRegister, kMemGpuShared, kMemOther, kMemKinds };
constexpr int kPredicatedStores = 6, kPredicatedLoads = 7, kGpuKernels = 8, kShuffles = 9, kStridedLoads = 10;

enum class AccessType { Read = 0, Write = 1, ReadWrite = 2 };
enum class ReuseType { LoopMultipleRead = 0, SerialMultipleReadWrite = 1, NoReuse = 2 };

// Halide places an Auto allocation of at most this many bytes with a constant size on the stack.
constexpr int64_t kMaxStackBytes = 16 * 1024;
// Conditions are resolved per iteration up to this many points, else both branches count fully.
constexpr int64_t kMaxConditionPoints = 4096;
// The variable standing for the lanes of a vector store.
inline constexpr const char *kLaneVar = "diet.lane";


// Ansor's 164 names, in order.
std::vector<std::string> make_ansor_names();
// Features kept as they are by the transform: one-hots and is_gpu.
bool is_ansor_one_hot(int i);

}  // namespace feature_detail
}  // namespace diet
