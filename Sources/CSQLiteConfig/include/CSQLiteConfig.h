// The one SQLite setting GRDB has no API for, behind a plain C function.
//
// sqlite3_db_config is variadic, which Swift cannot call. The header names
// no SQLite type, so it cannot clash with GRDB's own SQLite module.
#ifndef CSQLITECONFIG_H
#define CSQLITECONFIG_H

/// Stops `connection` (an sqlite3 *) from checkpointing the WAL when it closes
/// (SQLITE_DBCONFIG_NO_CKPT_ON_CLOSE). Returns SQLite's result code.
///
/// The checkpoint on close takes an exclusive lock on the database file, and a
/// reader that opens the file in that instant gets "database is locked" unless
/// it set a busy timeout. Tessera checkpoints explicitly instead, which never
/// takes that lock.
int CSQLiteConfig_disable_checkpoint_on_close(void *connection);

#endif
