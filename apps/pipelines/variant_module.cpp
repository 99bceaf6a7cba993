// One benchmark variant as a loadable module (see CMakeLists.txt): exports the pipeline's
// argv-style entry point and metadata under fixed names, so that pipelines_runner can load any
// variant the same way.
#include "HalideRuntime.h"

#define DIET_CAT2(a, b) a##b
#define DIET_CAT(a, b) DIET_CAT2(a, b)

extern "C" {
int DIET_CAT(DIET_PIPELINE_FN, _argv)(void **args);
const struct halide_filter_metadata_t *DIET_CAT(DIET_PIPELINE_FN, _metadata)();

__attribute__((visibility("default"))) int diet_pipeline_argv(void **args) {
    return DIET_CAT(DIET_PIPELINE_FN, _argv)(args);
}

__attribute__((visibility("default"))) const struct halide_filter_metadata_t *diet_pipeline_metadata() {
    return DIET_CAT(DIET_PIPELINE_FN, _metadata)();
}
}
