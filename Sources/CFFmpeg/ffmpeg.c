#include "CFFmpeg.h"

#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>

static struct tessera_ffmpeg functions;
static const struct tessera_ffmpeg *loaded;
static char error[512] = "not loaded";
static pthread_once_t once = PTHREAD_ONCE_INIT;

#define SONAME(library, major) "lib" #library ".so." AV_STRINGIFY(major)

static void load(void) {
    void *avutil = dlopen(SONAME(avutil, LIBAVUTIL_VERSION_MAJOR), RTLD_NOW | RTLD_LOCAL);
    void *avformat = dlopen(SONAME(avformat, LIBAVFORMAT_VERSION_MAJOR), RTLD_NOW | RTLD_LOCAL);
    void *avcodec = dlopen(SONAME(avcodec, LIBAVCODEC_VERSION_MAJOR), RTLD_NOW | RTLD_LOCAL);
    void *swscale = dlopen(SONAME(swscale, LIBSWSCALE_VERSION_MAJOR), RTLD_NOW | RTLD_LOCAL);
    void *swresample = dlopen(SONAME(swresample, LIBSWRESAMPLE_VERSION_MAJOR), RTLD_NOW | RTLD_LOCAL);
    if (!avutil || !avformat || !avcodec || !swscale || !swresample) {
        const char *why = dlerror();
        snprintf(error, sizeof error, "FFmpeg's libraries cannot be loaded: %s", why ? why : "unknown reason");
        return;
    }
#define TESSERA_FFMPEG_LOAD(library, name)                                                   \
    functions.name = (__typeof__(name) *)dlsym(library, #name);                              \
    if (!functions.name) {                                                                   \
        snprintf(error, sizeof error, "FFmpeg's lib" #library " has no function " #name);    \
        return;                                                                              \
    }
    TESSERA_FFMPEG_FUNCTIONS(TESSERA_FFMPEG_LOAD)
#undef TESSERA_FFMPEG_LOAD
    loaded = &functions;
}

const struct tessera_ffmpeg *tessera_ffmpeg(void) {
    pthread_once(&once, load);
    return loaded;
}

const char *tessera_ffmpeg_error(void) {
    pthread_once(&once, load);
    return error;
}
