#include "CLibRawStream.h"

#include <chrono>
#include <libraw/libraw.h>
#include <new>

namespace {

using Clock = std::chrono::steady_clock;

// Forwards every call to the stream LibRaw would have made, checking the deadline on each read.
class DeadlineStream final : public LibRaw_abstract_datastream {
  public:
    DeadlineStream(LibRaw_abstract_datastream *inner, double seconds)
        : inner(inner), deadline(Clock::now() + std::chrono::duration_cast<Clock::duration>(
                                                    std::chrono::duration<double>(seconds))) {}
    ~DeadlineStream() override { delete inner; }
    DeadlineStream(const DeadlineStream &) = delete;
    DeadlineStream &operator=(const DeadlineStream &) = delete;

    int valid() override { return inner->valid(); }
    int read(void *pointer, size_t size, size_t count) override {
        check();
        int got = inner->read(pointer, size, count);
        if (got <= 0 && size * count > 0) atEnd();
        return got;
    }
    int seek(INT64 offset, int whence) override {
        check();
        return inner->seek(offset, whence);
    }
    INT64 tell() override { return inner->tell(); }
    INT64 size() override { return inner->size(); }
    int get_char() override {
        check();
        int character = inner->get_char();
        if (character < 0) atEnd();
        return character;
    }
    char *gets(char *text, int size) override {
        check();
        return inner->gets(text, size);
    }
    int scanf_one(const char *format, void *value) override {
        check();
        return inner->scanf_one(format, value);
    }
    int eof() override { return inner->eof(); }
    void *make_jas_stream() override { return inner->make_jas_stream(); }
    int jpeg_src(void *source) override { return inner->jpeg_src(source); }
    void buffering_off() override { inner->buffering_off(); }
    const char *fname() override { return inner->fname(); }

  private:
    LibRaw_abstract_datastream *inner;
    Clock::time_point deadline;
    unsigned calls = 0;
    unsigned readsAtEnd = 0;

    // The clock is read every 1,024 calls: a read of a few bytes costs less than reading it.
    void check() {
        if ((++calls & 1023) == 0 && Clock::now() > deadline) throw LIBRAW_EXCEPTION_CANCELLED_BY_CALLBACK;
    }

    // A parser reads past the end of a file a few times at most; a loop over a count the file
    // cannot hold does it for every entry it believes in, so it is stopped at once.
    void atEnd() {
        if (++readsAtEnd > 65536) throw LIBRAW_EXCEPTION_CANCELLED_BY_CALLBACK;
    }
};

} // namespace

// The one owner of the stream (and through it of LibRaw's own), from open to free.
struct tessera_libraw_stream {
    DeadlineStream stream;
    tessera_libraw_stream(LibRaw_abstract_datastream *inner, double seconds) : stream(inner, seconds) {}
};

static tessera_libraw_stream *open(void *data, LibRaw_abstract_datastream *inner, double seconds, int *status) {
    if (!inner) {
        *status = LIBRAW_UNSPECIFIED_ERROR;
        return nullptr;
    }
    auto *wrapper = new (std::nothrow) tessera_libraw_stream(inner, seconds);
    if (!wrapper) {
        delete inner;
        *status = LIBRAW_UNSPECIFIED_ERROR;
        return nullptr;
    }
    auto *processor = static_cast<LibRaw *>(static_cast<libraw_data_t *>(data)->parent_class);
    *status = processor->open_datastream(&wrapper->stream);
    return wrapper;
}

tessera_libraw_stream *tessera_libraw_open_file(void *data, const char *path, double seconds, int *status) {
    return open(data, new (std::nothrow) LibRaw_file_datastream(path), seconds, status);
}

tessera_libraw_stream *tessera_libraw_open_buffer(void *data, void *bytes, size_t size, double seconds, int *status) {
    return open(data, new (std::nothrow) LibRaw_buffer_datastream(bytes, size), seconds, status);
}

void tessera_libraw_stream_free(tessera_libraw_stream *stream) { delete stream; }
