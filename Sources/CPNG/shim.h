// Only libpng's simplified API (png_image_*) is used: it keeps its
// setjmp/longjmp error handling inside libpng and reports failures in
// png_image.message, so no Swift frame ever sits between setjmp and longjmp.
#include <png.h>
