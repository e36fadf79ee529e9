// zlib inflates compressed PNG text chunks (zTXt, iTXt) and checks chunk CRCs.
#include <zlib.h>
