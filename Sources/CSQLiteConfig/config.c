#include "CSQLiteConfig.h"

#include <sqlite3.h>

int CSQLiteConfig_disable_checkpoint_on_close(void *connection) {
    return sqlite3_db_config((sqlite3 *)connection, SQLITE_DBCONFIG_NO_CKPT_ON_CLOSE, 1, (int *)0);
}
