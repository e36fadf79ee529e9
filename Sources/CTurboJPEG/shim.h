// TurboJPEG reports every failure through return codes and tjGetErrorStr2,
// so no C wrapper is needed: TesseraImage calls it directly.
#include <stddef.h>
#include <turbojpeg.h>
