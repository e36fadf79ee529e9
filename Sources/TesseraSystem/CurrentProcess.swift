import Glibc
public import SystemPackage

/// Facts about processes: this one's id, whether another is alive.
public enum CurrentProcess {
    public static var id: Int32 { getpid() }

    /// Whether a process with id `pid` exists (it may belong to another user).
    public static func isAlive(_ pid: Int32) -> Bool {
        kill(pid, 0) == 0 || errno == EPERM
    }

    /// Whether `descriptor` (0, 1 or 2 for the standard streams) is a terminal.
    public static func isTerminal(_ descriptor: Int32) -> Bool {
        isatty(descriptor) == 1
    }

    /// The width in columns of the terminal on `descriptor` now (TIOCGWINSZ), or nil when it is
    /// not a terminal or does not say.
    ///
    /// Asked again before each redraw, it follows resizes.
    public static func terminalColumns(_ descriptor: Int32) -> Int? {
        var size = winsize()
        guard ioctl(descriptor, UInt(TIOCGWINSZ), &size) == 0, size.ws_col > 0 else { return nil }
        return Int(size.ws_col)
    }

    /// Moves the calling thread to Linux's idle scheduling class (`SCHED_IDLE`), so that its work
    /// uses only CPU time no other thread wants.
    ///
    /// Best effort: a refusal leaves it as it was.
    public static func lowerThreadPriority() {
        var parameters = sched_param()
        parameters.sched_priority = 0
        _ = pthread_setschedparam(pthread_self(), schedIdle, &parameters)
    }

    /// Has every allocation of `bytes` or more mapped on its own and returned to the system when
    /// freed (glibc's `M_MMAP_THRESHOLD`, fixed).
    ///
    /// By default glibc raises that threshold to the largest block freed so far, up to 32 MiB:
    /// after one large collection, each later one stays in its thread's heap once freed, and
    /// the resident memory of a process that writes ever larger collections grows with the
    /// largest of them. Fixed, a process's peak follows what it holds at once. Best effort.
    public static func mapAllocations(from bytes: Int32) {
        _ = mallopt?(mmapThreshold, bytes)
    }

    /// The running executable's own path (`/proc/self/exe`), whatever it was started as.
    public static var executable: FilePath? { FileSystem.linkTarget(of: "/proc/self/exe") }

    /// `M_MMAP_THRESHOLD` from <malloc.h>.
    private static let mmapThreshold: Int32 = -3

    /// glibc's `mallopt`, which Swift's Glibc module does not export (it is in <malloc.h>).
    private static let mallopt: (@convention(c) (Int32, Int32) -> Int32)? = {
        // (RTLD_DEFAULT: the libraries already loaded, glibc among them)
        guard let symbol = dlsym(nil, "mallopt") else { return nil }
        return unsafeBitCast(symbol, to: (@convention(c) (Int32, Int32) -> Int32).self)
    }()

    /// `SCHED_IDLE` from <sched.h>, which the C module does not export.
    private static let schedIdle: Int32 = 5

    /// The standard error stream's descriptor.
    public static let standardError: Int32 = 2
    public static let standardOutput: Int32 = 1
}
